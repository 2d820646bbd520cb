"""A game across days in a real browser: a correspondence table (one day a move) where
the person plays a card, the server stops and starts again on the same database, and
the page, opened again, shows the move kept and the same clock (its deadline from the
stored events), and "Your turn" lists the table in the lobby."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.browser.support import live_server, step, wait_until

from polignac.server import ServerConfig

pytest.importorskip("playwright.sync_api")


def test_a_correspondence_table_across_a_restart(chromium: Any, tmp_path: Path) -> None:
    config = ServerConfig(data_dir=tmp_path / "data", bot_delay=0, deal_delay=0,
                          cut_window=0, trick_pause=0)
    context = chromium.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    with live_server(config) as server:
        r = page.request.post(server + "/api/tables", data={
            "preset": "polignac", "time_control": {"kind": "days", "days": 1},
            "seats": [{"kind": "you"}] + [{"kind": "bot", "level": "easy"}] * 3})
        assert r.ok, r.text()
        url = r.json()["url"]
        page.goto(server + url)
        page.wait_for_selector("#hand .card")
        assert page.inner_text("#time-control").strip() == "1 day/move"
        # pass the declaration if asked, play one card (the bots answer at once), and
        # wait for our turn again
        wait_until(lambda: step(page, lambda: False, calls=True) == "card", 60)
        before = page.locator("#hand .card").count()
        page.wait_for_selector("#hand .card.legal")
        deadline = page.request.get(server + "/api/my-turn").json()["turns"][0]["deadline"]
    # the server is gone; a new one on the same data (cookies do not name a port)
    with live_server(config) as server:
        page.goto(server + url)
        page.wait_for_selector("#hand .card.legal")
        assert page.locator("#hand .card").count() == before  # the card stayed played
        turns = page.request.get(server + "/api/my-turn").json()["turns"]
        assert [(t["url"], t["deadline"]) for t in turns] == [(url, deadline)]
        clock = page.locator("#me .seat-clock .clock-time").inner_text()
        assert clock.startswith(("23 h", "1 d")), clock  # its deadline is the stored one (above)
        page.goto(server + "/")
        page.locator("#your-turn li.turn").wait_for()
        assert page.locator("#your-turn a.button").get_attribute("href") == url
    assert not errors, errors
    context.close()
