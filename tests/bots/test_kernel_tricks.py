"""The compiled kernel's copy of the trick rules against their one home, core.tricks.

:mod:`polignac.bots.fast` keeps its own follow suit (``_follow``,
``legal_mask``), the Hearts family's restrictions (``_restricted``, against
``restricted_mask``), winner (``_beats``, ``_taking``, ``trick_winner``) and
random playout loop, for speed.  For random positions of every preset and
player count (Hypothesis), both the compiled and the plain-Python kernel
must agree with :mod:`polignac.core.tricks` (and with the deal's own legal
cards), and a random playout must give each player the points the core gives
for the same cards played.
"""

from __future__ import annotations

import random
from types import ModuleType

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polignac.bots import fast
from polignac.bots.solver import Position, build
from polignac.core import CLAIM, PRESETS, Deal
from polignac.core.cards import cards_of
from polignac.core.hearts_deal import HeartsDeal
from polignac.core.tricks import (
    NO_TRUMP,
    beats,
    card_strength,
    led_suit,
    legal_mask,
    restricted_mask,
    trick_winner,
    winning_index,
)

GAMES = [(name, n) for name, rules in PRESETS.items() for n in rules.players]
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
KERNELS = [pytest.param(fast, id="compiled"), pytest.param(fast.pure_kernel(), id="pure")]
_M64 = (1 << 64) - 1


def _in_play(preset: str, n: int, rng: random.Random) -> Deal:
    """A random deal of ``preset`` in trick play, a few cards in (maybe mid-trick)."""
    rules = PRESETS[preset]
    deal = _at_play(Deal.shuffled(rules, n, rng.randrange(n), rng), rng)
    for _ in range(rng.randrange(n * rules.hand_size(n) - 1) + (n if deal.phase_name ==
                                                                "declare" else 0)):
        legal = [a for a in deal.legal_actions() if a != CLAIM and not 52 < a < 56]
        deal = deal.apply(legal[rng.randrange(len(legal))])
        if deal.done or sum(h.bit_count() for h in deal.hands) <= n:
            break
    return deal


def _at_play(deal: Deal, rng: random.Random) -> Deal:
    """``deal`` after random passes (the Hearts family), else as it is."""
    while deal.phase_name == "pass":
        deal = deal.apply(rng.choice(deal.legal_actions()))
    return deal


def _core_legal(deal: Deal, hand: int) -> int:
    """The cards of ``hand`` the core allows the player to act now (restricted in the
    Hearts family)."""
    led = led_suit(deal.trick)
    if isinstance(deal, HeartsDeal):
        return restricted_mask(hand, led, not deal.past, *deal.play_restrictions())
    return legal_mask(hand, led)


@pytest.mark.parametrize("k", KERNELS)
@pytest.mark.parametrize(("preset", "n"), GAMES, ids=[f"{p}-{n}" for p, n in GAMES])
@settings(max_examples=3, deadline=None)
@given(seed=SEEDS)
def test_kernel_follows_and_wins_as_core_tricks(k: ModuleType, preset: str, n: int,
                                               seed: int) -> None:
    rng = random.Random(seed)
    deal = _in_play(preset, n, rng)
    if deal.phase_name != "play":
        return
    strength_core = card_strength(deal.rules)
    trump = NO_TRUMP if deal.trump is None else deal.trump
    g, strength, _upts, _pts, _order, hands, trick, stt, _banked = build(
        Position.from_deal(deal))
    # follow suit, for the player to act and for every other hand against the same lead
    want = _core_legal(deal, deal.hands[deal.to_act])
    assert want == deal.legal_card_mask()
    assert int(k.legal_mask(g, hands, trick, stt)) == want
    assert Position.from_deal(deal).legal_mask() == want
    for h in deal.hands:
        for suit in (NO_TRUMP, 0, 1, 2, 3):
            assert int(k._follow(np.int64(h), suit)) == legal_mask(h, suit)
            if isinstance(deal, HeartsDeal):  # the restrictions, in and out of the first trick
                opening, clean, unbroken = (int(x) for x in (
                    g[fast.G_OPEN], g[fast.G_CLEAN], g[fast.G_UNBROKEN]))
                for first in (False, True):
                    for broken in (False, True):
                        assert int(k._restricted(g, np.int64(h), suit, first, broken)) == \
                            restricted_mask(h, suit, first, opening if first else -1,
                                            clean if first else 0, 0 if broken else unbroken)
    # the winner: of random tricks made of the cards still in play
    live = cards_of(sum(deal.hands))
    for _ in range(5):
        cards = rng.sample(live, min(n, len(live)))
        row = np.zeros(fast.TRICK_SIZE, np.int64)
        row[:len(cards)] = cards
        want = winning_index(cards, strength_core, trump)
        assert int(k._taking(g, strength, row, 0, len(cards))) == want
        for c in cards[1:]:
            assert bool(k._beats(c, cards[0], trump, strength)) == beats(
                c, cards[0], trump, strength_core)
        if len(cards) == n:
            leader = rng.randrange(n)
            assert int(k.trick_winner(g, strength, row, 0, leader)) == trick_winner(
                leader, cards, n, strength_core, trump)


def _xorshift_index(x: int, cnt: int) -> tuple[int, int]:
    """The kernel's random draw (``random_playouts``): the new state and an index below cnt."""
    x ^= (x << 13) & _M64
    x ^= x >> 7
    x ^= (x << 17) & _M64
    return x, ((x >> 32) * cnt) >> 32


@pytest.mark.parametrize("k", KERNELS)
@pytest.mark.parametrize(("preset", "n"), GAMES, ids=[f"{p}-{n}" for p, n in GAMES])
@settings(max_examples=2, deadline=None)
@given(seed=SEEDS)
def test_random_playout_takes_what_the_core_gives(k: ModuleType, preset: str, n: int,
                                                   seed: int) -> None:
    """One playout of the kernel, replayed through the core with the same draws."""
    rng = random.Random(seed)
    rules = PRESETS[preset]
    deal = _at_play(Deal.shuffled(rules, n, rng.randrange(n), rng), rng)
    while deal.phase_name == "declare":
        deal = deal.apply_text("pass")
    g, strength, upts, pts, _o, hands, _t, _st, _b = build(Position.from_deal(deal))
    taken = np.zeros(16, np.int64)
    playout_seed = rng.randrange(1 << 30)
    k.random_playouts(g, strength, upts, pts, np.zeros(fast.Z_SIZE, np.int64), hands, 1,
                      playout_seed, taken)
    x = playout_seed * 2 + 1
    while not deal.done:
        mask = deal.legal_card_mask()
        x, i = _xorshift_index(x, mask.bit_count())
        deal = deal.apply(cards_of(mask)[i])
    points = rules.point_table()
    want = [sum(points[c] for c in cards_of(t)) for t in deal.taken]
    assert [int(t) for t in taken[:n]] == want
