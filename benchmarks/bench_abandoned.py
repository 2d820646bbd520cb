"""Tables nobody plays: N Play-now tables whose people leave.  CPU and memory over time.

Starts ``polignac serve`` as a subprocess on a free port of 127.0.0.1 (SQLite in
a temporary folder), creates N Play-now tables (one person and three bots each)
and connects each person over a real WebSocket.  Phase 1 (``--play`` seconds):
every person plays random legal cards as soon as it is their turn, with the
server's default bot and deal delays; this is the reference.  Then every person
leaves at once.  Phase 2: the grace period (``--grace``); the bots play on until
it is an absent person's turn.  Phase 3: the tables are paused: no bot plays for
nobody.  Every ``--every`` seconds it prints the server's CPU seconds (from
``/proc``), its CPU share over the interval, its resident memory (VmRSS) and the
events stored per second, and at the end the ratio of the paused phase's CPU
and memory growth to the reference phase's.

    .venv/bin/python benchmarks/bench_abandoned.py                 # 200 tables
    .venv/bin/python benchmarks/bench_abandoned.py --tables 50 --grace 5 --watch 20

Not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).parent))
from bench_server import cpu_seconds, free_port


def start_server(data: Path, port: int, grace: float) -> Any:
    """``polignac serve`` with the default delays and ``--grace``; ready to answer.

    Raises:
        RuntimeError: it exited or did not answer within 30 s.
    """
    import subprocess

    script = Path(sys.executable).parent / "polignac"
    cmd = [str(script)] if script.exists() else [sys.executable, "-m", "polignac"]
    cmd += ["serve", "--host", "127.0.0.1", "--port", str(port), "--data", str(data),
            "--grace", str(grace), "--create-burst", "100000", "--max-tables", "100000"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("polignac serve exited")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/presets", timeout=1,
                         trust_env=False).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("polignac serve did not start in 30 s")


def rss_mb(pid: int) -> float:
    """Resident memory of ``pid`` in MiB (VmRSS)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def stored_events(db: Path) -> int:
    """Events in the server's SQLite database (read-only)."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30) as conn:
        count: int = conn.execute("SELECT COUNT(*) FROM events").fetchone()[0]
        return count


async def person(port: int, table: str, cookie: str, seed: int, leave: asyncio.Event) -> None:
    """One person: plays random legal cards until ``leave`` is set, then disconnects."""
    rng = random.Random(seed)
    async with websockets.connect(f"ws://127.0.0.1:{port}/tables/{table}/ws", proxy=None,
                                  additional_headers={"Cookie": cookie},
                                  max_queue=None, open_timeout=60) as ws:
        await ws.send(json.dumps({"type": "hello", "last_seq": 0}))
        seq, view = 0, {}
        while not leave.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=0.5)
            except TimeoutError:
                continue
            frame: dict[str, Any] = json.loads(raw)
            if frame["type"] not in ("state", "event"):
                continue
            seq, view = frame["seq"], frame.get("view", view)
            legal = (view.get("deal") or {}).get("legal")
            if legal and not view.get("finished"):
                await ws.send(json.dumps({"type": "act", "action": rng.choice(legal),
                                          "seq": seq}))


async def make_tables(port: int, n: int) -> list[tuple[str, str]]:
    """``n`` Play-now tables; each one's id and its person's cookie header."""
    out = []
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60,
                                 trust_env=False) as http:
        for _ in range(n):
            http.cookies.clear()
            r = await http.post("/api/play-now", json={})
            r.raise_for_status()
            table = r.json()["id"]
            name = f"polignac_{table}"
            out.append((table, f"{name}={r.cookies[name]}"))
    return out


async def run(args: argparse.Namespace, port: int, pid: int, db: Path) -> None:
    """Create, play, leave, watch; print the figures."""
    tables = await make_tables(port, args.tables)
    leave = asyncio.Event()
    tasks = [asyncio.create_task(person(port, t, c, i, leave))
             for i, (t, c) in enumerate(tables)]
    start = time.monotonic()
    rows: list[tuple[str, float, float, float, int]] = []
    last_cpu, last_t, last_ev = cpu_seconds(pid), start, stored_events(db)
    print(f"{args.tables} Play-now tables; grace {args.grace:g} s; sampling every "
          f"{args.every:g} s", flush=True)
    print(f"{'t (s)':>6} {'phase':<8} {'cpu s':>8} {'cpu %':>6} {'rss MiB':>8} {'events/s':>9}")
    left_at = paused_at = None
    end = start + args.play + args.grace + args.watch
    while (now := time.monotonic()) < end:
        await asyncio.sleep(args.every)
        now = time.monotonic()
        if left_at is None and now - start >= args.play:
            leave.set()
            await asyncio.gather(*tasks, return_exceptions=True)
            left_at = time.monotonic()
        if left_at is not None and paused_at is None and now - left_at >= args.grace + 1:
            paused_at = now
        phase = "play" if left_at is None else "grace" if paused_at is None else "paused"
        cpu, events = cpu_seconds(pid), stored_events(db)
        share = 100 * (cpu - last_cpu) / (now - last_t)
        per_s = (events - last_ev) / (now - last_t)
        rows.append((phase, now - start, cpu - last_cpu, rss_mb(pid), events - last_ev))
        print(f"{now - start:6.0f} {phase:<8} {cpu:8.2f} {share:6.1f} {rss_mb(pid):8.1f} "
              f"{per_s:9.1f}", flush=True)
        last_cpu, last_t, last_ev = cpu, now, events

    def share(phase: str) -> tuple[float, float, float]:
        mine = [r for r in rows if r[0] == phase]
        secs = len(mine) * args.every
        return (sum(r[2] for r in mine) / secs if secs else float("nan"),
                (mine[-1][3] - mine[0][3]) / secs if len(mine) > 1 else float("nan"),
                sum(r[4] for r in mine) / secs if secs else float("nan"))

    play, paused = share("play"), share("paused")
    print(f"playing: {100 * play[0]:.1f}% CPU, {play[2]:.0f} events/s, RSS "
          f"{play[1] * 60:+.1f} MiB/min")
    print(f"paused:  {100 * paused[0]:.2f}% CPU, {paused[2]:.1f} events/s, RSS "
          f"{paused[1] * 60:+.2f} MiB/min")
    print(f"ratio paused/playing CPU: {paused[0] / play[0]:.4f}")


def main() -> int:
    """Run the benchmark; 0."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--play", type=float, default=15.0,
                        help="seconds the people play before they leave (default 15)")
    parser.add_argument("--grace", type=float, default=10.0,
                        help="the server's grace period (default 10 s)")
    parser.add_argument("--watch", type=float, default=40.0,
                        help="seconds watched after the grace period (default 40)")
    parser.add_argument("--every", type=float, default=5.0, help="sampling (default 5 s)")
    args = parser.parse_args()
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        proc = start_server(Path(tmp), port, args.grace)
        try:
            asyncio.run(run(args, port, proc.pid, Path(tmp) / "polignac.db"))
        finally:
            proc.terminate()
            proc.wait(10)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    raise SystemExit(main())
