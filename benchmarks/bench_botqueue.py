"""Bot moves a second: the Redis queue's ``polignac bot-worker`` processes next to the
server's local pool, in the same run.

Builds ``--moves`` different moves (views in trick play of different deals, level
``--spec``, default ``hard``), then for 1 and 2 processes: the local pool
(``PoolBackend.local(k)``) and the queue (a throwaway ``redis-server`` on a free
port of 127.0.0.1 and ``k`` ``polignac bot-worker --jobs 1`` processes), each asked
for every move at once (``--rounds`` times, the best round kept); prints the moves
a second and each row's ratio to the local pool of 1, and checks that every row
gave the same actions.

    PYTHONPATH=src .venv/bin/python benchmarks/bench_botqueue.py [--moves 40] [--rounds 2]

Not a test: it asserts nothing but the sameness of the moves.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import polignac
from polignac.bots.base import SeatView
from polignac.bots.registry import make_bot
from polignac.bots.runner import choose_action, move_seed
from polignac.core import Match, get_rules
from polignac.server.jobs.botmoves import BotJob, PoolBackend


def views(n: int) -> list[SeatView]:
    """``n`` views in trick play (two legal cards or more), one per deal."""
    out, seed = [], 0
    medium = make_bot("medium")
    while len(out) < n:
        seed += 1
        rng = random.Random(seed)
        match = Match.new(get_rules("polignac"), 4, 0).deal_random(rng)
        target = rng.randrange(4, 20)
        for _ in range(target):
            deal = match.current
            if deal is None or deal.done:
                break
            match = match.apply(choose_action(medium, match, rng))
        deal = match.current
        if deal is not None and not deal.done and deal.phase == 1:
            view = SeatView.of(deal, deal.to_act, match)
            if len(view.legal) >= 2:
                out.append(view)
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


async def timed(backend: PoolBackend, jobs: list[BotJob], rounds: int) -> tuple[float, list[int]]:
    """The best round's seconds for every job at once, and the actions."""
    await backend.choose(jobs[0])  # warm: processes started, bots built
    best, actions = float("inf"), []
    for _ in range(rounds):
        start = time.perf_counter()
        actions = list(await asyncio.gather(*(backend.choose(j) for j in jobs)))
        best = min(best, time.perf_counter() - start)
    return best, actions


def start_workers(url: str, k: int, logs: Path) -> list[subprocess.Popen[bytes]]:
    src = str(Path(polignac.__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": src + os.pathsep + os.environ.get("PYTHONPATH", "")}
    procs = []
    for i in range(k):
        with open(logs / f"w{i}.log", "wb") as out:
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "polignac", "bot-worker", "--redis", url, "--jobs", "1",
                 "--name", f"bench{i}"], stdout=out, stderr=subprocess.STDOUT, env=env))
    return procs


def wait_ready(url: str, k: int) -> None:
    import redis

    client = redis.Redis.from_url(url)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if len(client.xinfo_consumers("polignac:jobs", "polignac:workers")) >= k:
                return
        except redis.ResponseError:
            pass
        time.sleep(0.1)
    raise RuntimeError("the bot workers did not start in 60 s")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--spec", default="hard")
    args = parser.parse_args()
    jobs = [BotJob(args.spec, v, move_seed(i, 1, len(v.history)), f"b{i}")
            for i, v in enumerate(views(args.moves))]
    binary = shutil.which("redis-server")
    if binary is None:
        raise SystemExit("redis-server is not installed")
    root = Path(tempfile.mkdtemp(prefix="polignac-benchq-"))
    port = free_port()
    redis_proc = subprocess.Popen([binary, "--bind", "127.0.0.1", "--port", str(port),
                                   "--save", "", "--appendonly", "no", "--dir", str(root)],
                                  stdout=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{port}/0"
    rows: list[tuple[str, float, list[int]]] = []
    try:
        time.sleep(0.5)
        for k in (1, 2):
            local = PoolBackend.local(k, move_seconds=120.0)
            try:
                seconds, actions = await timed(local, jobs, args.rounds)
            finally:
                await local.stop()
            rows.append((f"local pool, {k} process(es)", seconds, actions))
            procs = start_workers(url, k, root)
            try:
                wait_ready(url, k)
                queue = PoolBackend.queue(url, move_seconds=120.0)
                try:
                    seconds, actions = await timed(queue, jobs, args.rounds)
                    stats: dict[str, Any] = queue.stats()
                finally:
                    await queue.stop()
            finally:
                for p in procs:
                    p.send_signal(signal.SIGTERM)
                for p in procs:
                    p.wait(20)
            rows.append((f"queue, {k} bot-worker(s) {sorted(stats['by_worker'].values())}",
                         seconds, actions))
    finally:
        redis_proc.kill()
        redis_proc.wait(10)
        shutil.rmtree(root, ignore_errors=True)
    base = len(jobs) / rows[0][1]
    print(f"{len(jobs)} moves of {args.spec!r}, all asked at once, best of {args.rounds} "
          f"rounds; load average {os.getloadavg()[0]:.1f} at the end")
    print(f"| {'backend':45} | moves/s | ratio to local pool of 1 |")
    print(f"|{'-' * 47}|--------:|-------------------------:|")
    for name, seconds, _ in rows:
        rate = len(jobs) / seconds
        print(f"| {name:45} | {rate:7.1f} | {rate / base:24.2f} |")
    same = all(r[2] == rows[0][2] for r in rows)
    print("same actions in every row:", same)


if __name__ == "__main__":
    asyncio.run(main())
