"""Verifiable deals through the server: the commitment comes first, the seat's cut is
mixed in, the seed stays secret until its deal is over (frames and record.json), a
cut after the window is refused, a restart mid-deal still reveals the right seed,
and ``polignac verify`` passes on a live table's record and names a tampered deal."""

from __future__ import annotations

import copy
import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient, WebSocketTestSession

from polignac.cli.main import main
from polignac.core import replay
from polignac.core.shuffle import commitment
from polignac.server import ServerConfig, create_app
from polignac.server.base.clock import ManualClock

from .helpers import hello, next_of, sibling

TABLE = {"preset": "polignac-rounds", "name": "Ann", "overrides": {"deals": 3},
         "seats": [{"kind": "you"}] + [{"kind": "bot", "level": "random"}] * 3}


def _config(config: ServerConfig) -> ServerConfig:
    # later deals take cuts during the deal delay; the first waits for the person's cut;
    # the delay passes when the test moves the clock (Human: once its cut is in)
    return replace(config, deal_delay=30.0, cut_window=10.0, clock=ManualClock())


class Human:
    """Seat 0 over a WebSocket: cuts every deal when its commitment comes, plays at random."""

    def __init__(self, ws: WebSocketTestSession, client: TestClient, url: str) -> None:
        self.ws, self.client, self.url = ws, client, url
        self.rng = random.Random(4)
        self.texts: list[str] = []          # every frame received, as sent
        self.commitments: dict[int, str] = {}
        self.cuts: dict[int, str] = {}
        self.errors: list[dict[str, Any]] = []
        self.records: list[str] = []        # record.json fetched while a deal was on
        state = hello(ws)
        self.texts.append(json.dumps(state))
        self.seq, self.view = state["seq"], state["view"]
        self._play()

    def step(self) -> dict[str, Any]:
        text = self.ws.receive_text()
        self.texts.append(text)
        frame: dict[str, Any] = json.loads(text)
        if frame["type"] == "commitment":
            deal = frame["deal"]
            self.commitments[deal] = frame["commitment"]
            self.cuts[deal] = self.rng.randbytes(16).hex()
            self.ws.send_json({"type": "cut", "deal": deal, "value": self.cuts[deal],
                               "commitment": frame["commitment"]})
        elif frame["type"] == "cut" and frame.get("accepted"):
            self._delay_passes()
        elif frame["type"] == "error":
            self.errors.append(frame)
        elif frame["type"] == "event":
            assert frame["seq"] == self.seq + 1
            self.seq = frame["seq"]
            self.view = frame.get("view", self.view)
            if frame["event"]["kind"] == "deal":
                self.records.append(self.client.get(self.url + "/record.json").text)
            if frame.get("view"):
                self._play()
        return frame

    def _delay_passes(self) -> None:
        """This seat's cut is in: the deal delay passes on the server's clock (the first
        deal needs no time: it waits until every person has cut)."""
        hub = self.client.app.state.hub  # type: ignore[attr-defined]
        if isinstance(hub.clock, ManualClock):
            self.client.portal.call(hub.clock.advance, hub.config.deal_delay)

    def _play(self) -> None:
        deal = self.view.get("deal")
        if deal and deal.get("legal"):
            self.ws.send_json({"type": "act", "action": self.rng.choice(deal["legal"]),
                               "seq": self.seq})

    def until(self, stop: Any, limit: int = 20000) -> None:
        for _ in range(limit):
            if stop(self.step()):
                return
        raise AssertionError("never stopped")


