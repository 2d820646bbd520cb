"""Several ``polignac serve`` processes on one PostgreSQL database and one bus
(docs/server.md, "Several processes"): four people at one table on different
processes and a spectator on a third; ``kill -9`` of the table's owner at random
moments, after which another process takes the table over and nothing
acknowledged is lost.

Real servers: subprocesses on 127.0.0.1, PostgreSQL and Redis from conftest.py.
"""

from __future__ import annotations

import contextlib
import json
import random
import statistics
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from polignac.core import replay, summary

from .cluster_support import (
    TIMEOUT,
    Proc,
    Refused,
    Viewer,
    new_table,
    owner_pid,
    stored_events,
)
from .conftest import PgServer, RedisServer, free_port
from .waiting import wait_until

pytest.importorskip("websockets.sync.client")
pytest.importorskip("broadcaster")
from websockets.exceptions import ConnectionClosed

# slow: three processes each start (and restart) on a machine that may be shared
pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.timeout(900)]

CARDS = [r + s for r in "789TJQKA" for s in "CDHS"]


def _start(n: int, url: str, bus: str, data: Path, lease: float = 2.0,
           machines: bool = False) -> list[Proc]:
    """``n`` processes, ready; with ``machines`` each plays a machine of its own
    (nothing handed between them: a socket that lands off its owner is forwarded)."""
    procs = [Proc(f"p{i}", free_port(), url, bus, data, lease, _machine(i, machines))
             for i in range(n)]
    try:
        for p in procs:
            p.wait_ready()
    except BaseException:
        for p in procs:
            p.kill()
        raise
    return procs


def _act(players: list[Viewer], rng: random.Random, spectator: Viewer | None = None
         ) -> tuple[int, int, str] | None:
    """One random legal action by whoever is to act; (seq, seat, action) once its event
    came back, or None when the dealer was due (its event was read).  Everybody (and
    the spectator) reads what came first."""
    top = -1
    while top != max(p.seq for p in players):  # a catch-up may still be coming in
        top = max(p.seq for p in players)
        for p in [*players, *([spectator] if spectator else [])]:
            p.until(top)
    actors = [i for i, p in enumerate(players) if p.legal()]
    if not actors:
        if not players[0].view.get("finished"):
            players[0].frame()  # the dealer is due
        return None
    assert len(actors) == 1, actors
    me = players[actors[0]]
    action = rng.choice(me.legal())
    me.ws.send(json.dumps({"type": "act", "action": action, "seq": me.seq}))
    me.raise_errors = True  # refused (stale-seq, table-moved around a failover): the
    try:                    # caller reconnects everybody and plays on
        frame = me.frame()
        while frame["type"] != "event":
            frame = me.frame()
    finally:
        me.raise_errors = False
    assert (frame["event"].get("seat"), frame["event"].get("action")) == (actors[0], action), \
        (action, me.frames[-6:])
    return frame["seq"], actors[0], action


def _public(event: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in event.items() if k != "hand"}


