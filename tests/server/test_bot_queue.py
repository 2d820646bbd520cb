"""Bot moves through the Redis queue (server/jobs/botqueue.py, ``polignac bot-worker``), on a
real redis-server: the same moves as the local pool, two workers sharing the load, a
worker killed mid-move replaced by another, the fallbacks of the time limit, the
bounds, and a table of hard bots playing a deal on ``polignac bot-worker`` processes."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("redis")

import redis
import redis.asyncio
from starlette.testclient import TestClient
from tests.server.conftest import FAST, RedisServer
from tests.server.helpers import hello, play_now, play_until
from tests.server.test_bot_workers import SLOW, _trick_view
from tests.server.waiting import until, wait_until

import polignac
from polignac.bots.base import SeatView
from polignac.bots.registry import UnknownBotError, make_bot
from polignac.bots.runner import choose_action, move_for, move_seed
from polignac.core import IllegalActionError, Match, action_name, get_rules, parse_action
from polignac.server import ServerConfig, create_app
from polignac.server.jobs.botmoves import BotJob, PoolBackend
from polignac.server.jobs.botqueue import QueuePool
from polignac.server.jobs.botworker import BotWorker
from polignac.server.jobs.workers import PoolBusy
from polignac.server.tables.tables import replay_events

pytestmark = pytest.mark.redis

MINUTE = "hard:rollouts=300"
"""A level that takes seconds a move (long enough to kill its worker during it)."""


def _prefix() -> str:
    """A key prefix of the test's own: tests share one redis-server."""
    return "t" + uuid.uuid4().hex[:10]


def _jobs(n: int, spec: str = "hard") -> list[BotJob]:
    """``n`` moves in trick play of different deals."""
    out = []
    for i in range(n):
        view, _ = _trick_view(100 + i)
        out.append(BotJob(spec, view, move_seed(i, 1, len(view.history)), f"t{i}"))
    return out


class Workers:
    """``polignac bot-worker`` processes (one job each), stopped at the end."""

    def __init__(self, url: str, prefix: str) -> None:
        self.url, self.prefix = url, prefix
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.logs: dict[str, Path] = {}
        self.dir = Path(tempfile.mkdtemp(prefix="polignac-botq-"))

    def start(self, name: str, claim_after: float = 1.0) -> None:
        src = str(Path(polignac.__file__).resolve().parents[1])
        env = {**os.environ, "PYTHONPATH": src + os.pathsep + os.environ.get("PYTHONPATH", "")}
        self.logs[name] = self.dir / f"{name}.log"
        with open(self.logs[name], "wb") as out:
            self.procs[name] = subprocess.Popen(
                [sys.executable, "-m", "polignac", "bot-worker", "--redis", self.url,
                 "--prefix", self.prefix, "--name", name, "--jobs", "1",
                 "--claim-after", str(claim_after)],
                stdout=out, stderr=subprocess.STDOUT, env=env)

    def wait_ready(self) -> None:
        """Until every started worker has read the queue once (bounded: 60 s)."""
        client = redis.Redis.from_url(self.url)
        names: set[str] = set()

        def ready() -> bool:
            nonlocal names
            for name, proc in self.procs.items():
                assert proc.poll() is None, self.output(name)
            try:
                names = {c["name"].decode() for c in
                         client.xinfo_consumers(f"{self.prefix}:jobs", f"{self.prefix}:workers")}
            except redis.ResponseError:  # no group yet
                names = set()
            return names >= set(self.procs)

        try:
            wait_until(ready, 60, interval=0.1, what=lambda: (
                f"the workers to read the queue: {names}; "
                + "; ".join(self.output(n) for n in self.procs)))
        finally:
            client.close()

    def output(self, name: str) -> str:
        return f"{name}: {self.logs[name].read_text(errors='replace')[-2000:]}"

    def stop(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in self.procs.values():
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)


@pytest.fixture
def workers(redis_server: RedisServer) -> Iterator[Workers]:
    w = Workers(redis_server.url(1), _prefix())
    yield w
    w.stop()


