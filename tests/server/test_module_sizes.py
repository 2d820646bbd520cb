"""The server stays a set of collaborators (docs/architecture.md): no module of
``server/`` (in any room) over 500 lines, and ``GameTable`` (the lock, the event log and the
commit; its jobs delegated) under 300."""

from __future__ import annotations

import ast
from pathlib import Path

SERVER = Path(__file__).resolve().parents[2] / "src" / "polignac" / "server"
MAX_MODULE = 500
MAX_GAME_TABLE = 300


def test_no_server_module_is_over_500_lines() -> None:
    sizes = {str(path.relative_to(SERVER)): len(path.read_text().splitlines())
             for path in SERVER.rglob("*.py")}
    assert len(sizes) > 20  # the folder was found
    assert {name: n for name, n in sizes.items() if n > MAX_MODULE} == {}


def test_game_table_is_under_300_lines() -> None:
    tree = ast.parse((SERVER / "tables" / "tables.py").read_text())
    classes = {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}
    table = classes["GameTable"]
    assert table.end_lineno is not None
    assert table.end_lineno - table.lineno + 1 < MAX_GAME_TABLE
