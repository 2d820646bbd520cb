"""The lobby's level picker, and a Play-now table at level hard played by clicking to the
end of a deal (its bots' moves computed in the worker pool).

Screenshots go to ``$POLIGNAC_SCREENSHOTS`` (default: the test's tmp folder).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.browser.support import open_page, play_now, play_until, wait_until

from polignac.i18n import t

pytest.importorskip("playwright.sync_api")


def test_lobby_offers_each_level_with_its_strength(server: str, chromium: Any,
                                                   shots: Path) -> None:
    page, errors = open_page(chromium)
    page.goto(server + "/")
    page.wait_for_selector("#play-level input[name=level]", state="attached")
    values = page.eval_on_selector_all("#play-level input[name=level]",
                                       "xs => xs.map(x => x.value)")
    assert values == ["easy", "medium", "hard"]
    assert page.is_checked("#level-medium")  # the default
    for lang in ("en", "fr", "de"):
        page.select_option("#lang", lang)
        wait_until(lambda lang=lang: page.inner_text("#play-level legend")
                   == t(lang, "lobby.level"))
        about = page.inner_text("#level-hard + .level-name + .level-about")
        assert about == t(lang, "level.about.hard")
        for size in ((1280, 800), (390, 844)):
            page.set_viewport_size({"width": size[0], "height": size[1]})
            page.wait_for_timeout(150)
            page.locator("#play-level").screenshot(
                path=shots / f"levels-{lang}-{size[0]}.png")
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= size[0] + 10, f"{lang}: the lobby is {width}px wide"
    assert not errors, errors


def test_play_now_at_hard_by_clicking_to_the_end_of_a_deal(server: str, chromium: Any,
                                                           shots: Path) -> None:
    page, errors = open_page(chromium, 1200, 860)
    play_now(page, server, "hard")
    assert page.locator("#hand .card").count() == 8
    clicks = play_until(  # header, deal 1, totals
        page, lambda: page.locator("#scores tr").count() >= 3, 120,
        "the end of the deal", calls=True)
    page.screenshot(path=shots / "hard-deal-over.png")
    assert clicks == 8
    record = page.request.get(page.url + "/record.json").json()
    assert len(record["deals"]) >= 1
    assert record["players"][1:] == [f"Hard bot {n}" for n in (2, 3, 4)], \
        record["players"]
    assert not errors, errors
