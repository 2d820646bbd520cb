"""The Hearts family's passing step in a real browser: pick three cards, press Pass,
see the cards received; other players' passes stay hidden in the log.

Screenshots (390x844 and 1280x800, en/fr/de) go to ``$POLIGNAC_SCREENSHOTS``.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest
from tests.browser.support import (
    open_page,
    open_table,
    page_pause,
    play_until,
    screenshots,
    wait_until,
)

pytest.importorskip("playwright.sync_api")


def _picked(cards: Any, chosen: Any, i: int) -> bool:
    """Whether pick ``i`` counted; if not, click card ``i`` (again) unless it shows picked."""
    if chosen.count() >= i + 1:
        return True
    if "picked" not in (cards.nth(i).get_attribute("class") or ""):
        cards.nth(i).click()
    return False


def test_pass_three_cards_then_see_them_arrive(quick_server: str, chromium: Any,
                                               shots: Path) -> None:
    page, errors = open_page(chromium, locale="en-US")
    open_table(page, quick_server, "black-lady", level="medium")
    # Play the first legal card until this page is asked to pass (a deal of the
    # rotation may keep its cards).
    play_until(page, lambda: page.locator("#prompt .pass-cards").count() > 0, 120,
               "the passing step")
    button = page.locator("#prompt .pass-cards")
    assert "Pass 3 to" in button.inner_text() and button.is_disabled()
    assert "choose 3 cards to pass" in page.locator("#status").inner_text()
    cards = page.locator("#hand .card.legal")
    chosen = page.locator("#hand .card.picked")
    for i in (0, 1, 2):
        # A click while the page still plays out earlier events (the others'
        # passes, caught up after the state that showed the prompt) finds a
        # hand that is not this seat's to pass yet: click again until it counts.
        wait_until(functools.partial(_picked, cards, chosen, i), 20,  # a guard: no hang
                   what=f"pick {i + 1} to count", pause=page_pause(page), interval=0.1)
        assert chosen.count() == i + 1 and button.is_disabled() == (i < 2)
    cards.nth(3).click()  # the fourth is not taken
    page.wait_for_timeout(200)
    assert chosen.count() == 3 and button.is_enabled()
    picked = chosen.evaluate_all("nodes => nodes.map(n => n.dataset.card)")
    assert len(picked) == 3 and button.is_enabled()
    screenshots(page, shots, "hearts-01-pass")
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
    screenshots(page, shots, "hearts-02-received")
    assert not errors, errors
