"""Puzzles built from seeded bot-against-bot games: how many, by theme, and the time.

Plays ``--deals`` deals of ``--preset`` (4 players; ``--per-record`` deals a
record, each record's bots and shuffles seeded from ``--seed`` and its index)
between ``--bots`` at every seat, optionally writes the records to ``--records``
(for ``polignac puzzles build``), then builds the puzzles of every record
(:func:`polignac.bots.puzzles.find_puzzles`) and prints the positions tried, the
puzzles found by theme, puzzles per 1,000 deals and seconds a deal, beside the
time the bots took to play the same deals (measured in the same run: read the
ratio, the machine is shared) and the load average.

    PYTHONPATH=src .venv/bin/python benchmarks/bench_puzzles.py [--deals 200] [--bots medium]

Not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from pathlib import Path

from polignac.bots.puzzles import THEMES, PuzzleSettings, Scan, find_puzzles
from polignac.bots.registry import make_bot
from polignac.bots.runner import play_match
from polignac.core import get_rules, to_record


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--preset", default="polignac")
    ap.add_argument("--bots", default="medium", help="the bot spec at every seat")
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--per-record", type=int, default=20)
    ap.add_argument("--seed", type=int, default=35)
    ap.add_argument("--records", metavar="DIR", help="also write the records here")
    ap.add_argument("--max-cards", type=int, default=PuzzleSettings().max_cards)
    ap.add_argument("--margin", type=int, default=PuzzleSettings().margin)
    ap.add_argument("--deal-limit", type=int, default=PuzzleSettings().deals,
                    help="the most consistent deals a position may have")
    args = ap.parse_args()
    rules = get_rules(args.preset, {"threshold": 500} if args.preset == "polignac" else {})
    records = []
    start = time.perf_counter()
    left, index = args.deals, 0
    while left > 0:
        per = min(left, args.per_record)
        rng = random.Random(f"bench-puzzles/{args.seed}/{index}")
        m = play_match(rules, 4, [make_bot(args.bots) for _ in range(4)], rng, max_deals=per)
        records.append(to_record(m))
        left -= len(m.results)
        index += 1
        if not m.results:
            break
    play_s = time.perf_counter() - start
    if args.records:
        folder = Path(args.records)
        folder.mkdir(parents=True, exist_ok=True)
        for i, r in enumerate(records):
            (folder / f"r{i:03d}.json").write_text(json.dumps(r))
    settings = PuzzleSettings(max_cards=args.max_cards, margin=args.margin,
                              deals=args.deal_limit)
    total = Scan()
    start = time.perf_counter()
    for i, r in enumerate(records):
        total.add(find_puzzles(r, settings, f"r{i:03d}.json")[1])
    build_s = time.perf_counter() - start
    deals = max(1, total.deals)
    load = os.getloadavg()
    print(f"{args.preset} 4p, {args.bots} at every seat, seed {args.seed}: {total.deals} deals "
          f"in {len(records)} records; max-cards {args.max_cards}, margin {args.margin}, "
          f"deal limit {args.deal_limit}")
    print(f"positions tried {total.positions} (skipped: {total.too_many_deals} too many "
          f"consistent deals, {total.too_deep} over the node budget); rejected: {total.ties} a "
          f"tie at the top, {total.differs} the best card differs between deals, "
          f"{total.played_best} the best card was played")
    themes = ", ".join(f"{t} {total.themes[t]}" for t in THEMES if total.themes[t]) or "none"
    print(f"puzzles {total.puzzles} ({1000 * total.puzzles / deals:.0f} per 1,000 deals); "
          f"by theme: {themes}")
    print(f"build {build_s:.1f} s ({build_s / deals:.4f} s a deal); the bots' play "
          f"{play_s:.1f} s ({play_s / deals:.4f} s a deal); ratio build/play "
          f"{build_s / max(play_s, 1e-9):.2f}; load average {load[0]:.2f}")


if __name__ == "__main__":
    main()
