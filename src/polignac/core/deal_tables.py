"""What a deal needs from its rules and player count, worked out once per rule set and
player count (``_Tables``), and the dealing: how the pack is split into hands
(:func:`deal_packets`), the shuffle, the cards of each one-suit mask
(``_SUIT_CARDS``), and what stays the same during one deal (``_Static``).

A :class:`~polignac.core.deal.Deal` (and a family's own deal) starts from these and
reads them at every action.
"""

from __future__ import annotations

import random as _random
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Final

from .actions import CONTRACT_WORDS, Action
from .cards import SUIT_MASKS, Card, Mask, cards_of
from .errors import RulesError
from .phases import DECLARE, PLAY
from .rules import Rules
from .tricks import card_strength, top_cards

if TYPE_CHECKING:  # pragma: no cover
    from .deal import Deal
    from .scoring import DealScore

_CONTRACT_ACTIONS: Final = {word: action for action, word in CONTRACT_WORDS.items()}

_SUIT_CARDS: Final[dict[Mask, tuple[Card, ...]]] = {}
"""The cards of a one-suit mask, ascending (at most 4 x 8192), filled per pack by
_fill_suit_cards.  A plain dict: a subclass with ``__missing__`` pays a Python-level
``__getitem__`` lookup at every read (legal_actions reads it up to four times)."""
_FILLED_SUITS: set[Mask] = set()


def _fill_suit_cards(pack: Mask) -> None:
    """Fill _SUIT_CARDS for every set of cards of one suit of ``pack``, once per suit mask.

    Filling on first use costs a cards_of call per new set, and with 13-card
    suits (Knaves) new sets keep turning up for thousands of deals; filling
    them all when a pack is first dealt (2**8 sets a suit for 32 cards, 2**13
    for 52: a few ms once) keeps that out of play.  Each set is built from
    the set without its highest card, so it costs one tuple concatenation.
    """
    for suit_mask in SUIT_MASKS:
        full = pack & suit_mask
        if full in _FILLED_SUITS:
            continue
        # Subsets of full in increasing order of value: a subset's highest
        # card is its highest bit, and the rest is a smaller subset, already there.
        table = _SUIT_CARDS
        sub = full & -full  # the subsets after the empty one
        table[0] = ()
        while sub:
            high = 1 << (sub.bit_length() - 1)
            table[sub] = table[sub ^ high] + (sub.bit_length() - 1,)
            sub = (sub - full) & full  # the next subset of full (0 after the last)
        _FILLED_SUITS.add(full)


# Shuffling as random.Random.shuffle does, without its per-card method calls.
# CPython's shuffle swaps x[i] with x[randbelow(i + 1)] for i from the end
# down to 1, and randbelow(m) draws getrandbits(m.bit_length()) until the draw
# is below m.  _fast_shuffle makes the same getrandbits calls in the same order
# (the (i, i + 1, bit length) steps come from a table), so it gives the same
# order and leaves the generator in the same state.  It is used only for
# plain random.Random objects (a subclass or SystemRandom may draw
# differently) and only if the check at import time found it to agree with
# this Python's rng.shuffle; otherwise Deal.shuffled calls rng.shuffle.
_SHUFFLE_STEPS: Final = tuple(
    tuple((i, i + 1, (i + 1).bit_length()) for i in range(m - 1, 0, -1)) for m in range(54)
)


def _fast_shuffle(rng: _random.Random, x: list[int]) -> None:
    getrandbits = rng.getrandbits
    for i, m, k in _SHUFFLE_STEPS[len(x)]:
        j = getrandbits(k)
        while j >= m:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def _fast_shuffle_agrees() -> bool:
    """True if _fast_shuffle gives what rng.shuffle gives, rng state included."""
    for seed in (1, 2, 3, 4):
        a, b = _random.Random(seed), _random.Random(seed)
        x, y = list(range(53 - seed)), list(range(53 - seed))
        a.shuffle(x)
        _fast_shuffle(b, y)
        if x != y or a.getrandbits(64) != b.getrandbits(64):
            return False  # pragma: no cover - another Python's shuffle
    return True


_FAST_SHUFFLE: Final = _fast_shuffle_agrees()
_Random: Final = _random.Random


