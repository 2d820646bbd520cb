"""The Hint button at a Play-now table (bots without delay): press it (key H), see each
legal card's expected cost on its corner and the best card starred, in English and
German, at 1280x800 and 390x844; the marks go when the hand changes; a spectator has no
Hint button.

Screenshots go to ``$POLIGNAC_SCREENSHOTS`` (default: the test's tmp folder).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from tests.browser.support import open_page, play_now, play_until, wait_until

from polignac.i18n import t

pytest.importorskip("playwright.sync_api")


def _to_card_choice(page: Any) -> None:
    """Pass the declaration and play forced cards until I choose among two or more cards."""
    play_until(page, lambda: page.locator("#hand .card.legal").count() >= 2, 60,
               "a choice of cards", calls=True)


def _check_hint(page: Any, lang: str) -> str:
    """Press H and check the marks against the server's answer; return the best card."""
    button = page.locator("#hint-btn")
    wait_until(button.is_visible)
    assert button.inner_text() == t(lang, "hint.button")
    assert button.get_attribute("aria-keyshortcuts") == "H"
    legal = page.locator("#hand .card.legal").count()
    page.keyboard.press("h")
    wait_until(lambda: page.locator("#hand .card.hinted").count() == legal, timeout=90)
    answer = page.request.post(page.url + "/hint").json()  # the same position: kept
    by_card = {a["action"]: a for a in answer["actions"]}
    assert page.locator("#hand .card.hint-best").count() == 1
    best = page.locator("#hand .card.hint-best").get_attribute("data-card")
    assert by_card[best]["best"] is True
    for card in page.locator("#hand .card.hinted").all():
        code = card.get_attribute("data-card")
        badge = card.locator(".hint-badge").inner_text()
        entry = by_card[code]
        if entry["best"]:
            assert badge == "★"
        else:
            sep = "," if lang in ("fr", "de") else "."
            assert re.fullmatch(r"\+\d+" + re.escape(sep) + r"\d", badge), badge
            assert abs(float(badge[1:].replace(sep, ".")) - entry["cost"]) <= 0.05 + 1e-9
            assert re.search(re.escape(badge[1:]), card.get_attribute("aria-label") or "")
    assert page.locator("#hint-note").is_visible()
    unit = t(lang, f"hint.unit.{answer['unit']}")
    assert unit in page.inner_text("#hint-note")
    assert page.locator("#hand .card.dimmed.hinted").count() == 0  # only the legal cards
    return best


def test_hint_button_marks_the_costs_and_the_best_card(quick_server: str, chromium: Any,
                                                       shots: Path) -> None:
    browser = chromium
    page, errors = open_page(browser)
    play_now(page, quick_server, "easy")
    watcher = browser.new_context().new_page()  # a spectator: no seat cookie
    watcher.goto(page.url)
    watcher.wait_for_selector("#ring .seat")
    # The declaration: the calls get the badges too, and their keys' list stays words.
    page.wait_for_selector("#prompt .call[data-action=pass]")
    calls = page.locator("#prompt .call").count()
    page.keyboard.press("H")
    wait_until(lambda: page.locator("#prompt .call.hinted").count() == calls, timeout=90)
    assert page.locator("#prompt .call.hint-best .hint-badge").inner_text() == "★"
    assert page.locator("#prompt .call.hint-best").count() == 1
    keys = page.inner_text("#hint .prompt-keys")
    assert "★" not in keys and "+" not in keys, keys
    page.locator("#center").screenshot(path=shots / "hint-declare-en.png")
    for lang in ("en", "de"):
        page.select_option("#lang", lang)
        _to_card_choice(page)
        best = _check_hint(page, lang)
        for size in ((1280, 800), (390, 844)):
            page.set_viewport_size({"width": size[0], "height": size[1]})
            page.wait_for_timeout(150)
            page.screenshot(path=shots / f"hint-{lang}-{size[0]}.png")
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= size[0] + 10, f"{lang}: the table is {width}px wide"
        assert not watcher.locator("#hint-btn").is_visible()
        assert watcher.locator(".hint-badge").count() == 0
        before = page.locator("#hand .card").count()
        page.click(f"#hand .card[data-card='{best}']")
        wait_until(lambda b=before: page.locator("#hand .card").count() < b, timeout=30)
        assert page.locator("#hand .hint-badge").count() == 0  # the hand changed
        assert not page.locator("#hint-note").is_visible()
        page.set_viewport_size({"width": 1280, "height": 800})
    assert not errors, errors


def test_the_lobby_hints_box_follows_the_seats(quick_server: str, chromium: Any,
                                               shots: Path) -> None:
    page, errors = open_page(chromium, 390, 844)
    sent: list[dict[str, Any]] = []
    page.on("request", lambda r: sent.append(r.post_data_json)
            if r.url.endswith("/api/tables") and r.method == "POST" else None)
    page.goto(quick_server + "/")
    page.wait_for_selector("#seats select[name=seat3]", state="attached")
    page.select_option("#lang", "fr")
    wait_until(lambda: page.inner_text("label:has(#hints)")
               == t("fr", "seats.hints"))
    assert page.locator("#hints").is_checked()  # you and bots: hints
    page.select_option("#seats select[name=seat1]", "open")
    assert not page.locator("#hints").is_checked()  # a seat for a person: none
    page.locator("label:has(#hints)").screenshot(path=shots / "hint-lobby-fr-390.png")
    page.check("#hints")  # the creator's choice stays
    page.select_option("#seats select[name=seat2]", "open")
    assert page.locator("#hints").is_checked()
    page.click("#create button[type=submit]")
    page.wait_for_selector("#created .invite-row")
    assert sent and sent[-1]["hints"] is True
    assert not errors, errors
