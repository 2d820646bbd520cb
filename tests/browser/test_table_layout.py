"""The table page for any player count on any screen, and tricks that can be followed.

Every preset at its largest player count, on a phone (390x844) and a desktop
(1280x800): the page does not scroll sideways, the seats sit around the felt in
table order (clockwise from you) and stay there, and every player is in the score
sheet and in the chart's legend.  A trick's cards lie in front of the seats that
played them; a finished trick is held while the next event waits (a long hold), and
is not held with reduced motion or with the animations toggle off.

Screenshots go to ``$POLIGNAC_SCREENSHOTS`` (default: the test's tmp folder).
"""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.browser.support import live_server, wait_until

pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")

from polignac.core.presets import PRESETS  # noqa: E402
from polignac.server import ServerConfig  # noqa: E402

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
STEP = """() => {
  const pass = document.querySelector('#prompt .call[data-action=pass]');
  if (pass) { pass.click(); return 'pass'; }
  const send = document.querySelector('#prompt .pass-cards');
  if (send && !send.disabled) { send.click(); return 'pass-cards'; }
  const card = document.querySelector(send ? '#hand .card.legal:not(.picked)'
                                           : '#hand .card.legal');
  if (card) { card.click(); return card.dataset.card; }
  return '';
}"""
"""Pass, or play the first legal card (in the Hearts family pick cards to pass, then
press Pass): as a person would, through the page."""
SEATS = """() => [...document.querySelectorAll('#ring .seat')].map((node) => {
  const r = node.getBoundingClientRect();
  return {seat: Number(node.dataset.seat), x: r.left + r.width / 2, y: r.top + r.height / 2,
          name: node.querySelector('.seat-label').title};
})"""
PLAYED = """() => [...document.querySelectorAll('#trick .played:not(.turnup)')].map((node) => {
  const r = node.getBoundingClientRect();
  return {seat: Number(node.dataset.seat), x: r.left + r.width / 2, y: r.top + r.height / 2};
})"""


@pytest.fixture
def fast_server(tmp_path: Path) -> Iterator[str]:
    """A live server whose bots act at once and whose first deal does not wait for cuts."""
    config = ServerConfig(data_dir=tmp_path / "data", bot_delay=0.0, trick_pause=0.0,
                          deal_delay=0.3, cut_window=0.0, create_burst=100)
    with live_server(config) as url:
        yield url


def _table(page: Any, server: str, preset: str, players: int) -> None:
    """Create a table of you and bots through the API and open it."""
    r = page.request.post(server + "/api/tables", data={
        "preset": preset, "players": players,
        "seats": [{"kind": "you"}] + [{"kind": "bot", "level": "easy"}] * (players - 1)})
    assert r.ok, r.text()
    page.goto(server + r.json()["url"])
    page.wait_for_selector("#ring .seat")


def _play_first_deal(page: Any) -> None:
    """Play your cards until the first deal is in the chart."""
    wait_until(_playing(page, lambda: page.locator("#chart .chart-legend").count()), 60,
               what="the first deal to end")


def _playing(page: Any, done: Callable[[], Any]) -> Callable[[], bool]:
    """For ``wait_until``: whether ``done()``, after one step of play if not yet."""
    def check() -> bool:
        if done():
            return True
        page.evaluate(STEP)
        return False
    return check


WIDE = """() => [...document.querySelectorAll('body *')].filter((e) =>
  e.getBoundingClientRect().right > innerWidth + 0.5).slice(0, 5).map((e) =>
  `${e.tagName}#${e.id}.${e.className?.baseVal ?? e.className} ${e.getAttribute('style')}`)"""
"""What sticks out on the right, for the failure message."""


def _no_sideways_scroll(page: Any, where: str) -> None:
    width, inner = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width <= inner, f"{where}: the page scrolls sideways ({width} > {inner}): " \
                           f"{page.evaluate(WIDE)}"


