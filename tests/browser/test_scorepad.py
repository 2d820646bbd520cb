"""Keep the score of a real-card `polignac` match (threshold 10) on the score pad page.

Screenshots go to ``$POLIGNAC_SCREENSHOTS`` (default: the test's tmp folder).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.browser.support import on_a_phone, open_page, wait_until

pytest.importorskip("playwright.sync_api")

NAMES = ["Ann", "Bob", "Cy", "Di"]


def _totals(page: Any) -> list[str]:
    return [page.locator(f"#sp-total-{s}").inner_text() for s in range(4)]


def _enter(page: Any, takers: dict[str, str]) -> None:
    """Choose who took each Jack and score the deal."""
    deals = page.locator("#sp-table tbody tr").count()
    for code, name in takers.items():
        page.select_option(f'[data-field="taken.{code}"]', label=name)
    page.click("#sp-score")
    wait_until(lambda: page.locator("#sp-table tbody tr").count() == deals + 1)


def test_score_a_polignac_match_to_its_end(chromium: Any, server: str, shots: Path) -> None:
    page, errors = open_page(chromium, 1000, 800)
    missing: list[str] = []
    page.on("response", lambda r: missing.append(r.url) if r.status == 404 else None)
    page.goto(server + "/")
    page.click("#scorepad-link")
    page.wait_for_url("**/scorepad")
    page.wait_for_selector("body[data-ready='1']", state="attached")
    page.select_option("#sp-preset", "polignac")
    page.select_option("#sp-players", "4")
    for i, name in enumerate(NAMES):
        page.fill(f"[name=name{i}]", name)
    page.fill("#sp-limit", "10")
    page.screenshot(path=shots / "sp-01-setup.png")
    page.click("#sp-start")
    page.wait_for_selector("#entry-panel:not([hidden])")
    assert "Ann deals" in page.inner_text("#sp-entry-title")

    # deal 1, typed with the keyboard: focus is on the first card's select
    page.focus('[data-field="taken.JC"]')
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")  # Bob
    _enter(page, {"JD": "Bob", "JH": "Cy", "JS": "Ann"})
    assert _totals(page) == ["2", "2", "1", "0"]
    assert "Bob deals" in page.inner_text("#sp-entry-title")

    # an incomplete deal: the error names the card, nothing is scored
    page.select_option('[data-field="taken.JC"]', label="Di")
    page.click("#sp-score")
    page.wait_for_selector("#sp-error:has-text('J♦')")
    assert "missing" in page.inner_text("#sp-error")
    assert page.locator('[data-field="taken.JD"].invalid').count() == 1
    page.screenshot(path=shots / "sp-02-error.png", full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=shots / "sp-02-phone-form.png", full_page=True)
    page.set_viewport_size({"width": 1000, "height": 800})
    assert page.locator("#sp-table tbody tr").count() == 1

    # a misdeal: the same dealer deals again; the pad survives a reload
    page.click("#sp-misdeal")
    wait_until(lambda: page.locator("#sp-table tbody tr").count() == 2)
    page.reload()
    page.wait_for_selector("#entry-panel:not([hidden])")
    assert _totals(page) == ["2", "2", "1", "0"]
    assert "Bob deals" in page.inner_text("#sp-entry-title")

    _enter(page, dict.fromkeys(("JC", "JD", "JH", "JS"), "Di"))
    assert _totals(page) == ["2", "2", "1", "5"]
    # undo and enter it again
    page.click("#sp-undo")
    wait_until(lambda: page.locator("#sp-table tbody tr").count() == 2)
    assert _totals(page) == ["2", "2", "1", "0"]
    _enter(page, dict.fromkeys(("JC", "JD", "JH", "JS"), "Di"))
    page.screenshot(path=shots / "sp-03-running.png", full_page=True)
    _enter(page, {"JC": "Di", "JD": "Di", "JH": "Di", "JS": "Di"})
    assert _totals(page) == ["2", "2", "1", "10"]
    result = page.inner_text("#sp-result")
    assert "Match over" in result
    assert "Winners: Ann, Bob, Cy" in result and "Loser: Di" in result
    assert page.locator("#entry-panel").is_hidden()
    assert page.locator("#sp-total-3.loser").count() == 1
    page.screenshot(path=shots / "sp-04-over.png", full_page=True)
    on_a_phone(page, shots / "sp-05-phone.png")
    assert not errors, errors
    assert not [u for u in missing if "scorepad" in u], missing