async def _with_worker(url: str, prefix: str, body: Any, claim: float = 1.0) -> Any:
    """Run ``await body(worker)`` while an in-process :class:`BotWorker` (one job) serves
    the queue; stop it after."""
    worker = BotWorker(url, 1, "inproc", prefix, claim_seconds=claim)
    stop = asyncio.Event()
    task = asyncio.create_task(worker.run(stop))
    try:
        return await body(worker)
    finally:
        stop.set()
        await asyncio.wait_for(task, 30)


def test_moves_from_the_queue_equal_the_local_pools(redis_server: RedisServer,
                                                    bot_backend: PoolBackend) -> None:
    """Same jobs, same seeds: the queue's actions are the local pool's and this process's,
    for every level; a view without a turn and an evaluation-only bot raise as they do
    locally; a job the worker gets after its time is up is dropped unanswered."""
    url, prefix = redis_server.url(1), _prefix()
    jobs = [BotJob(spec, j.view, j.seed, j.table) for j in _jobs(3)
            for spec in ("hard", "medium", "easy", "random")]
    here = [move_for(j.spec, j.view, j.seed) for j in jobs]

    async def body(worker: BotWorker) -> tuple[list[int], list[int], Any]:
        backend = PoolBackend.queue(url, move_seconds=60.0, prefix=prefix)
        try:
            queued = [await backend.choose(j) for j in jobs]
            local = [await bot_backend.choose(j) for j in jobs]
            view = jobs[0].view
            other = SeatView.of(_trick_view(100)[1].current,  # type: ignore[arg-type]
                                (view.player + 1) % 4)
            with pytest.raises(IllegalActionError) as info:
                await backend.pool.run(move_for, "easy", other, "s", time_limit=60)
            assert info.value.rule == "not-your-turn"
            with pytest.raises(UnknownBotError, match="sees every hand"):
                await backend.pool.run(move_for, "oracle", view, "s", time_limit=60)
            with pytest.raises(TypeError, match="not a job"):
                await backend.pool.run(os.getpid, time_limit=1)
            # a job whose time is up before a worker reads it: dropped, not answered
            client = redis.asyncio.Redis.from_url(url)
            await client.xadd(f"{prefix}:jobs", {"req": "x", "job": "move", "args": "[]",
                                                 "limit": "0.001",
                                                 "reply": f"{prefix}:replies:nobody"})
            await until(lambda: worker.expired, what="the worker to drop the late job")
            assert await client.xlen(f"{prefix}:replies:nobody") == 0
            await client.aclose()
            return queued, local, backend.stats()
        finally:
            await backend.stop()

    queued, local, stats = asyncio.run(_with_worker(url, prefix, body))
    assert queued == here and local == here
    assert stats["fallbacks"] == 0 and stats["inline"] == 0
    assert stats["by_worker"] == {"inproc": len(jobs) + 2}  # the two errors answered too


def test_two_workers_share_the_load(workers: Workers) -> None:
    workers.start("w1")
    workers.start("w2")
    workers.wait_ready()
    jobs = _jobs(8)

    async def run() -> tuple[list[int], dict[str, Any]]:
        backend = PoolBackend.queue(workers.url, move_seconds=120.0, prefix=workers.prefix)
        try:
            actions = await asyncio.gather(*(backend.choose(j) for j in jobs))
            return list(actions), backend.stats()
        finally:
            await backend.stop()

    actions, stats = asyncio.run(run())
    assert actions == [move_for(j.spec, j.view, j.seed) for j in jobs]
    assert set(stats["by_worker"]) == {"w1", "w2"}, stats  # each took some (one job each)
    assert sum(stats["by_worker"].values()) == 8 and stats["fallbacks"] == 0