def _clockwise_from_you(seats: list[dict[str, Any]], n: int) -> None:
    """The seats go round clockwise on the screen in table order, you at the bottom."""
    assert sorted(s["seat"] for s in seats) == list(range(n))
    cx = sum(s["x"] for s in seats) / n
    cy = sum(s["y"] for s in seats) / n
    you = next(s for s in seats if s["name"] in ("You", "Vous", "Du"))
    assert you["y"] == max(s["y"] for s in seats)  # you sit at the bottom

    def turn(s: dict[str, Any]) -> float:  # clockwise on screen, from you
        a = math.atan2(s["x"] - cx, -(s["y"] - cy)) - math.atan2(you["x"] - cx, -(you["y"] - cy))
        return a % (2 * math.pi)

    order = sorted(seats, key=turn)
    assert [(s["seat"] - you["seat"]) % n for s in order] == list(range(n))


def _every_player_listed(page: Any, names: list[str]) -> None:
    sheet = page.locator("#scores").inner_text()
    legend = page.locator("#chart .chart-legend title").all_text_contents()
    for who in names:
        assert who in sheet, (who, sheet)
    assert sorted(legend) == sorted(names)
    # Every legend line lies inside the chart (none is cut off).
    assert page.evaluate("""() => {
      const svg = document.querySelector('#chart svg');
      const h = svg.viewBox.baseVal.height;
      return [...svg.querySelectorAll('.chart-legend')].every((t) => {
        const b = t.getBBox(); return b.y >= 0 && b.y + b.height <= h + 0.5; });
    }""")


CELLS = r"""() => {
  const sheet = document.querySelector('#scores');
  const panel = sheet.closest('.side').getBoundingClientRect();
  const box = sheet.getBoundingClientRect();
  const bad = [];
  if (box.left < panel.left - 0.5 || box.right > panel.right + 0.5) {
    bad.push(`sheet ${box.left}-${box.right} outside its panel ${panel.left}-${panel.right}`);
  }
  for (const cell of sheet.querySelectorAll('th, td')) {
    // Inside its scroller: the sheet scrolls, the text of each cell is whole (no word cut).
    if (cell.scrollWidth > cell.clientWidth + 1) bad.push(`cell "${cell.textContent}" clipped`);
    for (const part of cell.querySelectorAll('span, small')) {
      const cut = part.scrollWidth > part.clientWidth + 1;
      if (cut && getComputedStyle(part).textOverflow !== 'ellipsis') {
        bad.push(`"${part.textContent}" clipped`);
      }
    }
  }
  // A partnership's sheet has two columns of sides: both fit the panel (no scrolling).
  if (sheet.classList.contains('sides') && sheet.scrollWidth > sheet.clientWidth + 1) {
    bad.push(`the sides' sheet scrolls: ${sheet.scrollWidth} > ${sheet.clientWidth} px`);
  }
  const first = sheet.querySelector('tbody td, tfoot td');
  if (first && getComputedStyle(first).position !== 'sticky') {
    bad.push('the first column does not stay');
  }
  // A word is never broken across lines ("Medi / um"): each word of a head cell on one line.
  for (const th of sheet.querySelectorAll('thead th')) {
    const range = document.createRange();
    for (const node of th.querySelectorAll('*')) {
      for (const text of node.childNodes) {
        if (text.nodeType !== 3) continue;
        let at = 0;
        for (const word of text.textContent.split(/(\s+)/)) {
          if (word.trim()) {
            range.setStart(text, at); range.setEnd(text, at + word.length);
            const rows = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
            if (rows.size > 1) bad.push(`"${word}" broken across lines`);
          }
          at += word.length;
        }
      }
    }
  }
  return bad;
}"""
"""What of the score sheet is clipped, outside its panel, or broken: nothing, for a fit."""

BOXES = """() => {
  const box = (n) => {
    const r = n.getBoundingClientRect();
    return {l: r.left, t: r.top, r: r.right, b: r.bottom};
  };
  const seats = [...document.querySelectorAll('#ring .seat')];
  const cards = [...document.querySelectorAll('#trick .played:not(.turnup) .card-svg')];
  return {seats: seats.map((n) => ({seat: n.dataset.seat, ...box(n)})),
          cards: cards.map((n) => ({seat: n.closest('.played').dataset.seat, ...box(n)}))};
}"""

