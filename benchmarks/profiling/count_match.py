"""The work that valgrind counts for the ``Match`` row of bench_core.py, or one part of it.

    PYTHONHASHSEED=0 PYTHONPATH=src valgrind --tool=callgrind \
        --callgrind-out-file=/tmp/cg.%p .venv/bin/python \
        benchmarks/profiling/count_match.py PART N

PART is ``row`` (the benchmark's own ``match_runner``: N deals, seed 1, after 5
warm-up deals with seed 99), ``end`` (the last action of each of 100 recorded deals
applied again, N times over: the deal's end with its score, standing and result),
``deal`` (``Match.deal_random`` from each of 100 recorded states between deals, N
times over) or ``new`` (``Match.new``, N times).  The figure per deal is the
difference of the instructions with N and with N = 0 (the set-up and the recording
cost the same in both), over N deals (``row``, ``new``) or N x 100 (``end``,
``deal``).  Not a test.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_core import match_runner

from polignac.core import Match, get_rules

RECORDED = 100


def recorded(rules_name: str = "polignac", players: int = 4) -> tuple[list, list]:
    """The states before each deal's last action (with that action), and between deals
    (with the rng state), of 100 random deals played as the Match row plays them."""
    rules = get_rules(rules_name)
    rng = random.Random(1)
    ends = []
    starts = []
    match = Match.new(rules, players)
    for _ in range(RECORDED):
        if match.finished:
            match = Match.new(rules, players)
        starts.append((match, rng.getstate()))
        match = match.deal_random(rng)
        while True:
            legal = match.legal_actions()
            action = legal[rng.randrange(len(legal))]
            after = match.apply(action)
            if after.needs_deal or after.finished:
                ends.append((match, action))
                match = after
                break
            match = after
    return ends, starts


def main() -> None:
    """Run PART N times (see the module's text)."""
    part, n = sys.argv[1], int(sys.argv[2])
    if part == "row":
        run = match_runner("polignac", 4)
        run(5, 99)
        if n:
            run(n, 1)
        return
    ends, starts = recorded()
    if part == "end":
        for _ in range(n):
            for match, action in ends:
                match.apply(action)
    elif part == "deal":
        rng = random.Random()
        for _ in range(n):
            for match, state in starts:
                rng.setstate(state)
                match.deal_random(rng)
    elif part == "new":
        rules = get_rules("polignac")
        for _ in range(n):
            Match.new(rules, 4)
    else:
        raise SystemExit(f"unknown part {part!r}: row, end, deal or new")


if __name__ == "__main__":
    main()
