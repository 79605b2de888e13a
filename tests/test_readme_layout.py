"""The README's layout section names what is in the tree, and only that."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def layout() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return readme.split("## Layout\n", 1)[1].split("\n## ", 1)[0]


def named_paths() -> set[str]:
    return {path.rstrip("/") for path in re.findall(r"`((?:\.ci|[a-z_]+)/[\w./]*)`", layout())}


def test_every_path_the_layout_names_exists() -> None:
    assert sorted(path for path in named_paths() if not (ROOT / path).exists()) == []


def test_the_layout_names_every_app_and_every_module_of_the_wings_of_games() -> None:
    apps = {path.parent.name for path in ROOT.glob("*/apps.py")}
    modules = {
        str(path.relative_to(ROOT))
        for path in [*(ROOT / "games").glob("*.py"), *(ROOT / "games").glob("*/*.py")]
        if path.name != "__init__.py"
        and path.parent.name not in ("engine", "bots", "migrations", "templatetags")
    }
    named = named_paths()
    assert sorted(app for app in apps if app not in named) == []
    assert sorted(module for module in modules if module not in named) == []