class _Tables:
    """What a deal needs from its rules and player count, worked out once (see _tables)."""

    __slots__ = (
        "call_rules",
        "contract_action",
        "deal_hands",
        "deal_state",
        "deal_to",
        "declare",
        "first_phase",
        "has_calls",
        "n",
        "nxt",
        "pack_bits",
        "pack_order",
        "point_mask",
        "points",
        "rules",
        "score_deal",
        "start",
        "strength",
        "top",
        "turn_up_game",
    )

    def __init__(self, rules: Rules, n: int) -> None:
        rules.check_player_count(n, allow_any=True)
        self.rules = rules
        # The family's own start of a deal (core/families.py), or None, and the
        # scoring family's hooks: looked up once.
        self.start = rules.family.start
        scorer = rules.scorer
        self.score_deal: Callable[[Deal], DealScore] = scorer.score_deal
        # the scoring family's state of a deal on its own (Family.deal_state)
        self.deal_state: Any = scorer.deal_state(None)
        self.n = n
        self.nxt = tuple((p + 1) % n for p in range(n))
        self.strength = card_strength(rules)
        self.points = rules.point_table()
        self.point_mask = sum(1 << c for c in range(52) if self.points[c])
        self.has_calls = rules.has_calls
        self.call_rules = scorer.call_rules if self.has_calls else None
        if self.call_rules is not None:
            self.call_rules.fill()
        elif self.has_calls:
            raise RulesError(f"scoring {rules.scoring!r} has no calls")
        contract = rules.contract
        self.contract_action = _CONTRACT_ACTIONS[contract.word] if contract.declared else -1
        # the declaration round's hook (its family's), or None without one
        self.declare: Callable[[Deal, Action], Deal] | None = (
            scorer.declare if contract.declared else None)
        self.first_phase = DECLARE if rules.has_declaration_round else PLAY
        self.turn_up_game = rules.has_turn_up
        self.pack_order = tuple(cards_of(rules.pack_mask(n)))
        _fill_suit_cards(rules.pack_mask(n))
        # Per dealer: the player who gets each card of the pack order (as deal_packets).
        positions = list(range(n * rules.hand_size(n)))
        by_position = []
        for dealer in range(n):
            owner = [0] * len(positions)
            for p, hand in enumerate(deal_packets(rules, positions, n, dealer)):
                for pos in hand:
                    owner[pos] = p
            by_position.append(tuple(owner))
        self.deal_to = tuple(by_position)
        # The pack as one-card masks (1 << card), shuffled instead of the cards:
        # the shuffle depends only on the length, so the order is the same.
        self.pack_bits = [1 << c for c in self.pack_order]
        # Per dealer: per player, a getter of the positions of its cards in the
        # pack order; the sum of the one-card masks it returns is the hand (the
        # cards are distinct, so + is |).  One C-level call per player instead
        # of a Python loop over the pack.  None if a hand has fewer than 2
        # cards (itemgetter of one position returns the item, not a tuple).
        hands_by_dealer: list[tuple[Callable[[list[int]], tuple[int, ...]], ...]] = []
        for owners in by_position:
            spots = [[pos for pos, q in enumerate(owners) if q == p] for p in range(n)]
            if min(len(spot) for spot in spots) < 2:
                break
            hands_by_dealer.append(tuple(itemgetter(*spot) for spot in spots))
        self.deal_hands = tuple(hands_by_dealer) if len(hands_by_dealer) == n else None
        # the winner of a full trick (tricks.py; a plain dict, filled at once)
        self.top = top_cards(self.strength, rules.pack_mask(n), n)


# Tables by (id(rules), n); each entry holds its rules, so an id is not reused
# while its entry lives.  Rules are frozen: the tables never go stale.
_TABLES: dict[tuple[int, int], _Tables] = {}


def _tables(rules: Rules, n: int) -> _Tables | None:
    """The tables of ``rules`` for ``n`` players, or None if they may not play."""
    tables = _TABLES.get((id(rules), n))
    if tables is None or tables.rules is not rules:
        try:
            tables = _Tables(rules, n)
        except (RulesError, ArithmeticError, ValueError):
            return None
        if len(_TABLES) >= 256:
            _TABLES.clear()
        _TABLES[id(rules), n] = tables
    return tables


class _Static:
    """What does not change during a deal (shared by all its states)."""

    __slots__ = (
        "all_cards",
        "announcers",
        "call_cards",
        "call_rules",
        "call_slot",
        "contract_action",
        "dealer",
        "declare",
        "eldest",
        "family_state",
        "hands",
        "has_calls",
        "n",
        "nxt",
        "open_calls",
        "point_mask",
        "points",
        "rules",
        "score_deal",
        "strength",
        "top",
        "total_tricks",
        "trump",
        "trump_mask",
        "turn_up",
    )

    def __init__(
        self,
        tables: _Tables,
        dealer: int,
        hands: tuple[Mask, ...],
        turn_up: Card,
        family_state: Any,
    ) -> None:
        n = tables.n
        self.rules = tables.rules
        self.n = n
        self.nxt = tables.nxt
        self.dealer = dealer
        self.eldest = tables.nxt[dealer]
        self.hands = hands
        all_cards = 0
        for h in hands:
            all_cards |= h
        self.all_cards = all_cards  # the cards in the hands as play starts
        self.turn_up = turn_up
        self.trump = turn_up // 13 if turn_up >= 0 and tables.turn_up_game else -1
        self.trump_mask = SUIT_MASKS[self.trump] if self.trump >= 0 else 0
        self.top = tables.top
        self.strength = tables.strength
        self.points = tables.points
        self.point_mask = tables.point_mask
        self.total_tricks = hands[0].bit_count()
        self.family_state = family_state
        self.has_calls = tables.has_calls
        self.contract_action = tables.contract_action
        self.declare = tables.declare
        self.score_deal = tables.score_deal
        # Calls: the family's tables (CallRules), and per player the
        # announcements its dealt hand holds (a tuple, empty if none).  Hands
        # only lose cards, so a player dealt none never has one, and
        # legal_actions skips the announcement lookup for it.
        calls = self.call_rules = tables.call_rules
        if calls is not None:
            self.open_calls = calls.open
            self.call_cards = calls.cards
            self.call_slot = calls.slot
            self.announcers = tuple([calls.open[h & calls.cards] for h in hands])
        else:
            self.announcers = ()


def deal_packets(rules: Rules, order: Sequence[Card], n: int, dealer: int) -> list[list[Card]]:
    """Split a pack order into hands as the dealer deals it (see
    :meth:`Deal.from_pack <polignac.core.deal.Deal.from_pack>`)."""
    size = rules.hand_size(n)
    hands: list[list[Card]] = [[] for _ in range(n)]
    pos = 0
    given = 0
    k = 0
    while given < size:
        packet = min(rules.packets[k % len(rules.packets)], size - given)
        for j in range(n):
            p = (dealer + 1 + j) % n
            hands[p].extend(order[pos: pos + packet])
            pos += packet
        given += packet
        k += 1
    return hands
