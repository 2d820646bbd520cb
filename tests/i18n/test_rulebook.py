"""The rule book's generated text (``polignac.i18n.rulebook``), and docs/rules kept fresh."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from polignac.core import PRESETS, get_rules
from polignac.core.describe import msg, rules_text
from polignac.core.families import GAMES, SCORINGS
from polignac.core.rules import DECLARATIONS, MATCH_ENDS
from polignac.i18n import describe_rules
from polignac.i18n.rulebook import (
    REFRESH,
    WRITE_ME,
    book,
    interpretation_id,
    problems,
    refresh,
    region,
    rules_markdown,
    skeleton,
)

BOOK = Path(__file__).resolve().parents[2] / "docs" / "rules"
ANCHOR = re.compile(r'<a id="([\w-]+)"></a>')


def pages() -> dict[str, str]:
    return {p.name: p.read_text("utf-8") for p in sorted(BOOK.glob("*.md"))}


def test_the_book_in_docs_is_fresh() -> None:
    found = problems(pages())
    assert not found, ("docs/rules is out of date with the rules text:\n  "
                       + "\n  ".join(found)
                       + f"\nrefresh the generated regions with: {REFRESH}"
                       + f"\n(and write the prose of a new page where it says {WRITE_ME})")


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_has_its_page_with_prose_and_its_rules(preset: str) -> None:
    text = (BOOK / f"{preset}.md").read_text("utf-8")
    assert f"<!-- BEGIN GENERATED: rules {preset} -->" in text
    prose = re.sub(r"<!-- BEGIN GENERATED: (.*?) -->.*?<!-- END GENERATED: \1 -->", "",
                   text, flags=re.S)
    assert len(prose.split()) >= 40, "the page needs an introduction in our own words"


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_markdown_says_what_polignac_rules_says(preset: str) -> None:
    """Same words as the plain text, line by line, only the Markdown marks added."""
    rules = PRESETS[preset]
    plain = " ".join(describe_rules(rules).split())
    md = rules_markdown(rules)
    for line in md.splitlines():
        if line.startswith("- "):
            words = " ".join(ANCHOR.sub("", line[2:]).split())
            assert words in plain


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_interpretation_has_one_anchor(preset: str) -> None:
    md = rules_markdown(PRESETS[preset])
    marked = [line for line in md.splitlines() if "interpretation" in line.lower()
              and line.startswith("- ")]
    assert marked
    for line in marked:
        assert ANCHOR.match(line[2:]), line
    anchors = ANCHOR.findall(md)
    assert len(anchors) == len(set(anchors))
    text = rules_text(PRESETS[preset])
    ids = {interpretation_id(line) for s in text.sections for line in s.lines} - {None}
    assert ids <= set(anchors)


def test_interpretation_ids_come_from_the_catalog_keys() -> None:
    interp = msg("rules.interp")
    assert interpretation_id(msg("rules.decl.fail.interp", interp=interp)) == "decl-fail"
    assert interpretation_id(msg("rules.pollack.annWhen", interp=interp)) \
        == "pollack-ann-when"
    assert interpretation_id(msg("rules.interp.failed", word="capot")) == "interp-failed"
    assert interpretation_id(msg("rules.decl.fail", v=5)) is None
    assert interpretation_id("text") is None


def test_markdown_follows_house_rules_players_and_language() -> None:
    md = rules_markdown(get_rules("polignac", {"threshold": 10}), players=3, lang="fr")
    assert "Partie en 10" in " ".join(md.replace("\u00a0", " ").split())
    assert "Avec 4 joueurs" not in md
    assert md.startswith("## ") and "\n### " in md
    assert rules_markdown(PRESETS["knaves"], level=2).startswith("# ")


def test_refresh_rewrites_a_stale_region_and_keeps_the_prose() -> None:
    page = skeleton("knaves").replace(WRITE_ME, "Our own words. <!-- note:")
    stale = page.replace("Players: 3", "Players: 7")
    assert stale != page
    assert refresh(stale) == page
    assert "Our own words." in refresh(stale)


def test_problems_name_each_page() -> None:
    good = {f"{p}.md": skeleton(p).replace(WRITE_ME, "<!-- written:") for p in PRESETS}
    assert problems(good) == []
    bad = dict(good)
    del bad["knaves.md"]
    bad["pollack.md"] = bad["pollack.md"].replace("Players: 4", "Players: 5")
    bad["gone.md"] = skeleton("polignac").replace("head polignac", "head gone")
    bad["obern.md"] = skeleton("obern")
    found = "\n".join(problems(bad))
    assert "knaves.md: missing" in found
    assert "pollack.md: a generated region is stale" in found
    assert "obern.md: has prose still to write" in found
    assert "gone.md" in found
    assert set(book(bad)) >= set(good)


def test_unknown_regions_are_refused() -> None:
    with pytest.raises(KeyError, match="unknown generated region"):
        region("nonsense")
    with pytest.raises(KeyError, match="no preset"):
        region("rules no-such-preset")


def test_the_index_regions_name_every_preset_and_parameter() -> None:
    index = region("presets")
    for preset in PRESETS:
        assert f"]({preset}.md) `{preset}`" in index
    params = region("parameters")
    for name in PRESETS["polignac"].to_dict():
        if name != "preset":
            assert f"| `{name}` |" in params
    interps = region("interpretations")
    assert "`interp-pollack-claim`" in interps and "(pollack.md#interp-pollack-claim)" in interps


def test_uses_regions_list_each_value_with_its_presets() -> None:
    uses = region("uses match_end")
    assert "- `parties`: [pollack](pollack.md)" in uses
    for preset in PRESETS:
        assert f"]({preset}.md)" in uses
    with pytest.raises(KeyError, match="no rule parameter"):
        region("uses nonsense")


@pytest.mark.parametrize(("page", "parameter", "values"), [
    ("common.md", "scoring", SCORINGS), ("common.md", "declaration", DECLARATIONS),
    ("common.md", "match_end", MATCH_ENDS), ("README.md", "game", GAMES)])
def test_the_book_explains_every_value(page: str, parameter: str,
                                       values: tuple[str, ...]) -> None:
    """A new game, way to score, contract or match end needs its words in the book."""
    text = (BOOK / page).read_text("utf-8")
    prose = re.sub(r"<!-- BEGIN GENERATED: (.*?) -->.*?<!-- END GENERATED: \1 -->", "",
                   text, flags=re.S)
    missing = [v for v in values if f"`{v}`" not in prose and f"**{v}**" not in prose]
    assert not missing, f"docs/rules/{page} does not explain {parameter} {missing}"
