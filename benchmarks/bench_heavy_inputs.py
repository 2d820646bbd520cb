"""The event loop's lag under the heaviest inputs a stranger may send (issue 10).

Starts ``polignac serve`` on 127.0.0.1 (a free port, or ``--port``), lets four
people play one live table over real WebSockets, and runs two phases of
``--seconds`` each in the same run:

1. **quiet**: only the live table;
2. **abuse**: the live table, plus ``--clients`` tasks that send, in a loop
   bounded by the phase's time (and ``--max-requests``), the heaviest inputs:
   the biggest valid record the limits allow (1,000 deals of 52 cards, padded to
   just under the 4 MiB body limit), a 4 MiB nested array, a 4 MiB number, a
   record and a table with the rule ``players: 2-10000000``, JSON nested 8,000
   deep and a 16 KB number to ``/api/tables``, the biggest valid score pad
   (2,000 entries) and a pad with the huge range; and, over a spectator's
   WebSocket of the live table, 64 KB frames nested 32,000 deep and numbers of
   60,000 digits.

For each phase it prints the loop lag that the server measures (``GET
/health?window=S``: p50, p99 and max over exactly that phase) and the
acknowledgement latency of the live table's actions (from sending ``act`` to
receiving its event), side by side, and the answers to the abuse by status.
``loop CPU`` is the CPU time the loop's thread used per 50 ms sample: on a
shared machine, a lag far above it is time the server waited for a CPU.

    .venv/bin/python benchmarks/bench_heavy_inputs.py                # 20 s per phase
    .venv/bin/python benchmarks/bench_heavy_inputs.py --seconds 30 --clients 6

Not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).parent))
from bench_server import free_port, player, seat_four, start_server

from polignac.core import Match, get_rules, to_record

LIMIT = 4 * 1024 * 1024


def heaviest_record() -> bytes:
    """The most work a valid record can ask for: 1,000 deals (the most a record may
    hold) of 52 cards in a match that never ends (no card scores), padded with an
    ignored field to just under the 4 MiB limit."""
    rules = get_rules("polignac", {"pack": 52, "rank_order": "AKQJT98765432",
                                   "removals": "none", "players": [4],
                                   "card_points": {"J": 0, "JS": 0}, "declaration": "none"})
    rng = random.Random(1)
    m = Match.new(rules, 4, first_dealer=0)
    while len(m.results) < 1000:
        m = m.deal_random(rng) if m.needs_deal else m.apply(rng.choice(m.legal_actions()))
    record = to_record(m)
    body = json.dumps(record, separators=(",", ":")).encode()
    record["padding"] = ["pad"] * ((LIMIT - len(body) - 1000) // 6)
    out = json.dumps(record, separators=(",", ":")).encode()
    assert len(out) <= LIMIT, len(out)
    return out


def heaviest_pad() -> bytes:
    """A valid score pad of 2,000 entries (the most): 1,500 misdeals, then 500 deals."""
    seats = [0, 1, 2, 3]
    entries: list[dict[str, Any]] = [{"misdeal": True}] * 1500
    rng = random.Random(2)
    entries += [{"taken": {j: rng.choice(seats) for j in ("JS", "JC", "JD", "JH")}}
                for _ in range(499)]
    pad = {"preset": "polignac", "overrides": {"match_end": "fixed-deals", "deals": 500},
           "names": ["Ann", "Bob", "Cy", "Di"], "entries": entries}
    return json.dumps({"pad": pad, "entry": {"taken": {"JS": 0, "JC": 1, "JD": 2,
                                                      "JH": 3}}}).encode()


def abuses() -> list[tuple[str, str, bytes]]:
    """(name, path, body) of every HTTP abuse."""
    huge_range = {"players": "2-10000000"}
    small = to_record(Match.new(get_rules("polignac"), 4, first_dealer=0))
    return [
        ("replay: heaviest valid record", "/api/replay", heaviest_record()),
        ("replay: 4 MiB nested array", "/api/replay",
         b"[" * (LIMIT // 2 - 10) + b"]" * (LIMIT // 2 - 10)),
        ("replay: 4 MiB number", "/api/replay", b"9" * (LIMIT - 10)),
        ("replay: players 2-10000000", "/api/replay",
         json.dumps({**small, "rules": huge_range}).encode()),
        ("tables: players 2-10000000", "/api/tables",
         json.dumps({"seats": [{"kind": "you"}] + [{"kind": "bot"}] * 3,
                     "overrides": huge_range}).encode()),
        ("tables: nested 8000 deep", "/api/tables", b"[" * 8000 + b"]" * 8000),
        ("tables: 16 KB number", "/api/tables", b'{"players": ' + b"7" * 16000 + b"}"),
        ("scorepad: heaviest valid pad", "/api/scorepad/score", heaviest_pad()),
        ("scorepad: players 2-10000000", "/api/scorepad/score",
         json.dumps({"pad": {"preset": "polignac", "overrides": huge_range,
                             "names": ["A", "B", "C", "D"]}}).encode()),
    ]


async def live_table(http: httpx.AsyncClient) -> tuple[str, list[str]]:
    """A table of four people (threshold 500, so that it lasts); its id and cookies."""
    return await seat_four(http, overrides={"threshold": 500})


async def http_abuser(port: int, items: list[tuple[str, str, bytes]], stop_at: float,
                      budget: list[int], seed: int,
                      answers: collections.Counter[tuple[str, int]]) -> None:
    """Send the abuses in a shuffled loop until ``stop_at`` or the budget is spent."""
    rng = random.Random(seed)
    order = list(items)
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=120,
                                 trust_env=False) as http:
        while time.monotonic() < stop_at and budget[0] > 0:
            rng.shuffle(order)
            for name, path, body in order:
                if time.monotonic() >= stop_at or budget[0] <= 0:
                    return
                budget[0] -= 1
                try:
                    async with http.stream("POST", path, content=body, headers={
                            "content-type": "application/json"}) as r:
                        head = b""
                        async for chunk in r.aiter_raw():  # read and drop (up to ~20 MB)
                            head = head or chunk[:300]
                        rule = "" if r.status_code == 200 else " " + str(
                            json.loads(head).get("rule"))
                        answers[(name + rule, r.status_code)] += 1
                except httpx.HTTPError as exc:
                    answers[(f"{name}: {type(exc).__name__}", 0)] += 1


async def ws_abuser(port: int, table: str, stop_at: float, budget: list[int],
                    answers: collections.Counter[tuple[str, int]]) -> None:
    """A spectator's WebSocket sending 64 KB nested frames and 60,000-digit numbers."""
    frames = [("ws: frame nested 32000 deep", "[" * 32000 + "]" * 32000),
              ("ws: 60000-digit number", '{"type": "hello", "last_seq": ' + "8" * 60000 + "}")]
    i = 0
    while time.monotonic() < stop_at and budget[0] > 0:
        # The server closes a socket that never says a valid hello (hello timeout) or
        # floods it (rate limit): count that, and connect again.
        try:
            async with websockets.connect(f"ws://127.0.0.1:{port}/tables/{table}/ws",
                                          proxy=None, max_size=None, max_queue=None) as ws:
                while time.monotonic() < stop_at and budget[0] > 0:
                    budget[0] -= 1
                    name, text = frames[i % 2]
                    i += 1
                    await ws.send(text)
                    reply = json.loads(await asyncio.wait_for(ws.recv(), 30))
                    answers[(f"{name} -> {reply.get('rule')}", 0)] += 1
                    await asyncio.sleep(0.01)
        except websockets.exceptions.ConnectionClosed as exc:
            answers[(f"ws: closed by the server ({exc.rcvd.code if exc.rcvd else '-'})", 0)] += 1


