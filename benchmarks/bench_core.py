"""Rules-core throughput: random full deals, actions per second, against OpenSpiel Hearts.

Plays random full deals through the public API of :mod:`polignac.core`
(``Deal.shuffled`` or ``Match``, ``legal_actions()``, ``apply()``) and counts the
actions applied.  In the same run, and interleaved with it, it drives OpenSpiel's
Hearts (``pyspiel.load_game("hearts")``) from Python the same way: a uniformly
random legal action at every node.

Dealing is timed on both sides and counted alike: our shuffle (one
``rng.shuffle`` inside ``Deal.shuffled``) is not an action, so Hearts' chance
nodes (the pass direction, then the deal card by card, 53 nodes) are timed but
not counted either.  Actions are the players' decisions: our declarations,
cards and announcements; Hearts' passed cards and cards played (61 a deal on
average: one deal in four passes nothing).  The row ``black-lady 4p`` plays that
same game in our engine (the dealer rotates, so one deal in four passes nothing;
benchmarks/bench_hearts_agreement.py checks that both engines agree on it).
The table also shows the stricter ratio where Hearts' chance nodes count as
actions (114 a deal on average).

Both sides use the same driver: ``legal = state.legal_actions()``, then
``legal[randrange(len(legal))]``, then ``apply``.  Pollack deals never claim
(a random claim would end most deals on the first lead), so every deal is
played out to the last trick: a claim drawn is drawn again (uniform over the
other legal actions, as removing it from the list would be, without scanning
the list at every action: work of this benchmark's, not of the engine's, that
OpenSpiel's loop does not do); announcements are chosen like any other action.

Run::

    .venv/bin/python benchmarks/bench_core.py [--deals N] [--repeats R] [--seed S] [--json]

The figures are the median over ``--repeats`` rounds; each round times every
row once, ours and Hearts back to back, so that machine noise hits both.  The
ratio is ours / Hearts in actions per second (above 1.0: we are faster per
action).  This is not a test: pytest does not collect ``benchmarks/``.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from polignac.core import CLAIM, Deal, Match, get_rules

Runner = Callable[[int, int], tuple[int, int]]
"""A runner plays ``deals`` deals from ``seed``; it returns (player actions, chance actions)."""


@dataclass(frozen=True)
class Row:
    """One benchmark row: what it plays and how."""

    label: str
    runner: Runner


def deal_runner(preset: str, players: int) -> Runner:
    """Random full deals of ``preset`` through ``Deal.shuffled``/``legal_actions``/``apply``."""
    rules = get_rules(preset)
    never_claim = rules.has_calls

    def run(deals: int, seed: int) -> tuple[int, int]:
        rng = random.Random(seed)
        randrange = rng.randrange
        actions = 0
        for i in range(deals):
            deal = Deal.shuffled(rules, players, i % players, rng)
            while not deal.done:
                legal = deal.legal_actions()
                action = legal[randrange(len(legal))]
                while never_claim and action == CLAIM:  # drawn again: uniform over the rest
                    action = legal[randrange(len(legal))]
                deal = deal.apply(action)
                actions += 1
        return actions, 0

    return run


def match_runner(preset: str, players: int) -> Runner:
    """Random deals of ``preset`` through a ``Match`` (new matches as each one ends)."""
    rules = get_rules(preset)

    def run(deals: int, seed: int) -> tuple[int, int]:
        rng = random.Random(seed)
        randrange = rng.randrange
        actions = 0
        match = Match.new(rules, players)
        for _ in range(deals):
            if match.finished:
                match = Match.new(rules, players)
            match = match.deal_random(rng)
            while not match.needs_deal and not match.finished:
                legal = match.legal_actions()
                match = match.apply(legal[randrange(len(legal))])
                actions += 1
        return actions, 0

    return run


def hearts_runner() -> Runner | None:
    """Random full deals of OpenSpiel Hearts, chance nodes counted; None without pyspiel."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("hearts")

    def run(deals: int, seed: int) -> tuple[int, int]:
        rng = random.Random(seed)
        randrange = rng.randrange
        actions = 0
        chance = 0
        for _ in range(deals):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    chance += 1
                legal = state.legal_actions()  # chance outcomes are uniform in Hearts
                state.apply_action(legal[randrange(len(legal))])
                actions += 1
        return actions - chance, chance

    return run


