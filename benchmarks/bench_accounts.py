"""Profiles, leaderboards and sign-in under load (issue 20).

1. Fills a fresh SQLite database with ``--matches`` finished matches (default
   100,000; four seats each, one an account's among ``--accounts`` accounts, the
   others bots), rated, with their ratings and history, then starts ``polignac
   serve`` on it and times ``GET /api/players/{name}`` (first page) and ``GET
   /api/leaderboard`` one request at a time: p50 / p99 / max (aim: p99 <= 50 ms),
   beside ``GET /api/presets`` (no database) timed in the same run.
2. Reads ``/health``'s loop lag over ``--seconds`` of quiet (the reference: the
   machine's own noise), then signs in 20 times a second (right and wrong passwords)
   for ``--seconds`` and reads it over that window (aim: p99 <= 50 ms, and near the
   quiet window's): the Argon2id hashing runs in threads, never on the event loop.

    PYTHONPATH=src .venv/bin/python benchmarks/bench_accounts.py [--matches N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
from serving import served
from sqlalchemy import insert

from polignac.server.players.accounts import hash_password
from polignac.server.players.ratings import BOT_RATINGS, Rating
from polignac.server.store.db import make_engine, migrate
from polignac.server.store.schema import (
    STATS,
    accounts_t,
    history_t,
    match_results_t,
    match_seats_t,
    ratings_t,
)


def fill(url: str, matches: int, accounts: int, seed: int = 1) -> None:
    """The database: ``accounts`` accounts and ``matches`` finished rated matches."""
    rng = random.Random(seed)
    engine = make_engine(url)
    migrate(engine)
    pw = hash_password("benchmark password")
    now = time.time() - matches
    with engine.begin() as conn:
        conn.execute(insert(accounts_t), [
            {"id": a, "username": f"player{a}", "username_key": f"player{a}",
             "password_hash": pw, "created_at": now} for a in range(1, accounts + 1)])
        count = dict.fromkeys(range(1, accounts + 1), 0)
        batch_r, batch_s, batch_h = [], [], []
        for m in range(matches):
            table = f"t{m:011d}"
            account = rng.randint(1, accounts)
            count[account] += 1
            at = now + m
            places = rng.sample([1, 2, 3, 4], 4)
            batch_r.append({"table_id": table, "preset": "polignac", "pool": "trick-avoidance",
                            "rated": True, "players": 4, "finished_at": at,
                            "rating_seq": m + 1})
            for seat in range(4):
                batch_s.append({
                    "table_id": table, "seat": seat, "kind": "human" if seat == 0 else "bot",
                    "bot_level": None if seat == 0 else "medium",
                    "name": f"player{account}" if seat == 0 else f"Medium bot {seat + 1}",
                    "holder_hash": None, "account_id": account if seat == 0 else None,
                    "rated_as": account if seat == 0 else None, "preset": "polignac",
                    "finished_at": at, "place": places[seat], "score": rng.randint(0, 30),
                    "won": places[seat] < 4,
                    **{k: rng.randint(0, 12) for k in STATS}})
            batch_h.append({"account_id": account, "pool": "trick-avoidance", "seq": m + 1,
                            "table_id": table, "mu": 25 + rng.gauss(0, 3),
                            "sigma": 3.0, "at": at})
            if len(batch_r) >= 5000:
                conn.execute(insert(match_results_t), batch_r)
                conn.execute(insert(match_seats_t), batch_s)
                conn.execute(insert(history_t), batch_h)
                batch_r, batch_s, batch_h = [], [], []
        if batch_r:
            conn.execute(insert(match_results_t), batch_r)
            conn.execute(insert(match_seats_t), batch_s)
            conn.execute(insert(history_t), batch_h)
        conn.execute(insert(ratings_t), [
            {"account_id": a, "pool": "trick-avoidance", "mu": r.mu, "sigma": r.sigma,
             "matches": r.matches, "ordinal": r.ordinal}
            for a in range(1, accounts + 1)
            for r in [Rating(BOT_RATINGS["medium"] + rng.gauss(0, 5), 2.5, count[a])]])
    engine.dispose()


def timed(http: httpx.Client, path: str, n: int) -> list[float]:
    """Milliseconds of ``n`` GETs of ``path``, one at a time (each must answer 200)."""
    out = []
    for _ in range(n):
        t = time.perf_counter()
        r = http.get(path)
        out.append((time.perf_counter() - t) * 1000)
        assert r.status_code == 200, r.text
    return out


def summary(ms: list[float]) -> str:
    """p50 / p99 / max of ``ms``."""
    q = statistics.quantiles(ms, n=100)
    return f"p50 {q[49]:.1f} ms, p99 {q[98]:.1f} ms, max {max(ms):.1f} ms (n={len(ms)})"


def sign_ins(base: str, per_second: float, seconds: float, accounts: int) -> tuple[int, int]:
    """Sign in ``per_second`` times a second for ``seconds``, each sign-in from a thread
    of a pool sharing one connection pool (one in four with a wrong password);
    (answered 200, answered 401/429)."""
    done = [0, 0]
    lock = threading.Lock()
    http = httpx.Client(base_url=base, timeout=30, trust_env=False, headers={"origin": base},
                        limits=httpx.Limits(max_connections=64))

    def one(k: int) -> None:
        # each from an address of its own (the server is told to trust X-Forwarded-For
        # from 127.0.0.1), so that the per-address limit does not answer instead of Argon2
        r = http.post("/api/account/signin", headers={
            "x-forwarded-for": f"10.{k // 65536 % 256}.{k // 256 % 256}.{k % 256}"}, json={
            "username": f"player{1 + k % accounts}",
            "password": "benchmark password" if k % 4 else "wrong password"})
        with lock:
            done[0 if r.status_code == 200 else 1] += 1

    with http, ThreadPoolExecutor(max_workers=64) as pool:
        start = time.monotonic()
        k = 0
        while time.monotonic() - start < seconds:
            pool.submit(one, k)
            k += 1
            time.sleep(max(0.0, start + k / per_second - time.monotonic()))
    return done[0], done[1]


def main() -> None:
    """Run both measurements and print them."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--matches", type=int, default=100_000)
    ap.add_argument("--accounts", type=int, default=2000)
    ap.add_argument("--requests", type=int, default=300)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--port", type=int, default=8765)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder)
        t = time.perf_counter()
        fill(f"sqlite:///{data / 'polignac.db'}", args.matches, args.accounts)
        print(f"filled {args.matches} matches in {time.perf_counter() - t:.1f} s")
        with served(data, args.port, "--bot-workers", "1", "--job-workers", "1",
                    "--forwarded-allow-ips", "127.0.0.1") as server:
            base = server.base
            with httpx.Client(base_url=base, timeout=30, trust_env=False) as http:
                busiest = f"player{1}"
                timed(http, f"/api/players/{busiest}", 10)  # warm up
                # the reference, in the same run: a route that reads no database
                ref = statistics.quantiles(timed(http, "/api/presets", args.requests), n=100)
                print("reference   ", f"GET /api/presets p50 {ref[49]:.1f} ms, "
                      f"p99 {ref[98]:.1f} ms")
                for name, path in (("profile     ", f"/api/players/{busiest}"),
                                   ("leaderboard ", "/api/leaderboard")):
                    ms = timed(http, path, args.requests)
                    q = statistics.quantiles(ms, n=100)
                    print(name, summary(ms), f"(p99 {q[98] / ref[98]:.2f}x the reference's)")
                # the reference for the loop's lag: the same window with no sign-in
                time.sleep(args.seconds)
                idle = http.get(f"/health?window={int(args.seconds)}").json()
                print(f"idle        loop lag {idle['loop_lag_ms']} (the machine's own "
                      "noise, the reference)")
                ok, refused = sign_ins(base, 20, args.seconds, args.accounts)
                health = http.get(f"/health?window={int(args.seconds)}").json()
                print(f"sign-ins    {ok + refused} in {args.seconds:g} s: "
                      f"{ok} accepted, {refused} refused (wrong password or "
                      f"limit); loop lag {health['loop_lag_ms']}, "
                      f"loop CPU per 50 ms {health['loop_cpu_ms']}")
        errors = server.errors()
        print(f"server log: {len(errors)} error lines", *errors[:5], sep="\n  ")


if __name__ == "__main__":
    main()