SETTLED = """() => Promise.all([...document.querySelectorAll('#trick .played')]
  .flatMap((n) => n.getAnimations()).map((a) => a.finished.catch(() => null)))"""
"""Wait until the trick's cards have flown in from their seats (they lie where they stay)."""


def _overlaps(page: Any) -> list[str]:
    """Seats that overlap each other or a trick card (1 pixel of slack)."""
    page.evaluate(SETTLED)
    got = page.evaluate(BOXES)

    def meet(a: dict[str, Any], b: dict[str, Any]) -> bool:
        return bool(a["l"] < b["r"] - 1 and b["l"] < a["r"] - 1 and a["t"] < b["b"] - 1
                    and b["t"] < a["b"] - 1)

    seats, cards = got["seats"], got["cards"]
    out = [f"seat {a['seat']} / seat {b['seat']}" for i, a in enumerate(seats)
           for b in seats[i + 1:] if meet(a, b)]
    out += [f"seat {a['seat']} / card of {c['seat']}" for a in seats for c in cards if meet(a, c)]
    return out


def _hold_a_whole_trick(page: Any, n: int) -> None:
    """Play until a whole trick of ``n`` cards is held on the felt."""
    page.evaluate("localStorage.setItem('polignac-trick-hold', '30')")
    wait_until(_playing(page, lambda: page.locator(
        "#trick[data-kind=done] .played:not(.turnup)").count() >= n), 60,
        what="a whole trick held")


def _check_preset(browser: Any, server: str, preset: str, n: int, shots: Path) -> None:
    context = browser.new_context(viewport=DESKTOP, locale="en-US")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    _table(page, server, preset, n)
    first = page.evaluate(SEATS)
    _clockwise_from_you(first, n)
    _no_sideways_scroll(page, f"{preset} desktop")
    _play_first_deal(page)
    names = [s["name"] for s in first]
    _every_player_listed(page, names)
    _no_sideways_scroll(page, f"{preset} desktop")
    assert page.evaluate(SEATS) == first  # between deals or in the next one: nobody moved
    for lang in ("en", "fr", "de"):
        page.select_option("#lang", lang)
        assert not page.evaluate(CELLS), (preset, lang, "desktop", page.evaluate(CELLS))
    page.select_option("#lang", "en")
    page.set_viewport_size(PHONE)
    wait_until(lambda: page.evaluate("innerWidth") == PHONE["width"])
    phone = page.evaluate(SEATS)
    _clockwise_from_you(phone, n)
    _every_player_listed(page, names)
    _no_sideways_scroll(page, f"{preset} phone")
    for lang in ("en", "fr", "de"):
        page.select_option("#lang", lang)
        assert not page.evaluate(CELLS), (preset, lang, "phone", page.evaluate(CELLS))
    page.select_option("#lang", "en")
    _hold_a_whole_trick(page, n)
    if n >= 5:
        page.screenshot(path=shots / f"layout-{preset}-{n}-phone-trick.png", full_page=True)
    assert not _overlaps(page), (preset, "phone", _overlaps(page))
    page.set_viewport_size(DESKTOP)
    wait_until(lambda: page.evaluate("innerWidth") == DESKTOP["width"])
    assert not _overlaps(page), (preset, "desktop", _overlaps(page))
    page.set_viewport_size(PHONE)
    wait_until(lambda: page.evaluate("innerWidth") == PHONE["width"])
    page.uncheck("#motion")  # the held trick goes
    page.evaluate("localStorage.removeItem('polignac-trick-hold')")
    phone = page.evaluate(SEATS)
    if n >= 8:
        page.screenshot(path=shots / f"layout-{preset}-{n}-phone.png", full_page=True)
    # The phone's seats stay where they are too: a new render draws them again.
    page.select_option("#lang", "fr")
    page.select_option("#lang", "en")
    assert page.evaluate(SEATS) == phone
    assert not errors, (preset, errors)
    context.close()


LARGEST = [(name, max(rules.players)) for name, rules in PRESETS.items()]
"""Every preset at its largest player count: one test each, so that each has its own
time limit on a busy machine (the 16 in one test ran past 5 minutes beside a CPU hog)."""


