"""Black Lady against OpenSpiel's ``hearts``: random deals through both engines, disagreements.

Each deal is dealt the same to both engines (the pass direction too), and the
same random legal actions are played in both; a deal disagrees when, at any
step, the player to act or the legal actions differ, or when the points at the
end differ (see :mod:`polignac.research.hearts_agreement` for the mapping).

Run::

    .venv/bin/python benchmarks/bench_hearts_agreement.py [--deals N] [--seed S] [--rules NAME]

``--rules`` is ``defaults`` (the preset ``black-lady`` against OpenSpiel's default
parameters) or ``jd-bonus`` (the Jack of diamonds house rule against
``jd_bonus=True``).  Exits 1 on any disagreement.  Needs the research extra.
"""

from __future__ import annotations

import argparse
import sys
import time

from polignac.research.hearts_agreement import HOUSE_RULES, agreement


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=2000, help="random deals (default 2000)")
    parser.add_argument("--seed", type=int, default=1, help="random seed")
    parser.add_argument("--rules", choices=sorted(HOUSE_RULES), default="defaults")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    bad, first, actions = agreement(args.deals, args.seed, args.rules)
    took = time.perf_counter() - start
    print(f"black-lady ({args.rules}) against OpenSpiel hearts: {args.deals} deals, "
          f"{actions} actions compared, {bad} deals disagree ({took:.1f} s, seed {args.seed})")
    for line in first:
        print("  " + line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
