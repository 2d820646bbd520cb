"""Forwarding to a table's owner over the bus (relay.py), between two real
``polignac serve`` processes that play two machines (nothing handed between them)
on one SQLite database and a Redis bus, with no proxy in front: the sockets that
land on the process which does not own the table are served there as seats of
the owner's table.

A listener on Redis reads every message the processes publish: what crosses is
the game's messages (the client's parsed frames one way, the protocol's frames
the other), never ASGI's; and a forged intent, not signed with the secret,
is refused though it names a live forwarding.
"""

from __future__ import annotations

import json
import random
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest

from polignac.server.cluster.bus import sign, verify
from polignac.server.cluster.peers import channel_of
from polignac.server.cluster.tunnel import MAX_RELAYED, _Tunnel
from polignac.server.tables.session import HANDLERS

from .cluster_support import SECRET, Proc, Viewer, new_table, stored_events
from .conftest import RedisServer, free_port
from .test_cluster import _act
from .waiting import wait_until

pytest.importorskip("websockets.sync.client")
pytest.importorskip("broadcaster")
redis = pytest.importorskip("redis")


ASGI_WORDS = ("websocket.receive", "websocket.send", "websocket.accept", "http.request",
              "http.response.start")
FRAME_TYPES = {"state", "event", "presence", "rematch", "commitment", "cut", "error", "pong"}


class Listener:
    """Every message published on the processes' channels, as (channel, object) once
    checked against the secret; a message that does not verify goes to ``unsigned``."""

    def __init__(self, url: str) -> None:
        self.client = redis.Redis.from_url(url)
        self.pubsub = self.client.pubsub()
        self.pubsub.psubscribe("polignac_*")
        self.seen: list[tuple[str, dict[str, Any]]] = []
        self.unsigned: list[str] = []
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stop.is_set():
            msg = self.pubsub.get_message(timeout=0.1)
            if msg is None or msg["type"] != "pmessage":
                continue
            channel, signed = msg["channel"].decode(), msg["data"].decode()
            text = verify(SECRET.encode(), channel, signed)
            with self.lock:
                if text is None:
                    self.unsigned.append(signed)
                elif channel != "polignac_alive":
                    self.seen.append((channel, json.loads(text)))

    def kinds(self, channel: str | None = None) -> list[dict[str, Any]]:
        with self.lock:
            return [m for c, m in self.seen if channel is None or c == channel]

    def wait_for(self, check: Any, seconds: float = 20.0) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = wait_until(
            lambda: [m for m in self.kinds() if check(m)], seconds,
            what="such a message on the bus", interval=0.05)
        return found

    def close(self) -> None:
        self.stop.set()
        self.thread.join(5)
        self.pubsub.close()
        self.client.close()


def _health(proc: Proc) -> dict[str, Any]:
    body: dict[str, Any] = httpx.get(proc.base + "/health", trust_env=False).json()
    return body


