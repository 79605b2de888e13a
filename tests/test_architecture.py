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


WINGS = (
    (
        "ground",
        (
            "games/models.py",
            "games/clock.py",
            "games/errors.py",
            "games/gates.py",
            "games/site_events.py",
            "games/forms.py",
            "games/rows.py",
            "games/engine",
            "games/bots",
        ),
    ),
    ("table", ("games/table",)),
    ("picture", ("games/picture",)),
    ("live", ("games/live",)),
    ("deadlines", ("games/deadlines",)),
    ("records", ("games/records",)),
    (
        "face",
        (
            "games/views.py",
            "games/urls.py",
            "games/apps.py",
            "games/management",
            "games/templatetags",
        ),
    ),
)
"""The wings of games/, from the ground up: a module may import its own wing and those
below it, never one above (the writers know no picture, the pictures no socket, and so
on). `apps.py` wires the wings together at start-up."""


def wing_of(module: str) -> int | None:
    path = module.replace(".", "/")
    for floor, (_name, places) in enumerate(WINGS):
        for place in places:
            stem = place.removesuffix(".py")
            if path == stem or path.startswith(stem + "/"):
                return floor
    return None


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def runtime_imports(path: Path) -> set[str]:
    """What `path` imports when it runs: every import but those under `if TYPE_CHECKING:`,
    resolved to project modules (``from games.live import broadcast`` names
    ``games.live.broadcast``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    typing_only = {
        id(node)
        for branch in ast.walk(tree)
        if isinstance(branch, ast.If) and "TYPE_CHECKING" in ast.unparse(branch.test)
        for statement in branch.body
        for node in ast.walk(statement)
    }
    here = module_name(path).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1] + ([base] if base else []))
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                found.add(candidate if project_module(candidate) else base)
    return {name for name in found if project_module(name)}


def project_module(name: str) -> bool:
    path = ROOT / name.replace(".", "/")
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


PROJECT = ("accounts", "chat", "durak_site", "games", "ratings", "staff")


def project_files() -> list[Path]:
    return [path for top in PROJECT for path in python_files(top) if "migrations" not in path.parts]


def test_no_wing_of_games_imports_a_wing_above_it() -> None:
    offenders = []
    for path in python_files("games"):
        if "migrations" in path.parts or path == ROOT / "games" / "__init__.py":
            continue
        floor = wing_of(module_name(path))
        assert floor is not None, f"{path.relative_to(ROOT)} is in no wing"
        for module in runtime_imports(path):
            other = wing_of(module) if module.startswith("games") else None
            if other is not None and other > floor:
                offenders.append(
                    f"{path.relative_to(ROOT)} ({WINGS[floor][0]}) imports {module} "
                    f"({WINGS[other][0]})"
                )
    assert offenders == []


def test_games_imports_neither_the_chat_nor_the_staff() -> None:
    """They build on the games and register with it (`games.live.parts`, `games.gates`,
    `games.records.table_talk`)."""
    offenders = [
        f"{path.relative_to(ROOT)} imports {module}"
        for path in python_files("games")
        for module in imported_modules(path)
        if module.split(".")[0] in ("chat", "staff")
    ]
    assert offenders == []


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every cycle of a module graph, as the modules on it (Tarjan's strongly connected
    components of more than one module, or of one that imports itself)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1 or node in graph.get(node, ()):
                cycles.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return cycles


def test_no_module_of_the_project_imports_itself_round_a_cycle() -> None:
    graph = {module_name(path): runtime_imports(path) for path in project_files()}
    assert import_cycles(graph) == []


def test_the_cycle_check_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert import_cycles(graph) == [["a", "b", "c"]]


def test_the_pictures_know_of_the_writers_only_what_they_committed() -> None:
    """A picture derives what it shows from a writer's committed value and the models,
    never from a writer's own module."""
    offenders = [
        f"{path.relative_to(ROOT)} imports {module}"
        for path in python_files("games/picture")
        for module in runtime_imports(path)
        if module.startswith("games.table") and module != "games.table.committed"
    ]
    assert offenders == []