def test_four_people_on_three_processes_and_a_spectator(pg_server: PgServer,
                                                        tmp_path: Path) -> None:
    """PostgreSQL alone (LISTEN/NOTIFY as the bus): a whole deal, each person on the
    process the rotation gives, the spectator on the third; everybody sees the same
    events in the same order, the spectator no hand."""
    url = pg_server.new_database()
    procs = _start(3, url, url, tmp_path / "data")
    try:
        table, cookies = new_table(procs[0], [procs[1], procs[2], procs[0]])
        players = [Viewer(table, c) for c in cookies]
        for i, p in enumerate(players):
            p.connect(procs, i)
        spectator = Viewer(table, None)
        spectator.connect(procs, 2)
        rng = random.Random(7)
        for _ in range(200):
            _act(players, rng)
            if any(e.get("deal_over") for e in players[0].events.values()):
                break
        else:
            raise AssertionError("the deal did not end")
        top = max(p.seq for p in players)
        for v in [*players, spectator]:
            v.until(top)
        stored = stored_events(url, table)[:top]  # the next deal may be dealt already
        assert [s[0] for s in stored] == list(range(1, top + 1))
        for seq, kind, action, seat in stored:
            seen = [_public(v.events[seq]) for v in [*players, spectator] if seq in v.events]
            assert len(seen) == 5 and all(s == seen[0] for s in seen), seq
            assert (seen[0]["kind"], seen[0].get("action", "deal"), seen[0].get("seat")) == \
                (kind, action, seat)
        hands = [c for p in players for c in p.events[1]["hand"]]  # the first deal
        assert sorted(hands) == sorted(CARDS)  # each person saw their own hand
        for frame in spectator.frames:  # the spectator: never a hand
            if frame["type"] in ("state", "event"):
                assert (frame.get("view") or {}).get("deal", {}).get("hand") is None
            if frame["type"] == "event" and frame["event"]["kind"] == "deal":
                assert frame["event"]["hand"] is None
                # no card as a JSON string (a random id may hold "TC" inside it)
                text = json.dumps(frame)
                assert not any(f'"{c}"' in text for c in CARDS)
        health = [httpx.get(p.base + "/health", trust_env=False).json() for p in procs]
        assert sorted(h["owned_tables"] for h in health) == [0, 0, 1]
        assert len({h["process"] for h in health}) == 3
        # every socket and request reached the owner itself: handed over as it arrived
        # (handoff.py), nothing forwarded over the bus
        crossed = {k: sum(h["cluster"][k] for h in health) for k in health[0]["cluster"]}
        assert crossed["forwarded"] == crossed["served_forwarded"] == 0, crossed
        assert crossed["handed_over"] == crossed["handed_in"] >= 3, crossed  # 5 sockets
        assert crossed["bus_refused"] == 0, crossed
        other, _ = new_table(procs[1], [procs[1]] * 3)  # the lobby lists every process's
        for p in procs:
            listed = httpx.get(p.base + "/api/tables", trust_env=False).json()["tables"]
            assert sorted(t["id"] for t in listed) == sorted([table, other]), p.name
    finally:
        for p in procs:
            p.kill()


KILLS = 3


def _reconnect(viewers: list[Viewer], procs: list[Proc], rng: random.Random) -> None:
    for v in viewers:
        v.connect(procs, rng.randrange(len(procs)))
        v.reconnects += 1


def _machine(i: int, machines: bool) -> str:
    return f"machine{i}" if machines else ""