async def health(port: int, window: float) -> dict[str, Any]:
    """``GET /health?window=S``."""
    async with httpx.AsyncClient(timeout=30, trust_env=False) as http:
        r = await http.get(f"http://127.0.0.1:{port}/health", params={"window": window})
        r.raise_for_status()
        data: dict[str, Any] = r.json()
        return data


async def phase(port: int, table: str, cookies: list[str], seconds: float, seed: int,
                abuse: list[tuple[str, str, bytes]] | None, clients: int,
                max_requests: int) -> dict[str, Any]:
    """One phase: the live table's four players (and the abusers); its figures."""
    latencies: list[float] = []
    go = asyncio.Event()
    deadline = [0.0]
    players = [asyncio.create_task(player(port, table, c, seed + s, deadline, latencies, go,
                                          0.05)) for s, c in enumerate(cookies)]
    await asyncio.sleep(1.0)  # the connections open
    started = time.monotonic()
    stop_at = deadline[0] = started + seconds
    go.set()
    answers: collections.Counter[tuple[str, int]] = collections.Counter()
    budget = [max_requests]
    extra = []
    if abuse is not None:
        extra = [asyncio.create_task(http_abuser(port, abuse, stop_at, budget, seed + 10 + i,
                                                 answers)) for i in range(clients)]
        extra.append(asyncio.create_task(ws_abuser(port, table, stop_at, budget, answers)))
    await asyncio.gather(*players)
    elapsed = time.monotonic() - started
    figures = await health(port, min(elapsed, 60.0))
    await asyncio.gather(*extra)  # a request in flight at the deadline is finished
    lat = sorted(latencies)

    def q(p: float) -> float | None:
        return round(1000 * lat[min(len(lat) - 1, int(len(lat) * p))], 1) if lat else None

    return {"seconds": round(elapsed, 1), "loop_lag_ms": figures["loop_lag_ms"],
            "loop_cpu_ms": figures["loop_cpu_ms"],
            "ack_ms": {"p50": q(0.5), "p99": q(0.99),
                       "max": round(1000 * lat[-1], 1) if lat else None,
                       "actions": len(lat)},
            "workers": figures["workers"],
            "answers": {f"{name} [{status}]" if status else name: n
                        for (name, status), n in sorted(answers.items())}}


