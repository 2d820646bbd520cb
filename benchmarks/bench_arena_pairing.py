"""The arena's table pairing (issue 34; ``server/events/pairing.py``, docs/events.md)
for 1,000 waiting players at tables of 4 (aim: under 100 ms).

Three cases, each seeded:

- ``typical``: ranks a random order of 1..P, ratings around 1500 (sd 200), waits of
  0 to 60 s, and everyone back from a random table of the last round (so some
  sorted groups hold people who just played together);
- ``worst``: every group of the sorted cut is a table of the last round (the
  pairing must split every one of them);
- ``bots``: the typical case with 3 players more and a bot wait of 30 s, everyone
  having waited 30 to 90 s (the 3 left over sit with a bot).

For each: the pairing's median time over ``--repeat`` runs next to two references
timed in the same run (sorting the players by rank and rating; the naive sorted
cut, ``pairing.naive``) and their ratio, and the cost reached (repeat pairs, spread)
beside the naive cut's.

    PYTHONPATH=src .venv/bin/python benchmarks/bench_arena_pairing.py [--players 1000] \
        [--seats 4] [--repeat 15]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from polignac.server.events.pairing import Waiting, cost_of, naive, pair


def players(count: int, seats: int, case: str, seed: int = 1) -> list[Waiting]:
    """The waiting players of ``case`` (see the module)."""
    rng = random.Random(seed)
    ids = list(range(1, count + 1))
    ranks = list(ids)
    rng.shuffle(ranks)
    rank_of = dict(zip(ids, ranks, strict=True))
    if case == "worst":  # the sorted cut's groups are the last round's tables
        by_rank = sorted(ids, key=lambda i: rank_of[i])
        rating = {i: 1500.0 for i in ids}
        groups = [by_rank[k:k + seats] for k in range(0, count, seats)]
    else:
        rating = {i: rng.gauss(1500, 200) for i in ids}
        shuffled = list(ids)
        rng.shuffle(shuffled)
        groups = [shuffled[k:k + seats] for k in range(0, count, seats)]
    last = {p: frozenset(g) for g in groups for p in g}
    low = 30 if case == "bots" else 0
    return [Waiting(i, rank_of[i], rating[i], rng.uniform(low, low + 60), last[i])
            for i in ids]


def median_ms(run: Callable[[], Any], repeat: int) -> tuple[float, float]:
    """The median wall and CPU (this process's) times of ``run`` in ms."""
    wall, cpu = [], []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        run()
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    return statistics.median(wall), statistics.median(cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    print(f"{args.players} waiting players, tables of {args.seats}, median of "
          f"{args.repeat} runs (wall time; CPU time of the pairing in brackets)")
    for case in ("typical", "worst", "bots"):
        count = args.players + (args.seats - 1 if case == "bots" else 0)
        waiting = players(count, args.seats, case)
        bot_wait = 30.0 if case == "bots" else None
        result = pair(waiting, args.seats, random.Random(7), bot_wait=bot_wait)
        def run(w: list[Waiting] = waiting, b: float | None = bot_wait) -> Any:
            return pair(w, args.seats, random.Random(7), bot_wait=b)

        def sort(w: list[Waiting] = waiting) -> Any:
            return sorted(w, key=lambda p: (p.rank, p.rating))

        def cut(w: list[Waiting] = waiting) -> Any:
            return naive(w, args.seats)

        took, cpu = median_ms(run, args.repeat)
        sort_ms = median_ms(sort, args.repeat)[0]
        naive_ms = median_ms(cut, args.repeat)[0]
        start = cost_of(naive(waiting, args.seats), waiting)
        botted = sum(1 for t in result.tables if t.bots)
        print(f"{case:8s} pairing {took:6.1f} ms ({cpu:.1f})"
              f" | sort {sort_ms:5.2f} ms (x{took / sort_ms:.0f})"
              f" | naive cut {naive_ms:5.2f} ms (x{took / naive_ms:.0f})"
              f" | tables {len(result.tables)} (with bots {botted}),"
              f" waiting {len(result.waiting)}"
              f" | repeats {start[0]} -> {result.repeats},"
              f" spread {start[1]:.0f} -> {result.spread:.0f}")


if __name__ == "__main__":
    main()
