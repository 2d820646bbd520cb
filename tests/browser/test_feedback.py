"""static/feedback.js in a real browser: the turn in the tab title, the tone and its
remembered toggle, unplayable cards marked aria-disabled, seat names, the prompt's keys,
and the hand that stays readable when there is no card to choose (style.css).

The module is loaded on the lobby page (it has i18n.js and style.css); table.js calls
the same functions once the lead hooks them (docs/server.md, "Feedback and access").
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.browser.support import open_page, open_table, page_pause, wait_until

pytest.importorskip("playwright.sync_api")

LOAD = 'async () => { window.fb = await import("/static/feedback.js"); return true; }'


def _open(browser: Any, server: str, lang: str = "en") -> Any:
    page = browser.new_page(viewport={"width": 1200, "height": 860})
    page.goto(f"{server}/?lang={lang}")
    page.wait_for_selector("#seats select", state="attached")
    page.evaluate(LOAD)
    return page


def test_title_tone_and_toggle(chromium: Any, server: str) -> None:
    page = _open(chromium, server)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    # Count the tones: every oscillator the module starts.
    page.evaluate("""() => {
      window.tones = 0;
      const make = AudioContext.prototype.createOscillator;
      AudioContext.prototype.createOscillator = function () {
        window.tones++;
        return make.call(this);
      };
    }""")
    assert page.evaluate("() => fb.setTurnTitle(true, 'Polignac · Deal 2')") \
        == "▶ Your turn · Polignac · Deal 2"
    assert page.title() == "▶ Your turn · Polignac · Deal 2"
    assert page.evaluate("() => fb.setTurnTitle(false, 'Polignac · Deal 2')") \
        == "Polignac · Deal 2"
    # The turn starts once per turn; the tone is off by default.
    starts = page.evaluate("""() => [true, true, false, true, false]
      .map((turn) => fb.turnFeedback(turn, 'Polignac'))""")
    assert starts == [True, False, False, True, False]
    assert page.evaluate("() => fb.soundOn()") is False
    assert page.evaluate("() => fb.turnSound()") is False
    assert page.evaluate("() => window.tones") == 0
    # The toggle: a pressed button, remembered over a reload.
    page.evaluate("() => { fb.soundToggle(document.querySelector('.bar')); }")
    toggle = page.locator(".bar #sound-toggle")
    assert toggle.get_attribute("aria-pressed") == "false"
    assert page.locator(".bar #sound-toggle + #lang").count() == 1  # before the picker
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true"
    assert page.evaluate("() => window.tones") == 1  # a sample when turned on
    assert page.evaluate("() => fb.turnFeedback(true, 'P')") is True
    assert page.evaluate("() => window.tones") == 2
    page.reload()
    page.wait_for_selector("#seats select", state="attached")
    page.evaluate(LOAD)
    page.evaluate("() => { fb.soundToggle(document.querySelector('.bar')); }")
    assert page.locator("#sound-toggle").get_attribute("aria-pressed") == "true"
    assert page.evaluate("() => fb.soundOn()") is True
    page.locator("#sound-toggle").click()
    assert page.evaluate("() => localStorage.getItem('polignac-sound')") == "off"
    assert page.evaluate("() => fb.turnSound()") is False
    assert not errors, errors


HAND = """() => {
  const hand = document.createElement("div");
  hand.id = "hand"; hand.className = "hand";
  for (const code of ["QS", "JH", "7C"]) {
    const b = document.createElement("button");
    b.className = "card dimmed"; b.dataset.card = code; b.textContent = code;
    hand.append(b);
  }
  document.querySelector("main").append(hand);
}"""


def test_hand_marks_and_readability(chromium: Any, server: str) -> None:
    page = _open(chromium, server)
    page.evaluate(HAND)
    cards = "[...document.querySelectorAll('#hand .card')]"
    disabled = f"() => {cards}.map((b) => b.getAttribute('aria-disabled'))"
    opacity = f"() => {cards}.map((b) => getComputedStyle(b).opacity)"
    hand = "document.getElementById('hand')"
    # No card to play (a declaration to make): all unplayable, all readable.
    assert page.evaluate(f"() => fb.markHand({hand}, ['pass', 'capot'])") == 3
    assert page.evaluate(disabled) == ["true", "true", "true"]
    assert page.evaluate(opacity) == ["1", "1", "1"]
    # A card to play: the others are disabled and dimmed, the legal one is not.
    page.evaluate("""() => { const q = document.querySelector('[data-card=QS]');
      q.classList.replace('dimmed', 'legal'); }""")
    assert page.evaluate(f"() => fb.markHand({hand}, ['QS'])") == 2
    assert page.evaluate(disabled) == [None, "true", "true"]
    dim = page.evaluate(opacity)
    assert dim[0] == "1" and float(dim[1]) < 1 and dim[1] == dim[2]
    # The accessibility tree says so too.
    snap = page.locator("#hand").aria_snapshot()
    assert '- button "JH" [disabled]' in snap and '- button "QS"' in snap, snap
    assert '- button "QS" [disabled]' not in snap, snap


def test_seat_labels_in_two_languages(chromium: Any, server: str) -> None:
    browser = chromium
    page = _open(browser, server)
    label = page.evaluate("""() => fb.seatLabel({ name: "Alice", level: "hard",
      dealer: true, cards: 7, turn: true })""")
    assert label == "Alice, bot hard, dealer, 7 cards left, to play"
    assert page.evaluate("() => fb.seatLabel({ name: 'You', cards: 1 })") \
        == "You, 1 card left"
    assert page.evaluate("() => fb.seatLabel({ name: 'Bob', away: true })") \
        == "Bob, disconnected"
    # labelSeat gives the box a role and that name.
    page.evaluate("""() => { const box = document.createElement("div"); box.id = "seatbox";
      document.querySelector("main").append(box);
      fb.labelSeat(box, { name: "Carol", cards: 3, turn: true }); }""")
    box = page.locator("#seatbox")
    assert box.get_attribute("role") == "group"
    assert page.get_by_role("group", name="Carol, 3 cards left, to play").count() == 1
    page.close()
    page = _open(browser, server, "fr")
    label = page.evaluate("() => fb.seatLabel({ name: 'Alice', cards: 7, turn: true })")
    assert label.startswith("Alice, 7 cartes") and "bot" not in label, label
    assert page.evaluate("() => fb.setTurnTitle(true, 'Polignac')") \
        == "▶ À vous · Polignac"


PROMPT = """() => {
  const box = document.createElement("div"); box.id = "prompt";
  const hint = document.createElement("p"); hint.id = "hint"; hint.textContent = "Arrow keys.";
  window.clicked = [];
  const calls = [["capot", "Declare capot"], ["pass", "Pass"],
    ["announce:three-aces", "Announce three Aces"], ["announce:four-tens", "Announce four Tens"]];
  for (const [action, text] of calls) {
    const b = document.createElement("button");
    b.dataset.action = action; b.textContent = text; b.className = "call";
    b.addEventListener("click", () => window.clicked.push(action));
    box.append(b);
  }
  const field = document.createElement("input");
  field.id = "field"; field.setAttribute("aria-label", "x");
  document.querySelector("main").append(box, hint, field);
}"""


def test_prompt_keys(chromium: Any, server: str) -> None:
    page = _open(chromium, server)
    page.evaluate(PROMPT)
    keys = page.evaluate("""() => [...fb.bindPromptKeys(document.getElementById('prompt'),
      document.getElementById('hint')).keys()]""")
    assert keys == ["D", "P", "1", "2"]
    shortcuts = page.locator("#prompt button").evaluate_all(
        "els => els.map((b) => b.getAttribute('aria-keyshortcuts'))")
    assert shortcuts == ["D", "P", "1", "2"]
    hint = page.locator("#hint").inner_text()
    assert hint.startswith("Arrow keys.") and "D: Declare capot" in hint \
        and "P: Pass" in hint and "2: Announce four Tens" in hint, hint
    page.locator("body").click(position={"x": 5, "y": 300})
    page.keyboard.press("d")
    page.keyboard.press("2")
    page.keyboard.press("Control+p")  # not a shortcut with a modifier
    assert page.evaluate("() => window.clicked") == ["capot", "announce:four-tens"]
    page.focus("#field")  # typing in a field is typing
    page.keyboard.press("p")
    assert page.evaluate("() => window.clicked") == ["capot", "announce:four-tens"]
    # A new prompt (the table draws it again): the keys follow, twice bound is once.
    page.evaluate("""() => { const box = document.getElementById('prompt');
      box.replaceChildren(...[...box.children].filter((b) => b.dataset.action === 'pass'));
      fb.bindPromptKeys(box, document.getElementById('hint')); }""")
    page.locator("body").click(position={"x": 5, "y": 300})
    page.keyboard.press("p")
    page.keyboard.press("d")
    assert page.evaluate("() => window.clicked") == ["capot", "announce:four-tens", "pass"]
    assert "D:" not in page.locator("#hint").inner_text()
    # No prompt: the hint line is the table's own again.
    page.evaluate("""() => { const box = document.getElementById('prompt');
      box.replaceChildren();
      fb.bindPromptKeys(box, document.getElementById('hint')); }""")
    assert page.locator("#hint").inner_text() == "Arrow keys."


TABLE_JS = Path(__file__).resolve().parents[2] / "src/polignac/server/static/table.js"


@pytest.mark.parametrize(("lang", "width", "height"), [("en", 1280, 800), ("de", 390, 844)])
def test_the_table_page_gives_feedback(chromium: Any,
                                       server: str, shots: Path, lang: str, width: int,
                                       height: int) -> None:
    """Through the table page, once table.js calls feedback.js (the merge's hooks)."""
    if "./feedback.js" not in TABLE_JS.read_text():
        pytest.skip("table.js does not call feedback.js yet (docs/server.md: the hooks)")
    turn = {"en": "▶ Your turn", "de": "▶ Du bist dran"}[lang]
    page, errors = open_page(chromium, width, height)
    open_table(page, server, "polignac", query=f"?lang={lang}")
    assert page.locator(".bar #sound-toggle[aria-pressed=false]").count() == 1
    seats = page.locator(".seat[role=group]")
    assert seats.count() == 4
    labels = seats.evaluate_all("els => els.map((e) => e.getAttribute('aria-label'))")
    left = {"en": "cards left", "de": "Karten"}[lang]
    assert all(left in (x or "") for x in labels), labels
    # The capot prompt: keys on its buttons and in the hint line, every card
    # unplayable for assistive technology and fully readable, the turn in the title.

    def prompted() -> bool:
        if page.locator("#prompt .call").count():
            return True
        assert not page.locator("#hand .card.legal").count(), "a card before the prompt"
        return False

    wait_until(prompted, 30, what="the capot prompt", pause=page_pause(page))
    wait_until(lambda: page.title().startswith(turn))
    assert page.locator("#prompt .call[data-action=pass]").get_attribute(
        "aria-keyshortcuts") == "P"
    assert "P: " in page.locator("#hint").inner_text()
    cards = page.locator("#hand .card")
    # (waited for: the dealt cards may still be fading in when the prompt appears)
    wait_until(lambda: cards.evaluate_all("els => els.every((b) => b.getAttribute("
                                          "'aria-disabled') === 'true'"
                                          " && getComputedStyle(b).opacity === '1')"))
    me = page.locator("#me .seat").get_attribute("aria-label") or ""
    assert page.locator("#me .seat.to-act").count() == 1 and me.endswith(
        {"en": "to play", "de": "am Zug"}[lang]), me
    page.screenshot(path=shots / f"feedback-prompt-{lang}-{width}.png")
    page.locator("#status").click()  # focus the page (the hint line is hidden on a phone)
    page.keyboard.press("p")  # pass, by its key
    wait_until(lambda: not page.locator("#prompt .call").count())
    # A card to play: only the legal ones are enabled.
    wait_until(lambda: page.locator("#hand .card.legal").count(), 30, what="a card to play",
               pause=page_pause(page))
    wait_until(lambda: page.title().startswith(turn))
    marks = cards.evaluate_all("els => els.map((b) => [b.classList.contains('legal'),"
                               " b.getAttribute('aria-disabled')])")
    assert all((aria is None) == legal for legal, aria in marks), marks
    page.screenshot(path=shots / f"feedback-play-{lang}-{width}.png")
    page.locator("#hand .card.legal").first.click()
    wait_until(lambda: not page.title().startswith("▶")
               or page.locator("#hand .card.legal").count() > 0)
    assert not errors, errors
