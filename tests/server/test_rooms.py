"""The server's rooms: each sub-package imports only the rooms below it, and no module of
``src/polignac`` takes part in an import circle.

Every ``import`` is read, at any depth (inside functions too). An import under
``if TYPE_CHECKING:`` never runs: it may name a module of its own room or of a room
below (a collaborator naming its owner's class), never a room above; it does not count
for circles. See docs/architecture.md#the-servers-rooms.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "polignac"
SERVER = SRC / "server"

ROOMS = ["base", "store", "jobs", "players", "tables", "cluster", "lobby", "events",
         "web"]
"""The server's rooms from the bottom up: a room imports only the rooms before it."""


def _type_checking_lines(tree: ast.AST) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                for sub in ast.walk(inner):
                    if hasattr(sub, "lineno"):
                        lines.add(sub.lineno)
    return lines


def module_name(path: Path) -> str:
    parts = ["polignac", *path.relative_to(SRC).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> list[tuple[int, str, bool]]:
    """(line, absolute module, only for type checking) of every import in ``path``.

    ``from X import name`` gives ``X.name`` when that is a module of ``src``, else ``X``.
    """
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    tree = ast.parse(path.read_text("utf-8"))
    typing_only = _type_checking_lines(tree)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name, node.lineno in typing_only) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            for alias in node.names:
                sub = f"{module}.{alias.name}"
                name = sub if sub in ALL else module
                out.append((node.lineno, name, node.lineno in typing_only))
    return out


ALL = {module_name(p): p for p in SRC.rglob("*.py")}


def room_of(module: str) -> str | None:
    parts = module.split(".")
    if parts[:2] != ["polignac", "server"] or len(parts) < 3:
        return None
    return parts[2] if parts[2] in ROOMS else None


def test_every_server_module_lives_in_a_room() -> None:
    loose = [p.name for p in SERVER.glob("*.py") if p.name != "__init__.py"]
    assert not loose, f"modules outside the rooms: {loose}"
    rooms = sorted(p.name for p in SERVER.iterdir()
                   if p.is_dir() and (p / "__init__.py").exists())
    assert rooms == sorted(ROOMS)
    for room in ROOMS:
        doc = ast.get_docstring(ast.parse((SERVER / room / "__init__.py").read_text()))
        assert doc and "import" in doc.lower(), f"{room}/__init__.py must say what it may import"


@pytest.mark.parametrize("room", ROOMS)
def test_each_room_imports_only_the_rooms_below(room: str) -> None:
    below = set(ROOMS[:ROOMS.index(room)])
    wrong = []
    for path in sorted((SERVER / room).rglob("*.py")):
        for line, module, typing_only in imports(path):
            other = room_of(module)
            if other is None or other == room or other in below:
                continue
            kind = "type-checking import" if typing_only else "import"
            wrong.append(f"{path.relative_to(SRC)}:{line} {kind} of {module}")
    assert not wrong, f"{room} may import only {sorted(below)}: {wrong}"


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for name, path in ALL.items():
        deps = set()
        for _, module, typing_only in imports(path):
            if typing_only:
                continue
            while module and module not in ALL:  # a name inside a module
                module = module.rpartition(".")[0]
            if module and module != name and not name.startswith(module + "."):
                deps.add(module)
        graph[name] = deps
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_circle_anywhere_in_src() -> None:
    """No circle (imports at any depth, function-level ones too)."""
    graph = _graph()
    found = circles(graph)
    assert not found, f"import circles (imports at any depth): {found}"


def test_the_circle_finder_finds_a_circle() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_a_package_face_does_not_count_as_a_circle_of_its_own_modules() -> None:
    graph = _graph()
    assert "polignac.server.web.app" in graph["polignac.server"]