@pytest.mark.parametrize(("preset", "n"), LARGEST, ids=[name for name, _ in LARGEST])
def test_every_preset_at_its_largest_count_fits_a_phone_and_a_desktop(
        chromium: Any, fast_server: str, shots: Path, preset: str, n: int) -> None:
    only = os.environ.get("POLIGNAC_LAYOUT_ONLY")  # one preset, to look at it
    if only and only != preset:
        pytest.skip(f"POLIGNAC_LAYOUT_ONLY={only}")
    info = chromium.new_page().request.get(fast_server + "/api/presets").json()
    assert (preset, n) in [(x["name"], max(x["players"])) for x in info["presets"]]
    _check_preset(chromium, fast_server, preset, n, shots)


def test_the_largest_counts_are_known() -> None:
    assert ("polignac-party", 10) in LARGEST and ("pollack", 4) in LARGEST


def _nearest_seat(card: dict[str, Any], seats: list[dict[str, Any]]) -> int:
    best = min(seats, key=lambda s: (s["x"] - card["x"]) ** 2 + (s["y"] - card["y"]) ** 2)
    seat: int = best["seat"]
    return seat


def _in_front_of_their_seats(page: Any) -> int:
    """Each card of the trick is nearer its own seat than any other; how many there are."""
    seats, cards = page.evaluate(SEATS), page.evaluate(PLAYED)
    for card in cards:
        assert _nearest_seat(card, seats) == card["seat"], (card, seats)
    return len(cards)


def _shown(page: Any) -> tuple[int, int, str]:
    """(last event received, last event shown, what the trick area shows)."""
    got = page.evaluate("[document.body.dataset.seq, document.body.dataset.shown, "
                        "document.querySelector('#trick').dataset.kind]")
    return int(got[0] or 0), int(got[1] or 0), str(got[2])


def _pause_clock(page: Any) -> bool:
    """Stop the page's (installed) clock a quarter of a second ahead of its time now;
    False when its time passed that mark before the call arrived (try again)."""
    from playwright.sync_api import Error

    try:
        page.clock.pause_at(page.evaluate("Date.now()") / 1000 + 0.25)  # in seconds
    except Error as exc:
        if "to the past" not in str(exc):
            raise
        return False
    return True


def test_a_finished_trick_is_held_in_front_of_the_seats(chromium: Any,
                                                        fast_server: str, shots: Path) -> None:
    context = chromium.new_context(viewport=DESKTOP, locale="en-US")
    context.add_init_script("localStorage.setItem('polignac-trick-hold', '30')")
    context.clock.install()  # the page's timers on a clock the test can stop (it runs)
    page = context.new_page()
    _table(page, fast_server, "polignac", 5)

    def held_behind() -> tuple[int, int, str] | None:
        """Play until a bot's card waits behind a held trick."""
        got, shown, kind = _shown(page)
        if kind == "done" and got > shown:
            return got, shown, kind
        if kind in ("current", "done"):
            _in_front_of_their_seats(page)
        if kind != "done" or page.locator("#hand .card.legal").count():
            page.evaluate(STEP)  # your turn (while a trick is held: you lead)
        return None

    got, shown, _kind = wait_until(held_behind, 60,
                                   what="a trick held while a bot played on")
    wait_until(functools.partial(_pause_clock, page), what="the page's clock to stop")
    assert _in_front_of_their_seats(page) == 5
    assert page.locator("#trick .played.winner").count() == 1
    page.screenshot(path=shots / "trick-held.png")
    page.clock.run_for(1000)  # a second of the page's timers, however long it takes
    now = _shown(page)  # the next event is there, and still waits (more may come)
    assert now[0] >= got and now[1:] == (shown, "done")
    page.clock.resume()
    # Animations off: everything waiting is shown at once.
    page.uncheck("#motion")
    wait_until(lambda: _shown(page)[0] == _shown(page)[1])
    assert _shown(page)[2] != "done"
    assert page.evaluate("localStorage.getItem('polignac-motion')") == "off"
    page.reload()
    page.wait_for_selector("#ring .seat")
    assert not page.is_checked("#motion")  # remembered
    context.close()


