"""The Hearts family's passing step in a real browser: pick three cards, press Pass,
see the cards received; other players' passes stay hidden in the log.

Screenshots (390x844 and 1280x800, en/fr/de) go to ``$POLIGNAC_SCREENSHOTS``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.browser.support import ARGS, CHROMIUM, live_server, wait_until

from polignac.server import ServerConfig

playwright_sync = pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")


@pytest.fixture
def quick_server(tmp_path: Path) -> Iterator[str]:
    """A live server whose bots act and deal at once (no delays, no cut window)."""
    config = ServerConfig(data_dir=tmp_path / "data", bot_delay=0, deal_delay=0, cut_window=0,
                          trick_pause=0)
    with live_server(config) as url:
        yield url


def _to_my_pass(page: Any) -> None:
    """Play the first legal card until this page is asked to pass (a deal of the
    rotation may keep its cards)."""
    deadline = time.monotonic() + 120  # a guard against a hang, not a speed check
    while not page.locator("#prompt .pass-cards").count():
        assert time.monotonic() < deadline, "no passing step came"
        legal = page.locator("#hand .card.legal")
        if legal.count():
            try:
                legal.first.click(timeout=2000)
            except playwright_sync.Error:
                continue
        page.wait_for_timeout(30)


def test_pass_three_cards_then_see_them_arrive(quick_server: str, shots: Path) -> None:
    server = quick_server
    with playwright_sync.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 800}, locale="en-US")
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            r = page.request.post(server + "/api/tables", data={
                "preset": "black-lady", "seats": [{"kind": "you"}] + [
                    {"kind": "bot", "level": "medium"}] * 3})
            url = r.json()["url"]
            page.goto(server + url)
            page.wait_for_selector("#hand .card")
            _to_my_pass(page)
            button = page.locator("#prompt .pass-cards")
            assert "Pass 3 to" in button.inner_text() and button.is_disabled()
            assert "choose 3 cards to pass" in page.locator("#status").inner_text()
            cards = page.locator("#hand .card.legal")
            chosen = page.locator("#hand .card.picked")
            for i in (0, 1, 2):
                # A click while the page still plays out earlier events (the others'
                # passes, caught up after the state that showed the prompt) finds a
                # hand that is not this seat's to pass yet: click again until it counts.
                deadline = time.monotonic() + 20  # a guard against a hang
                while chosen.count() < i + 1:
                    assert time.monotonic() < deadline, "the pick never counted"
                    if "picked" not in (cards.nth(i).get_attribute("class") or ""):
                        cards.nth(i).click()
                    page.wait_for_timeout(100)
                assert chosen.count() == i + 1 and button.is_disabled() == (i < 2)
            cards.nth(3).click()  # the fourth is not taken
            page.wait_for_timeout(200)
            assert chosen.count() == 3 and button.is_enabled()
            picked = chosen.evaluate_all("nodes => nodes.map(n => n.dataset.card)")
            assert len(picked) == 3 and button.is_enabled()
            for lang in ("en", "fr", "de"):
                page.select_option("#lang", lang)
                for w, h in ((390, 844), (1280, 800)):
                    page.set_viewport_size({"width": w, "height": h})
                    page.screenshot(path=shots / f"hearts-01-pass-{lang}-{w}.png",
                                    full_page=True)
            page.select_option("#lang", "en")
            page.set_viewport_size({"width": 1280, "height": 800})
            page.locator("#prompt .pass-cards").click()
            wait_until(lambda: "You received from" in page.locator("#status").inner_text(),
                       timeout=20)
            hand = page.locator("#hand .card").evaluate_all(
                "nodes => nodes.map(n => n.dataset.card)")
            assert not set(picked) & set(hand), "the passed cards left the hand"
            log = page.locator("#log").inner_text()
            # the others' passes (those made after the page connected: when the page's
            # seat deals, everyone else passed before) are logged without their cards
            others = [line for line in log.splitlines()
                      if "pass" in line.lower() and not line.startswith("You")]
            assert all("chooses a card to pass" in line for line in others), others
            assert log.count("You pass ") == 3
            for lang in ("en", "fr", "de"):
                page.select_option("#lang", lang)
                for w, h in ((390, 844), (1280, 800)):
                    page.set_viewport_size({"width": w, "height": h})
                    page.screenshot(path=shots / f"hearts-02-received-{lang}-{w}.png",
                                    full_page=True)
            assert not errors, errors
        finally:
            browser.close()