def run_kills(url: str, bus: str, data: Path, kills: int, seed: int,
              report: list[float], lease: float = 2.0, machines: bool = False
              ) -> dict[str, Any]:
    """Three processes; ``kills`` times, ``kill -9`` the table's owner at a random
    moment (a few milliseconds after an action was sent) and start a new process in
    its place; play on until the match is over.  ``report`` gets each failover time
    (from the kill to the next acknowledged action, seconds).  Returns what the
    checks need.  With ``machines``, each process plays a machine of its own: the
    sockets that land off the owner are forwarded over the bus (relay.py)."""
    rng = random.Random(seed)
    procs = _start(3, url, bus, data, lease, machines)
    viewers: list[Viewer] = []
    try:
        table, cookies = new_table(procs[0], [procs[1], procs[2], procs[0]])
        players = [Viewer(table, c) for c in cookies]
        spectator = Viewer(table, None)
        viewers = [*players, spectator]
        _reconnect(viewers, procs, rng)
        acked: list[tuple[int, int, str]] = []
        killed_at: list[float] = []
        refused: list[str] = []
        done = scheduled = 0
        next_kill = rng.randint(5, 30)
        for _ in range(3000):
            if players[0].view.get("finished"):
                break
            try:
                if done == next_kill and scheduled < kills:
                    # counted now, not when the timer fires: an action that gets no
                    # answer leaves ``done`` as it was, and must not schedule a second kill
                    scheduled += 1
                    next_kill = done + rng.randint(5, 30)
                    owner = owner_pid(url, table)
                    victim = next(p for p in procs if p.pid == owner)

                    def kill(victim: Proc = victim) -> None:
                        victim.kill()
                        killed_at.append(time.monotonic())

                    threading.Timer(rng.uniform(0, 0.02), kill).start()
                got = _act(players, rng, spectator)
            except (ConnectionClosed, TimeoutError, OSError, Refused) as exc:
                if isinstance(exc, Refused):
                    refused.append(str(exc))
                got = None
                _replace_dead(procs, killed_at, url, bus, data, lease, machines)
                _reconnect(viewers, procs, rng)
                next_kill = done + rng.randint(5, 30)
                continue
            if got is not None:
                acked.append(got)
                done += 1
                if len(report) < len(killed_at):
                    report.append(time.monotonic() - killed_at[len(report)])
                    _replace_dead(procs, killed_at, url, bus, data, lease, machines)
                    for p in procs:
                        p.wait_ready()
        assert players[0].view.get("finished"), "the match did not end"
        spectator.until(max(p.seq for p in players))
        with httpx.Client(base_url=procs[0].base, timeout=TIMEOUT, trust_env=False) as http:
            record = http.get(f"/tables/{table}/record.json").json()
        finals = []
        # a fresh connection: the state each viewer ends in, through a process that does
        # not own the table (with machines, each one is forwarded to the owner, so the
        # owner alive at the end has served some whatever the kills did to the counts)
        owner = owner_pid(url, table)
        off = next((i for i, p in enumerate(procs) if p.alive() and p.pid != owner), 0)
        for v in viewers:
            v.seq = 0
            v.connect(procs, off)
            finals.append(v.frames[-1])
        forwarded = sum(httpx.get(p.base + "/health", trust_env=False
                                  ).json()["cluster"]["served_forwarded"] for p in procs)
        return {"table": table, "acked": acked, "viewers": viewers, "record": record,
                "forwarded": forwarded,
                "stored": stored_events(url, table), "finals": finals,
                "kills": len(killed_at), "refused": refused}
    finally:
        for v in viewers:
            v.close()
        for p in procs:
            p.kill()


def _replace_dead(procs: list[Proc], killed_at: list[float], url: str, bus: str,
                  data: Path, lease: float, machines: bool = False) -> None:
    """Start a new process in each dead one's place (on its machine)."""
    for i, p in enumerate(procs):
        if not p.alive():
            procs[i] = Proc(f"p{i}k{len(killed_at)}", free_port(), url, bus, data, lease,
                            _machine(i, machines))


def _check(result: dict[str, Any], kills: int) -> None:
    stored = result["stored"]
    assert result["kills"] == kills
    assert [s[0] for s in stored] == list(range(1, len(stored) + 1))
    by_seq = {s[0]: s for s in stored}
    for seq, seat, action in result["acked"]:  # nothing acknowledged is lost
        assert by_seq[seq][1:] == ("act", action, seat), (seq, by_seq.get(seq))
    for v in result["viewers"]:  # every viewer saw the stored events, in that order
        for seq, event in v.events.items():
            assert (event["kind"], event.get("action", "deal"), event.get("seat")) == \
                by_seq[seq][1:], seq
    match = replay(result["record"])  # the same actions, replayed in one process
    assert match.finished
    expected = json.loads(json.dumps(summary(match)))
    for frame in result["finals"]:
        assert frame["type"] == "state" and frame["seq"] == len(stored)
        assert frame["summary"] == expected


@pytest.mark.redis
def test_kill_minus_9_of_the_owner_redis_bus(pg_server: PgServer, redis_server: RedisServer,
                                             tmp_path: Path) -> None:
    times: list[float] = []
    result = run_kills(pg_server.new_database(), redis_server.url(5), tmp_path / "data",
                       KILLS, 20261124, times)
    _check(result, KILLS)
    with contextlib.suppress(statistics.StatisticsError):
        print(f"\nfailover (kill -9 to the next acknowledged action), Redis bus, lease 2 s: "
              f"p50 {statistics.median(times):.2f} s, max {max(times):.2f} s over "
              f"{len(times)} kills; refused around a kill: {result['refused']}")


