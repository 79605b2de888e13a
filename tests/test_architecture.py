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


def engine_submodules_imported(path: Path) -> set[str]:
    """``games.engine.<module>`` imported by ``path``, in either spelling of the import."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("games.engine."))
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.startswith("games.engine."):
                found.add(node.module)
            elif node.module == "games.engine":
                found.update(
                    f"games.engine.{a.name}"
                    for a in node.names
                    if (ROOT / "games" / "engine" / f"{a.name}.py").exists()
                )
    return found


def test_outside_the_engine_only_its_public_face_is_imported() -> None:
    """Everything but the engine and its own tests imports ``games.engine`` itself: its modules
    are the engine's business (spec/ENGINE.md names the public face)."""
    inside = (ROOT / "games" / "engine", ROOT / "tests" / "engine")
    offenders = [
        f"{path.relative_to(ROOT)} imports {module}"
        for top in ("games", "accounts", "ratings", "durak_site", "tests", "benchmarks")
        for path in python_files(top)
        if not path.is_relative_to(inside[0]) and not path.is_relative_to(inside[1])
        for module in engine_submodules_imported(path)
    ]
    assert offenders == []


def test_the_public_face_check_finds_a_submodule_import(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("from games.engine.cards import CARDS\nfrom games.engine import bank\n")
    assert engine_submodules_imported(sample) == {"games.engine.cards", "games.engine.bank"}
