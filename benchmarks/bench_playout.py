"""Random playouts in the compact kernel: nanoseconds per card play.

Plays ``--deals`` random 4-player Polignac deals with
:func:`polignac.bots.fast.random_playouts` (uniformly random legal card,
tricks resolved, compiled by numba; the compile is warmed up first and not
counted) and prints ns per card next to the reference: a C bitboard loop
plays a card in about 7.5 ns on this machine class (aim: 50 ns or less).
In-run reference: the same playouts through the plain-Python kernel and
through the public core (``Deal.apply``) on fewer deals.

Run::

    .venv/bin/python benchmarks/bench_playout.py [--deals 200000]

This is not a test: pytest does not collect ``benchmarks/``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import numpy as np

from polignac.bots import fast
from polignac.bots.solver import Position, build
from polignac.core import Deal, get_rules


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; return the exit status."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=200_000)
    ap.add_argument("--slow-deals", type=int, default=200)
    args = ap.parse_args(argv)
    deal = Deal.shuffled(get_rules("polignac"), 4, dealer=0, rng=random.Random(1))
    while deal.phase_name == "declare":
        deal = deal.apply_text("pass")
    g, strength, upts, pts, _o, hands, _t, _st, _b = build(Position.from_deal(deal))
    zob = np.zeros(fast.Z_SIZE, np.int64)
    taken = np.zeros(16, np.int64)
    fast.random_playouts(g, strength, upts, pts, zob, hands, 10, 1, taken)  # compile
    t = time.perf_counter()
    cards = fast.random_playouts(g, strength, upts, pts, zob, hands, args.deals, 2, taken)
    ns = 1e9 * (time.perf_counter() - t) / cards
    pure = fast.pure_kernel()
    t = time.perf_counter()
    pcards = pure.random_playouts(g, strength, upts, pts, zob, hands, args.slow_deals, 2, taken)
    pns = 1e9 * (time.perf_counter() - t) / pcards
    rng = random.Random(3)
    t = time.perf_counter()
    ccards = 0
    for _ in range(args.slow_deals):
        d = deal
        while not d.done:
            d = d.apply(rng.choice(d.legal_actions()))
            ccards += 1
    cns = 1e9 * (time.perf_counter() - t) / ccards
    print(f"random playout, 4-player polignac, {args.deals} deals, {cards} card plays")
    print(f"  numba kernel   {ns:8.1f} ns/card   (C bitboard reference 7.5 ns, aim 50 ns)")
    print(f"  plain kernel   {pns:8.0f} ns/card   ({pns / ns:.0f}x the numba kernel)")
    print(f"  core Deal      {cns:8.0f} ns/card   ({cns / ns:.0f}x the numba kernel)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
