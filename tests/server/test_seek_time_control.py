"""Find players with a time control (issue 31, item 1): a request asks for a time
control or for an untimed table; only requests that ask the same are seated together,
and their table keeps that clock; a bad control is refused."""

from __future__ import annotations

from typing import Any

import pytest

from .test_seek_limits import Lobby, ask, lobby, mine, seat_at_once  # noqa: F401

BLITZ = {"kind": "realtime", "base": 180, "increment": 2}


def _table(browser: Any, url: str) -> dict[str, Any]:
    with browser.websocket_connect(url + "/ws") as ws:
        ws.send_json({"type": "hello", "last_seq": 0})
        table: dict[str, Any] = ws.receive_json()["table"]
        return table


def test_people_asking_the_same_clock_are_seated_at_it(lobby: Lobby) -> None:  # noqa: F811
    ann, bob = lobby.browser("203.0.113.5"), lobby.browser("198.18.7.9")
    assert ask(ann, bots_after=120, time_control=BLITZ).json()["seek"]["time_control"] == BLITZ
    # the same clock, its fields in another order: the same request
    assert ask(bob, bots_after=120, time_control={"increment": 2, "base": 180,
                                                  "kind": "realtime"}).status_code == 200
    listed = ann.get("/api/seeks").json()["seeks"]
    assert [(g["time_control"], g["waiting"]) for g in listed] == [(BLITZ, 2)]
    url, other = seat_at_once(lobby, [ann, bob])
    assert url == other
    assert _table(ann, url)["time_control"] == BLITZ


def test_other_clocks_are_other_requests(lobby: Lobby) -> None:  # noqa: F811
    ann, bob, cy = (lobby.browser(a) for a in ("203.0.113.5", "198.18.7.9", "192.0.2.7"))
    assert ask(ann, bots_after=120, time_control=BLITZ).status_code == 200
    assert ask(bob, bots_after=120, time_control={"kind": "days", "days": 3}).status_code == 200
    assert ask(cy, bots_after=120).status_code == 200  # untimed
    for p in (ann, bob, cy):
        mine(p)
    lobby.round()
    assert [mine(p)["state"] for p in (ann, bob, cy)] == ["waiting"] * 3
    controls = sorted(str(g["time_control"]) for g in ann.get("/api/seeks").json()["seeks"])
    assert len(controls) == 3


@pytest.mark.parametrize("control", [
    {"kind": "realtime", "base": 5, "increment": 0}, {"kind": "days", "days": 4},
    {"kind": "move"}, "3+2", 7, {"kind": "bullet"},
])
def test_a_bad_clock_is_refused(lobby: Lobby, control: Any) -> None:  # noqa: F811
    r = ask(lobby.browser(), bots_after=120, time_control=control)
    assert r.status_code == 400 and r.json()["rule"] == "bad-time-control", r.text
