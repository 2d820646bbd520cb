"""The source cites the project's own rule book: no "RULES.md", and every cited anchor exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CITATION = re.compile(r"docs/(?:[\w-]+/)*[\w.-]+\.md(?:#[\w-]+)?")
SELF = Path(__file__).resolve()


def anchors(page: Path) -> set[str]:
    """The anchors of a Markdown page: explicit ``<a id>`` and GitHub's heading slugs."""
    text = page.read_text("utf-8")
    found = set(re.findall(r'<a id="([\w-]+)"', text))
    for heading in re.findall(r"^#{1,6} (.+)$", text, re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        found.add(slug)
    return found


def sources(*folders: str) -> list[Path]:
    return [p for folder in folders for p in sorted((ROOT / folder).rglob("*"))
            if p.suffix in (".py", ".js", ".md", ".html", ".css") and p.resolve() != SELF]


def citations() -> list[tuple[Path, str]]:
    return [(p, c) for p in sources("src", "tests")
            for c in CITATION.findall(p.read_text("utf-8", errors="replace"))]


def test_nothing_cites_the_rule_book_outside_the_repository() -> None:
    citing = [str(p.relative_to(ROOT)) for p in sources("src", "tests", "docs")
              if "RULES.md" in p.read_text("utf-8", errors="replace")]
    assert not citing, f"cite docs/rules/PAGE.md#ANCHOR instead of RULES.md in: {citing}"


def test_the_source_cites_the_rule_book() -> None:
    cited = {c for _, c in citations() if c.startswith("docs/rules/")}
    assert len(cited) >= 10


@pytest.mark.parametrize(("source", "citation"), citations(),
                         ids=lambda v: str(v.relative_to(ROOT)) if isinstance(v, Path) else v)
def test_every_cited_page_and_anchor_exists(source: Path, citation: str) -> None:
    path, _, anchor = citation.partition("#")
    page = ROOT / path
    assert page.is_file(), f"{source.relative_to(ROOT)} cites {citation}: no such page"
    if anchor:
        assert anchor in anchors(page), \
            f"{source.relative_to(ROOT)} cites {citation}: the page has no anchor {anchor!r}"


@pytest.mark.parametrize("page", [*sorted((ROOT / "docs" / "rules").glob("*.md")),
                                  ROOT / "docs" / "rules.md", ROOT / "docs" / "architecture.md"],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_of_the_rule_book_resolves(page: Path) -> None:
    text = page.read_text("utf-8")
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if "://" in target:
            continue
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        assert linked.exists(), f"{page.name} links to {target}: no such file"
        if anchor:
            assert anchor in anchors(linked), f"{page.name} links to {target}: no such anchor"
