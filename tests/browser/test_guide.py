"""The guided first deal: from the lobby's "Learn in one deal", follow the bubbles and
play the prepared deal to its end by clicking cards, on a phone (390x844); then a
screenshot of the guided deal on a laptop (1280x800).

``GUIDE_SHOTS=DIR`` writes the two screenshots of the README there (they come from
``GUIDE_SHOTS=docs/screenshots``); with ``$POLIGNAC_SCREENSHOTS`` set, one of every
bubble goes there.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest
from tests.browser.support import open_page, wait_until

from polignac.server.tables.guide import MOMENTS

pytest.importorskip("playwright.sync_api")
EVERY_BUBBLE = "POLIGNAC_SCREENSHOTS" in os.environ
"""A screenshot of every bubble, only when screenshots are kept (they take time)."""


def _play_guided(page: Any, shots: Path, prefix: str,
                 pause_at: str | None = None) -> list[str]:
    """From the lobby (already open), start the guided deal and play it: "Got it" on every bubble,
    Pass at the capot prompt, the first legal card otherwise.  Returns the moments of
    the bubbles in the order shown.  With ``pause_at``, stop while that bubble shows."""
    page.click("#learn")
    page.wait_for_url("**/tables/*")
    page.wait_for_selector("#hand .card")
    page.wait_for_selector(".guide-bubble")  # the guide is loaded: nothing is missed now
    seen: list[str] = []
    bubble = page.locator(".guide-bubble")
    deadline = time.monotonic() + 90
    while True:
        assert time.monotonic() < deadline, f"the guided deal did not end (seen: {seen})"
        # Our turn first, then the bubble: the frame that gives us the turn shows its
        # bubble in the same task, so a bubble about this turn is never missed.
        call = page.locator("#prompt .call[data-action=pass]")
        legal = page.locator("#hand .card.legal")
        calls, cards = call.count(), legal.count()
        if bubble.count():
            moment = bubble.first.get_attribute("data-moment")
            assert moment is not None
            if not seen or seen[-1] != moment:
                seen.append(moment)
                if EVERY_BUBBLE:
                    page.wait_for_timeout(250)  # the bubble's fade-in
                    page.screenshot(path=shots / f"{prefix}-{len(seen):02d}-{moment}.png")
            if moment in (pause_at, "end"):
                return seen
            if moment == "welcome" and pause_at is None:  # a bubble follows the language
                page.select_option("#lang", "fr")
                wait_until(lambda: "Bienvenue" in bubble.first.inner_text())
                page.select_option("#lang", "en")
                wait_until(lambda: "Welcome" in bubble.first.inner_text())
            bubble.locator(".guide-ok").click(timeout=5000)
            wait_until(lambda m=moment: bubble.count() == 0
                       or bubble.first.get_attribute("data-moment") != m)
        elif calls:
            call.first.click(timeout=5000)
            wait_until(lambda: page.locator("#prompt .call[data-action=pass]").count() == 0)
        elif cards:
            before = page.locator("#hand .card").count()
            legal.first.click(timeout=5000)
            wait_until(lambda b=before: page.locator("#hand .card").count() < b, timeout=10)
        else:
            page.wait_for_timeout(40)


def test_guided_first_deal(chromium: Any, server: str, shots: Path) -> None:
    browser = chromium
    page, errors = open_page(browser, 390, 844)
    page.goto(server + "/")
    page.wait_for_selector("#learn")
    seen = _play_guided(page, shots, "guide-phone")
    folder = Path(os.environ.get("GUIDE_SHOTS", shots))
    folder.mkdir(parents=True, exist_ok=True)
    page.wait_for_timeout(250)  # the bubble's fade-in
    page.screenshot(path=folder / "guide-phone-end.png")
    assert seen[0] == "welcome" and seen[-1] == "end", seen
    assert set(MOMENTS) <= set(seen), seen  # every moment was explained
    assert len(seen) == len(set(seen))  # each once
    end = page.locator(".guide-bubble[data-moment=end]")
    assert end.locator(".guide-play").is_visible()
    assert end.locator(".guide-rules").get_attribute("href") == "/rules/polignac"
    assert page.locator("#scores tr").count() == 3  # header, the deal, totals
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 400, f"the page is {width}px wide on a phone"
    guided = page.url
    end.locator(".guide-play").click()  # Play a real game: Play now
    page.wait_for_url(lambda url: url != guided, timeout=10000)
    page.wait_for_selector("#hand .card")
    page.wait_for_timeout(300)
    assert page.locator(".guide-bubble").count() == 0  # a real game: no guide

    # The laptop screenshot for the README: the felt's middle, bubble and hand.
    wide = browser.new_page(viewport={"width": 1280, "height": 800})
    wide.on("pageerror", lambda exc: errors.append(str(exc)))
    wide.goto(server + "/")
    wide.wait_for_selector("#learn")
    _play_guided(wide, shots, "guide-wide", pause_at="void-jack")
    wide.wait_for_timeout(400)  # the bubble's fade-in
    wide.screenshot(path=folder / "guide-void-jack.png",
                    clip={"x": 200, "y": 170, "width": 580, "height": 610})
    assert not errors, errors
