"""The lobby's layout: at 1280 px two columns (Play now, Learn, the arenas, people and
the tools on the left; Find players, the tables and Create table on the right), on a
phone one column in the page's order (play, learn, Find players, the tables, creating
one, the arenas, people, the tools), with no sideways scrolling, in all three languages.
Three columns from 90rem: ``test_lobby_desktop.py``."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from .support import open_page

LEFT = ["#play-now", "#learn-panel", "#arenas-panel", "#people-panel", "#replay-link",
        "#scorepad-link"]
RIGHT = ["#seek-panel", "#tables", "#create"]
PHONE = ["#play-now", "#learn-panel", "#seek-panel", "#tables", "#create", "#arenas-panel",
         "#people-panel", "#replay-link", "#scorepad-link"]


def _panels(page: Any, selectors: list[str]) -> list[dict[str, float]]:
    """The box of the panel of each of ``selectors``, in that order."""
    boxes: list[dict[str, float]] = page.evaluate(
        """sels => sels.map(s => {
             const r = document.querySelector(s).closest('.panel').getBoundingClientRect();
             return {x: r.left, y: r.top + window.scrollY, right: r.right, bottom: r.bottom};
           })""", selectors)
    return boxes


def test_two_columns_on_a_desktop_one_on_a_phone(server: str, chromium: Any) -> None:
    page, errors = open_page(chromium)
    for lang in ("en", "fr", "de"):
        page.set_viewport_size({"width": 1280, "height": 800})
        page.goto(f"{server}/?lang={lang}")
        page.wait_for_selector("#preset option", state="attached")
        boxes = _panels(page, LEFT + RIGHT)
        left, right = boxes[:len(LEFT)], boxes[len(LEFT):]
        assert len({b["x"] for b in left}) == 1 and len({b["x"] for b in right}) == 1
        assert right[0]["x"] >= left[0]["right"], boxes  # side by side
        assert abs(right[0]["y"] - left[0]["y"]) < 1  # both columns start at the top
        for column in (left, right):  # each column in order, top to bottom
            assert all(a["bottom"] <= b["y"] for a, b in pairwise(column)), column
        height = page.evaluate("document.documentElement.scrollHeight")
        assert height < 2 * 800, height  # one narrow column was 2,440 px; two are ~1,540

        page.set_viewport_size({"width": 390, "height": 844})
        boxes = _panels(page, PHONE)
        assert len({round(b["x"]) for b in boxes}) == 1, boxes  # one column
        assert all(a["bottom"] <= b["y"] for a, b in pairwise(boxes)), boxes
        assert page.evaluate("document.documentElement.scrollWidth") <= 400
    assert not errors, errors
