"""A rules page for players: the game in 30 seconds with an example trick drawn with the
table's own card pictures, tips, and the notes folded at the end; in German at 390x844
and 1280x800. The German desktop page goes to docs/screenshots/rules-de.png; the page's
plural rules (``Intl.PluralRules``) are the server's (Babel's CLDR rules)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.browser.support import open_page

from polignac import i18n
from polignac.core import get_rules
from polignac.core.describe import card, rules_text

pytest.importorskip("playwright.sync_api")

DOCS = Path(__file__).parent.parent.parent / "docs" / "screenshots"
BOXES = """() => [...document.querySelectorAll('.example-trick figure')].map((f) => {
  const svg = f.querySelector('svg.card-svg');
  const r = (svg ?? f).getBoundingClientRect();
  return { card: svg?.dataset.card ?? null, label: svg?.getAttribute('aria-label') ?? '',
           corner: svg?.querySelector('text.corner')?.textContent ?? '',
           winner: f.classList.contains('winner'),
           caption: f.querySelector('figcaption')?.innerText.trim() ?? '',
           x: r.x, y: r.y, w: r.width, h: r.height };
})"""


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 800)])
def test_pollack_rules_in_german(chromium: Any, server: str, tmp_path: Path, width: int,
                                 height: int) -> None:
    page, errors = open_page(chromium, width, height)
    page.goto(f"{server}/rules/pollack?lang=de")
    page.wait_for_selector("body[data-ready='1']")
    text = rules_text(get_rules("pollack"))
    # The first section is the game in 30 seconds, with the example trick drawn as cards.
    first = page.locator("main .rules-section").first
    assert first.locator("h2").inner_text() == "Das Spiel in 30 Sekunden"
    cards = page.evaluate(BOXES)
    assert [c["card"] for c in cards] == list(text.example.cards)
    assert [c["caption"] for c in cards] == ["Platz 1", "Platz 2", "Platz 3", "Platz 4"]
    assert [c["winner"] for c in cards].index(True) == text.example.winner
    for c in cards:  # German names and corners: Karo-Zehn, "10"; the Ace is "A", the Queen "D"
        assert c["w"] > 30 and c["h"] > 40 and c["x"] >= 0 and c["x"] + c["w"] <= width
        assert c["label"] == i18n.render(card(c["card"], False), "de")
        assert c["corner"] == i18n.rank_index(c["card"][0], False, "de")
    assert len({(round(c["x"]), round(c["y"])) for c in cards}) == 4  # side by side, apart
    # Tips, then the rules; seats as the table numbers them, card names in German.
    body = page.inner_text("main")
    assert "Tipps" in body and "die Plätze 1 und 3 spielen gegen die Plätze 2 und 4" in body
    assert "Rangfolge in jeder Farbe, die höchste zuerst: Zehn, Neun, Ass, König" in body
    for word in ("preset", "Variante „", "Plätze 0", "OpenSpiel"):
        assert word not in body.split("Anmerkungen")[0], word
    # The notes: folded at the end, opened by a click (or by an "(Auslegung)" link).
    notes = page.locator("details#notes")
    assert notes.count() == 1 and notes.get_attribute("open") is None
    assert page.evaluate("() => document.querySelector('main').lastElementChild.id") == "notes"
    assert not page.locator("details#notes li").first.is_visible()
    page.locator("a.interp").first.click()
    page.wait_for_function("() => location.hash === '#notes'")
    notes.locator("summary").click()
    page.wait_for_function("() => document.querySelector('details#notes').open")
    assert page.locator("details#notes li").first.is_visible()
    notes.locator("summary").click()  # folded again for the screenshot
    page.wait_for_function("() => !document.querySelector('details#notes').open")
    # The page scrolls only down.
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width + 10
    page.evaluate("() => window.scrollTo(0, 0)")
    shot = DOCS / "rules-de.png" if width == 1280 else tmp_path / "rules-de-390.png"
    shot.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=shot, full_page=True)
    assert not errors, errors


def test_the_pages_plural_rules_are_the_servers(chromium: Any, server: str) -> None:
    page, errors = open_page(chromium)
    page.goto(f"{server}/rules/polignac?lang=fr")
    page.wait_for_selector("body[data-ready='1']")
    counts = [0, 1, 2, 5, 0.1, 1.5]
    for lang in i18n.LANGS:
        forms = page.evaluate(
            "([lang, counts]) => counts.map((n) => new Intl.PluralRules(lang).select(n))",
            [lang, counts])
        assert forms == [i18n.plural(lang, n) for n in counts], lang
    # and the page's t() chooses the catalog's forms as the server does ("0.1 point")
    texts = page.evaluate("""async () => {
      const { t } = await import('/static/i18n.js');
      return [0, 1, 2, 5, 0.1, '1'].map((n) => t('rules.pts', { n }));
    }""")
    assert texts == [i18n.t("fr", "rules.pts", n=n) for n in (0, 1, 2, 5, 0.1, "1")]
    assert texts[4] == "0.1 point"
    assert not errors, errors


def test_one_label_for_every_action(chromium: Any, server: str) -> None:
    """static/labels.js: the words of an action, as the table, replay and analysis show it."""
    page, errors = open_page(chromium)
    page.goto(f"{server}/rules/pollack?lang=de")
    page.wait_for_selector("body[data-ready='1']")
    out = page.evaluate("""async () => {
      const { actionLabel, callLabel, tookTrick } = await import('/static/labels.js');
      return [callLabel('announce:three-tens'), callLabel('announce:pollack-S'),
              actionLabel('pass'), actionLabel('TD'), actionLabel('no-such-call'),
              tookTrick('Schwerer Bot 2', false), tookTrick('Du', true)];
    }""")
    announce = i18n.t("de", "call.announce", what=i18n.t("de", "announce.three-tens"))
    assert out == [announce, i18n.t("de", "call.announce", what="Pollack Pik"),
                   i18n.t("de", "call.pass"), "Karo-Zehn", "no-such-call",
                   "Schwerer Bot 2 nimmt den Stich.", "Du nimmst den Stich."]
    assert "announce:" not in " ".join(out)
    assert not errors, errors
