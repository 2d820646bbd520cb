"""Whole-deal analysis time next to one exact whole-deal solve, measured in the same run.

For ``--deals`` random 4-player Polignac deals (seeded; every seat plays
``medium``, so the play is plausible), times
:func:`polignac.bots.analysis.analyze_deal` over every action of every seat
(``--samples`` deals per action, the ``--model`` (default paranoid), the
default node budget), and, as the in-run reference, one exact open-hand solve of the
same deal from its first card (:meth:`Solver.solve`: every card of the
opening lead, best play by all).  Prints per deal the analysis time, the
actions analysed and solves made, the reference time and the ratio, then
the medians.  The numba kernel is warmed up before timing.

Run::

    .venv/bin/python benchmarks/bench_analysis.py [--deals 5] [--samples 16] [--seed 1]
        [--model paranoid|reply]

This is not a test: pytest does not collect ``benchmarks/``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from polignac.bots.analysis import Settings, analyze_deal
from polignac.bots.base import SeatView
from polignac.bots.simple import MediumBot
from polignac.bots.solver import Position, Solver, default_solver
from polignac.core import Deal, get_rules
from polignac.core.actions import Action


def played_deal(seed: int) -> tuple[Deal, list[Action]]:
    """A random deal played to the end by ``medium`` in every seat: its first state
    and every action."""
    rng = random.Random(seed)
    first = Deal.shuffled(get_rules("polignac"), 4, seed % 4, rng)
    bot = MediumBot()
    d = first
    actions: list[Action] = []
    while not d.done:
        a = bot.act(SeatView.of(d, d.to_act), rng)
        actions.append(a)
        d = d.apply(a)
    return first, actions


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=5)
    ap.add_argument("--samples", type=int, default=16)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--model", choices=("paranoid", "reply"), default="paranoid")
    args = ap.parse_args(argv)
    solver = default_solver()
    warm, warm_actions = played_deal(10_000)  # compile / load the kernel first
    analyze_deal(warm, warm_actions[:3], list(range(4)), 1, Settings(samples=1))
    print(f"polignac, 4 players, {args.deals} deals (seed {args.seed}), "
          f"{args.samples} samples per action, {args.model} model; "
          f"{sys.implementation.name} {sys.version.split()[0]}")
    print(f"{'deal':>4}  {'analysis s':>10}  {'analysed':>8}  {'solves':>6}  "
          f"{'one solve ms':>12}  {'ratio':>7}")
    ratios, times, refs = [], [], []
    for i in range(args.deals):
        first, actions = played_deal(args.seed * 1000 + i)
        # the reference: the whole deal solved once, open-hand, from its first card
        start = first
        for a in actions:
            if start.phase_name == "play":
                break
            start = start.apply(a)
        ref_solver = Solver()
        t0 = time.perf_counter()
        ref_solver.solve(Position.from_deal(start))
        ref = time.perf_counter() - t0
        nodes0 = solver.nodes
        t0 = time.perf_counter()
        a = analyze_deal(first, actions, list(range(4)), i + 1,
                         Settings(samples=args.samples, seed=args.seed,
                                  model=args.model))
        took = time.perf_counter() - t0
        analysed = sum(1 for e in a["actions"] if "loss" in e)
        solves = sum(e["samples"] + 1 for e in a["actions"] if "loss" in e)
        ratios.append(took / ref)
        times.append(took)
        refs.append(ref)
        print(f"{i + 1:>4}  {took:>10.2f}  {analysed:>8}  {solves:>6}  {ref * 1000:>12.1f}  "
              f"{took / ref:>7.0f}   ({(solver.nodes - nodes0) / 1e6:.1f}M nodes)")
    print(f"median: analysis {statistics.median(times):.2f} s, one whole-deal solve "
          f"{statistics.median(refs) * 1000:.1f} ms, ratio {statistics.median(ratios):.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
