"""The lobby's Create table form: house rules per game, and the server's reason beside the button.

For each game the form offers the house rules its preset lists (``params`` of
``/api/presets``; every house rule while the server does not list them), in that order.
A form the server refuses says why next to the Create button, in the page's language, on a
phone and on a desktop, in English, French and German.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.browser.support import open_page, wait_until

from polignac import i18n

pytest.importorskip("playwright.sync_api")

SIZES = ((390, 844), (1280, 800))


def _expected(info: dict[str, Any], preset: str) -> list[str]:
    """The house rules the form should offer for ``preset``, in order."""
    p = next(x for x in info["presets"] if x["name"] == preset)
    listed = p.get("params")
    if listed is None:
        return list(info["house_rules"])
    names = [x if isinstance(x, str) else x["name"] for x in listed]
    return [n for n in names if n in info["house_rules"] or not isinstance(n, str)]


@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_house_rules_per_game_and_the_reason_beside_the_button(chromium: Any, server: str,
                                                               shots: Path, lang: str) -> None:
    page, errors = open_page(chromium, 1280, 800)
    info = page.request.get(server + "/api/presets").json()
    page.goto(f"{server}/?lang={lang}")
    wait_until(lambda: page.locator("#preset option").count() == len(info["presets"]))
    for p in info["presets"]:
        page.select_option("#preset", p["name"])
        names = page.eval_on_selector_all("#house [name^='rule:']",
                                          "(xs) => xs.map((x) => x.name.slice(5))")
        assert names == _expected(info, p["name"]), p["name"]
    # A stale form (its bound taken off) sends a threshold the server refuses.
    page.select_option("#preset", "polignac")
    page.eval_on_selector("[name='rule:threshold']", "(x) => x.removeAttribute('max')")
    page.fill("[name='rule:threshold']", "100000")
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.locator("#create-error").evaluate("(x) => { x.textContent = ''; }")
        page.click("#create button[type=submit]")
        wait_until(lambda: page.locator("#create-error").inner_text() != "")
        text = page.locator("#create-error").inner_text()
        assert i18n.t(lang, "error.bad-rules") in text, text
        assert "500" in text, text  # the server's reason: the bound
        assert page.locator("#error").inner_text() == ""  # not at the page's bottom
        button = page.locator("#create button[type=submit]").bounding_box()
        box = page.locator("#create-error").bounding_box()
        assert button and box
        assert box["y"] < button["y"] + button["height"] + 80, (button, box)  # beside or under it
        assert box["x"] + box["width"] <= width
        page.locator("#create-error").scroll_into_view_if_needed()
        page.screenshot(path=shots / f"create-refused-{lang}-{width}.png")
    assert not errors, errors