def test_reduced_motion_shows_each_event_at_once(chromium: Any, fast_server: str) -> None:
    context = chromium.new_context(viewport=PHONE, locale="en-US",
                                  reduced_motion="reduce")
    context.add_init_script("localStorage.setItem('polignac-trick-hold', '30')")
    page = context.new_page()
    _table(page, fast_server, "polignac", 5)
    assert not page.is_checked("#motion")

    def three_tricks() -> bool:  # three finished tricks, none of them held
        kind = _shown(page)[2]
        assert kind != "done"
        if kind in ("current", "last"):
            _in_front_of_their_seats(page)
        tricks = len([x for x in page.locator("#log li").all_text_contents()
                      if "took the trick" in x])
        page.evaluate(STEP)
        return tricks >= 3

    wait_until(three_tricks, 60, what="the deal to go on")
    wait_until(lambda: _shown(page)[0] == _shown(page)[1])
    context.close()


def _whole_hand(page: Any) -> bool:
    """Whether the prompt with its explanations is up over a whole hand (else a step)."""
    if (page.locator("#prompt .call-help").count()
            and page.locator("#hand .card").count() == 13):
        return True
    if page.locator("#hand .card.legal").count() and not \
            page.locator("#prompt .call-help").count():
        page.evaluate(STEP)
    return False


@pytest.mark.parametrize("preset", ["black-lady"])
def test_the_whole_hand_shows_under_the_call_explanations(chromium: Any, fast_server: str,
                                                          shots: Path, preset: str) -> None:
    """13 cards and a prompt with its explanations (the cards to pass)
    fit a 1280x800 screen: every card of the hand is inside the window."""
    for lang in ("en", "fr", "de"):
        context = chromium.new_context(viewport=DESKTOP, locale="en-US")
        page = context.new_page()
        _table(page, fast_server, preset, 4)
        page.select_option("#lang", lang)
        wait_until(functools.partial(_whole_hand, page), 60,
                   what="a prompt with a whole hand")
        bottom = page.evaluate("Math.max(...[...document.querySelectorAll('#hand .card')]"
                               ".map((c) => c.getBoundingClientRect().bottom))")
        assert bottom <= DESKTOP["height"], (preset, lang, bottom)
        assert page.locator("#prompt .call-help").is_visible()
        page.screenshot(path=shots / f"hand-{preset}-{lang}-1280.png")
        context.close()


@pytest.mark.parametrize("locale", ["en-US", "fr-FR", "de-DE"])
def test_four_seats_score_sheet_fits_the_side_column(chromium: Any, fast_server: str,
                                                     locale: str) -> None:
    """Four seats, three of them bots with the longest names ("Mittlerer Bot 2"): every
    column of the score sheet shows, with no sideways scroll inside the side column, at
    1440 px wide, and at 1024 and 1280 px in English and French (the fourth column was
    hidden at 1280 px in all three languages; German's names still scroll there)."""
    context = chromium.new_context(viewport={"width": 1024, "height": 768}, locale=locale)
    try:
        page = context.new_page()
        r = page.request.post(fast_server + "/api/tables", data={
            "preset": "polignac", "players": 4,
            "seats": [{"kind": "you"}] + [{"kind": "bot", "level": "medium"}] * 3})
        assert r.ok, r.text()
        page.goto(fast_server + r.json()["url"])
        page.wait_for_selector("#scores tfoot td")
        for width in (1024, 1280, 1440) if locale != "de-DE" else (1440,):
            page.set_viewport_size({"width": width, "height": 800})
            # a media query applies at the next layout, which reading a size forces
            scroll, client = page.evaluate(
                "() => { const t = document.querySelector('#scores');"
                " return [t.scrollWidth, t.clientWidth]; }")
            assert scroll <= client, f"{locale} at {width} px: {scroll} > {client}"
            heads = page.locator("#scores thead th").all_inner_texts()
            assert len(heads) == 5 and any("2" in h for h in heads), heads
    finally:
        context.close()