@pytest.mark.slow
@pytest.mark.redis
@pytest.mark.timeout(600)
def test_what_crosses_the_bus_is_game_messages(redis_server: RedisServer,
                                               tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'polignac.db'}"
    bus = redis_server.url(7)
    procs: list[Proc] = []
    listener = Listener(bus)
    players: list[Viewer] = []
    try:
        for i in range(2):  # one after the other: the first creates the schema
            procs.append(Proc(f"m{i}", free_port(), url, bus, tmp_path / "data",
                              machine=f"machine{i}"))
            procs[-1].wait_ready()
        owner, edge = procs
        table, cookies = new_table(owner, [owner, edge, owner])
        players = [Viewer(table, c) for c in cookies]
        for i, p in enumerate(players):  # seats 1 and 3 on the process that is not the owner
            p.connect([owner, edge], i % 2)
        spectator = Viewer(table, None)
        spectator.connect([edge])
        rng = random.Random(11)
        acked = [a for a in (_act(players, rng, spectator) for _ in range(16)) if a]
        assert len(acked) >= 8
        stored = {s[0]: s for s in stored_events(url, table)}
        for seq, seat, action in acked:  # acknowledged: stored
            assert stored[seq][1:] == ("act", action, seat)
        for v in [*players, spectator]:  # the forwarded viewers saw the same events
            v.until(max(p.seq for p in players))
        for seq in range(1, max(p.seq for p in players) + 1):
            seen = [{k: x for k, x in v.events[seq].items() if k != "hand"}
                    for v in [*players, spectator] if seq in v.events]
            assert all(s == seen[0] for s in seen), seq

        # what the edge answers itself (a frame its parser refuses), what the owner
        # answers (an unknown type, a seat cookie that is not valid)
        from websockets.exceptions import InvalidStatus
        from websockets.sync.client import connect

        socket_url = f"ws://127.0.0.1:{edge.port}/tables/{table}/ws"
        with pytest.raises(InvalidStatus):
            connect(socket_url, proxy=None, open_timeout=10,
                    additional_headers={"Cookie": f"polignac_{table}=3.not-a-token"})
        with connect(socket_url, proxy=None, open_timeout=10) as ws:
            ws.send("not json")
            assert json.loads(ws.recv(timeout=10))["rule"] == "bad-json"
            ws.send(json.dumps({"type": "nope"}))
            assert json.loads(ws.recv(timeout=10))["rule"] == "unknown-type"

        record = httpx.get(f"{edge.base}/tables/{table}/record.json", trust_env=False)
        direct = httpx.get(f"{owner.base}/tables/{table}/record.json", trust_env=False)
        assert record.status_code == 200 and record.json() == direct.json()

        health = [_health(p) for p in procs]
        assert health[0]["cluster"]["served_forwarded"] >= 4, health  # 3 sockets, 1 GET
        assert health[1]["cluster"]["forwarded"] >= 4, health
        assert health[0]["owned_tables"] == 1 and health[1]["owned_tables"] == 0

        # what crossed: the clients' parsed frames to the owner, the protocol's frames back
        to_owner = listener.kinds(channel_of(health[0]["process"]))
        to_edge = listener.kinds(channel_of(health[1]["process"]))
        assert not any(w in json.dumps(m) for m in to_owner + to_edge for w in ASGI_WORDS)
        kinds = {m["t"] for m in to_owner + to_edge}
        assert {"join", "frame", "joined", "out", "request", "response"} <= kinds, kinds
        assert not kinds & {"open", "in", "go"}, kinds  # the ASGI tunnel's
        intents = [m["f"] for m in to_owner if m["t"] == "frame"]
        assert all(isinstance(f, dict) for f in intents)
        assert {f["type"] for f in intents} == {"hello", "act", "nope"}  # what was sent
        assert {"hello", "act"} <= set(HANDLERS)
        sent_acts = {(f["action"], f["seq"]) for f in intents if f["type"] == "act"}
        assert any((action, seq - 1) in sent_acts for seq, _seat, action in acked)
        frames = [f for m in to_edge if m["t"] == "out" for f in m["f"]]
        assert frames and all(f["type"] in FRAME_TYPES for f in frames)
        events = {f["seq"]: f["event"] for f in frames if f["type"] == "event"}
        for seq, seat, action in acked:  # the forwarded seats' events came as events
            if seq in events:
                assert (events[seq]["seat"], events[seq]["action"]) == (seat, action)
        # the spectator's frames crossed too, and never with a hand
        join = next(m for m in to_owner if m["t"] == "join" and m["k"] is None)
        for m in to_edge:
            if m["t"] == "out" and m["r"] == join["r"]:
                for f in m["f"]:
                    assert (f.get("event") or {}).get("hand") is None

        # a forged intent on the owner's channel, for the live forwarding of the seat
        # to act (seat 1 or 3: on the other process), its legal action: not signed
        # with the secret, or signed with another, it is refused and nothing is played
        for _ in range(40):
            top = max(p.seq for p in players)
            for p in players:
                p.until(top)
            actor = next((i for i, p in enumerate(players) if p.legal()), None)
            if actor in (1, 3):
                break
            _act(players, rng, spectator)
        else:
            raise AssertionError("seats 1 and 3 never had to act")
        token = cookies[actor].split("=", 1)[1]
        join = next(m for m in listener.kinds(channel_of(health[0]["process"]))
                    if m["t"] == "join" and m["k"] == token)
        target = channel_of(health[0]["process"])
        refused = _health(owner)["cluster"]["bus_refused"]
        forged = json.dumps({"t": "frame", "r": join["r"], "f": {
            "type": "act", "action": players[actor].legal()[0], "seq": top}})
        raw = redis.Redis.from_url(bus)
        raw.publish(target, forged)
        raw.publish(target, sign(b"not-the-secret-of-these-servers", target, forged))
        raw.close()
        wait_until(lambda: _health(owner)["cluster"]["bus_refused"] >= refused + 2, 30,
                   what="the forged messages to be refused", interval=0.05)
        assert max(s[0] for s in stored_events(url, table)) == top  # nothing played
        assert len(listener.unsigned) == 2  # the processes signed all but the forged two
        got = _act(players, rng, spectator)  # the seat itself plays on, next in line
        assert got is not None and got[0] == top + 1 and got[1] == actor
    finally:
        for v in players:
            v.close()
        listener.close()
        for p in procs:
            p.kill()