def time_once(runner: Runner, deals: int, seed: int) -> tuple[int, int, float]:
    """Run once: (player actions, chance actions, seconds)."""
    start = time.perf_counter()
    actions, chance = runner(deals, seed)
    return actions, chance, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=400, help="deals per row and round")
    parser.add_argument("--repeats", type=int, default=5, help="rounds (the median is shown)")
    parser.add_argument("--seed", type=int, default=1, help="random seed")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)

    rows = [
        Row("polignac 4p", deal_runner("polignac", 4)),
        Row("polignac 6p", deal_runner("polignac-fr", 6)),
        Row("slobberhannes 4p", deal_runner("slobberhannes", 4)),
        Row("knaves 3p", deal_runner("knaves", 3)),
        Row("bassadewitz 4p", deal_runner("bassadewitz", 4)),
        Row("pollack 4p", deal_runner("pollack", 4)),
        Row("match polignac 4p", match_runner("polignac", 4)),
        # the same game as the reference: OpenSpiel's hearts defaults (passing included)
        Row("black-lady 4p", deal_runner("black-lady", 4)),
    ]
    hearts = hearts_runner()
    hearts_deals = max(1, args.deals // 2)  # a Hearts deal has about 2x our actions

    ours: dict[str, list[float]] = {r.label: [] for r in rows}
    ours_actions: dict[str, int] = {}
    ref: list[float] = []
    ref_all: list[float] = []
    ref_actions = ref_chance = 0
    for k in range(args.repeats):
        seed = args.seed + k
        for row in rows:
            n, _, dt = time_once(row.runner, args.deals, seed)
            ours[row.label].append(n / dt)
            ours_actions[row.label] = n
            if hearts is not None:
                n, c, dt = time_once(hearts, hearts_deals, seed)
                ref.append(n / dt)
                ref_all.append((n + c) / dt)
                ref_actions, ref_chance = n, c

    ref_aps = statistics.median(ref) if ref else None
    ref_all_aps = statistics.median(ref_all) if ref_all else None
    result: dict[str, Any] = {
        "python": platform.python_version(),
        "machine": platform.platform(),
        "deals": args.deals,
        "repeats": args.repeats,
        "seed": args.seed,
        "hearts_actions_per_s": ref_aps,
        "hearts_actions_per_deal": ref_actions / hearts_deals if ref_actions else None,
        "hearts_with_chance_actions_per_s": ref_all_aps,
        "hearts_chance_nodes_per_deal": ref_chance / hearts_deals if ref_actions else None,
        "rows": [],
    }
    for row in rows:
        aps = statistics.median(ours[row.label])
        result["rows"].append({
            "row": row.label,
            "actions_per_s": aps,
            "actions_per_deal": ours_actions[row.label] / args.deals,
            "us_per_action": 1e6 / aps,
            "ratio_vs_hearts": aps / ref_aps if ref_aps else None,
            "ratio_vs_hearts_with_chance": aps / ref_all_aps if ref_all_aps else None,
        })

    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"polignac core benchmark: {args.deals} deals x {args.repeats} rounds, median; "
          f"Python {result['python']}")
    if ref_aps is None:
        print("reference missing: open_spiel is not importable "
              "(.venv/bin/pip install open_spiel); our figures only")
    else:
        print(f"reference: OpenSpiel hearts, {ref_aps:,.0f} player actions/s "
              f"({1e6 / ref_aps:.2f} us/action, {result['hearts_actions_per_deal']:.0f} "
              f"actions + {result['hearts_chance_nodes_per_deal']:.0f} chance nodes a deal); "
              f"{ref_all_aps:,.0f} actions/s counting chance nodes; measured in this run")
    head = f"{'row':<20}{'act/deal':>9}{'actions/s':>12}{'us/act':>8}"
    if ref_aps is not None:
        head += f"{'hearts act/s':>14}{'ratio':>7}{'ratio*':>8}"
    print(head)
    print("-" * len(head))
    for r in result["rows"]:
        line = (f"{r['row']:<20}{r['actions_per_deal']:>9.1f}{r['actions_per_s']:>12,.0f}"
                f"{r['us_per_action']:>8.2f}")
        if ref_aps is not None:
            line += (f"{ref_aps:>14,.0f}{r['ratio_vs_hearts']:>7.2f}"
                     f"{r['ratio_vs_hearts_with_chance']:>8.2f}")
        print(line)
    if ref_aps is not None:
        print("ratio = ours / Hearts, actions per second (above 1.0: we are faster per action); "
              "ratio* counts Hearts' chance nodes as actions too")
    return 0


if __name__ == "__main__":
    sys.exit(main())
