"""Open the lobby, click Play now, and play a whole deal by clicking legal cards.

Screenshots go to ``$POLIGNAC_SCREENSHOTS`` (default: the test's tmp folder).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.browser.support import on_a_phone, open_page, play_until

pytest.importorskip("playwright.sync_api")


def test_play_a_deal_by_clicking(chromium: Any, server: str, shots: Path) -> None:
    page, errors = open_page(chromium, 1200, 860)
    page.goto(server + "/")
    page.wait_for_selector("#seats select", state="attached")
    page.screenshot(path=shots / "01-lobby.png")
    page.click("#play-now")
    page.wait_for_url("**/tables/*")
    page.wait_for_selector("#hand .card")
    assert page.locator("#hand .card").count() == 8
    page.screenshot(path=shots / "02-table.png")

    def play(legal: Any, n: int) -> None:
        if n == 3:  # (again, if that play did not count)
            page.screenshot(path=shots / "03-my-turn.png")
        if n % 2:
            legal.first.click(timeout=5000)
        else:  # keyboard play
            page.keyboard.press("ArrowRight")
            page.keyboard.press("Enter")

    clicks = play_until(  # header, deal 1, totals
        page, lambda: page.locator("#scores tr").count() >= 3, 60, "the end of the deal",
        calls=True, play=play)
    page.screenshot(path=shots / "04-deal-over.png")
    assert clicks == 8
    assert page.locator("#lastdeal li").count() >= 1
    page.wait_for_selector("#hand .card", timeout=10000)  # the next deal comes
    on_a_phone(page, shots / "05-phone.png", settle=300)
    record = page.request.get(page.url + "/record.json").json()
    assert record["format"] == "polignac-record/1" and len(record["deals"]) >= 1
    assert not errors, errors
