"""The pure packages stay pure: the engine and the bots import nothing from the web stack."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = ("django", "channels", "daphne", "asgiref", "psycopg", "redis", "channels_redis")
PURE_PACKAGES = ("games/engine", "games/bots")
PURE_MODULES = ("games.engine", "games.bots")


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def python_files(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("package", PURE_PACKAGES)
def test_pure_package_exists(package: str) -> None:
    assert python_files(package), f"{package} has no Python files"


@pytest.mark.parametrize("package", PURE_PACKAGES)
def test_pure_package_imports_nothing_from_the_web_stack(package: str) -> None:
    offenders = []
    for path in python_files(package):
        for module in imported_modules(path):
            top = module.split(".")[0]
            site = module.startswith("games.") and not module.startswith(PURE_MODULES)
            if top in FORBIDDEN or site:
                offenders.append(f"{path.relative_to(ROOT)} imports {module}")
    assert offenders == []


def test_engine_does_not_import_the_bots() -> None:
    offenders = [
        f"{path.relative_to(ROOT)} imports {module}"
        for path in python_files("games/engine")
        for module in imported_modules(path)
        if module.startswith("games.bots")
    ]
    assert offenders == []


def test_accounts_build_on_nothing_of_the_site_but_the_rules_engine() -> None:
    """games builds on accounts; the ledger needs only the engine's bank split (it names
    games by foreign key, not by import)."""
    offenders = [
        f"{path.relative_to(ROOT)} imports {module}"
        for path in python_files("accounts")
        for module in imported_modules(path)
        if module.startswith("games") and not module.startswith("games.engine")
    ]
    assert offenders == []
