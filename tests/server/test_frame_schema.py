"""Every frame the server sends is the one protocol.js types (docs/server.md, "The table
protocol"): protocol.js's typedefs, read as JSON Schema (``protocol_types.py``: closed
objects, each property without ``?`` required), check the frames of a deal of every family,
of a match whose seat cuts every deal (and one refused cut), of a rated match to its end
and its rematch, with a chat message, an error and a pong; every frame type the ``Frame``
union names must come at least once."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from starlette.testclient import TestClient, WebSocketTestSession

from polignac.core import PRESETS
from polignac.server import ServerConfig, create_app
from polignac.server.jobs.botmoves import PoolBackend

from .helpers import hello
from .protocol_types import TypeSyntaxError, frame_schemas, typedefs
from .test_accounts import post, signup
from .test_verify import TABLE, Human, _config

jsonschema = pytest.importorskip("jsonschema")

SCHEMAS = frame_schemas()
FAMILIES = {rules.game: name for name, rules in reversed(PRESETS.items())}
"""One preset of each game family (Polignac, Slobberhannes, Knaves, Bassadewitz, Hearts,
Pollack): the first one listed."""


def problems(frames: list[dict[str, Any]]) -> list[str]:
    """What is wrong with each frame against protocol.js (its type's typedef)."""
    out = []
    for frame in frames:
        schema = SCHEMAS.get(frame.get("type", ""))
        if schema is None:
            out.append(f"a frame type protocol.js does not name: {frame.get('type')!r}")
            continue
        for error in jsonschema.Draft202012Validator(schema).iter_errors(frame):
            where = "/".join(str(p) for p in error.absolute_path)
            out.append(f"{frame['type']} frame at {where or '(top)'}: {error.message[:300]}")
    return out


class Recorder:
    """A seat's WebSocket whose every received frame is kept."""

    def __init__(self, ws: WebSocketTestSession, frames: list[dict[str, Any]]) -> None:
        self.ws, self.frames = ws, frames
        self.seq: int | None = None
        self.view: dict[str, Any] | None = None
        """The last event's number and view, whoever read it (``until`` reads past
        the bots' moves while it waits for an error or a pong)."""

    def recv(self) -> dict[str, Any]:
        frame: dict[str, Any] = self.ws.receive_json()
        self.frames.append(frame)
        if frame["type"] == "event":
            self.seq, self.view = frame["seq"], frame.get("view", self.view)
        return frame

    def until(self, kind: str, limit: int = 20000) -> dict[str, Any]:
        for _ in range(limit):
            frame = self.recv()
            if frame["type"] == kind:
                return frame
        raise AssertionError(f"no {kind} frame")


def play_deal(client: TestClient, preset: str, frames: list[dict[str, Any]]) -> None:
    """Seat 0 of ``preset`` with random bots plays at random until the first deal is over
    and the next begins (or the match ends); a quick message, a bad action and a ping too."""
    players = PRESETS[preset].default_players
    r = client.post("/api/tables", json={"preset": preset, "seats": [{"kind": "you"}] + [
        {"kind": "bot", "level": "random"}] * (players - 1)})
    assert r.status_code == 200, r.text
    rng = random.Random(preset)
    with client.websocket_connect(r.json()["url"] + "/ws") as ws:
        me = Recorder(ws, frames)
        state = hello(ws)
        frames.append(state)
        seq, view = state["seq"], state["view"]
        ws.send_json({"type": "say", "message": "good-luck"})
        ws.send_json({"type": "act", "action": "no-such-action", "seq": seq})
        me.until("error")
        ws.send_json({"type": "ping"})
        me.until("pong")
        if me.seq is not None:  # the bots moved meanwhile: act on what is now
            seq, view = me.seq, me.view or view
        while True:
            deal = view.get("deal")
            if deal and deal.get("legal"):
                ws.send_json({"type": "act", "action": rng.choice(deal["legal"]), "seq": seq})
            frame = me.recv()
            if frame["type"] != "event":
                continue
            seq, view = frame["seq"], frame.get("view", view)
            over = frame["event"]["kind"] == "deal" and view["deals"]  # a deal over, the next on
            if over or frame["event"].get("match_over"):
                return


def test_protocol_js_reads_as_json_schema() -> None:
    defs = typedefs()
    assert {"Frame", "StateFrame", "EventFrame", "TableInfo", "MatchView"} <= set(defs)
    assert set(SCHEMAS) >= {"state", "event", "presence", "error", "pong"}
    with pytest.raises(TypeSyntaxError):
        typedefs("/** @typedef {Map<string, number>} Bad */")


def test_the_schema_catches_a_missing_or_undocumented_field() -> None:
    good = {"type": "rematch", "id": "abc", "url": "/tables/abc"}
    assert problems([good]) == []
    assert problems([{**good, "secret": 1}])  # a field protocol.js does not name
    assert problems([{"type": "rematch", "id": "abc"}])  # a required field missing
    assert problems([{**good, "url": 3}])  # a wrong type
    assert problems([{"type": "no-such-frame"}])


def test_every_frame_the_server_sends_is_typed_by_protocol_js(
        config: ServerConfig, bot_backend: PoolBackend) -> None:
    frames: list[dict[str, Any]] = []
    with TestClient(create_app(config, bot_backend), base_url="http://testserver") as client:
        for preset in FAMILIES.values():
            play_deal(client, preset, frames)
        signup(client, "framer")  # a rated match to its end: its ratings, then a rematch
        r = post(client, "/api/tables", {
            "preset": "polignac", "overrides": {"threshold": 1}, "rated": True,
            "seats": [{"kind": "you"}] + [{"kind": "bot", "level": "random"}] * 3})
        assert r.status_code == 200, r.text
        table = r.json()["id"]
        with client.websocket_connect(f"/tables/{table}/ws") as ws:
            me = Recorder(ws, frames)
            state = hello(ws)
            frames.append(state)
            rng, seq, view = random.Random(3), state["seq"], state["view"]
            while not view["finished"]:
                deal = view.get("deal")
                if deal and deal.get("legal"):
                    ws.send_json({"type": "act", "action": rng.choice(deal["legal"]), "seq": seq})
                frame = me.recv()
                if frame["type"] == "event":
                    seq, view = frame["seq"], frame.get("view", view)
            if not any(f["type"] == "ratings" for f in frames):
                me.until("ratings")
            assert post(client, f"/tables/{table}/rematch").status_code == 200
            me.until("rematch")
            frames.append(hello(ws))  # a finished table's state, with its ratings
    with TestClient(create_app(_config(config))) as client:  # cuts: a refused one, then each deal's
        url = client.post("/api/tables", json=TABLE).json()["url"]
        with client.websocket_connect(url + "/ws") as ws:
            me = Recorder(ws, frames)
            frames.append(hello(ws))
            me.until("commitment")
            ws.send_json({"type": "cut", "deal": 1, "value": "abcd", "commitment": "00" * 32})
            me.until("cut-refused")
            me.until("error")
        with client.websocket_connect(url + "/ws") as ws:
            human = Human(ws, client, url)
            human.until(lambda f: f["type"] == "event" and f["event"].get("match_over"))
            frames += [json.loads(text) for text in human.texts]
    wrong = problems(frames)
    assert not wrong, "\n".join(sorted(set(wrong))[:40])
    assert {f["type"] for f in frames} == set(SCHEMAS), "frame types never seen: " + ", ".join(
        sorted(set(SCHEMAS) - {f["type"] for f in frames}))
