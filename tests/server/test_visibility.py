"""Property-style: no frame ever shows a seat a card it must not see."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from starlette.testclient import TestClient

from polignac.core import replay

from .helpers import hello, play_until


def _cards_in(obj: Any, out: set[str]) -> None:
    if isinstance(obj, dict):
        for v in obj.values():
            _cards_in(v, out)
    elif isinstance(obj, list):
        for v in obj:
            _cards_in(v, out)
    elif isinstance(obj, str) and len(obj) == 2:
        out.add(obj)


@pytest.mark.parametrize("preset, seed", [("polignac", 11), ("knaves", 12), ("pollack", 13),
                                          ("slobberhannes", 14)])
def test_frames_hide_other_hands(client: TestClient, preset: str, seed: int) -> None:
    r = client.post("/api/tables", json={
        "preset": preset, "seats": [{"kind": "you"}] + [{"kind": "bot", "level": "random"}]
        * (3 if preset != "knaves" else 2),
    })
    assert r.status_code == 200, r.text
    url = r.json()["url"]
    frames: list[dict[str, Any]] = []
    with client.websocket_connect(url + "/ws") as ws:
        first = hello(ws)
        frames.append(first)
        play_until(ws, first, random.Random(seed), lambda v: len(v["deals"]) >= 2, frames)
    record = client.get(url + "/record.json").json()
    match = replay(record)
    # What seat 0 may know at each frame: its own hands, the turn-up, and every played card.
    deals = record["deals"]
    own = set().union(*(set(d["hands"][d["seats"].index(0)]) for d in deals))
    public: set[str] = set()
    for d in deals:
        if d["turn_up"]:
            public.add(d["turn_up"])
        public.update(a for a in d["actions"] if len(a) == 2)
    assert match.results
    for frame in frames:
        seen: set[str] = set()
        _cards_in(frame, seen)
        hidden_now = _hidden_at(frame, deals)
        leaked = seen & hidden_now
        assert not leaked, (leaked, json.dumps(frame)[:400])
    assert own and public


def _hidden_at(frame: dict[str, Any], deals: list[dict[str, Any]]) -> set[str]:
    """Cards of other seats not yet played in the deal this frame belongs to."""
    view = frame.get("view")
    if view is None or "deal" not in view:
        return set()
    d = deals[view["deal_number"] - 1]
    played = {a for a in view["deal"]["actions"] if len(a) == 2}
    hidden: set[str] = set()
    for i, hand in enumerate(d["hands"]):
        if d["seats"][i] != 0:
            hidden.update(c for c in hand if c not in played)
    return hidden
