"""Property-style: no frame ever shows a receiver a card it must not see.

Every preset is played for two deals by one person (random legal actions) and
random bots while a spectator (a connection without a seat cookie) watches;
every frame each of them receives is scanned for cards of other hands not yet
played.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from starlette.testclient import TestClient

from polignac.core import PRESETS

from .helpers import hello, play_until, sibling


def _cards_in(obj: Any, out: set[str]) -> None:
    if isinstance(obj, dict):
        for v in obj.values():
            _cards_in(v, out)
    elif isinstance(obj, list):
        for v in obj:
            _cards_in(v, out)
    elif isinstance(obj, str) and len(obj) == 2:
        out.add(obj)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_frames_hide_other_hands(client: TestClient, preset: str) -> None:
    n = PRESETS[preset].default_players
    r = client.post("/api/tables", json={
        "preset": preset, "seats": [{"kind": "you"}] + [{"kind": "bot", "level": "random"}]
        * (n - 1)})
    assert r.status_code == 200, r.text
    url = r.json()["url"]
    mine: list[dict[str, Any]] = []
    watched: list[dict[str, Any]] = []
    with sibling(client).websocket_connect(url + "/ws") as spectator, \
            client.websocket_connect(url + "/ws") as ws:
        watched.append(hello(spectator))
        assert watched[0]["you"] is None
        first = hello(ws)
        mine.append(first)
        seed = sum(map(ord, preset))
        last, _view = play_until(ws, first, random.Random(seed),
                                 lambda v: len(v["deals"]) >= 2 or v["finished"], mine)
        for _ in range(20000):  # the spectator's frames up to the same event
            frame = spectator.receive_json()
            watched.append(frame)
            if frame.get("seq", 0) >= last and frame["type"] == "event":
                break
    record = client.get(url + "/record.json").json()
    deals = record["deals"]
    assert deals
    for receiver, frames in ((0, mine), (None, watched)):
        hidden: set[str] = set()
        checked = 0
        for frame in frames:
            hidden = _hidden_at(frame, deals, receiver, hidden)
            seen: set[str] = set()
            _cards_in(frame, seen)
            leaked = seen & hidden
            assert not leaked, (receiver, leaked, json.dumps(frame)[:400])
            checked += bool(hidden)
        assert checked, receiver


def _hidden_at(frame: dict[str, Any], deals: list[dict[str, Any]], receiver: int | None,
               before: set[str]) -> set[str]:
    """Cards of other seats not yet played in the deal this frame shows (frames
    without a view: as the previous frame)."""
    view = frame.get("view")
    if view is None:
        return before
    if "deal" in view:
        index, shown = view["deal_number"] - 1, view["deal"]
    elif "last_deal" in view:
        index, shown = len(view["deals"]) - 1, view["last_deal"]
    else:
        return set()
    if index >= len(deals):  # a deal the record does not hold yet
        return before
    d = deals[index]
    played = {a for a in shown["actions"] if len(a) == 2}
    hidden: set[str] = set()
    for i, hand in enumerate(d["hands"]):
        if d["seats"][i] != receiver:
            hidden.update(c for c in hand if c not in played)
    # The Hearts family: the receiver knows the cards it passed and, once everyone has
    # passed, those it received (they must be the cards its passer chose, in the record)
    passing = shown.get("passing") or {}
    known = set(passing.get("given", [])) | set(passing.get("received", []))
    if passing.get("received"):
        n, count = len(d["seats"]), passing["count"]
        start = (passing["from"] - shown["dealer"] - 1) % n * count  # eldest passes first
        assert set(d["actions"][start:start + count]) == set(passing["received"])
    return hidden - known


def _penalty_taken(taken: list[list[str]]) -> bool:
    """True once a penalty card of Black Lady is among the taken cards (the live deal
    is not seeded: five tricks may pass without one)."""
    return any(c == "QS" or c.endswith("H") for cards in taken for c in cards)


def test_points_taken_are_the_same_for_players_and_spectators(client: TestClient) -> None:
    r = client.post("/api/tables", json={
        "preset": "black-lady", "seats": [{"kind": "you"}] + [{"kind": "bot", "level": "random"}]
        * 3})
    assert r.status_code == 200, r.text
    url = r.json()["url"]
    with client.websocket_connect(url + "/ws") as ws:
        first = hello(ws)
        assert first["table"]["taken_unit"] == "penalty"
        seq, view = play_until(ws, first, random.Random(11),
                               lambda v: bool(v.get("deal") and v["deal"].get("legal")
                                              and len(v["deal"]["tricks"]) >= 5
                                              and _penalty_taken(v["deal"]["taken"])))
        with sibling(client).websocket_connect(url + "/ws") as spectator:
            watched = hello(spectator)
    assert watched["you"] is None and watched["seq"] == seq
    mine, theirs = view["deal"], watched["view"]["deal"]
    assert theirs["points_taken"] == mine["points_taken"]
    # Black Lady: 13 for the Queen of spades, 1 a heart, counted from the public takings.
    want = [sum(13 if c == "QS" else c.endswith("H") for c in cards) for cards in mine["taken"]]
    assert mine["points_taken"] == want and sum(want) > 0
