"""Acknowledgements of people at tables of bots: ``hard`` bots next to ``easy`` bots.

For each table count (``--tables``, default 20 and 100) and each level (``--levels``,
default easy then hard), starts a fresh ``polignac serve`` (bench_server.py's:
SQLite ``synchronous=FULL``, bot moves in its worker pool of ``--bot-workers``,
default one per CPU), creates that many Play-now tables (one person and three
bots of the level), connects one WebSocket client per table and lets it play
random legal actions for ``--seconds``: at once when it is its turn (``--think
0``), or after 0.5 to 1.5 times ``--think`` seconds.  The bots keep the server's
pace (``--bot-delay``, default 0.7 s as ``polignac serve``).  Reports, per run,
the acknowledgement latency of the person's actions (from sending ``act`` to
receiving its event) at p50 and p99, the person's and the bots' actions a
second, the server's CPU (the event loop's process only: the workers are
separate) and the bot pool's counts from ``/health`` (moves, fallbacks to a
cheaper level after the time limit); then each table count's ratio hard / easy.

    .venv/bin/python benchmarks/bench_bots.py                       # 20 and 100 tables
    .venv/bin/python benchmarks/bench_bots.py --tables 20 --seconds 10 --levels easy,hard

Not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).parent))
from bench_server import cpu_seconds, free_port, start_server


async def make_table(http: httpx.AsyncClient, level: str) -> tuple[str, str]:
    """A Play-now table of one person and three ``level`` bots: its id and the
    person's cookie header.

    Raises:
        httpx.HTTPError: the server refused.
    """
    http.cookies.clear()  # each table is another browser's
    r = await http.post("/api/play-now", json={"level": level})
    r.raise_for_status()
    table = r.json()["id"]
    name = f"polignac_{table}"
    return table, f"{name}={r.cookies[name]}"


async def person(port: int, table: str, cookie: str, seed: int, stop: list[float],
                 latencies: list[float], counts: dict[str, int], go: asyncio.Event,
                 think: float) -> None:
    """Play seat 0's random legal actions from ``go`` until ``stop[0]``; count the
    acknowledged ones (``latencies``) and the bots' actions (``counts["bots"]``)."""
    rng = random.Random(seed)
    async with websockets.connect(f"ws://127.0.0.1:{port}/tables/{table}/ws", proxy=None,
                                  additional_headers={"Cookie": cookie},
                                  max_queue=None, open_timeout=60) as ws:
        await ws.send(json.dumps({"type": "hello", "last_seq": 0}))
        seq, view, sent_at, pending = 0, {}, 0.0, False
        await go.wait()
        while time.monotonic() < stop[0]:
            try:
                raw = await asyncio.wait_for(ws.recv(), max(0.01, stop[0] - time.monotonic()))
            except TimeoutError:
                break
            frame: dict[str, Any] = json.loads(raw)
            if frame["type"] not in ("state", "event"):
                continue
            seq, view = frame["seq"], frame.get("view", view)
            event = frame.get("event") or {}
            if frame["type"] == "event" and event.get("kind") == "act":
                if event.get("seat") == view.get("seat"):
                    if pending:
                        latencies.append(time.perf_counter() - sent_at)
                        pending = False
                else:
                    counts["bots"] += 1
            legal = (view.get("deal") or {}).get("legal")
            if legal and not pending and not view.get("finished"):
                if think > 0:
                    await asyncio.sleep(think * (0.5 + rng.random()))
                    if time.monotonic() >= stop[0]:
                        break
                sent_at = time.perf_counter()
                pending = True
                await ws.send(json.dumps({"type": "act", "action": rng.choice(legal),
                                          "seq": seq}))


