"""The layers of the code: each package imports only the packages below it.

``core`` (pure, standard library only) <- ``i18n`` and ``bots`` <- ``server``,
``research`` <- ``cli`` (the command line, which starts the others). Every
``import`` statement of ``src/polignac`` is read, function-level ones too.
See docs/architecture.md#layers.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "polignac"

ALLOWED: dict[str, set[str]] = {
    "core": set(),
    "i18n": {"core"},
    "bots": {"core"},
    "research": {"core", "bots"},
    "server": {"core", "bots", "i18n"},
    "cli": {"core", "bots", "i18n", "server", "research"},
}
"""What each package may import from the others (``__main__`` runs the cli)."""


def imports(path: Path, text: str | None = None) -> list[tuple[int, str]]:
    """(line, absolute module) of every import in ``path`` (or in ``text``, read as that file)."""
    package = ["polignac", *path.relative_to(SRC).with_suffix("").parts]
    if path.name == "__init__.py":
        package.append("__init__")
    out = []
    source = path.read_text("utf-8") if text is None else text
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:-node.level]
                module = ".".join(base + ([node.module] if node.module else []))
                if not node.module:  # from .. import i18n: the names are modules
                    out += [(node.lineno, f"{module}.{a.name}") for a in node.names]
                    continue
            else:
                module = node.module or ""
            out.append((node.lineno, module))
    return out


def modules(package: str) -> list[Path]:
    return sorted((SRC / package).rglob("*.py"))


def violations(package: str, path: Path, text: str | None = None) -> list[str]:
    """The imports of ``path`` (in ``package``) that reach a package it may not use."""
    wrong = []
    for line, module in imports(path, text):
        parts = module.split(".")
        if parts[0] != "polignac" or len(parts) < 2 or parts[1] == package:
            continue
        if parts[1] not in ALLOWED[package]:
            wrong.append(f"{path.relative_to(SRC)}:{line} imports {module}")
    return sorted(wrong)


@pytest.mark.parametrize("package", list(ALLOWED))
def test_each_package_imports_only_the_layers_below(package: str) -> None:
    assert modules(package)
    wrong = [v for path in modules(package) for v in violations(package, path)]
    assert not wrong, f"{package} may import only {sorted(ALLOWED[package])}: {wrong}"


def test_the_core_needs_only_the_standard_library() -> None:
    outside = [f"{path.relative_to(SRC)}:{line} imports {module}"
               for path in modules("core") for line, module in imports(path)
               if module.split(".")[0] not in sys.stdlib_module_names | {"polignac"}]
    assert not outside


def test_every_package_has_its_layer() -> None:
    packages = {p.name for p in SRC.iterdir() if (p / "__init__.py").exists()}
    assert packages == set(ALLOWED)


def test_an_upward_import_is_seen_in_every_form() -> None:
    text = ("from . import cards\nfrom .deal import Deal\nimport json\n"
            "def f():\n    from ..bots import simple\n"
            "from .. import server\nimport polignac.i18n\n")
    found = violations("core", SRC / "core" / "fake.py", text)
    assert found == ["core/fake.py:5 imports polignac.bots",
                     "core/fake.py:6 imports polignac.server",
                     "core/fake.py:7 imports polignac.i18n"]
    assert violations("bots", SRC / "bots" / "fake.py", "from ..core import Rules") == []


# ------------------------------------------------------- the core's import graph

def core_imports(path: Path, text: str | None = None) -> tuple[set[str], set[str]]:
    """The core modules ``path`` (or ``text``, read as that file) imports when imported
    (its module level and class bodies, not ``if TYPE_CHECKING:``), and those it
    imports inside functions."""
    now: set[str] = set()
    late: set[str] = set()

    def visit(nodes: list[ast.stmt], in_function: bool) -> None:
        for node in nodes:
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                names = [node.module] if node.module else [a.name for a in node.names]
                (late if in_function else now).update(n.split(".")[0] for n in names)
            elif isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                visit(node.orelse, in_function)  # the body runs only for the type checker
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(node.body, True)
            else:
                for name in ("body", "orelse", "finalbody", "handlers"):
                    visit(getattr(node, name, []), in_function)

    visit(ast.parse(path.read_text("utf-8") if text is None else text).body, False)
    return now - {path.stem}, late - now - {path.stem}


def cycle(graph: dict[str, set[str]]) -> list[str]:
    """One cycle of ``graph`` (module -> the modules it imports), or [] when none."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return []

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return []


def test_the_core_has_no_import_circle() -> None:
    """The modules of ``polignac.core`` form layers: importing one never comes back to
    itself (no circle), counting the imports inside functions too: none goes back up
    the graph (the families' list installs itself in core/registry.py, which the
    shared core reads)."""
    graph: dict[str, set[str]] = {}
    for path in modules("core"):
        now, late = core_imports(path)
        graph[path.stem] = now | late
    assert cycle(graph) == [], f"an import circle in polignac.core: {' -> '.join(cycle(graph))}"


def test_no_core_module_imports_the_families_list_but_those_above_it() -> None:
    """The shared core asks the registry, never core/families.py: only the presets,
    the score pad and the package's face (above the list) import it."""
    users = sorted(path.stem for path in modules("core")
                   if "families" in set().union(*core_imports(path)))
    assert users == ["__init__", "presets", "scorepad"]


def test_a_late_import_that_goes_back_up_is_a_circle() -> None:
    text = "def f() -> None:\n    from .families import FAMILIES\n"
    now, late = core_imports(SRC / "core" / "rules.py", text)
    graph = {"rules": now | late, "families": {"rules"}}
    assert cycle(graph) == ["families", "rules", "families"]


def test_the_import_circle_check_finds_one() -> None:
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set()}) == []
    text = ("from __future__ import annotations\nfrom typing import TYPE_CHECKING\n"
            "from .cards import Card\nif TYPE_CHECKING:\n    from .deal import Deal\n"
            "def f() -> None:\n    from .rules import Rules\n")
    now, late = core_imports(SRC / "core" / "probe.py", text)
    assert now == {"cards"} and late == {"rules"}
