"""Open the lobby, click Play now, and play a whole deal by clicking legal cards.

Screenshots go to ``$POLIGNAC_SCREENSHOTS`` (default: the test's tmp folder).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from tests.browser.support import open_page, wait_until

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
    clicks = 0
    mid = False
    deadline = time.monotonic() + 60
    while page.locator("#scores tr").count() < 3:  # header, deal 1, totals
        assert time.monotonic() < deadline, "the deal did not end"
        call = page.locator("#prompt .call[data-action=pass]")
        legal = page.locator("#hand .card.legal")
        if call.count():
            call.first.click(timeout=5000)
            wait_until(lambda: page.locator(
                "#prompt .call[data-action=pass]").count() == 0)
        elif legal.count():
            if clicks == 3 and not mid:
                page.screenshot(path=shots / "03-my-turn.png")
                mid = True
            before = page.locator("#hand .card").count()
            if clicks % 2:
                legal.first.click(timeout=5000)
            else:  # keyboard play
                page.keyboard.press("ArrowRight")
                page.keyboard.press("Enter")
            clicks += 1
            wait_until(lambda b=before: page.locator("#hand .card").count() < b
                        or page.locator("#scores tr").count() >= 3)
        else:
            page.wait_for_timeout(50)
    page.screenshot(path=shots / "04-deal-over.png")
    assert clicks == 8
    assert page.locator("#lastdeal li").count() >= 1
    page.wait_for_selector("#hand .card", timeout=10000)  # the next deal comes
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(300)
    page.screenshot(path=shots / "05-phone.png", full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 400, f"the page is {width}px wide on a phone"
    record = page.request.get(page.url + "/record.json").json()
    assert record["format"] == "polignac-record/1" and len(record["deals"]) >= 1
    assert not errors, errors