def test_a_worker_killed_mid_move_is_replaced_by_another(workers: Workers) -> None:
    """kill -9 of the worker computing a move: the other takes it over (after
    --claim-after) and answers the same move; the next move is answered too."""
    workers.start("w1")
    workers.start("w2")
    workers.wait_ready()
    job, after = _jobs(2, MINUTE)
    after = BotJob("hard", after.view, after.seed, after.table)
    killed: list[str] = []

    async def run() -> tuple[int, int, dict[str, Any]]:
        backend = PoolBackend.queue(workers.url, move_seconds=300.0, prefix=workers.prefix)
        client = redis.asyncio.Redis.from_url(workers.url)
        try:
            task = asyncio.create_task(backend.choose(job))
            held = await until(lambda: client.xpending_range(
                f"{workers.prefix}:jobs", f"{workers.prefix}:workers", "-", "+", 10),
                what="a worker to hold the move")
            holder = held[0]["consumer"].decode()
            assert not task.done()  # it holds the move (which takes seconds)
            workers.procs[holder].send_signal(signal.SIGKILL)
            killed.append(holder)
            action = await task
            return action, await backend.choose(after), backend.stats()
        finally:
            await client.aclose()
            await backend.stop()

    action, next_action, stats = asyncio.run(run())
    assert action == move_for(job.spec, job.view, job.seed)
    assert next_action == move_for(after.spec, after.view, after.seed)
    survivor = ({"w1", "w2"} - set(killed)).pop()
    assert stats["by_worker"] == {survivor: 2}, stats
    assert stats["fallbacks"] == 0 and stats["recomputed"] == 0
    assert "took over 1 job" in workers.output(survivor)


def test_no_worker_at_all_falls_back_after_the_time_limit(redis_server: RedisServer) -> None:
    """Nobody takes the move: after the time limit easy plays it in-process (as when the
    local pool refuses), and the job leaves the stream."""
    url, prefix = redis_server.url(1), _prefix()
    job = _jobs(1)[0]

    async def run() -> tuple[int, dict[str, Any], int]:
        backend = PoolBackend.queue(url, move_seconds=0.5, prefix=prefix)
        await asyncio.to_thread(backend.start)  # the stream and its group
        try:
            action = await backend.choose(job)
            client = redis.asyncio.Redis.from_url(url)
            left = await client.xlen(f"{prefix}:jobs")
            await client.aclose()
            return action, backend.stats(), left
        finally:
            await backend.stop()

    action, stats, left = asyncio.run(run())
    assert action == move_for("easy", job.view, job.seed)
    assert stats["inline"] == 1 and stats["unclaimed"] == 1 and stats["timeouts"] == 0
    assert left == 0


def test_a_taken_move_past_its_time_limit_falls_back_to_medium(
        redis_server: RedisServer) -> None:
    """A worker takes the slow move and runs out of time: medium plays it, through the
    queue again; the worker's late answer is dropped."""
    url, prefix = redis_server.url(1), _prefix()
    view, _ = _trick_view(12)
    job = BotJob(SLOW, view, move_seed(3, 1, len(view.history)), "t1")

    async def body(worker: BotWorker) -> tuple[int, dict[str, Any]]:
        backend = PoolBackend.queue(url, move_seconds=1.5, prefix=prefix)
        try:
            action = await backend.choose(job)
            await until(lambda: backend.pool.stats()["late"],  # the slow move's "timeout"
                        what="the worker's late answer")  # answer arrives late
            return action, backend.stats()
        finally:
            await backend.stop()

    action, stats = asyncio.run(_with_worker(url, prefix, body))
    assert action == move_for("medium", view, job.seed)
    assert stats["timeouts"] == 1 and stats["fallbacks"] == 1 and stats["inline"] == 0
    assert stats["late"] == 1 and stats["by_worker"] == {"inproc": 1}


def test_the_queue_is_bounded(redis_server: RedisServer) -> None:
    """At most ``max_waiting`` moves wait per server (one more is refused at once), the
    job stream keeps at most ``stream_len`` entries, Redis out of reach refuses."""
    url, prefix = redis_server.url(1), _prefix()
    job = _jobs(1)[0]

    async def run() -> tuple[list[Any], int, dict[str, Any]]:
        pool = QueuePool(url, prefix, max_waiting=5, stream_len=3)
        client = redis.asyncio.Redis.from_url(url)
        try:
            waiting = [asyncio.create_task(pool.run(move_for, job.spec, job.view, job.seed,
                                                    time_limit=1.0)) for _ in range(5)]
            async def queued() -> bool:
                return pool.pending == 5 and await client.xlen(f"{prefix}:jobs") >= 3

            await until(queued, what="five moves waiting, three in the stream")
            with pytest.raises(PoolBusy, match="the most"):
                await pool.run(move_for, job.spec, job.view, job.seed, time_limit=1.0)
            length = await client.xlen(f"{prefix}:jobs")
            results = await asyncio.gather(*waiting, return_exceptions=True)
            return results, length, pool.stats()
        finally:
            await client.aclose()
            await pool.stop()

    results, length, stats = asyncio.run(run())
    assert length == 3
    assert all(isinstance(r, PoolBusy) for r in results) and stats["refused"] == 1

    async def unreachable() -> None:
        pool = QueuePool("redis://127.0.0.1:1/0", prefix)
        try:
            await pool.run(move_for, job.spec, job.view, job.seed, time_limit=1.0)
        finally:
            await pool.stop()

    with pytest.raises(PoolBusy, match="out of reach"):
        asyncio.run(unreachable())


