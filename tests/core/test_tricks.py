"""The trick rules' one home (polignac.core.tricks), and the deal's inlined copy of them.

The deal keeps follow suit and the trick's winner inlined on its per-action
path; the property test plays random deals of every preset and player count
and checks, at every card, that the deal agrees with :mod:`polignac.core.tricks`
and with the independent reference of :mod:`reference`.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from polignac.core import CLAIM, Deal, IllegalActionError, get_rules, mask_of, parse_cards
from polignac.core.cards import SUIT_MASKS, cards_of
from polignac.core.hearts_deal import HeartsDeal
from polignac.core.tricks import (
    NO_TRUMP,
    beats,
    card_strength,
    led_suit,
    legal_cards,
    legal_mask,
    restricted_mask,
    shows_void,
    top_cards,
    trick_winner,
    voids,
    winning_index,
    without_voids,
)

from .reference import ALL_GAMES, PRESET_NAMES, every_preset, ref_trick_winner, rules_of

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
POLIGNAC = card_strength(get_rules("polignac"))  # K Q J A T 9 8 7
KNAVES = card_strength(get_rules("knaves"))  # A K Q J T ... 2


def _cards(text: str) -> list[int]:
    return parse_cards(text)


def test_follow_suit_when_able_else_anything() -> None:
    hand = mask_of(_cards("7C KC 9D AS"))
    assert legal_cards(hand, 0) == _cards("7C KC")
    assert legal_cards(hand, 2) == sorted(_cards("7C KC 9D AS"))  # void in hearts
    assert legal_mask(hand, NO_TRUMP) == hand  # on lead
    assert led_suit(()) == NO_TRUMP
    assert led_suit(tuple(_cards("9D 7C"))) == 1


def test_the_winner_is_the_strongest_trump_else_the_strongest_of_the_led_suit() -> None:
    trick = _cards("AC KC JS QC")
    assert winning_index(trick, POLIGNAC) == 1  # K above A in Polignac; J of spades is off-suit
    assert winning_index(trick, KNAVES) == 0  # A highest in Knaves
    assert winning_index(trick, KNAVES, trump=3) == 2  # a trump takes it
    assert trick_winner(3, trick, 4, KNAVES, trump=3) == 1
    assert winning_index(_cards("2S 3S AC"), KNAVES, trump=3) == 1  # led in trumps


def test_beats_compares_within_a_suit_and_trumps_beat_other_suits() -> None:
    ac, kc, two_s, qd = _cards("AC KC 2S QD")
    assert beats(kc, ac, NO_TRUMP, POLIGNAC) and not beats(ac, kc, NO_TRUMP, POLIGNAC)
    assert beats(two_s, ac, 3, KNAVES) and not beats(two_s, ac, NO_TRUMP, KNAVES)
    assert not beats(qd, ac, 3, KNAVES)  # neither the led suit nor a trump
    assert not beats(ac, two_s, 3, KNAVES)  # the trick is trumped: the led suit no longer wins


def test_voids_from_the_plays() -> None:
    tricks = [(0, _cards("7C 8C 9D JS")), (1, _cards("AH")), (2, ())]
    assert voids(tricks, 4) == [0, 0, 1, 1]  # players 2 and 3 showed out of clubs
    assert shows_void(_cards("9D")[0], 0) and not shows_void(_cards("9D")[0], NO_TRUMP)
    assert without_voids(mask_of(_cards("7C 9D AS")), 1 | 8) == mask_of(_cards("9D"))


@settings(max_examples=200, deadline=None)
@given(cards=st.lists(st.integers(0, 51), min_size=1, max_size=8, unique=True),
       trump=st.integers(-1, 3), preset=st.sampled_from(PRESET_NAMES))
@example(cards=[1, 0], trump=1, preset="bassadewitz")  # 3C 2C: tied, skipped
@example(cards=[1, 0, 12], trump=1, preset="bassadewitz")  # 3C 2C AC: the ace decides
@example(cards=[1, 0, 14, 13], trump=1, preset="polignac")  # 3C 2C 3D 2D: tied trumps
@example(cards=[1, 0, 14, 20], trump=1, preset="polignac")  # 3C 2C 3D 9D: the 9 decides
def test_top_cards_is_the_table_form_of_winning_index(cards: list[int], trump: int,
                                                     preset: str) -> None:
    strength = card_strength(rules_of(preset))
    top = top_cards(strength, (1 << 52) - 1, 8)  # every set of up to 8 cards of a suit
    mask = mask_of(cards)
    # The deciding cards: the trick's trumps if it holds any, else its cards of the
    # led suit (the trump suit alone decides nothing when no trump was played).
    deciding = mask & (SUIT_MASKS[trump] if trump >= 0 else 0) or mask & SUIT_MASKS[cards[0] // 13]
    best = max(strength[c] for c in cards_of(deciding))
    if sum(strength[c] == best for c in cards_of(deciding)) > 1:
        # A tie for the strongest deciding card (cards outside the rules' pack: the
        # 32-card pack's 2-6): winning_index gives the trick to the first played,
        # the table to one fixed card.  Within a pack strengths are distinct
        # (Rules checks that rank_order lists each of its ranks once), so this
        # never happens in a deal.
        return
    assert cards.index(top[deciding]) == winning_index(cards, strength, trump)


@every_preset
@pytest.mark.parametrize(("preset", "n"), ALL_GAMES, ids=[f"{p}-{n}" for p, n in ALL_GAMES])
@settings(max_examples=3, deadline=None)
@given(seed=SEEDS)
def test_the_deal_plays_by_these_rules(preset: str, n: int, seed: int) -> None:
    rng = random.Random(seed)
    rules = rules_of(preset)
    strength = card_strength(rules)
    deal = Deal.shuffled(rules, n, rng.randrange(n), rng)
    tricks: list[tuple[int, tuple[int, ...]]] = []
    while not deal.done:
        legal = deal.legal_actions()
        if deal.phase_name == "play":
            hand = deal.hands[deal.to_act]
            led = led_suit(deal.trick)
            if isinstance(deal, HeartsDeal):  # the family's restrictions, same home
                opening, clean, unbroken = deal.play_restrictions()
                expected = restricted_mask(hand, led, not deal.past, opening, clean, unbroken)
            else:
                expected = legal_mask(hand, led)
            assert [a for a in legal if a < 52] == cards_of(expected)
            assert deal.legal_card_mask() == expected
            for c in cards_of(hand & ~legal_mask(hand, led))[:2]:
                with pytest.raises(IllegalActionError) as err:
                    deal.apply(c)
                assert err.value.rule == "must-follow-suit"
            if deal.trick:
                trump = NO_TRUMP if deal.trump is None else deal.trump
                assert deal.trick_winner_so_far() == trick_winner(
                    deal.leader, deal.trick, n, strength, trump)
        choices = [a for a in legal if a != CLAIM]
        action = choices[rng.randrange(len(choices))]
        before = len(deal.past)
        leader, trick = deal.leader, deal.trick
        deal = deal.apply(action)
        if action < 52:
            tricks_now = tricks + [(leader, trick + (action,))]
            for p, void in enumerate(voids(tricks_now, n)):
                # a void shown is true for the rest of the deal
                assert without_voids(deal.hands[p], void) == deal.hands[p]
        if len(deal.past) > before:
            last = deal.past[-1]
            tricks.append((last.leader, last.cards))
            assert last.winner == ref_trick_winner(preset, last.leader, list(last.cards),
                                                   deal.trump, n)
            trump = NO_TRUMP if deal.trump is None else deal.trump
            assert last.winner == trick_winner(last.leader, last.cards, n, strength, trump)
