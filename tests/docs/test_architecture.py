"""docs/architecture.md names real code: every `FILE:NAME` and every path it writes exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "polignac"
DOC = ROOT / "docs" / "architecture.md"
REFERENCE = re.compile(r"`((?:[\w-]+/)*[\w-]+\.(?:py|js)):([\w.]+)`")
PATH = re.compile(r"`((?:tests|server|core|bots|i18n|research|cli)/[\w./{},-]*)`")


def defines(text: str, name: str, indent: str) -> int | None:
    """Where ``name`` is defined at ``indent`` in ``text`` (Python or JavaScript), else None."""
    pattern = (rf"^{indent}(?:async def|def|class|function|async function|export function|"
               rf"export async function|const|let|export const) {name}\b|^{indent}{name}\b[:\s=]")
    m = re.search(pattern, text, re.M)
    return None if m is None else m.start()


def resolve(path: str) -> Path:
    return ROOT / path if path.startswith("tests/") else SRC / path


def references() -> list[tuple[str, str]]:
    return REFERENCE.findall(DOC.read_text("utf-8"))


def test_the_page_names_code() -> None:
    assert len(references()) >= 50


@pytest.mark.parametrize(("path", "name"), references(), ids=lambda v: v)
def test_every_named_function_exists(path: str, name: str) -> None:
    file = resolve(path)
    assert file.is_file(), f"docs/architecture.md names {path}, which does not exist"
    text = file.read_text("utf-8")
    outer, _, inner = name.partition(".")
    start = defines(text, outer, "")
    assert start is not None, f"docs/architecture.md: {path} defines no {outer}"
    if inner:  # a method or attribute: indented, after its class
        assert defines(text[start:], inner, r"\s+") is not None, \
            f"docs/architecture.md: {outer} in {path} has no {inner}"


def test_every_path_exists() -> None:
    text = DOC.read_text("utf-8")
    missing = []
    for path in set(PATH.findall(text)):
        if any(c in path for c in "{}") or "NAME" in path:
            continue  # a pattern: server/static/NAME.js, catalog/{en,fr,de}.json
        if not resolve(path.rstrip("/")).exists():
            missing.append(path)
    assert not missing, f"docs/architecture.md names paths that do not exist: {missing}"


def test_a_wrong_name_is_caught() -> None:
    text = (SRC / "server" / "tables" / "tables.py").read_text("utf-8")
    assert defines(text, "GameTable", "") is not None
    assert defines(text, "replay_events", "") is not None
    assert defines(text, "NoSuchThing", "") is None
    start = defines(text, "GameTable", "")
    assert start is not None and defines(text[start:], "act", r"\s+") is not None
    assert defines(text[start:], "no_such_method", r"\s+") is None
