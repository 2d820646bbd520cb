"""The lobby works for people: a stranger takes a public table's open seat from the
table list, and "Your turn" lists the timed tables where you are to move, with the
time left, in the page's language.

Screenshots at 1280x800 and 390x844 in ``$POLIGNAC_SCREENSHOTS`` or the test's tmp
folder (``lobby-sit-*.png``, ``your-turn-*.png``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from tests.browser.support import open_page, wait_until

from polignac import i18n

pytest.importorskip("playwright.sync_api")


def test_a_stranger_sits_from_the_lobby_and_your_turn_lists_the_table(
        chromium: Any, server: str, shots: Path) -> None:
    ann, ann_errors = open_page(chromium, locale="en-US")
    r = ann.request.post(server + "/api/tables", data={
        "preset": "polignac", "name": "Ann", "time_control": {"kind": "days", "days": 1},
        "seats": [{"kind": "you"}, {"kind": "open"}] + [{"kind": "bot", "level": "easy"}] * 2})
    assert r.ok, r.text()
    url = r.json()["url"]
    ann.goto(server + url)
    ann.wait_for_selector(".seat-clock", state="attached")

    # Bea, a stranger, finds the table in the lobby: a Sit button beside Watch
    bea, bea_errors = open_page(chromium, 390, 844, locale="en-US")
    bea.goto(server + "/")
    row = bea.locator(f"tr[data-table='{url.rsplit('/', 1)[1]}']")
    row.wait_for()
    sit = row.locator("button.sit")
    assert sit.inner_text() == "Sit" and sit.get_attribute("title") == "Take the open seat 2"
    assert "open seat" in row.inner_text()
    bea.fill("#seek-name", "Bea")
    bea.screenshot(path=shots / "lobby-sit-phone.png", full_page=True)
    sit.click()
    bea.wait_for_url("**" + url)
    bea.wait_for_selector("#hand .card")  # the last open seat taken: the first deal
    assert bea.locator("#me .seat[data-seat='1']").count() == 1  # seat 2 is hers
    wait_until(lambda: "Bea" in ann.locator(".seat[data-seat='1']").inner_text())

    # bots answer at once: soon one of the two people is to move, and their lobby says so
    def to_move() -> Any:
        for page in (ann, bea):
            turns = page.request.get(server + "/api/my-turn").json()["turns"]
            if turns:
                return page, turns
        return None
    page, turns = wait_until(to_move, 30)
    assert [t["url"] for t in turns] == [url]
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(server + "/")
    panel = page.locator("#your-turn")
    panel.locator("li.turn").wait_for()
    text = panel.inner_text()
    assert "Your turn" in text and "Polignac" in text and "1 day/move" in text, text
    assert re.search(r"2[0-3] h \d+ min left|1 d 0 h left", text), text
    assert panel.locator("a.button").get_attribute("href") == url
    for lang in ("fr", "de", "en"):
        page.select_option("#lang", lang)
        wait_until(lambda lang=lang: panel.locator("h2").inner_text()
                   == i18n.t(lang, "lobby.yourTurn"))
        page.screenshot(path=shots / f"your-turn-desktop-{lang}.png")
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(150)
    page.screenshot(path=shots / "your-turn-phone.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 400
    panel.locator("a.button").click()
    page.wait_for_url("**" + url)
    page.wait_for_selector("#hand .card.legal, #prompt button")  # it is their move
    # the other, not to move, sees no panel
    other = bea if page is ann else ann
    other.goto(server + "/")
    other.wait_for_selector("#tables table, #tables p")
    assert other.locator("#your-turn").is_hidden()
    assert not ann_errors and not bea_errors, (ann_errors, bea_errors)
