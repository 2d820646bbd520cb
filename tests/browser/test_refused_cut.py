"""The table page's commitment indicator shows another seat's refused cut (the
``cut-refused`` frame every connection receives, docs/server.md "Refused cuts") in the
page's language, and leaves the player's own to its error frame."""

from __future__ import annotations

from typing import Any

import pytest
from tests.browser.support import open_page, open_table

pytest.importorskip("playwright.sync_api")

FEED_JS = """async ([frames, you]) => {
  const m = await import("/static/verify.js");
  const box = document.createElement("div");
  document.body.append(box);
  const proof = m.dealProof(box, () => {}, "t1");
  proof.onFrame({ type: "state", you, table: { seats: [{ name: "Ann" }, { name: "Bob" }] },
                  shuffle: null });
  const handled = frames.map((f) => proof.onFrame(f));
  return { handled, text: box.textContent, state: box.lastElementChild.dataset.state ?? null };
}"""
REFUSED = {"type": "cut-refused", "deal": 2, "seat": 1, "rule": "cut-closed",
           "message": "no cut is taken for deal 2 now", "at": 1, "closes": None}


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Deal 2: the server refused Bob's cut (cut-closed)."),
    ("fr", "Donne 2 : le serveur a refusé la coupe de Bob (cut-closed)."),
])
def test_another_seats_refused_cut_is_shown(chromium: Any, quick_server: str, lang: str,
                                            text: str) -> None:
    page, errors = open_page(chromium, locale="en-US")
    open_table(page, quick_server, "polignac", query=f"?lang={lang}")
    shown = page.evaluate(FEED_JS, [[REFUSED], 0])
    assert shown["handled"] == [True]  # no toast: the indicator says it
    assert shown["text"] == text and shown["state"] == "bad"
    mine = page.evaluate(FEED_JS, [[{**REFUSED, "seat": 0}], 0])
    assert mine["handled"] == [True] and mine["text"] == ""  # the error frame says it
    # sent again after a reload (no error frame follows): the own refused cut is shown too
    again = page.evaluate(FEED_JS, [[{**REFUSED, "seat": 0, "again": True}], 0])
    assert again["text"] == text.replace("Bob", "Ann") and again["state"] == "bad"
    assert not errors, errors
