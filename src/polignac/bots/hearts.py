"""The Hearts family's passing for the bots, and what their views hide.

Passing is one card at a time (see :mod:`polignac.core.hearts_deal`): a bot asked
three times chooses, each time, the most dangerous card left in its hand, so
the three cards are the three most dangerous of the dealt hand.

- ``easy`` (:func:`easy_pass`): the highest cards (penalty cards first among equals);
- ``medium`` (:func:`medium_pass`), also used by ``hard`` and ``expert``: the
  Queen of spades and the spades above it (the high penalty cards) unless
  at least three lower spades guard them, high cards of short suits (to make a
  void), high hearts; never a low spade, never a card worth less than 0 (the
  Jack of diamonds house rule).

The card play of every level is its usual play, on the view
:meth:`polignac.bots.base.SeatView.of` builds for the family: the rules
without passing, the hands after passing and the history of the card play, so
that the sampled deals of ``hard`` and ``expert`` start where play started.
"""

from __future__ import annotations

from typing import Final

from ..core.actions import Action
from ..core.cards import SUIT_MASKS, Card, Mask, cards_of, parse_card
from ..core.rules import Rules

_SPADES: Final = SUIT_MASKS[3]
_QUEEN_OF_SPADES: Final = parse_card("QS")
def easy_pass(rules: Rules, hand: Mask, legal: tuple[Action, ...]) -> Action:
    """The highest card of the hand (among equals the costliest, then the highest number)."""
    strength = rules.strength()
    points = rules.point_table()
    return max(legal, key=lambda c: (strength[c % 13], points[c], c))


def pass_danger(rules: Rules, hand: Mask, card: Card) -> float:
    """How much ``medium`` wants to pass ``card`` out of ``hand`` (higher: sooner)."""
    strength = rules.strength()
    points = rules.point_table()
    st = strength[card % 13]
    cost = points[card]
    suit = card // 13
    if cost < 0:
        return -100.0  # a bonus card: keep it
    if suit == 3:
        queen = strength[_QUEEN_OF_SPADES % 13]
        if st >= queen:  # the Queen, or a spade that may catch it
            guards = sum(1 for c in cards_of(hand & _SPADES) if strength[c % 13] < queen)
            if guards >= 3:
                return -20.0 + st
            return 50.0 + cost + st
        return -30.0 + st  # low spades protect against the Queen
    length = (hand & SUIT_MASKS[suit]).bit_count()
    short = max(0, 4 - length) * 2.0  # voiding a short suit
    return st + cost + short


def medium_pass(rules: Rules, hand: Mask, legal: tuple[Action, ...]) -> Action:
    """The most dangerous card of the hand to keep (see :func:`pass_danger`)."""
    return max(legal, key=lambda c: (pass_danger(rules, hand, c), c))
