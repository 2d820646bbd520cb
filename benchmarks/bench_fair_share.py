"""A fair share of the worker pool under a flood of hints and an analysis (issue 22, item 3).

Starts ``polignac serve`` on 127.0.0.1 (its default two job workers) and runs, in one
run, two phases:

1. **quiet**: a client at 127.0.0.2 asks ``--requests`` replays (``POST
   /api/replay``, a one-deal record) and as many score pads (``POST
   /api/scorepad/score``), one after the other;
2. **flood**: the same, while a client at 127.0.0.1 has twelve Knaves tables
   (``--tables``) asking for a hint in a loop, each at its own turn (the first
   card of a 17-card hand: ``hint-too-deep`` after a long solve, then remembered;
   refusals count against the 20 hints a deal), and a client at 127.0.0.3
   analyses a 30-deal Knaves record (``POST /api/analyze``, one job per deal).

It prints, per phase, p50, p99 and max of the other client's answers (every one
must be 200), the flood's answers by rule, and the pool's counts from ``/health``.
The loops are bounded by the other client's requests; nothing sleeps a fixed time.

    .venv/bin/python benchmarks/bench_fair_share.py              # 40 requests each
    .venv/bin/python benchmarks/bench_fair_share.py --requests 100 --tables 12

Not a test: it asserts nothing (tests/server/test_workers.py checks the order).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).parent))
from bench_server import free_port

from polignac.core import Match, get_rules, to_record

NAMES = ["Ann", "Bob", "Cy", "Dee"]
PAD = {"pad": {"preset": "polignac", "overrides": {"threshold": 10}, "names": NAMES,
               "entries": []}, "entry": {"taken": {"JS": 0, "JC": 1, "JD": 1, "JH": 2}}}


def record(preset: str, deals: int, seed: int, overrides: dict[str, Any]) -> bytes:
    """A record of ``deals`` deals of random legal play."""
    rng = random.Random(seed)
    rules = get_rules(preset, overrides)
    m = Match.new(rules, rules.default_players, 0)
    for _ in range(deals):
        m = m.deal_random(rng)
        while m.current is not None:
            m = m.apply(rng.choice(m.legal_actions()))
    return json.dumps(to_record(m)).encode()


def pick(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else 0.0


async def other_client(base: str, replay: bytes,
                       n: int) -> tuple[list[float], collections.Counter[str]]:
    """``n`` replays and ``n`` score pads from 127.0.0.2, one after the other."""
    latencies: list[float] = []
    statuses: collections.Counter[str] = collections.Counter()
    transport = httpx.AsyncHTTPTransport(local_address="127.0.0.2")
    async with httpx.AsyncClient(base_url=base, transport=transport, timeout=120,
                                 trust_env=False) as http:
        for i in range(2 * n):
            start = time.monotonic()
            if i % 2 == 0:
                r = await http.post("/api/replay", content=replay,
                                    headers={"content-type": "application/json"})
            else:
                r = await http.post("/api/scorepad/score", json=PAD)
            latencies.append(time.monotonic() - start)
            statuses[str(r.status_code)] += 1
    return latencies, statuses


async def hinter(base: str, port: int, stop: asyncio.Event, ready: asyncio.Event,
                 waiting: list[int], seen: collections.Counter[str]) -> None:
    """One Knaves table of the flooder: wait for its turn, then ask a hint in a loop."""
    async with httpx.AsyncClient(base_url=base, timeout=600, trust_env=False) as http:
        r = await http.post("/api/tables", json={"preset": "knaves", "seats": [
            {"kind": "you"}, {"kind": "bot", "level": "random"},
            {"kind": "bot", "level": "random"}]})
        r.raise_for_status()
        table = r.json()["id"]
        name = f"polignac_{table}"
        async with websockets.connect(f"ws://127.0.0.1:{port}/tables/{table}/ws", proxy=None,
                                      additional_headers={"Cookie": f"{name}={r.cookies[name]}"},
                                      max_queue=None, open_timeout=60) as ws:
            await ws.send(json.dumps({"type": "hello", "last_seq": 0}))
            while True:
                frame = json.loads(await asyncio.wait_for(ws.recv(), 120))
                deal = (frame.get("view") or {}).get("deal") or {}
                if len(deal.get("legal") or []) >= 2 and deal.get("phase") == "play":
                    break
            waiting[0] -= 1
            if waiting[0] == 0:
                ready.set()
            while not stop.is_set():
                h = await http.post(f"/tables/{table}/hint")
                seen[h.json().get("rule", "hint")] += 1


async def analyser(base: str, body: bytes, stop: asyncio.Event,
                   seen: collections.Counter[str]) -> None:
    """A third client's (127.0.0.3) analysis of a 30-deal Knaves record, read line by
    line until done or ``stop``."""
    transport = httpx.AsyncHTTPTransport(local_address="127.0.0.3")
    async with httpx.AsyncClient(base_url=base, transport=transport, timeout=None,
                                 trust_env=False) as http, \
            http.stream("POST", "/api/analyze", content=body,
                        headers={"content-type": "application/json"}) as r:
        if r.status_code != 200:
            seen[f"analyze {r.status_code}"] += 1
            return
        async for line in r.aiter_lines():
            data = json.loads(line)
            if "deal" in data:
                seen["analysed deals"] += 1
            if "error" in data:
                seen[f"analyze {data['rule']}"] += 1
            if stop.is_set():
                return


async def run(args: argparse.Namespace, port: int) -> None:
    base = f"http://127.0.0.1:{port}"
    replay = record("polignac", 1, 1, {"threshold": 100})
    knaves = record("knaves", 30, 2, {"threshold": 500})
    quiet, quiet_status = await other_client(base, replay, args.requests)
    stop, ready = asyncio.Event(), asyncio.Event()
    seen: collections.Counter[str] = collections.Counter()
    waiting = [args.tables]
    flood = [asyncio.create_task(hinter(base, port, stop, ready, waiting, seen))
             for _ in range(args.tables)]
    await asyncio.wait_for(ready.wait(), 300)
    flood.append(asyncio.create_task(analyser(base, knaves, stop, seen)))
    busy, busy_status = await other_client(base, replay, args.requests)
    health = httpx.get(f"{base}/health", trust_env=False).json()["workers"]
    stop.set()
    for task in flood:
        task.cancel()
    await asyncio.gather(*flood, return_exceptions=True)
    print(f"other client (127.0.0.2): {args.requests} replays + {args.requests} score pads "
          "per phase")
    for name, lat, status in (("quiet", quiet, quiet_status), ("flood", busy, busy_status)):
        print(f"  {name:5}  p50 {pick(lat, 0.5):7.1f} ms  p99 {pick(lat, 0.99):7.1f} ms  "
              f"max {max(lat) * 1000:7.1f} ms  answers {dict(status)}")
    print(f"flood: {args.tables} Knaves tables asking hints in a loop (127.0.0.1), a 30-deal "
          f"Knaves analysis (127.0.0.3); answers by rule: {dict(seen)}")
    print(f"pool during the flood: {health}")


def start(data: Path, port: int) -> subprocess.Popen[bytes]:
    """``polignac serve`` on 127.0.0.1:port (its workers warm), once it answers.

    Raises:
        RuntimeError: it exited or did not answer within 300 s (a busy machine).
    """
    script = Path(sys.executable).parent / "polignac"
    cmd = [str(script)] if script.exists() else [sys.executable, "-m", "polignac"]
    cmd += ["serve", "--host", "127.0.0.1", "--port", str(port), "--data", str(data),
            "--rate", "100000", "--create-burst", "100000", "--max-connections", "100000"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("polignac serve exited")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/ready", timeout=2,
                         trust_env=False).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    proc.kill()
    raise RuntimeError("polignac serve did not start in 300 s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=40)
    parser.add_argument("--tables", type=int, default=12)
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as data:
        proc = start(Path(data), port)
        try:
            asyncio.run(run(args, port))
        finally:
            proc.terminate()
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
