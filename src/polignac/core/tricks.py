"""Trick play, the one home of its rules: what may be played, who wins, what a play shows.

Every game of the family plays tricks the same way:

* **follow suit**: a player who holds a card of the led suit must play one;
  a player who holds none may play any card (no game obliges a trump);
* **the trick's winner**: the strongest trump played, or else the strongest
  card of the led suit (strength by the rules' ``rank_order``);
* **voids**: a player who plays another suit to a trick has shown that it
  holds no card of the led suit (it never gets one back: cards only leave a hand).

These are plain functions on masks and card tuples; the core
(:class:`~polignac.core.deal.Deal`), the bots and the research interfaces
call them.  Two places keep a copy for speed, each checked against these
functions by a parity test over every preset: the deal's per-action path
(``hand & led or hand``, and the winner by one lookup in :func:`top_cards`' table;
Deal's, and HeartsDeal's with :func:`restricted_mask` inlined),
and the solver's compiled kernel (:mod:`polignac.bots.fast`).

Cards are ``suit * 13 + rank``; a suit is 0-3; ``trump`` is a suit or
:data:`NO_TRUMP`; ``strength`` is per card (52 values, higher wins within a
suit), as :func:`card_strength` gives it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Final

from .cards import CARD_BITS, SUIT_MASKS, Card, Mask, cards_of
from .rules import Rules

NO_TRUMP: Final = -1
"""The ``trump`` (and led suit) value meaning none."""


def card_strength(rules: Rules) -> tuple[int, ...]:
    """Per card (0-51), its trick-taking strength within its suit (higher wins)."""
    ranks = rules.strength()
    return tuple(ranks[c % 13] for c in range(52))


def led_suit(trick: Sequence[Card]) -> int:
    """The suit led in ``trick``, or :data:`NO_TRUMP` (-1) before the lead."""
    return trick[0] // 13 if trick else NO_TRUMP


def legal_mask(hand: Mask, led: int) -> Mask:
    """The cards of ``hand`` that may be played to a trick led in suit ``led``
    (-1: on lead, any card): the led suit's cards if it holds any, else all."""
    if led < 0:
        return hand
    return hand & SUIT_MASKS[led] or hand


def restricted_mask(hand: Mask, led: int, first_trick: bool, opening: Card = -1,
                    clean: Mask = 0, unbroken: Mask = 0) -> Mask:
    """:func:`legal_mask` with the Hearts family's restrictions (docs/rules/black-lady.md):
    ``opening`` (a card, or -1) must lead the first trick; the ``clean`` cards may not be
    played to the first trick while the hand holds another card; the ``unbroken``
    cards (0 once hearts are broken) may not be led while the hand holds another."""
    if led >= 0:
        follow = hand & SUIT_MASKS[led]
        if follow:
            return follow
        return hand & ~clean or hand if first_trick else hand
    if first_trick and opening >= 0:
        return hand & 1 << opening or hand
    cand = hand & ~clean or hand if first_trick else hand
    return cand & ~unbroken or cand


def legal_cards(hand: Mask, led: int) -> list[Card]:
    """:func:`legal_mask` as a list of cards, ascending."""
    return cards_of(legal_mask(hand, led))


def beats(card: Card, best: Card, trump: int, strength: Sequence[int]) -> bool:
    """True when ``card`` takes the trick from ``best``, the card winning it so far.

    ``best`` is of the led suit or a trump (as the winning card always is):
    a card of its suit beats it by strength; a trump beats any other suit.
    """
    suit = card // 13
    if suit == best // 13:
        return strength[card] > strength[best]
    return suit == trump


def winning_index(cards: Sequence[Card], strength: Sequence[int], trump: int = NO_TRUMP) -> int:
    """Index (in play order) of the card winning ``cards`` so far (at least one card)."""
    best = 0
    best_card = cards[0]
    for i in range(1, len(cards)):
        if beats(cards[i], best_card, trump, strength):
            best, best_card = i, cards[i]
    return best


def trick_winner(leader: int, cards: Sequence[Card], n: int, strength: Sequence[int],
                 trump: int = NO_TRUMP) -> int:
    """The player winning ``cards`` (led by ``leader``, ``n`` players) so far."""
    return (leader + winning_index(cards, strength, trump)) % n


def shows_void(card: Card, led: int) -> bool:
    """True when playing ``card`` to a trick led in suit ``led`` shows the
    player holds no card of that suit (-1: a lead shows nothing)."""
    return led >= 0 and card // 13 != led


def voids(tricks: Iterable[tuple[int, Sequence[Card]]], n: int) -> list[int]:
    """Per player, a 4-bit mask of the suits (bit ``s``) it has shown it lacks.

    ``tricks`` are ``(leader, cards in play order)``, finished or not (an
    empty trick is skipped); players are ``0..n-1`` in play order.
    """
    out = [0] * n
    for leader, cards in tricks:
        if not cards:
            continue
        led = cards[0] // 13
        for i in range(1, len(cards)):
            if cards[i] // 13 != led:
                out[(leader + i) % n] |= 1 << led
    return out


def without_voids(mask: Mask, void: int) -> Mask:
    """``mask`` less the cards of the suits in ``void`` (a 4-bit mask, as :func:`voids`)."""
    for s in range(4):
        if void >> s & 1:
            mask &= ~SUIT_MASKS[s]
    return mask


_TOP_CARDS: dict[tuple[tuple[int, ...], Mask, int], dict[Mask, Card]] = {}


def top_cards(strength: Sequence[int], pack: Mask, most: int) -> dict[Mask, Card]:
    """The strongest card, by ``strength``, of every set of 1 to ``most`` cards of one
    suit of ``pack`` (a plain dict, filled at once and shared by equal arguments).

    The table form of :func:`winning_index` for a full trick of ``most`` players:
    the winner is ``top[the trick's trumps]``, or else ``top[the trick's cards of
    the led suit]`` (one lookup instead of a loop; the deal's per-card path uses
    it).  A few thousand keys at most for the presets (4,368 for four players and
    52 cards).  Strengths are distinct within a suit for the cards of a pack.
    """
    key = (tuple(strength), pack, most)
    top = _TOP_CARDS.get(key)
    if top is None:
        top = {}
        bits = CARD_BITS.__getitem__
        for suit_mask in SUIT_MASKS:
            # strongest first: each combination's first card is its strongest
            cards = sorted(cards_of(pack & suit_mask), key=strength.__getitem__, reverse=True)
            for k in range(1, min(most, len(cards)) + 1):
                for chosen in combinations(cards, k):
                    top[sum(map(bits, chosen))] = chosen[0]
        if len(_TOP_CARDS) >= 64:
            _TOP_CARDS.clear()
        _TOP_CARDS[key] = top
    return top


__all__ = [
    "NO_TRUMP",
    "beats",
    "card_strength",
    "led_suit",
    "legal_cards",
    "legal_mask",
    "shows_void",
    "top_cards",
    "trick_winner",
    "voids",
    "winning_index",
    "without_voids",
]
