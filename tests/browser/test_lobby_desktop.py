"""The lobby on a desktop (issue 34, as lichess's home): three columns from 90rem wide,
Play now | Find players and the tables | the arenas and who is online; two from 62rem
(the arenas and people under Play now); one on a phone, in the page's order.  Three
accounts are online in the lobby, one of them followed, and an arena is coming.
Screenshots (``docs/screenshots/lobby-desktop-*`` with ``POLIGNAC_SCREENSHOTS``)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from .support import wait_until

PASSWORD = "a long enough secret"
WIDE = {"width": 1600, "height": 1000}


def _box(page: Any, selector: str) -> dict[str, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return dict(box)


def test_the_lobby_side_by_side_on_a_desktop(chromium: Any, server: str, shots: Path) -> None:
    pages: dict[str, Any] = {}
    errors: list[str] = []
    for name in ("Ann_desk", "Bob_desk", "Cy_desk"):
        context = chromium.new_context(viewport=WIDE)
        r = context.request.post(server + "/api/account/signup",
                                 data={"username": name, "password": PASSWORD})
        assert r.ok, r.text()
        pages[name] = context.new_page()
        pages[name].on("pageerror", lambda exc: errors.append(str(exc)))
    ann = pages["Ann_desk"]
    assert ann.request.post(server + "/api/follows/Bob_desk", data={}).ok
    r = ann.request.post(server + "/api/tournaments", data={
        "preset": "polignac", "seats": 4, "starts_at": time.time() + 3600, "minutes": 60,
        "time_control": {"kind": "realtime", "base": 180, "increment": 2}, "rated": True,
        "bot_wait": 60})
    assert r.ok, r.text()
    for name in ("Bob_desk", "Cy_desk", "Ann_desk"):
        pages[name].goto(server + "/")
    wait_until(lambda: "in the lobby" in ann.inner_text("#follows"), 40,
               what="Bob in Ann's list of people she follows")
    wait_until(lambda: all(n in ann.inner_text("#online-people")
                           for n in ("Bob_desk", "Cy_desk")), 40, what="who is online")
    ann.wait_for_selector("#arenas-panel a[href^='/tournaments/']")

    play, seek, arenas = (_box(ann, s) for s in ("#play-panel", "#seek-panel", "#arenas-panel"))
    people, tables = _box(ann, "#people-panel"), _box(ann, "#tables")
    assert play["x"] + play["width"] < seek["x"] < arenas["x"]  # three columns
    # side by side, at the top
    assert abs(seek["y"] - arenas["y"]) < 40 and abs(play["y"] - seek["y"]) < 40
    assert people["x"] == arenas["x"] and people["y"] > arenas["y"]
    assert tables["x"] >= seek["x"] and tables["y"] > seek["y"]
    ann.screenshot(path=shots / "lobby-desktop-1600.png")

    ann.set_viewport_size({"width": 1100, "height": 900})  # two columns
    play, seek, arenas = (_box(ann, s) for s in ("#play-panel", "#seek-panel", "#arenas-panel"))
    assert play["x"] < seek["x"] and arenas["x"] < seek["x"] and arenas["y"] > play["y"]
    ann.screenshot(path=shots / "lobby-desktop-1100.png")

    ann.set_viewport_size({"width": 390, "height": 844})  # one column, the page's order
    play, seek, arenas = (_box(ann, s) for s in ("#play-panel", "#seek-panel", "#arenas-panel"))
    assert abs(play["x"] - seek["x"]) < 40 and play["y"] < seek["y"] < arenas["y"]
    assert ann.evaluate("() => document.documentElement.scrollWidth") <= 390

    # Ann sits at a table with a seat open: one click on Invite beside Bob, and Bob's
    # lobby shows her invitation
    ann.set_viewport_size(WIDE)
    r = ann.request.post(server + "/api/tables", data={
        "preset": "polignac", "seats": [{"kind": "you"}, {"kind": "open"},
                                        {"kind": "bot", "level": "easy"},
                                        {"kind": "bot", "level": "easy"}]})
    assert r.ok, r.text()
    ann.reload()
    ann.click("#follows .invite-person")
    wait_until(lambda: "Bob_desk" in ann.inner_text("#follows .invite-status"),
               what="the invitation sent")
    bob = pages["Bob_desk"]
    bob.wait_for_selector("#your-invites:not([hidden])", timeout=40_000)
    assert "Ann_desk" in bob.inner_text("#your-invites")
    ann.screenshot(path=shots / "lobby-desktop-invite-1600.png")
    assert not errors, errors