async def measure(port: int, server_pid: int, tables: int, level: str, seconds: float,
                  think: float) -> dict[str, Any]:
    """Create ``tables`` tables of ``level`` bots, play ``seconds``; the figures."""
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60,
                                 trust_env=False) as http:
        made = [await make_table(http, level) for _ in range(tables)]
        latencies: list[float] = []
        counts = {"bots": 0}
        go, stop = asyncio.Event(), [0.0]
        tasks = [asyncio.create_task(person(port, t, c, i, stop, latencies, counts, go, think))
                 for i, (t, c) in enumerate(made)]
        await asyncio.sleep(min(10.0, 0.5 + tables / 100))  # let the connections open
        started = time.monotonic()
        stop[0] = started + seconds
        cpu = cpu_seconds(server_pid)
        go.set()
        await asyncio.wait(tasks, timeout=seconds + 20)
        elapsed = time.monotonic() - started
        cpu = cpu_seconds(server_pid) - cpu
        for task in tasks:
            task.cancel()
        health = (await http.get("/health")).json()
    lat = sorted(latencies)
    pool = health.get("bot_workers", {})
    return {
        "tables": tables, "level": level, "think_s": think, "seconds": round(elapsed, 1),
        "person_actions": len(lat), "person_per_s": round(len(lat) / elapsed, 1),
        "bot_per_s": round(counts["bots"] / elapsed, 1),
        "p50_ms": round(1000 * lat[len(lat) // 2], 2) if lat else None,
        "p99_ms": round(1000 * lat[min(len(lat) - 1, int(len(lat) * 0.99))], 2)
        if lat else None,
        "server_cpu": round(cpu / elapsed, 2),
        "bot_workers": pool.get("size"), "bot_moves": pool.get("moves"),
        "fallbacks": pool.get("fallbacks"), "loop_lag_p99_ms": health["loop_lag_ms"]["p99"],
    }


def main(argv: list[str] | None = None) -> int:
    """Parse the options, run each (tables, level) on a fresh server, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="20,100", help="table counts (default 20,100)")
    parser.add_argument("--levels", default="easy,hard", help="levels (default easy,hard)")
    parser.add_argument("--seconds", type=float, default=15.0, help="play time (default 15)")
    parser.add_argument("--think", type=float, default=0.0,
                        help="mean seconds the person thinks (default 0: at once)")
    parser.add_argument("--bot-delay", type=float, default=0.7,
                        help="seconds a bot waits before it acts (default 0.7)")
    parser.add_argument("--bot-workers", type=int, default=None,
                        help="bot worker processes (default: the server's, one per CPU)")
    args = parser.parse_args(argv)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = 65536 if hard == resource.RLIM_INFINITY else hard
    if soft != resource.RLIM_INFINITY and soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    extra = ["--bot-delay", str(args.bot_delay), "--deal-delay", "0.5"]
    if args.bot_workers:
        extra += ["--bot-workers", str(args.bot_workers)]
    rows = []
    for tables in (int(x) for x in args.tables.split(",")):
        for level in args.levels.split(","):
            port = free_port()
            with tempfile.TemporaryDirectory(prefix="polignac-bench-") as data:
                proc = start_server(Path(data), port, None, tuple(extra))
                try:
                    row = asyncio.run(measure(port, proc.pid, tables, level, args.seconds,
                                              args.think))
                finally:
                    proc.kill()
                    proc.wait()
            print(f"bench_bots: {json.dumps(row)}", flush=True)
            rows.append(row)
    print("\n| tables | bots | person acts/s | bot acts/s | p50 ms | p99 ms | server cores "
          "| fallbacks |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['tables']} | {r['level']} | {r['person_per_s']} | {r['bot_per_s']} "
              f"| {r['p50_ms']} | {r['p99_ms']} | {r['server_cpu']} | {r['fallbacks']} |")
    base = args.levels.split(",")[0]
    for tables in sorted({r["tables"] for r in rows}):
        ref = next((r for r in rows if r["tables"] == tables and r["level"] == base), None)
        for r in rows:
            if r["tables"] == tables and r is not ref and ref and ref["p50_ms"] and r["p50_ms"]:
                print(f"{tables} tables, {r['level']} / {base}: p50 "
                      f"{r['p50_ms'] / ref['p50_ms']:.2f}, p99 "
                      f"{r['p99_ms'] / ref['p99_ms']:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
