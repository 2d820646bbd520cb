"""Each seat's badge says the points it has taken this deal: the number the server's
view says (``points_taken``), the same for a player and a spectator.

Screenshots (390x844 and 1280x800, en/fr/de) go to ``$POLIGNAC_SCREENSHOTS``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.browser.support import open_page, open_table, play_until, screenshots, wait_until

pytest.importorskip("playwright.sync_api")

# The view this page's cookies get (its seat's), over a WebSocket of its own.
FETCH_VIEW = """(path) => new Promise((resolve, reject) => {
  const ws = new WebSocket(location.origin.replace(/^http/, "ws") + path + "/ws");
  ws.onopen = () => ws.send(JSON.stringify({ type: "hello", last_seq: 0 }));
  ws.onmessage = (e) => {
    const f = JSON.parse(e.data);
    if (f.type === "state") { ws.close(); resolve(f.view); }
  };
  ws.onerror = () => reject(new Error("no state"));
})"""


def _badges(page: Any) -> dict[int, tuple[int, str]]:
    """Each seat's number and words in its badge's points-taken part."""
    out: dict[int, tuple[int, str]] = {}
    parts = page.locator(".seat[data-seat] .seat-info .taken")
    for i in range(parts.count()):
        part = parts.nth(i)
        seat = int(part.evaluate("(n) => n.closest('.seat').dataset.seat"))
        out[seat] = (int(part.get_attribute("data-points")), part.inner_text())
    return out


def test_black_lady_badges_show_the_points_taken(quick_server: str, chromium: Any,
                                                 shots: Path) -> None:
    page, errors = open_page(chromium, locale="en-US")
    url = open_table(page, quick_server, "black-lady", level="random")
    # Four tricks or more played (13 cards each after the passing), and this page to
    # play: the bots wait for it, so the numbers stand still.
    hand = page.locator("#hand .card")
    legal = page.locator("#hand .card.legal")
    button = page.locator("#prompt .pass-cards")

    def play(cards: Any, n: int) -> None:  # the passing: pick three, then press Pass
        if not button.count():
            cards.first.click(timeout=2000)
        elif page.locator("#hand .card.picked").count() < 3:
            page.locator("#hand .card.legal:not(.picked)").first.click(timeout=2000)
        else:
            button.click(timeout=2000)

    play_until(page, lambda: hand.count() <= 9 and legal.count() > 0 and not button.count(),
               120, "the fifth trick", play=play)
    view = page.evaluate(FETCH_VIEW, url)
    deal, seats = view["deal"], view["deal_seats"]
    assert len(deal["tricks"]) >= 4
    want = {seat: deal["points_taken"][seats.index(seat)] for seat in seats}
    wait_until(lambda: {s: n for s, (n, _) in _badges(page).items()} == want)
    for n, words in _badges(page).values():
        plural = "" if n == 1 else "s"
        assert words.replace("\u00a0", " ") == f"this deal: {n} penalty point{plural}", words
    # A spectator (another browser, no seat) sees the same numbers.
    other = chromium.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    watcher = other.new_page()
    watcher.goto(quick_server + url)
    wait_until(lambda: {s: n for s, (n, _) in _badges(watcher).items()} == want)
    assert watcher.evaluate(FETCH_VIEW, url)["deal"]["points_taken"] == deal["points_taken"]
    other.close()
    # In French and German too; the badge stays within a phone's width.
    page.select_option("#lang", "fr")
    wait_until(lambda: all("cette donne" in w for _, w in _badges(page).values()))
    page.select_option("#lang", "de")
    wait_until(lambda: all("dieses Spiel" in w for _, w in _badges(page).values()))
    screenshots(page, shots, "taken")
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("document.documentElement.scrollWidth") <= 400
    assert not errors, errors