def test_a_live_match_is_verifiable_and_the_seed_stays_secret(
        config: ServerConfig, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with TestClient(create_app(_config(config))) as client:
        url = client.post("/api/tables", json=TABLE).json()["url"]
        with client.websocket_connect(url + "/ws") as ws, \
                sibling(client).websocket_connect(url + "/ws") as spectator:
            spectator.send_json({"type": "hello", "last_seq": 0})
            me = Human(ws, client, url)
            me.until(lambda f: f["type"] == "event" and f["event"].get("match_over"))
            record_text = client.get(url + "/record.json").text
            watched = []  # what the spectator saw, in order
            while '"match_over"' not in (watched[-1] if watched else ""):
                watched.append(spectator.receive_text())
        with client.websocket_connect(url + "/ws") as ws:
            final_state = hello(ws)
    record = json.loads(record_text)
    assert replay(record).finished and len(record["deals"]) == 3
    assert not me.errors, me.errors
    for number, deal in enumerate(record["deals"], start=1):
        proof = deal["shuffle"]
        seed = proof["seed"]
        assert commitment(bytes.fromhex(seed), proof["table"], number) == proof["commitment"]
        assert proof["commitment"] == me.commitments[number]  # published before the deal
        assert proof["cuts"][0] == me.cuts[number] and proof["cuts"][1:] == [None] * 3
        # the seed appears first in the event that ends the deal
        first = next(i for i, t in enumerate(me.texts) if seed in t)
        frame = json.loads(me.texts[first])
        assert frame["type"] == "event" and frame["event"]["deal_over"]
        assert frame["event"]["reveal"] == {"deal": number, "seed": seed,
                                            "commitment": proof["commitment"]}
        announced = next(i for i, t in enumerate(me.texts)
                         if json.loads(t).get("type") == "commitment"
                         and json.loads(t)["deal"] == number)
        dealt = next(i for i, t in enumerate(me.texts) if json.loads(t).get("type") == "event"
                     and json.loads(t)["event"]["kind"] == "deal"
                     and json.loads(t)["event"]["shuffle"]["commitment"] == proof["commitment"])
        assert announced < dealt < first
        assert seed not in me.records[number - 1]  # record.json while the deal was on
        seen = next(i for i, t in enumerate(watched) if seed in t)
        assert json.loads(watched[seen])["event"]["reveal"]["deal"] == number
    assert final_state["shuffle"]["seed"] == record["deals"][-1]["shuffle"]["seed"]

    path = tmp_path / "record.json"
    path.write_text(record_text)
    assert main(["verify", str(path)]) == 0
    out = capsys.readouterr().out
    n = len(record["deals"])
    assert f"{n} of {n} deals verified, 0 failed" in out
    bad = copy.deepcopy(record)
    hands = bad["deals"][1]["hands"]
    hands[0][0], hands[2][0] = hands[2][0], hands[0][0]
    path.write_text(json.dumps(bad))
    assert main(["verify", str(path), "--json"]) == 1
    result = json.loads(capsys.readouterr().out)
    assert [d["status"] for d in result["deals"]] == ["ok", "failed"] + ["ok"] * (n - 2)
    assert main(["verify", str(path)]) == 1
    assert "Deal 2 failed: seat 0: the record's hand holds" in capsys.readouterr().out


def test_cuts_outside_the_window_and_bad_cuts_are_refused(config: ServerConfig) -> None:
    with TestClient(create_app(_config(config))) as client:
        url = client.post("/api/tables", json=TABLE).json()["url"]
        with client.websocket_connect(url + "/ws") as ws:
            state = hello(ws)
            assert state["shuffle"] is None  # no deal yet
            frame = ws.receive_json()
            while frame["type"] != "commitment":
                frame = ws.receive_json()
            assert frame["deal"] == 1 and len(frame["commitment"]) == 64
            assert frame["version"] == "polignac-shuffle/1"
            for bad, rule in [({"deal": 1, "value": "xyz"}, "bad-field"),
                              ({"deal": 1, "value": "ab" * 33}, "bad-field"),
                              ({"deal": "1", "value": "abcd"}, "bad-field"),
                              ({"deal": 10**18, "value": "abcd"}, "bad-field"),
                              ({"deal": 10**30, "value": "abcd"}, "too-large-number"),
                              ({"deal": 1, "value": "abcd", "commitment": "0" * 65},
                               "bad-field"),
                              ({"deal": 2, "value": "abcd"}, "cut-closed"),
                              ({"deal": 1, "value": "abcd", "commitment": "00" * 32},
                               "stale-commitment")]:
                ws.send_json({"type": "cut", **bad})
                answer = next_of(ws, "error")
                assert answer["rule"] == rule, (bad, answer)
            ws.send_json({"type": "cut", "deal": 1, "value": "ABCD"})
            assert next_of(ws, "cut") == {"type": "cut", "deal": 1, "accepted": True}
            frame = next_of(ws, "event")
            dealt = frame["event"]
            assert dealt["kind"] == "deal" and dealt["shuffle"]["cuts"] == ["abcd", None, None,
                                                                            None]
            assert "seed" not in dealt["shuffle"] and "seed" not in json.dumps(frame["view"])
            ws.send_json({"type": "cut", "deal": 1, "value": "abcd"})  # after the deal: late
            answer = next_of(ws, "error")
            assert answer["rule"] == "cut-closed" and "deal 1" in answer["message"]
            ws.send_json({"type": "hello", "last_seq": 0})
            shown = next_of(ws, "state")["shuffle"]
            assert shown["cuts"][0] == "abcd" and shown["deal"] == 1 and "seed" not in shown
        with sibling(client).websocket_connect(url + "/ws") as watcher:  # a spectator
            assert hello(watcher)["you"] is None
            watcher.send_json({"type": "cut", "deal": 2, "value": "abcd"})
            assert next_of(watcher, "error")["rule"] == "spectator"


def test_a_restart_mid_deal_reveals_the_committed_seed(config: ServerConfig) -> None:
    config = _config(config)
    with TestClient(create_app(config)) as client:
        url = client.post("/api/tables", json=TABLE).json()["url"]
        with client.websocket_connect(url + "/ws") as ws:
            me = Human(ws, client, url)
            me.until(lambda f: f["type"] == "event" and f["event"]["kind"] == "act")
        cookies = dict(client.cookies)
    committed = me.commitments[1]
    reveal: dict[str, Any] = {}

    def ended(frame: dict[str, Any]) -> bool:
        if frame["type"] == "event" and "reveal" in frame["event"]:
            reveal.update(frame["event"]["reveal"])
            return True
        return False

    with TestClient(create_app(config), cookies=cookies) as client, \
            client.websocket_connect(url + "/ws") as ws:
        again = Human(ws, client, url)
        assert again.view["deal"] and again.view["deal_number"] == 1
        shown = json.loads(again.texts[0])["shuffle"]
        assert shown["commitment"] == committed and "seed" not in shown
        again.until(ended)
    table_id = url.rsplit("/", 1)[-1]
    assert reveal["deal"] == 1 and reveal["commitment"] == committed
    assert commitment(bytes.fromhex(reveal["seed"]), table_id, 1) == committed
