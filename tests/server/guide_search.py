"""How the guided deal was found, and its exhaustive check (too slow for the suite).

    python -m tests.server.guide_search --check            # every way to play polignac-4p
    python -m tests.server.guide_search --search 0 300     # shuffles 0..299 that qualify

A deal qualifies when every moment of ``polignac.server.tables.guide.MOMENTS`` happens on
every path: each legal action of the newcomer (seat 0, the dealer: every bot
declares before them), pass or capot included, against the guide's bots.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter

from polignac.bots.registry import make_bot
from polignac.bots.runner import choose_action
from polignac.core import CODES, Match, cards_of, get_rules
from polignac.server.tables.guide import MOMENTS, load_guide, trick_moments, turn_moments

YOU = 0
ALL = frozenset(MOMENTS)


def _after(match: Match, action: int, seen: frozenset[str]) -> tuple[Match, frozenset[str]]:
    assert match.current is not None
    tricks = len(match.current.past)
    after = match.apply(action)
    deal = after.current if after.current is not None else after.results[-1].deal
    if len(deal.past) > tricks:
        seen |= trick_moments([CODES[c] for c in deal.past[-1].cards])
    return after, seen


def every_path(match: Match, level: str, seed: int, scores: Counter[int]) -> bool:
    """True when every way the newcomer can play ``match``'s deal shows every moment;
    ``scores`` counts the newcomer's score over the paths (until the first failure)."""
    bot, rng = make_bot(level), random.Random(seed)

    def walk(m: Match, seen: frozenset[str]) -> bool:
        while m.current is not None and m.to_act() != YOU:
            m, seen = _after(m, choose_action(bot, m, rng), seen)
        if m.current is None:
            scores[m.results[-1].scores[YOU]] += 1
            return seen >= ALL
        seen |= turn_moments(m.view(YOU))
        return all(walk(*_after(m, a, seen)) for a in m.legal_actions())

    return walk(match, frozenset())


def main() -> None:
    """Check the bundled guide, or search shuffles for deals that qualify."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="check polignac-4p")
    parser.add_argument("--search", nargs=2, type=int, metavar=("FIRST", "COUNT"))
    args = parser.parse_args()
    if args.check:
        guide = load_guide("polignac-4p")
        scores: Counter[int] = Counter()
        start = time.perf_counter()
        ok = every_path(guide.deal(guide.new_match()), guide.bot_level, guide.bot_seed, scores)
        print(f"every moment on every path: {ok}; {sum(scores.values())} paths in "
              f"{time.perf_counter() - start:.1f} s; newcomer's scores {sorted(scores.items())}")
    if args.search:
        rules = get_rules("polignac", {"threshold": 1})
        first, count = args.search
        for shuffle in range(first, first + count):
            order = cards_of(rules.pack_mask(4))
            random.Random(shuffle).shuffle(order)
            hands = [sorted(order[8 * i:8 * i + 8]) for i in range(4)]
            mine = [CODES[c] for c in hands[YOU]]
            # One or two Jacks but not the Polignac, and a suit missing: a void to use.
            jacks = sum(c[0] == "J" for c in mine)
            if not 1 <= jacks <= 2 or "JS" in mine or len({c[1] for c in mine}) != 3:
                continue
            found: Counter[int] = Counter()
            match = Match.new(rules, 4, YOU).start_deal(hands)
            if every_path(match, "easy", shuffle, found):
                print(shuffle, sorted(found.items()), [[CODES[c] for c in h] for h in hands])


if __name__ == "__main__":
    main()
