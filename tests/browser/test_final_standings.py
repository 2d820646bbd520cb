"""The match's end: the felt shows the final standings where the hand was (places from the
server's view, ties sharing one, your own row marked), in en/fr/de, on a phone and a desktop,
clear of the seats."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.browser.support import open_page, open_table, play_until

from polignac import i18n

SIZES = ((390, 844), (1280, 800))


def _boxes_apart(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
            or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


@pytest.mark.timeout(600)
def test_the_felt_shows_the_final_standings(quick_server: str, chromium: Any,
                                            shots: Path) -> None:
    page, errors = open_page(chromium, 1280, 800)
    url = open_table(page, quick_server, "polignac-rounds", overrides={"deals": 1})
    final = page.locator("#final")
    assert final.is_hidden()  # not while the match is on
    play_until(page, final.is_visible, 240, "the final standings", calls=True)
    record = page.request.get(quick_server + url + "/record.json").json()
    rows = page.locator("#final-table tbody tr")
    assert rows.count() == 4
    totals = [int(rows.nth(i).locator("td.score").inner_text()) for i in range(4)]
    assert totals == sorted(totals), totals  # a penalty game: the lowest total first
    names = [rows.nth(i).locator("td.who").inner_text() for i in range(4)]
    assert sorted(names) == sorted(["You"] + record["players"][1:]), names
    mine = page.locator("#final-table tbody tr.mine")
    assert mine.count() == 1 and mine.locator("td.who").inner_text() == "You"
    places = [rows.nth(i).locator("td.place").inner_text() for i in range(4)]
    assert places[0] == "1."
    for i in range(1, 4):  # equal totals share a place, else the place is the row's
        want = places[i - 1] if totals[i] == totals[i - 1] else f"{i + 1}."
        assert places[i] == want, (places, totals)
    assert page.locator("#hint").is_hidden()  # no keyboard help without a hand
    for lang in ("en", "fr", "de"):
        page.select_option("#lang", lang)
        assert page.locator("#final-title").inner_text() == i18n.t(lang, "table.finalTitle")
        assert page.locator("#final-table tbody tr td.place").first.inner_text() == \
            i18n.t(lang, "table.finalPlaceFirst")
        # the deal's analysis button is kept across redraws and renamed with the language
        assert page.locator(".deal-analysis button").inner_text() == i18n.t(lang, "analysis.run")
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate("window.scrollTo(0, 0)")
            box = final.bounding_box()
            assert box is not None and box["width"] <= width
            for seat in range(4):
                other = page.locator(f".seat[data-seat='{seat}']").bounding_box()
                assert other is not None and _boxes_apart(box, other), (lang, width, seat)
            page.screenshot(path=shots / f"final-standings-{lang}-{width}.png", full_page=True)
    assert not errors, errors
    page.close()
