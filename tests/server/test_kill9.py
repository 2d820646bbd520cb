"""kill -9 durability: ``polignac serve`` is killed at random moments while four
people play over real WebSockets; after each restart nothing acknowledged is
lost and the state is the state before the kill.

An action counts as acknowledged when its event came back; the server sends an
event only after committing it, so every event any client saw must survive.
The one action in flight at the kill may or may not have been committed; if it
was, it is the only new action after the restart (plus, perhaps, the next deal).
"""

from __future__ import annotations

import contextlib
import json
import random
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest

from polignac.core import replay

from .conftest import free_port
from .waiting import wait_until

websockets_sync = pytest.importorskip("websockets.sync.client")
from websockets.exceptions import ConnectionClosed  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

KILLS = 5
TIMEOUT = 10.0


def _polignac() -> list[str]:
    script = Path(sys.executable).parent / "polignac"
    if script.exists():
        return [str(script)]
    found = shutil.which("polignac")
    return [found] if found else [sys.executable, "-m", "polignac"]


class Server:
    """``polignac serve`` on a free port of 127.0.0.1; bots and dealer without delay."""

    def __init__(self, data: Path, database_url: str) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc = subprocess.Popen(
            [*_polignac(), "serve", "--host", "127.0.0.1", "--port", str(self.port),
             "--data", str(data), "--database-url", database_url, "--grace", "600",
             "--bot-delay", "0", "--deal-delay", "0", "--rate", "10000"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        def answers() -> bool:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                raise AssertionError(f"polignac serve exited: {err[-2000:]}")
            return httpx.get(self.base + "/api/presets", timeout=1,
                             trust_env=False).status_code == 200

        try:
            wait_until(answers, 120,  # a shared machine may start it slowly
                       what="polignac serve to start", interval=0.05,
                       ignoring=(httpx.HTTPError,))
        except AssertionError:
            self.kill()
            raise

    def kill(self) -> None:
        """SIGKILL, and wait for it."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=10)
        if self.proc.stderr:
            self.proc.stderr.close()


class Player:
    """One person's WebSocket, with what it has seen."""

    def __init__(self, server: Server, table: str, cookie: str) -> None:
        self.stack = contextlib.ExitStack()
        self.ws = self.stack.enter_context(websockets_sync.connect(
            f"ws://127.0.0.1:{server.port}/tables/{table}/ws", proxy=None,
            additional_headers={"Cookie": cookie}, open_timeout=TIMEOUT))
        self.seq = 0
        self.view: dict[str, Any] = {}
        self.ws.send(json.dumps({"type": "hello", "last_seq": 0}))

    def frame(self) -> dict[str, Any]:
        """The next frame (presence, rematch and commitment frames are skipped)."""
        while True:
            frame: dict[str, Any] = json.loads(self.ws.recv(timeout=TIMEOUT))
            if frame["type"] in ("state", "event"):
                assert frame["type"] == "state" or frame["seq"] == self.seq + 1, frame
                self.seq = frame["seq"]
                self.view = frame.get("view", self.view)
                return frame
            assert frame["type"] in ("presence", "rematch", "commitment"), frame

    def until(self, seq: int) -> list[dict[str, Any]]:
        """Frames up to event ``seq``."""
        out = []
        while self.seq < seq:
            out.append(self.frame())
        return out

    def legal(self) -> list[str]:
        legal: list[str] = (self.view.get("deal") or {}).get("legal") or []
        return legal

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.stack.close()


def _public(frame: dict[str, Any]) -> str:
    return json.dumps(frame["event"], sort_keys=True)


def _play(players: list[Player], rng: random.Random, log: dict[int, str],
          acked: list[tuple[int, int, str]], inflight: list[tuple[int, int, str]],
          kill_at: int | None, kill: Any) -> bool:
    """Play random legal actions; True when the match is over.

    After sending action number ``kill_at``, ``kill`` is called within a few
    milliseconds (from another thread), so that the action may or may not be
    committed.  Raises ConnectionClosed, TimeoutError or OSError once the
    server is dead.
    """
    sent = 0
    for _ in range(100000):
        top = max(p.seq for p in players)
        for p in players:
            for frame in p.until(top):
                if frame["type"] == "event" and p is players[0]:
                    log[frame["seq"]] = _public(frame)
        if players[0].view.get("finished"):
            return True
        actors = [i for i, p in enumerate(players) if p.legal()]
        if not actors:  # the dealer is due: wait for its event
            frame = players[0].frame()
            if frame["type"] == "event":
                log[frame["seq"]] = _public(frame)
            continue
        assert len(actors) == 1, actors
        me = players[actors[0]]
        action = rng.choice(me.legal())
        inflight[:] = [(me.seq + 1, actors[0], action)]
        me.ws.send(json.dumps({"type": "act", "action": action, "seq": me.seq}))
        sent += 1
        if sent == kill_at:
            threading.Timer(rng.uniform(0, 0.004), kill).start()
        frame = me.frame()
        assert frame["type"] == "event", frame
        event = frame["event"]
        assert (event["seat"], event["action"]) == (actors[0], action), frame
        acked.append((frame["seq"], actors[0], action))
        inflight.clear()
    return False


def test_kill_minus_9_loses_nothing(database_url: str, tmp_path: Path) -> None:
    rng = random.Random(20240917)
    server = Server(tmp_path / "data", database_url)
    try:
        with httpx.Client(base_url=server.base, timeout=TIMEOUT, trust_env=False) as http:
            r = http.post("/api/tables", json={
                "preset": "slobberhannes", "overrides": {"threshold": 12}, "name": "Ann",
                "seats": [{"kind": "you"}] + [{"kind": "open"}] * 3})
            assert r.status_code == 200, r.text
            table = r.json()["id"]
            cookies = [f"polignac_{table}={r.cookies[f'polignac_{table}']}"]
            for invite in r.json()["invites"]:
                with httpx.Client(base_url=server.base, timeout=TIMEOUT,
                                  trust_env=False) as guest:
                    j = guest.post(invite["url"], follow_redirects=False)
                    assert j.status_code == 303
                    cookies.append(f"polignac_{table}={j.cookies[f'polignac_{table}']}")
        log: dict[int, str] = {}
        acked: list[tuple[int, int, str]] = []
        inflight: list[tuple[int, int, str]] = []
        kills = 0
        views: list[tuple[int, dict[str, Any]]] = []
        record: dict[str, Any] = {}
        while True:
            players = [Player(server, table, c) for c in cookies]
            states = [p.frame() for p in players]
            if kills:  # just restarted: compare with what was seen before the kill
                _check_after_restart(players, states, views, log, inflight, record)
            finished = False
            with contextlib.suppress(ConnectionClosed, OSError, TimeoutError):
                finished = _play(players, rng, log, acked, inflight,
                                 rng.randint(5, 40) if kills < KILLS else None,
                                 server.proc.kill)
            if finished:
                break
            server.kill()
            kills += 1
            views = [(p.seq, p.view) for p in players]
            for p in players:
                p.close()
            record = _record_from(tmp_path, database_url, table)
            server = Server(tmp_path / "data", database_url)
        assert len(acked) > 20 and kills == KILLS, (len(acked), kills)
        with httpx.Client(base_url=server.base, timeout=TIMEOUT, trust_env=False) as http:
            final = http.get(f"/tables/{table}/record.json").json()
        match = replay(final)
        assert match.finished and list(match.totals) == players[0].view["totals"]
        actions = [(d["seats"], d["actions"]) for d in final["deals"]]
        assert sum(len(a) for _s, a in actions) >= len(acked)
        for p in players:
            p.close()
    finally:
        server.kill()


def _record_from(tmp_path: Path, database_url: str, table: str) -> dict[str, Any]:
    """The stored events of ``table``, read straight from the database after the kill."""
    from polignac.server.store.db import Store, make_engine

    engine = make_engine(database_url)
    try:
        rows = [r for r in Store(engine).load_all() if r.id == table]
    finally:
        engine.dispose()
    return {"events": [(e.seq, e.kind, e.action, e.seat) for e in rows[0].events]}


def _check_after_restart(players: list[Player], states: list[dict[str, Any]],
                         views: list[tuple[int, dict[str, Any]]], log: dict[int, str],
                         inflight: list[tuple[int, int, str]],
                         record: dict[str, Any]) -> None:
    now = states[0]["seq"]
    assert all(s["type"] == "state" and s["seq"] == now for s in states)
    stored = record["events"]
    assert [e[0] for e in stored] == list(range(1, len(stored) + 1))
    top = max(seq for seq, _v in views)
    assert len(stored) >= top, f"events {len(stored) + 1}..{top} were acknowledged and are lost"
    assert now >= len(stored)  # the restarted server may have dealt the next hands since
    for (seq, view), state in zip(views, states, strict=True):
        if seq == now:  # nothing new since this seat's last frame: the very same state
            assert state["view"] == view
    extra = [e for e in stored[top:] if e[1] == "act"]
    assert len(extra) <= 1, extra  # only the action in flight can have been committed
    if extra:
        assert inflight and extra[0][0] == inflight[0][0] and \
            (extra[0][3], extra[0][2]) == inflight[0][1:], (extra, inflight)
    # Every event seen before the kill is there, unchanged (as seat 0 sees it).
    p = players[0]
    start = max(1, now - 150)  # hello with last_seq 0 would get a state
    if now > start:
        p.ws.send(json.dumps({"type": "hello", "last_seq": start}))
        p.seq = start
        for frame in p.until(now):
            if frame["seq"] in log:
                assert _public(frame) == log[frame["seq"]], frame["seq"]
    assert all(seq <= now for seq in log)