def test_a_hard_table_plays_a_deal_on_bot_worker_processes(
        tmp_path: Path, redis_server: RedisServer) -> None:
    """`polignac serve --bot-queue`'s configuration: every bot move of a Play-now table
    at level hard comes from two `polignac bot-worker` processes, and is the move this
    process computes for the same seed; the deal's analysis comes from their heavy
    stream."""
    url = redis_server.url(2)  # the default prefix: a database of its own
    redis.Redis.from_url(url).flushdb()
    workers = Workers(url, "polignac")
    try:
        workers.start("w1")
        workers.start("w2")
        workers.wait_ready()
        config = ServerConfig(data_dir=tmp_path / "data", bot_queue=url,
                              bot_move_seconds=120.0, **FAST)  # type: ignore[arg-type]
        with TestClient(create_app(config), base_url="http://testserver") as client:
            url_t = play_now(client, level="hard")
            with client.websocket_connect(url_t + "/ws") as ws:
                play_until(ws, hello(ws), random.Random(5),
                           lambda v: len(v.get("deals") or []) >= 1)
            hub = client.app.state.hub  # type: ignore[attr-defined]
            table = hub.tables[url_t.rsplit("/", 1)[1]]
            events = list(table.events)
            health = client.get("/health").json()["bot_workers"]
            # the analysis of the finished deal: on the workers' heavy stream
            r = client.get(url_t + "/deals/1/analysis")
            heavy = hub.heavy.stats()
    finally:
        workers.stop()
    match = replay_events(table.preset, table.overrides, 4, table.match.first_dealer,
                          list(table.match.names), events[:1])
    bot, bots_played = make_bot("hard"), 0
    for index, ev in enumerate(events[1:]):
        if match.current is None:
            break
        if table.seats[ev.seat].kind == "bot":
            rng = random.Random(move_seed(table.bot_seed, 1, index))
            assert action_name(choose_action(bot, match, rng)) == ev.action, index
            bots_played += 1
        match = match.apply(parse_action(ev.action), ev.seat)
    assert match.current is None and bots_played >= 3 * 8
    assert health["stream"] == "polignac:jobs" and health["fallbacks"] == 0
    assert health["inline"] == 0 and set(health["by_worker"]) <= {"w1", "w2"}
    assert sum(health["by_worker"].values()) >= bots_played
    assert r.status_code == 200 and r.json()["deal"] == 1, r.text
    assert heavy["stream"] == "polignac:heavy" and sum(heavy["by_worker"].values()) == 1


def test_serve_and_bot_worker_options() -> None:
    import argparse

    from polignac.cli.botworker import register as register_worker
    from polignac.cli.common import CliError
    from polignac.cli.serve import build_config, register

    parser = argparse.ArgumentParser(prog="polignac")
    subs = parser.add_subparsers(dest="command")
    register(subs, "run the web app")
    register_worker(subs, "compute bot moves from a queue")
    config = build_config(parser.parse_args(["serve", "--bot-queue", "redis://h:6379/0"]))
    assert isinstance(config, ServerConfig) and config.bot_queue == "redis://h:6379/0"
    assert not config.secure_cookies
    plain = build_config(parser.parse_args(["serve", "--secure-cookies"]))
    assert plain.bot_queue is None and plain.secure_cookies  # type: ignore[attr-defined]
    with pytest.raises(CliError, match="--bot-queue"):
        build_config(parser.parse_args(["serve", "--bot-queue", "http://h"]))
    for bad, option in ((["--redis", "h:6379"], "--redis"), (["--jobs", "0"], "--jobs"),
                        (["--claim-after", "0.1"], "--claim-after"),
                        (["--name", ""], "--name")):
        args = parser.parse_args(["bot-worker", "--redis", "redis://h", *bad])
        with pytest.raises(CliError, match=option):
            args.func(args)


