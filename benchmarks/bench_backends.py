"""One duplicate tournament on each backend: serial (the in-run reference), worker
processes, and a local Ray cluster; plus the Ray cluster's start-up and shut-down.

Plays the same :class:`~polignac.bots.tournament.TournamentConfig` (``--bots``,
``--deals`` hand sets, ``--seed``) with :class:`SerialBackend`,
:class:`ProcessBackend` (``--jobs``) and :class:`RayBackend` (a new local
cluster of ``--jobs`` CPUs), ``--repeat`` times each, and prints each run's
wall time (the tournament only: the Ray cluster is started before and timed
on its own), the ratio to the serial median, and checks that the three
results are equal (timings left out).

Run::

    .venv/bin/python benchmarks/bench_backends.py [--bots hard,medium,medium,medium]
        [--deals 6] [--seed 1] [--jobs 2] [--repeat 2]

Needs the ``cluster`` extra (Ray).  This is not a test: pytest does not
collect ``benchmarks/``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

from polignac.bots.backends import Backend, ProcessBackend, RayBackend, SerialBackend
from polignac.bots.tournament import TournamentConfig, iter_specs, run_tournament


def plain(result: dict[str, Any]) -> dict[str, Any]:
    """The result without its timings."""
    result = json.loads(json.dumps(result))
    result.pop("elapsed_s")
    for b in result["bots"]:
        b.pop("ms_per_move")
    return result


def timed(config: TournamentConfig, backend: Backend, repeat: int
          ) -> tuple[list[float], dict[str, Any]]:
    """Wall times of ``repeat`` runs, and the last result."""
    times = []
    result: dict[str, Any] = {}
    for _ in range(repeat):
        t = time.perf_counter()
        result = run_tournament(config, backend).to_dict()
        times.append(time.perf_counter() - t)
    return times, plain(result)


def main() -> None:
    """Parse the options, time every backend, print the table."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bots", default="hard,medium,medium,medium")
    ap.add_argument("--preset", default="polignac")
    ap.add_argument("--deals", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    config = TournamentConfig(args.preset, tuple(iter_specs(args.bots)), deals=args.deals,
                              seed=args.seed)
    print(f"{args.preset}, bots {args.bots}, {args.deals} hand sets, seed {args.seed}, "
          f"{args.jobs} jobs, {args.repeat} runs each")
    serial, ref = timed(config, SerialBackend(), args.repeat)
    process, by_process = timed(config, ProcessBackend(args.jobs), args.repeat)
    t = time.perf_counter()
    ray = RayBackend(num_cpus=args.jobs)
    imported = time.perf_counter() - t
    ray.start()
    started = time.perf_counter() - t - imported
    on_ray, by_ray = timed(config, ray, args.repeat)
    t = time.perf_counter()
    ray.close()
    closed = time.perf_counter() - t
    base = statistics.median(serial)
    for name, times in (("serial", serial), ("process", process), ("ray", on_ray)):
        cells = "  ".join(f"{x:6.2f}" for x in times)
        med = statistics.median(times)
        print(f"{name:8} {cells}  median {med:6.2f} s  ratio to serial {med / base:5.2f}")
    print(f"ray: import {imported:.2f} s, local cluster start (ray.init) {started:.2f} s, "
          f"shutdown {closed:.2f} s")
    print("same result on every backend:", ref == by_process == by_ray)


if __name__ == "__main__":
    main()
