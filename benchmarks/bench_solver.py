"""Exact open-hand solve of whole 4-player Polignac deals from the opening lead.

For ``--deals`` random deals (seeded), solves the position before the first
card (the value for eldest, best play by all: :meth:`Solver.value`) and
reports the mean, median, 99th percentile and worst time per deal, and the
nodes searched.  The numba kernel is compiled and warmed up before timing.
The external reference (a simple C alpha-beta solver: 9.8 ms mean, 0.27 s
worst) cannot be run here; as an in-run reference, a naive plain-Python
minimax over the same kernel (no table, no merging, no bounds: the pure path
with those switched off would take hours on a whole deal) is run on the last
``--naive-cards`` cards of each hand of the first ``--naive-deals`` deals, next
to the solver on the same end positions (ratio).

Run::

    .venv/bin/python benchmarks/bench_solver.py [--deals 500] [--seed 1]

This is not a test: pytest does not collect ``benchmarks/``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from polignac.bots.solver import Position, Solver, final_result
from polignac.core import Deal, get_rules

REF_MEAN_MS = 9.8
REF_WORST_MS = 270.0
AIM_MEAN_MS = 1.0
AIM_P99_MS = 20.0


def naive(deal: Deal, me: int) -> int:
    """Plain paranoid minimax over the core (no pruning at all)."""
    if deal.done:
        return final_result(deal, me)
    vals = [naive(deal.apply(c), me) for c in deal.legal_actions()]
    return max(vals) if deal.to_act == me else min(vals)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; return the exit status."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--naive-deals", type=int, default=20)
    ap.add_argument("--naive-cards", type=int, default=4)
    args = ap.parse_args(argv)
    rules = get_rules("polignac")
    rng = random.Random(args.seed)
    deals = []
    for _ in range(args.deals):
        d = Deal.shuffled(rules, 4, dealer=rng.randrange(4), rng=rng)
        while d.phase_name == "declare":
            d = d.apply_text("pass")
        deals.append(d)
    solver = Solver()
    t0 = time.perf_counter()
    solver.value(Position.from_deal(deals[0]))  # compile (not counted)
    compile_s = time.perf_counter() - t0
    times = []
    cpu = []
    nodes = []
    for d in deals:
        before = solver.nodes
        t = time.perf_counter()
        c = time.process_time()
        solver.value(Position.from_deal(d))
        cpu.append(time.process_time() - c)
        times.append(time.perf_counter() - t)
        nodes.append(solver.nodes - before)
    times_ms = sorted(1000 * t for t in times)
    cpu_ms = sorted(1000 * t for t in cpu)
    k99 = min(len(times_ms) - 1, int(0.99 * len(times_ms)))
    p99 = times_ms[k99]
    mean = statistics.fmean(times_ms)
    print(f"exact solve, 4-player polignac, whole deal from the opening lead, "
          f"{args.deals} deals (seed {args.seed}); warm-up/compile {compile_s:.1f} s not counted")
    print(f"  mean   {mean:8.3f} ms   (C reference {REF_MEAN_MS} ms, aim {AIM_MEAN_MS} ms)")
    print(f"  median {statistics.median(times_ms):8.3f} ms")
    print(f"  p99    {p99:8.3f} ms   (aim {AIM_P99_MS} ms)")
    print(f"  worst  {times_ms[-1]:8.3f} ms   (C reference worst {REF_WORST_MS} ms)")
    print(f"  CPU time (less sensitive to a loaded machine): "
          f"mean {statistics.fmean(cpu_ms):.3f} ms, median {statistics.median(cpu_ms):.3f}, "
          f"p99 {cpu_ms[k99]:.3f}, worst {cpu_ms[-1]:.3f}")
    print(f"  nodes  mean {statistics.fmean(nodes):.0f}, max {max(nodes)}; "
          f"{1e9 * sum(cpu) / max(1, sum(nodes)):.0f} ns of CPU a node")
    # in-run reference: naive minimax on end positions of the same deals
    tn = ts = 0.0
    k = args.naive_cards
    for d in deals[: args.naive_deals]:
        e = d
        while e.hands[e.to_act].bit_count() > k or e.trick:
            e = e.apply(e.legal_actions()[0])
        t = time.perf_counter()
        want = naive(e, e.to_act)
        tn += time.perf_counter() - t
        t = time.perf_counter()
        got = solver.value(Position.from_deal(e))
        ts += time.perf_counter() - t
        if got != want:
            print(f"  MISMATCH naive {want} solver {got}")
            return 1
    m = max(1, min(args.naive_deals, len(deals)))
    print(f"  in-run reference, {k}-card end positions of {m} deals: naive Python minimax "
          f"{1000 * tn / m:.2f} ms, solver {1000 * ts / m:.3f} ms "
          f"(ratio {tn / max(ts, 1e-9):.0f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