@pytest.mark.redis
def test_kill_minus_9_of_the_owner_three_machines(pg_server: PgServer,
                                                  redis_server: RedisServer,
                                                  tmp_path: Path) -> None:
    """The same with each process on a machine of its own and no proxy (Redis bus, two
    kills): the sockets that land off the owner are served there as seats of the
    owner's table, their frames forwarded over the bus, through each takeover."""
    times: list[float] = []
    result = run_kills(pg_server.new_database(), redis_server.url(8), tmp_path / "data",
                       2, 777, times, machines=True)
    _check(result, 2)
    assert result["forwarded"] > 0, result["forwarded"]
    with contextlib.suppress(statistics.StatisticsError):
        print(f"\nfailover (kill -9 to the next acknowledged action), three machines, "
              f"Redis bus, lease 2 s: p50 {statistics.median(times):.2f} s, max "
              f"{max(times):.2f} s over {len(times)} kills; refused around a kill: "
              f"{result['refused']}")


def test_kill_minus_9_of_the_owner_postgres_bus(pg_server: PgServer, tmp_path: Path) -> None:
    """The same on PostgreSQL alone (LISTEN/NOTIFY as the bus), two kills."""
    times: list[float] = []
    url = pg_server.new_database()
    result = run_kills(url, url, tmp_path / "data", 2, 4242, times)
    _check(result, 2)
    with contextlib.suppress(statistics.StatisticsError):
        print(f"\nfailover (kill -9 to the next acknowledged action), PostgreSQL bus, lease "
              f"2 s: p50 {statistics.median(times):.2f} s, max {max(times):.2f} s over "
              f"{len(times)} kills; refused around a kill: {result['refused']}")


def test_serve_workers_2_on_postgresql(pg_server: PgServer, tmp_path: Path) -> None:
    """``polignac serve --workers 2`` on PostgreSQL: two processes share the port (the
    bus is the database's LISTEN/NOTIFY); a person connected to either plays on."""
    import os
    import subprocess
    import sys

    from .cluster_support import SRC, stop_group

    url = pg_server.new_database()
    port = free_port()
    log = tmp_path / "serve.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "polignac", "serve", "--port", str(port), "--data",
             str(tmp_path), "--database-url", url, "--workers", "2", "--job-workers", "1",
             "--bot-workers", "1", "--grace", "600", "--rate", "10000"],
            stdout=out, stderr=subprocess.STDOUT, env=dict(os.environ, PYTHONPATH=SRC),
            start_new_session=True)
    try:
        base = f"http://127.0.0.1:{port}"
        processes: set[str] = set()

        def both_answered() -> bool:
            assert proc.poll() is None, log.read_text()[-3000:]
            with contextlib.suppress(httpx.HTTPError), httpx.Client(
                    base_url=base, trust_env=False, timeout=5) as http:  # new connections
                r = http.get("/ready")
                if r.status_code == 200:
                    processes.add(r.json()["process"])
            return len(processes) == 2

        wait_until(both_answered, 180,  # a shared machine starts them slowly
                   what=lambda: f"both processes on the port: {processes}\n"
                                f"{log.read_text()[-3000:]}", interval=0.05)
        fake = Proc.__new__(Proc)  # the port of the pair, as one Proc
        fake.port, fake.base, fake.proc = port, base, proc
        table, cookies = new_table(fake, [fake] * 3)
        players = [Viewer(table, c) for c in cookies]
        for p in players:
            p.connect([fake])
        rng = random.Random(3)
        acked = [a for a in (_act(players, rng) for _ in range(12)) if a]
        assert len(acked) >= 8
        stored = {s[0]: s for s in stored_events(url, table)}
        assert all(stored[seq][1:] == ("act", action, seat) for seq, seat, action in acked)
        for p in players:
            p.close()
    finally:
        stop_group(proc)
