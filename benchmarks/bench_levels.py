"""Time per move of each bot level, in every game family.

For each preset, ``--deals`` seeded deals are played with the level under test
in seat 0 and ``medium`` in the other seats (the oracle sees every hand, as
in a tournament); only seat 0's decisions are timed, those with at least two
legal actions (a forced move costs nothing).  Reported per level: mean,
median, 90th and 95th percentile milliseconds per move.

Reference, measured in the same run: one random playout of a whole deal
through the rules core (``Deal.legal_actions`` and ``apply`` from the first
card to the last, with ``random.choice``), in milliseconds.  The column
``playouts`` is the level's mean time per move divided by that reference:
how many whole random deals the core plays in the time the bot takes to
choose one card.  It moves much less than the milliseconds with the load of
the shared machine.  There is no external reference for bot speed; the
levels' documented times are in docs/bots.md.

Run::

    .venv/bin/python benchmarks/bench_levels.py [--deals 6] [--seed 1]
        [--presets polignac,knaves] [--levels random,easy,medium,hard]

This is not a test: pytest does not collect ``benchmarks/``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from polignac.bots.base import SeatView
from polignac.bots.registry import make_bot
from polignac.bots.simple import MediumBot
from polignac.core import Deal, get_rules

PRESETS = ["polignac", "slobberhannes", "knaves", "bassadewitz", "pollack"]
LEVELS = ["random", "easy", "medium", "hard", "expert", "oracle"]


def playout_ms(preset: str, rng: random.Random, repeats: int = 200) -> float:
    """Mean milliseconds of one uniformly random deal played through the core."""
    rules = get_rules(preset)
    n = rules.default_players
    start = time.perf_counter()
    for _ in range(repeats):
        d = Deal.shuffled(rules, n, dealer=rng.randrange(n), rng=rng)
        while not d.done:
            d = d.apply(rng.choice(d.legal_actions()))
    return (time.perf_counter() - start) * 1000 / repeats


def level_times(preset: str, level: str, deals: int, seed: int) -> list[float]:
    """Milliseconds of each timed decision of ``level`` in seat 0."""
    rules = get_rules(preset)
    n = rules.default_players
    bot = make_bot(level)
    other = MediumBot()
    rng = random.Random(seed)
    out: list[float] = []
    for i in range(deals):
        d = Deal.shuffled(rules, n, dealer=i % n, rng=rng)
        bot_rng = random.Random(seed * 1000 + i)
        while not d.done:
            p = d.to_act
            view = SeatView.of(d, p)
            if p != 0:
                d = d.apply(other.act(view, rng))
                continue
            t = time.perf_counter()
            if getattr(bot, "cheats", False):
                a = bot.act_open(d, p, bot_rng)  # type: ignore[attr-defined]
            else:
                a = bot.act(view, bot_rng)
            dt = (time.perf_counter() - t) * 1000
            if len(view.legal) >= 2:
                out.append(dt)
            d = d.apply(a)
    return out


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; return the exit status."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--presets", default=",".join(PRESETS))
    ap.add_argument("--levels", default=",".join(LEVELS))
    args = ap.parse_args(argv)
    presets = [p for p in args.presets.split(",") if p]
    levels = [lv for lv in args.levels.split(",") if lv]
    print(f"{'preset':<14} {'level':<8} {'moves':>6} {'mean ms':>9} {'median':>8} "
          f"{'p90':>8} {'p95':>8} {'ref ms':>7} {'playouts':>9}")
    for preset in presets:
        for lv in levels:
            level_times(preset, lv, 1, 999)  # compile the kernel, warm the caches
            ref = playout_ms(preset, random.Random(args.seed))
            ts = level_times(preset, lv, args.deals, args.seed)
            if not ts:
                continue
            mean = statistics.fmean(ts)
            p90 = sorted(ts)[int(0.9 * (len(ts) - 1))]
            p95 = sorted(ts)[int(0.95 * (len(ts) - 1))]
            print(f"{preset:<14} {lv:<8} {len(ts):>6} {mean:>9.2f} {statistics.median(ts):>8.2f} "
                  f"{p90:>8.2f} {p95:>8.2f} {ref:>7.3f} {mean / ref:>9.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