def test_hints_and_analyses_through_the_heavy_stream(redis_server: RedisServer) -> None:
    """A worker's heavy stream answers a hint and the analysis of a record (and a bad
    record's 400) exactly as the functions do in this process."""
    from polignac.core import to_record
    from polignac.server.jobs.jobs import analysis_deal_job, analysis_plan_job, hint_job

    url, prefix = redis_server.url(1), _prefix()
    rng = random.Random(4)
    medium = make_bot("medium")
    match = Match.new(get_rules("polignac"), 4, 0).deal_random(rng)
    view = None
    while match.current is not None:  # one deal; the view of a late choice for the hint
        deal = match.current
        seat_view = SeatView.of(deal, deal.to_act, match)
        if deal.phase == 1 and seat_view.hand.bit_count() == 3 and len(seat_view.legal) >= 2:
            view = seat_view
        match = match.apply(choose_action(medium, match, rng))
    assert view is not None
    record = to_record(match)
    body = json.dumps(record).encode()
    expected = (hint_job(view, 7), analysis_plan_job(body),
                analysis_plan_job(b'{"deals": 3}'), analysis_deal_job(body, 1, 1, 60.0))

    async def run() -> tuple[Any, ...]:
        worker = BotWorker(url, 1, "heavy1", prefix, claim_seconds=1.0, kind="heavy")
        stop = asyncio.Event()
        task = asyncio.create_task(worker.run(stop))
        pool = QueuePool(url, prefix, kind="heavy")
        try:
            got = (await pool.run(hint_job, view, 7, time_limit=120),
                   await pool.run(analysis_plan_job, body, time_limit=120),
                   await pool.run(analysis_plan_job, b'{"deals": 3}', time_limit=120),
                   await pool.run(analysis_deal_job, body, 1, 1, 60.0, time_limit=120))
            return got, pool.stats()
        finally:
            await pool.stop()
            stop.set()
            await asyncio.wait_for(task, 30)

    got, stats = asyncio.run(run())
    assert got == expected
    assert got[1][0] == 200 and got[2][0] == 400 and got[0] is not None
    assert stats["stream"] == f"{prefix}:heavy" and stats["by_worker"] == {"heavy1": 4}


def test_a_job_a_dead_worker_left_is_dropped_once_its_time_is_up(
        redis_server: RedisServer) -> None:
    """A poison job that kills each worker taking it (issue 32 item 7) is taken over
    (``XAUTOCLAIM``) only while its time lasts: once it is up, the worker that takes it
    over drops it, unanswered, acknowledged and deleted, and nobody takes it again."""
    url, prefix = redis_server.url(1), _prefix()
    stream, group = f"{prefix}:jobs", f"{prefix}:workers"

    async def body() -> tuple[BotWorker, int, int, int]:
        client = redis.asyncio.Redis.from_url(url)
        try:
            await client.xgroup_create(stream, group, id="0", mkstream=True)
            await client.xadd(stream, {"req": "x", "job": "move", "args": "[]",
                                       "limit": "0.001", "reply": f"{prefix}:replies:gone"})
            taken = await client.xreadgroup(group, "dead", {stream: ">"}, count=1)
            assert taken  # the dead worker holds it, never acknowledges it

            async def inner(worker: BotWorker) -> tuple[BotWorker, int, int, int]:
                await until(lambda: worker.expired, what="the late job dropped")
                pending = (await client.xpending(stream, group))["pending"]
                return (worker, pending, await client.xlen(stream),
                        await client.xlen(f"{prefix}:replies:gone"))

            result: tuple[BotWorker, int, int, int] = await _with_worker(
                url, prefix, inner, claim=0.05)
            return result
        finally:
            await client.aclose()

    worker, pending, left, replies = asyncio.run(body())
    assert worker.reclaimed == 1 and worker.expired == 1 and worker.done == 0
    assert pending == 0 and left == 0 and replies == 0
