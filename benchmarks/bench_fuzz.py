"""The long fuzz run of the web app: a million WebSocket frames and HTTP requests.

Runs the real app (``create_app``: middlewares, routes, handlers, SQLite in a
temporary folder, on ``/dev/shm`` when there is one) in-process on one event
loop, through ``tests/server/fuzzing.py``'s harness, which calls the ASGI app
directly (as Starlette's TestClient does, without its thread and HTTP
client).  Each step is a frame at the current table (every message type of
the protocol, valid ones and ones with wrong fields, types and sizes, raw
non-JSON and binary frames) or, with probability ``--requests``, a request to
a route (every POST body, the GET routes that read input; wrong hosts,
origins, cookies, content types).  Templates come from the same pools as the
Hypothesis test ``tests/server/test_fuzz.py``, drawn here by a seeded
``random.Random`` (Hypothesis is far slower per example).

Reports frames and requests tried, refused ones, responses 5xx, crashes
(an exception out of the app or in the server's log, a handler that hangs, a
connection closed without an error frame) and state changes from refused
input (a refused frame that committed an action or a cut, a refused request
that changed the tables or a table's seats; at the end, the database holds
exactly the tables and events served).  Exit status 1 if any of those three
is not 0.  A ``503`` whose rule is ``busy`` or ``job-timeout`` (the server too busy or
too slow now: a hint's job stopped at its time limit on a loaded machine) is listed
apart, by rule and route (``busy_5xx``), beside the other 5xx (``other_5xx``), and
still counts as a 5xx in the exit status; ``--job-timeout S`` gives the jobs (hints,
replays, score pads) ``S`` seconds instead of the served limits (10 s, hints 30 s),
as ``polignac serve --job-timeout S --hint-timeout S`` would.  As a reference
measured in the same run it times round trips of a plain ``ping``.

    .venv/bin/python benchmarks/bench_fuzz.py                    # 100000 steps
    .venv/bin/python benchmarks/bench_fuzz.py --steps 1000000    # the long run
    .venv/bin/python benchmarks/bench_fuzz.py --steps 200000 --max-seconds 1080
                                          # at most 18 minutes, then the report
    .venv/bin/python benchmarks/bench_fuzz.py --job-timeout 120  # a loaded machine

``--no-huge`` leaves out JSON nested deeper than Python's parser goes and
numbers of more than 4300 digits (refused by the input bounds, branch h-inputs).

Not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.server import fuzzing


def steps(rng: random.Random, n: int, requests: float, huge: bool,
          deadline: float | None = None
          ) -> Iterator[fuzzing.FrameTemplate | fuzzing.RequestTemplate]:
    """``n`` templates: requests with probability ``requests``, else frames; none after
    ``deadline`` (``time.perf_counter()``), when given."""
    for _ in range(n):
        if deadline is not None and time.perf_counter() > deadline:
            return
        if rng.random() < requests:
            yield fuzzing.random_request(rng, huge)
        else:
            yield fuzzing.random_frame(rng, huge)


async def reference(data_dir: Path, n: int) -> float:
    """Round trips a second of a plain ping through the same harness."""
    harness = fuzzing.Harness(fuzzing.fuzz_config(data_dir), random.Random(0))
    await harness.start()
    try:
        await harness.new_table()
        assert harness.session is not None
        start = time.perf_counter()
        for _ in range(n):
            await harness.session.send("{\"type\":\"ping\"}")
        return n / (time.perf_counter() - start)
    finally:
        await harness.stop()


def main(argv: list[str] | None = None) -> int:
    """Run the fuzz; print the figures (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=100_000,
                        help="frames and requests in all (default 100000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--requests", type=float, default=0.2,
                        help="share of HTTP requests among the steps (default 0.2)")
    parser.add_argument("--no-huge", action="store_true",
                        help="leave out too-deep JSON and too-long numbers")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--max-seconds", type=float, default=None,
                        help="stop drawing steps after this long and report the steps run "
                             "(a loaded machine)")
    parser.add_argument("--job-timeout", type=float, default=None, metavar="S",
                        help="seconds a job (hint, replay, score pad) may run in a worker "
                             "(default: as served, 10 and hints 30); more on a loaded machine")
    args = parser.parse_args(argv)
    if args.job_timeout is not None and not 0.1 <= args.job_timeout <= 3600:
        parser.error("--job-timeout: give 0.1 to 3600 seconds")
    rng = random.Random(args.seed)
    shm = Path("/dev/shm")
    base = str(shm) if shm.is_dir() else None
    with tempfile.TemporaryDirectory(dir=base) as ref_dir:
        ping_rate = asyncio.run(reference(Path(ref_dir), 2000))
    last = [time.perf_counter()]

    def progress(stats: fuzzing.Stats) -> None:
        if not args.json and time.perf_counter() - last[0] > 30:
            last[0] = time.perf_counter()
            print(f"  ... {stats.frames + stats.requests} steps, {stats.crashes} crashes, "
                  f"{stats.responses_5xx} 5xx, {stats.state_changes} state changes",
                  flush=True)

    with tempfile.TemporaryDirectory(dir=base) as data_dir:
        start = time.perf_counter()
        deadline = None if args.max_seconds is None else start + args.max_seconds
        config = fuzzing.fuzz_config(Path(data_dir))
        if args.job_timeout is not None:
            config = replace(config, job_seconds=args.job_timeout,
                             hint_seconds=args.job_timeout)
        stats = asyncio.run(fuzzing.run(config,
                                        steps(rng, args.steps, args.requests,
                                              not args.no_huge, deadline), rng, progress))
        wall = time.perf_counter() - start
    out: dict[str, Any] = {
        "steps": stats.frames + stats.requests, "frames": stats.frames,
        "requests": stats.requests, "refused_frames": stats.refused_frames,
        "refused_requests": stats.refused_requests, "responses_5xx": stats.responses_5xx,
        "other_5xx": stats.responses_5xx - sum(stats.busy_5xx.values()),
        "busy_5xx": dict(sorted(stats.busy_5xx.items())),
        "crashes": stats.crashes, "state_changes": stats.state_changes,
        "closed_with_error": stats.closed_with_error, "tables_created": stats.tables_created,
        "acts_accepted": stats.acts_accepted, "cuts_accepted": stats.cuts_accepted,
        "wall_s": round(wall, 1), "steps_per_s": round((stats.frames + stats.requests) / wall),
        "reference_pings_per_s": round(ping_rate), "seed": args.seed, "huge": not args.no_huge,
        "job_timeout_s": args.job_timeout,
        "kinds": dict(sorted(stats.kinds.items())), "problems": stats.problems,
    }
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        for key, value in out.items():
            if key in ("kinds", "busy_5xx"):
                print(f"{key}:" + ("" if value else " none"))
                for kind, n in value.items():
                    print(f"  {n:>8}  {kind}")
            elif key == "problems":
                for problem in value:
                    print(f"  ! {problem}")
            else:
                print(f"{key}: {value}")
    return 1 if stats.crashes or stats.responses_5xx or stats.state_changes else 0


if __name__ == "__main__":
    sys.exit(main())
