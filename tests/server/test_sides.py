"""The server says whether a game has partnerships (and its sides) from the core's rules."""

from __future__ import annotations

import random

from starlette.testclient import TestClient

from polignac.core import PRESETS, replay, summary

from .helpers import hello, play_until


def test_presets_say_partnerships_and_sides(client: TestClient) -> None:
    for url in ("/api/presets", "/api/scorepad/presets"):
        presets = {p["name"]: p for p in client.get(url).json()["presets"]}
        assert set(presets) == set(PRESETS)
        for name, rules in PRESETS.items():
            assert presets[name]["partnerships"] is rules.partnerships
            assert presets[name]["sides"] == [list(s) for s in rules.sides]
        assert presets["pollack"]["sides"] == [[0, 2], [1, 3]]
        assert presets["polignac"]["sides"] == [] and not presets["polignac"]["partnerships"]


def test_a_pollack_table_sends_its_sides_and_sheet(client: TestClient) -> None:
    r = client.post("/api/tables", json={"preset": "pollack", "seats": [{"kind": "you"}] + [
        {"kind": "bot", "level": "easy"}] * 3, "overrides": {"parties": 2, "partie_target": 9}})
    assert r.status_code == 200, r.text
    url = r.json()["url"]
    with client.websocket_connect(url + "/ws") as ws:
        state = hello(ws)
        assert state["table"]["partnerships"] is True
        assert state["table"]["sides"] == [[0, 2], [1, 3]] == state["view"]["sides"]
        _seq, view = play_until(ws, state, random.Random(4), lambda v: v["finished"])
    want = summary(replay(client.get(url + "/record.json").json()))
    assert view["parties_tally"] == want["parties_tally"] and sum(view["parties_tally"]) == 2
    assert view["partie_scores"] == want["partie_scores"]
    assert view["game_points"] == want["game_points"]
    assert [d["side_scores"] for d in view["deals"]] == [d["side_scores"] for d in want["deals"]]
    r = client.post("/api/replay", content=client.get(url + "/record.json").content,
                    headers={"content-type": "application/json"})
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["partnerships"] is True and data["sides"] == [[0, 2], [1, 3]]
    assert data["summary"]["parties_tally"] == want["parties_tally"]


def test_other_tables_have_no_sides(client: TestClient) -> None:
    r = client.post("/api/play-now")
    with client.websocket_connect(r.json()["url"] + "/ws") as ws:
        state = hello(ws)
        assert state["table"]["partnerships"] is False and state["table"]["sides"] == []
        assert "sides" not in state["view"]