def test_a_tunnel_keeps_a_bounded_queue_for_a_client_that_does_not_read() -> None:
    """issue 22: while the relay's send is blocked, at most MAX_RELAYED messages wait;
    the next one ends the forwarding (what waited is dropped, a final None stays)."""
    tunnel = _Tunnel("p")
    for i in range(MAX_RELAYED):
        assert tunnel.put({"t": "out", "i": i})
    assert not tunnel.put({"t": "out", "i": MAX_RELAYED})
    assert tunnel.overflowed and tunnel.queue.qsize() == 1
    assert tunnel.queue.get_nowait() is None
    assert not tunnel.put({"t": "out"})  # and nothing more is kept
    assert tunnel.queue.empty()


def test_a_tunnel_to_a_client_that_does_not_read_is_bounded_in_bytes_too() -> None:
    """issue 32 item 7: a forwarded socket's messages (each a batch of up to MAX_BATCH
    frames) are bounded by the bytes a direct socket may queue (``max_queued_bytes``),
    not only by their count: the message that would go over it ends the forwarding;
    what the reader takes counts no more."""
    tunnel = _Tunnel("p", max_bytes=1000)
    assert tunnel.put({"t": "out", "i": 0}, 400)
    assert tunnel.put({"t": "out", "i": 1}, 400)
    assert tunnel.take_nowait() == {"t": "out", "i": 0}  # read: 400 bytes wait
    assert tunnel.put({"t": "out", "i": 2}, 600)
    assert not tunnel.put({"t": "out", "i": 3}, 1)  # 1001 bytes: over
    assert tunnel.overflowed and tunnel.queue.qsize() == 1 and tunnel.waiting == 0
    assert tunnel.take_nowait() is None
    unbounded = _Tunnel("p")  # an HTTP answer: one message, counted only
    assert unbounded.put({"t": "response"}, 40 << 20)


def test_the_edge_of_a_forwarded_socket_keeps_what_a_direct_socket_keeps() -> None:
    """The edge's tunnel is bounded by the config's max_queued_bytes; a message over
    it, as it comes off the bus, ends the forwarding at the owner (``end``)."""
    from types import SimpleNamespace

    from polignac.server.cluster.relay import Relay

    spawned: list[Any] = []
    cluster = SimpleNamespace(hub=SimpleNamespace(config=SimpleNamespace(
        max_queued_bytes=2048)), spawn=spawned.append)
    relay = Relay(cluster)  # type: ignore[arg-type]
    tunnel = relay.outbound["r1"] = relay.edge_tunnel("owner")
    assert tunnel.max_bytes == 2048
    frames = {"t": "out", "r": "r1", "f": [{"type": "event", "x": "y" * 500}]}
    assert relay.on_message("out", "r1", frames, 1024)
    assert relay.on_message("out", "r1", frames, 1024) and "r1" in relay.outbound
    assert relay.on_message("out", "r1", frames, 1024)  # 3072 bytes would wait
    assert "r1" not in relay.outbound and tunnel.overflowed
    assert len(spawned) == 1  # the owner hears ``end``
    spawned[0].close()
