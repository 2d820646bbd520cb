"""Find players under load (issue 20, "People to play with"; docs/server.md, "Find
players").

Starts ``polignac serve`` (SQLite in a temporary folder, people absent for 600 s
before a bot stands in, so that no table plays), then ``--people`` guests, each
its own browser (cookies) and address (the server trusts X-Forwarded-For from
127.0.0.1), ask for the same game (Polignac, 4 players, casual, no bots) at once
and poll ``GET /api/seeks`` every 2 s as the lobby does, until each is seated.
Prints: how long from the last request until everyone was seated (the 5 s countdown
included), the tables made (must be people / 4) and the seats (no one twice), and
the poll's p50 / p99 / max latency while it ran, beside ``GET /api/presets`` (no
database) timed one at a time in the same run, before.

    PYTHONPATH=src .venv/bin/python benchmarks/bench_seeks.py [--people 200]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
from serving import served


def summary(ms: list[float]) -> str:
    """p50 / p99 / max of ``ms``."""
    q = statistics.quantiles(ms, n=100)
    return f"p50 {q[49]:.1f} ms, p99 {q[98]:.1f} ms, max {max(ms):.1f} ms (n={len(ms)})"


def person(base: str, k: int, start: threading.Barrier, polls: list[float],
           lock: threading.Lock) -> tuple[float, str, str]:
    """One guest: ask, then poll every 2 s until seated; (when seated, table, seat)."""
    address = f"10.{k // 65536 % 256}.{k // 256 % 256}.{k % 256}"
    with httpx.Client(base_url=base, timeout=60, trust_env=False,
                      headers={"origin": base, "x-forwarded-for": address}) as http:
        for attempt in range(10):  # the identity cookie (200 connections at once may
            try:                   # overflow the listen queue: ask again)
                http.get("/")
                break
            except httpx.TransportError:
                time.sleep(0.2 * (attempt + 1))
        start.wait(timeout=300)
        r = http.post("/api/seeks", json={"preset": "polignac", "players": 4,
                                          "name": f"P{k}"})
        assert r.status_code == 200, r.text
        while True:
            t = time.perf_counter()
            r = http.get("/api/seeks")
            with lock:
                polls.append((time.perf_counter() - t) * 1000)
            assert r.status_code == 200, r.text
            mine = r.json()["mine"]
            assert mine is not None, f"P{k}'s request vanished"
            if mine["state"] == "seated":
                table = mine["url"].rsplit("/", 1)[-1]
                return time.monotonic(), table, http.cookies[f"polignac_{table}"].split(".")[0]
            time.sleep(2.0 if mine["state"] == "waiting" else 0.5)


def main() -> None:
    """Run it and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--people", type=int, default=200)
    ap.add_argument("--requests", type=int, default=300)
    ap.add_argument("--port", type=int, default=18150)
    args = ap.parse_args()
    assert args.people % 4 == 0, "people: a multiple of 4"
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder)
        with served(data, args.port, "--bot-workers", "1", "--job-workers", "1",
                    "--grace", "600", "--forwarded-allow-ips", "127.0.0.1") as server:
            base = server.base
            with httpx.Client(base_url=base, timeout=30, trust_env=False) as http:
                ref: list[float] = []
                for _ in range(args.requests):
                    t = time.perf_counter()
                    assert http.get("/api/presets").status_code == 200
                    ref.append((time.perf_counter() - t) * 1000)
                print("reference   GET /api/presets, one at a time:", summary(ref))
            polls: list[float] = []
            lock = threading.Lock()
            start = threading.Barrier(args.people + 1)
            with ThreadPoolExecutor(max_workers=args.people) as pool:
                futures = [pool.submit(person, base, k, start, polls, lock)
                           for k in range(args.people)]
                start.wait(timeout=300)
                asked = time.monotonic()
                results = [f.result() for f in futures]
            last = max(r[0] for r in results)
            tables = {r[1] for r in results}
            seats = {(r[1], r[2]) for r in results}
            print(f"people      {args.people} asked at once; all seated "
                  f"{last - asked:.1f} s later (countdown 5 s, rounds every 1 s); "
                  f"{len(tables)} tables, {len(seats)} distinct seats")
            ratio = statistics.quantiles(polls, n=100)[98] / statistics.quantiles(ref, n=100)[98]
            print("polls       GET /api/seeks while they waited:", summary(polls),
                  f"(p99 {ratio:.1f}x the reference's)")
            assert len(tables) == args.people // 4 and len(seats) == args.people
        errors = server.errors("tick failed")
        made = sum("matchmaker: table" in line for line in server.log_lines)
        print(f"server log: {made} tables logged by the matchmaker, "
              f"{len(errors)} error lines", *errors[:5], sep="\n  ")


if __name__ == "__main__":
    main()