async def run(args: argparse.Namespace, port: int) -> dict[str, Any]:
    """Build the inputs, make the live table, run both phases."""
    built = time.monotonic()
    abuse = abuses()
    print(f"inputs built in {time.monotonic() - built:.1f} s: "
          + ", ".join(f"{name} {len(body) / 1024:.0f} KiB" for name, _, body in abuse),
          flush=True)
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60,
                                 trust_env=False) as http:
        table, cookies = await live_table(http)
    quiet = await phase(port, table, cookies, args.seconds, 1, None, 0, 0)
    loud = await phase(port, table, cookies, args.seconds, 2, abuse, args.clients,
                       args.max_requests)
    return {"quiet": quiet, "abuse": loud}


def main(argv: list[str] | None = None) -> int:
    """Parse the options, run against a fresh server, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each phase")
    parser.add_argument("--clients", type=int, default=4, help="concurrent HTTP abusers")
    parser.add_argument("--max-requests", type=int, default=2000,
                        help="abuse requests at most (default 2000)")
    parser.add_argument("--port", type=int, default=0, help="port (default: a free one)")
    args = parser.parse_args(argv)
    port = args.port or free_port()
    with tempfile.TemporaryDirectory(prefix="polignac-bench-") as data:
        proc = start_server(Path(data), port, None)
        try:
            figures = asyncio.run(run(args, port))
        finally:
            proc.kill()
            proc.wait()
    for name in ("quiet", "abuse"):
        f = figures[name]
        lag, cpu, ack = f["loop_lag_ms"], f["loop_cpu_ms"], f["ack_ms"]
        print(f"{name:6} {f['seconds']:5.1f} s  loop lag p50 {lag['p50']} ms, p99 {lag['p99']} "
              f"ms, max {lag['max']} ms ({lag['samples']} samples; loop CPU per sample p99 "
              f"{cpu['p99']} ms, max {cpu['max']} ms)  |  ack p50 {ack['p50']} ms, p99 "
              f"{ack['p99']} ms, max {ack['max']} ms ({ack['actions']} actions)")
    print("abuse answers:", json.dumps(figures["abuse"]["answers"], indent=1))
    print("workers:", json.dumps(figures["abuse"]["workers"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
