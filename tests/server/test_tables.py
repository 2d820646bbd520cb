"""The table's pacing: a bot waits longer after a trick, and the page learns how long."""

from __future__ import annotations

from dataclasses import replace

from starlette.testclient import TestClient

from polignac.server import ServerConfig, create_app
from polignac.server.tables.tables import bot_wait

ORIGIN = {"origin": "http://testserver"}


def test_a_bot_waits_the_trick_pause_after_a_trick(config: ServerConfig) -> None:
    paced = replace(config, bot_delay=0.7, trick_pause=1.5)
    assert bot_wait(paced, None) == 0.7
    assert bot_wait(paced, {"kind": "deal", "dealer": 0}) == 0.7
    assert bot_wait(paced, {"kind": "act", "seat": 1, "action": "7C"}) == 0.7
    trick = {"leader": 0, "winner": 1, "cards": ["7C", "AC", "8C"], "seats": [0, 1, 2]}
    assert bot_wait(paced, {"kind": "act", "seat": 2, "action": "8C", "trick": trick}) == 2.2
    # The last trick of a deal: the deal delay paces the next deal instead.
    assert bot_wait(paced, {"kind": "act", "seat": 2, "action": "8C", "trick": trick,
                            "deal_over": True}) == 0.7
    assert bot_wait(replace(paced, trick_pause=0.0),
                    {"kind": "act", "seat": 2, "action": "8C", "trick": trick}) == 0.7


def test_the_table_info_tells_the_page_the_trick_pause(config: ServerConfig) -> None:
    with TestClient(create_app(replace(config, trick_pause=2.5))) as client:
        r = client.post("/api/tables", headers=ORIGIN, json={
            "preset": "polignac", "players": 3,
            "seats": [{"kind": "you"}, {"kind": "bot", "level": "easy"},
                      {"kind": "bot", "level": "easy"}]})
        assert r.status_code == 200, r.text
        with client.websocket_connect(r.json()["url"] + "/ws", headers=ORIGIN) as ws:
            ws.send_json({"type": "hello", "last_seq": 0})
            state = ws.receive_json()
            assert state["type"] == "state"
            assert state["table"]["trick_pause"] == 2.5


def test_the_table_info_gives_the_resolved_rules_as_the_presets_list_does(
        config: ServerConfig) -> None:
    with TestClient(create_app(config)) as client:
        presets = {p["name"]: p for p in client.get("/api/presets").json()["presets"]}
        r = client.post("/api/tables", headers=ORIGIN, json={
            "preset": "polignac", "overrides": {"threshold": 17},
            "seats": [{"kind": "you"}] + [{"kind": "bot", "level": "easy"}] * 3})
        assert r.status_code == 200, r.text
        with client.websocket_connect(r.json()["url"] + "/ws", headers=ORIGIN) as ws:
            ws.send_json({"type": "hello", "last_seq": 0})
            rules = ws.receive_json()["table"]["rules"]
        assert rules == {**presets["polignac"], "threshold": 17}
