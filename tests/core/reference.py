"""An independent, deliberately simple reference implementation of the rule book.

The rule book is docs/rules/README.md.

The property tests play the engine and this reference in lockstep and compare
legal actions, trick winners and deal scores.  Nothing here reuses the
engine's tables: penalty cards, rank orders and announcements are written out
again from the rule book, so that a wrong preset value or a wrong rule in the
engine shows up as a disagreement.
"""

from __future__ import annotations

import json
import random
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

from polignac.core import (
    ANNOUNCEMENTS,
    CAPOT,
    CLAIM,
    CODES,
    GENERAL,
    GENERALE,
    NUM_ACTIONS,
    PASS,
    Deal,
    GameOverError,
    IllegalActionError,
    Match,
    NotYourTurnError,
    Rules,
    get_rules,
)
from polignac.core.families import families

RANKS = "23456789TJQKA"
SUITS = "CDHS"


def presets_in_use() -> dict[str, Rules]:
    """Every preset of the families in use, by name: the rule book's, and those of a
    family a test session added (tests/core/fixture_family.py, loaded as a plugin)."""
    return {r.preset: r for f in families() for r in f.presets}


#: Every preset in use when the tests are collected, by name (the properties that run
#: "over every preset" read this, so that a new family's presets join them).
PRESET_NAMES: list[str] = sorted(presets_in_use())

F = TypeVar("F", bound=Callable[..., Any])


def every_preset(test: F) -> F:
    """Mark ``test`` (parametrized by ``preset``, and ``n`` or ``overrides`` if it
    likes) as a property over every preset: a new family's preset must pass it too
    (tests/core/test_fixture_family.py finds the tests so marked and runs them on its
    fixture family's preset)."""
    test.over_every_preset = True  # type: ignore[attr-defined]
    return test


#: Every (preset, player count) the rule book allows (and a session's added family).
ALL_GAMES: list[tuple[str, int]] = [
    (name, n) for name, rules in presets_in_use().items() for n in rules.players
]


class _ByPreset(dict[str, Any]):
    """A table of the reference, by preset: the rule book's rows, and for a preset of
    a family that joined for a while, that family's own tests' rows (the ``REFERENCE``
    of the module that defines the family: tests/core/fixture_family.py)."""

    def __init__(self, name: str, rows: dict[str, Any]) -> None:
        super().__init__(rows)
        self.name = name

    def __missing__(self, preset: str) -> Any:
        for family in families():
            own = getattr(sys.modules.get(type(family).__module__), "REFERENCE", {})
            if preset in own.get(self.name, {}):
                return own[self.name][preset]
        raise KeyError(preset)


# --------------------------------------------------------------- card values
# Written out from each preset's page, docs/rules/<preset>.md, its Scoring.
_JACKS = {"JS": 2, "JC": 1, "JD": 1, "JH": 1}
CARD_VALUES: dict[str, dict[str, int]] = {
    "polignac": _JACKS,
    "polignac-queens": {"QS": 2, "QC": 1, "QD": 1, "QH": 1},
    "polignac-rounds": _JACKS,
    "polignac-threshold": _JACKS,
    "polignac-fr": _JACKS,
    "polignac-threshold-general": _JACKS,
    "polignac-fr-generale": _JACKS,
    "quatre-valets": {"JS": 1, "JC": 1, "JD": 1, "JH": 1},
    "two-knaves": {"JS": 2, "JD": 1},
    "polignac-party": _JACKS,
    "slobberhannes": {"QC": 1},
    "eichelobern": {"QC": 1},
    "grasobern": {"QS": 1},
    "obern": {"QS": 1, "QC": 1, "QD": 1, "QH": 1},
    "knaves": {"JS": -1, "JC": -2, "JD": -3, "JH": -4},
    "bassadewitz": {f"{r}{s}": v for r, v in (("A", 11), ("T", 10), ("K", 4), ("Q", 3),
                                              ("J", 2)) for s in SUITS},
    "bassadewitz-points": {f"{r}{s}": v for r, v in (("A", 5), ("T", 10), ("K", 4),
                                                     ("Q", 3), ("J", 2)) for s in SUITS},
    "pollack": {f"{r}{s}": v for r, v in (("A", 3), ("K", 1), ("Q", 1), ("J", 1), ("T", 1),
                                          ("9", 1)) for s in SUITS},
}
CARD_VALUES = _ByPreset("CARD_VALUES", CARD_VALUES)
_HEARTS = {f"{r}H": 1 for r in RANKS}
CARD_VALUES["black-lady"] = {"QS": 13, **_HEARTS}
CARD_VALUES["black-maria"] = {"QS": 13, "KS": 10, "AS": 7, **_HEARTS}
TRICK_VALUE = {"knaves": 1, "bassadewitz-points": 1}
#: The Hearts family: how each preset passes (written out again from its rules text).
HEARTS_PASSING = {"black-lady": "rotate", "black-maria": "right"}
RANK_ORDERS = {
    "polignac": "KQJAT987",
    "polignac-queens": "AKQJT987",
    "polignac-rounds": "AKQJT987",
    "polignac-threshold": "KQJAT987",
    "polignac-fr": "KQJAT987",
    "polignac-threshold-general": "KQJAT987",
    "polignac-fr-generale": "KQJAT987",
    "quatre-valets": "KQJAT987",
    "two-knaves": "KQJAT987",
    "polignac-party": "KQJAT98765432",
    "slobberhannes": "AKQJT987",
    "eichelobern": "AKQJT987",
    "grasobern": "AKQJT987",
    "obern": "KQJAT987",
    "knaves": "AKQJT98765432",
    "bassadewitz": "ATKQJ987",
    "bassadewitz-points": "ATKQJ987",
    "pollack": "T9AKQJ87",
    "black-lady": "AKQJT98765432",
    "black-maria": "AKQJT98765432",
}
RANK_ORDERS = _ByPreset("RANK_ORDERS", RANK_ORDERS)
#: The contract a preset offers (docs/rules/common.md#declarations): declaration rule and its word.
CONTRACTS = {
    "polignac": ("capot", CAPOT),
    "polignac-queens": ("capot", CAPOT),
    "polignac-rounds": ("general", GENERAL),
    "polignac-threshold": ("capot", CAPOT),
    "polignac-fr": ("chelem", None),
    "polignac-threshold-general": ("general-bonus", GENERAL),
    "polignac-fr-generale": ("generale", GENERALE),
    "quatre-valets": ("capot", CAPOT),
    "two-knaves": ("capot", CAPOT),
    "polignac-party": ("capot", CAPOT),
    "obern": ("capot", CAPOT),
}
SLOBBER = ("slobberhannes", "eichelobern", "grasobern")
BASSA = ("bassadewitz", "bassadewitz-points")

# Pollack announcements (docs/rules/pollack.md#scoring):
# name -> (cards needed, how many, value, slot).
ANNOUNCE: dict[str, tuple[frozenset[int], int, int, str]] = {}
for _rank, _word in (("T", "tens"), ("9", "nines"), ("A", "aces")):
    _cards = frozenset(SUITS.index(s) * 13 + RANKS.index(_rank) for s in SUITS)
    ANNOUNCE[f"three-{_word}"] = (_cards, 3, 3, _rank)
    ANNOUNCE[f"four-{_word}"] = (_cards, 4, 4, _rank)
for _s in SUITS:
    _cards = frozenset(SUITS.index(_s) * 13 + RANKS.index(r) for r in "T9A")
    ANNOUNCE[f"pollack-{_s}"] = (_cards, 3, 3, "pollack-" + _s)
ANN_ACTION = {name: 57 + ANNOUNCEMENTS.index(name) for name in ANNOUNCE}
ACTION_ANN = {a: name for name, a in ANN_ACTION.items()}


def card(code: str) -> int:
    """The card number of a canonical code."""
    return SUITS.index(code[1]) * 13 + RANKS.index(code[0])


def cards(codes: str) -> list[int]:
    """Card numbers of space-separated canonical codes."""
    return [card(c) for c in codes.split()]


def value_of(preset: str, c: int) -> int:
    return CARD_VALUES[preset].get(CODES[c], 0)


def strength(preset: str, c: int) -> int:
    order = RANK_ORDERS[preset]
    return len(order) - order.index(RANKS[c % 13])


def ref_trick_winner(preset: str, leader: int, trick: list[int], trump: int | None,
                     n: int) -> int:
    """Highest trump if any trump was played, else highest card of the suit led."""
    trumps = [i for i, c in enumerate(trick) if trump is not None and c // 13 == trump]
    pool = trumps or [i for i, c in enumerate(trick) if c // 13 == trick[0] // 13]
    best = max(pool, key=lambda i: strength(preset, trick[i]))
    return (leader + best) % n


# ------------------------------------------------------------ reference deal


@dataclass
class RefDeal:
    """A mutable, slow, obvious model of one deal."""

    preset: str
    hands: list[set[int]]
    dealer: int
    turn_up: int | None = None
    partie: tuple[int, int] = (0, 0)
    pool_in: bool = True
    target: int = 21
    phase: str = "play"
    to_act: int = 0
    leader: int = 0
    trick: list[int] = field(default_factory=list)
    tricks: list[tuple[int, list[int], int]] = field(default_factory=list)
    taken: list[set[int]] = field(default_factory=list)
    declarer: int | None = None
    used: list[set[str]] = field(default_factory=list)
    ann_log: list[tuple[int, str]] = field(default_factory=list)
    claim: tuple[int, bool] | None = None

    def __post_init__(self) -> None:
        n = self.n
        self.dealt = [frozenset(h) for h in self.hands]
        self.hands = [set(h) for h in self.hands]
        self.eldest = (self.dealer + 1) % n
        rule, _word = CONTRACTS.get(self.preset, ("none", None))
        announced = rule in ("capot", "general", "general-bonus", "generale")
        self.phase = "declare" if announced else "play"
        self.to_act = self.leader = self.eldest
        self.taken = [set() for _ in range(n)]
        self.used = [set() for _ in range(n)]
        self.trump = (self.turn_up // 13
                      if self.preset == "knaves" and self.turn_up is not None else None)
        self.passed: list[list[int]] = [[] for _ in range(n)]
        self.offset = 0
        if self.hearts:
            how = HEARTS_PASSING[self.preset]
            if how == "rotate":
                how = ["left", "right", "across", "none"][self.dealer % 4]
            self.offset = {"left": 1, "right": n - 1, "across": n // 2, "none": 0}[how] % n
            if self.offset:
                self.phase = "pass"
            else:
                self._hearts_lead()

    @property
    def hearts(self) -> bool:
        return self.preset in HEARTS_PASSING

    def _hearts_lead(self) -> None:
        """The holder of the lowest club in play leads the first trick."""
        clubs = [c for h in self.hands for c in h if c < 13]
        low = min(clubs)
        self.to_act = self.leader = next(p for p in range(self.n) if low in self.hands[p])
        self.first_card = low

    def broken(self) -> bool:
        played = [c for _l, t, _w in self.tricks for c in t] + self.trick
        return any(c // 13 == 2 or CODES[c] == "QS" for c in played)

    def _hearts_legal(self) -> list[int]:
        hand = self.hands[self.to_act]
        first = not self.tricks
        penalty = {c for c in hand if value_of(self.preset, c) > 0}
        if self.trick:
            follow = {c for c in hand if c // 13 == self.trick[0] // 13}
            if follow:
                return sorted(follow)
            if first and hand - penalty:
                return sorted(hand - penalty)
            return sorted(hand)
        if first:
            return [self.first_card]
        if not self.broken():
            others = {c for c in hand if c // 13 != 2}
            if others:
                return sorted(others)
        return sorted(hand)

    @classmethod
    def of(cls, deal: Deal) -> RefDeal:
        """The reference model of a fresh engine deal (its hands, dealer, turn-up)."""
        hands = [set(_bits(h)) for h in deal.initial_hands]
        # the deal's family state, read as this model understands it: the partie
        # before the deal (a pair), or False when the pool stayed (no stake)
        state = deal.family_state
        partie = state if isinstance(state, tuple) else (0, 0)
        return cls(deal.rules.preset, hands, deal.dealer, deal.turn_up, partie,
                   state is not False, deal.rules.partie_target)

    @property
    def n(self) -> int:
        return len(self.hands)

    @property
    def pollack(self) -> bool:
        return self.preset == "pollack"

    @property
    def done(self) -> bool:
        return self.phase == "done"

    def side_won(self, side: int) -> bool:
        return any(w % 2 == side for _l, _c, w in self.tricks)

    def may_announce(self, p: int) -> bool:
        forehand_first = p == self.eldest and not self.tricks and not self.trick
        return forehand_first or self.side_won(p % 2)

    def announcement_ok(self, p: int, name: str) -> bool:
        need, k, _v, slot = ANNOUNCE[name]
        return slot not in self.used[p] and len(need & self.hands[p]) >= k

    def side_total(self, side: int) -> int:
        pts = sum(value_of(self.preset, c) for p in range(side, self.n, 2) for c in self.taken[p])
        anns = sum(ANNOUNCE[a][2] for p, a in self.ann_log if p % 2 == side)
        return self.partie[side] + anns + pts // 3

    def legal(self) -> list[int]:
        if self.phase == "done":
            return []
        if self.phase == "pass":
            return sorted(self.hands[self.to_act])
        if self.hearts:
            return self._hearts_legal()
        if self.phase == "declare":
            word = CONTRACTS[self.preset][1]
            assert word is not None
            return sorted([PASS, word])
        hand = self.hands[self.to_act]
        follow = {c for c in hand if self.trick and c // 13 == self.trick[0] // 13}
        out = sorted(follow or hand)
        if self.pollack:
            p = self.to_act
            if self.may_announce(p):
                out += [ANN_ACTION[a] for a in ANNOUNCE if self.announcement_ok(p, a)]
            if not self.trick:
                out.append(CLAIM)
        return sorted(out)

    def apply(self, action: int) -> None:
        assert action in self.legal(), (action, self.legal())
        p = self.to_act
        if self.phase == "pass":
            self.hands[p].remove(action)
            self.passed[p].append(action)
            if len(self.passed[p]) == 3:
                self.to_act = (p + 1) % self.n
                if self.to_act == self.eldest:
                    for q in range(self.n):
                        self.hands[(q + self.offset) % self.n].update(self.passed[q])
                    self.phase = "play"
                    self._hearts_lead()
            return
        if self.phase == "declare":
            if action == PASS:
                self.to_act = (p + 1) % self.n
                if self.to_act == self.eldest:
                    self.phase = "play"
            else:
                self.declarer = p
                self.phase = "play"
                if action == GENERALE:
                    self.to_act = self.leader = p
                else:
                    self.to_act = self.leader = self.eldest
            return
        if action == CLAIM:
            self.claim = (p, self.side_total(p % 2) >= self.target)
            self.phase = "done"
            return
        if action in ACTION_ANN:
            name = ACTION_ANN[action]
            self.used[p].add(ANNOUNCE[name][3])
            self.ann_log.append((p, name))
            return
        self.hands[p].remove(action)
        self.trick.append(action)
        if len(self.trick) < self.n:
            self.to_act = (p + 1) % self.n
            return
        winner = ref_trick_winner(self.preset, self.leader, self.trick, self.trump, self.n)
        self.tricks.append((self.leader, self.trick, winner))
        self.taken[winner].update(self.trick)
        self.trick = []
        self.leader = self.to_act = winner
        if not self.hands[winner]:
            self.phase = "done"

    # ------------------------------------------------------------- scoring

    def scores(self) -> tuple[list[int], bool]:
        """Each player's score and whether a Bassadewitz redeal follows."""
        assert self.done
        if self.preset in BASSA:
            return self._chips()
        if self.pollack:
            return self._pollack(), False
        return self._penalties(), False

    def _points(self, p: int) -> int:
        return (sum(value_of(self.preset, c) for c in self.taken[p])
                + TRICK_VALUE.get(self.preset, 0) * self.tricks_of(p))

    def tricks_of(self, p: int) -> int:
        return sum(1 for _l, _c, w in self.tricks if w == p)

    def _penalties(self) -> list[int]:
        n = self.n
        base = [self._points(p) for p in range(n)]
        if self.preset in SLOBBER:
            first, last = self.tricks[0][2], self.tricks[-1][2]
            base[first] += 1
            base[last] += 1
            bad = next(c for c in range(52) if value_of(self.preset, c))
            if first == last and bad in self.taken[first]:
                base[first] = 4
            return base
        if self.hearts:
            bad = [c for c in range(52) if value_of(self.preset, c) > 0
                   and any(c in t for t in self.taken)]
            moon = [p for p in range(n) if all(c in self.taken[p] for c in bad)]
            if moon:
                total = sum(value_of(self.preset, c) for c in bad)
                return [0 if p == moon[0] else total for p in range(n)]
            return base
        rule, _word = CONTRACTS.get(self.preset, ("none", None))
        slam = next((p for p in range(n) if self.tricks_of(p) == len(self.tricks)), None)
        d = self.declarer
        if d is not None:
            if slam == d:
                out = [5] * n
                out[d] = -5 if rule == "general-bonus" else 0
                return out
            if rule == "generale":
                base[d] = 5
                return base
            base[d] += 5
            return base
        if rule == "chelem" and slam is not None:
            out = [5] * n
            out[slam] = 0
            return out
        return base

    def _chips(self) -> tuple[list[int], bool]:
        n = self.n
        chips = [0] * n
        if self.pool_in:
            chips[self.dealer] -= 12
        pts = [self._points(p) for p in range(n)]
        sweeper = next((p for p in range(n) if self.tricks_of(p) == len(self.tricks)), None)
        if sweeper is not None:
            for p in range(n):
                if p != sweeper:
                    chips[p] -= 4
                    chips[sweeper] += 4
            return chips, True
        heavy = [p for p in range(n) if pts[p] >= 100]
        if heavy:
            for q in heavy:
                for p in range(n):
                    if p != q:
                        chips[q] -= 4
                        chips[p] += 4
            return chips, True
        if len(set(pts)) == 1:
            return chips, True
        # fewest points first; among equals a player without tricks first, then
        # the player nearer the dealer's left.
        order = sorted(range(n), key=lambda p: (pts[p], self.tricks_of(p) > 0,
                                                (p - self.dealer - 1) % n))
        for share, p in zip((5, 4, 3), order, strict=False):
            chips[p] += share
        return chips, False

    def _pollack(self) -> list[int]:
        side = [0, 0]
        for p in range(self.n):
            side[p % 2] += sum(value_of(self.preset, c) for c in self.taken[p])
        if self.claim is None:
            side[self.tricks[-1][2] % 2] += 3
        out = [side[0] // 3, side[1] // 3]
        for p, a in self.ann_log:
            out[p % 2] += ANNOUNCE[a][2]
        return [out[p % 2] for p in range(self.n)]


def _bits(mask: int) -> Iterator[int]:
    c = 0
    while mask:
        if mask & 1:
            yield c
        mask >>= 1
        c += 1


def bits(mask: int) -> list[int]:
    """The cards of a bitmask, ascending."""
    return list(_bits(mask))


# ------------------------------------------------------------- random policy


def choose(rng: random.Random, deal: Deal, legal: list[int]) -> int:
    """A random legal action, with calls weighted so games stay interesting.

    Declares a contract now and then, makes most Pollack announcements, and
    claims mostly when the claim is right (sometimes when it is wrong).
    """
    if not legal:
        raise AssertionError("no legal action")
    words = [a for a in legal if a >= 52]
    if deal.phase_name == "declare":
        contract = [a for a in words if a != PASS]
        return contract[0] if contract and rng.random() < 0.15 else PASS
    anns = [a for a in words if a != CLAIM]
    if anns and rng.random() < 0.7:
        return rng.choice(anns)
    if CLAIM in words:
        right = deal.side_total(deal.to_act & 1) >= deal.rules.partie_target
        if rng.random() < (0.7 if right else 0.03):
            return CLAIM
    plays = [a for a in legal if a < 52]
    return rng.choice(plays)


def play_match(match: Match, rng: random.Random, max_steps: int = 100_000) -> Iterator[Match]:
    """Yield every state of a random match, dealing with ``rng``."""
    yield match
    for _ in range(max_steps):
        if match.finished:
            return
        if match.needs_deal:
            match = match.deal_random(rng)
        else:
            assert match.current is not None
            match = match.apply(choose(rng, match.current, match.legal_actions()))
        yield match
    raise AssertionError("match did not end")


# --------------------------------------------------------- illegal actions


def expected_error(ref: RefDeal, action: int, player: int | None
                   ) -> tuple[type[IllegalActionError], str]:
    """The error class and rule an illegal action must raise (docs/rules/common.md#play)."""
    if ref.done:
        return GameOverError, "deal-over"
    if player is not None and player != ref.to_act:
        return NotYourTurnError, "not-your-turn"
    if not 0 <= action < NUM_ACTIONS:
        return IllegalActionError, "unknown-action"
    p = ref.to_act
    if ref.phase == "pass":
        if action >= 52:
            return IllegalActionError, "pass-a-card"
        return IllegalActionError, "pass-not-in-hand"
    if action < 52 and ref.hearts and action in ref.hands[p]:
        led = ref.trick[0] // 13 if ref.trick else None
        if led is None or action // 13 == led or all(c // 13 != led for c in ref.hands[p]):
            if not ref.tricks and not ref.trick:
                return IllegalActionError, "first-lead"
            if not ref.tricks:
                return IllegalActionError, "penalty-on-first-trick"
            return IllegalActionError, "hearts-not-broken"
    if action < 52:
        if ref.phase == "declare":
            return IllegalActionError, "declaration-round"
        if action not in ref.hands[p]:
            return IllegalActionError, "card-not-in-hand"
        return IllegalActionError, "must-follow-suit"
    if action in (PASS, CAPOT, GENERAL, GENERALE):
        _rule, word = CONTRACTS.get(ref.preset, ("none", None))
        if word is None:
            return IllegalActionError, "not-in-this-game"
        if ref.phase != "declare":
            return IllegalActionError, "declaration-out-of-time"
        return IllegalActionError, "wrong-contract"
    if not ref.pollack:
        return IllegalActionError, "not-in-this-game"
    if action == CLAIM:
        return IllegalActionError, "claim-not-on-lead"
    name = ACTION_ANN[action]
    if not ref.may_announce(p):
        return IllegalActionError, "announcement-too-early"
    if ANNOUNCE[name][3] in ref.used[p]:
        return IllegalActionError, "announcement-repeated"
    return IllegalActionError, "false-announcement"


# ------------------------------------------------------------------- views

_TOKEN = re.compile(r"[0-9A-Za-z]+")


def leaked_cards(view: Any, hidden: set[int]) -> set[str]:
    """Codes of ``hidden`` cards found anywhere in the JSON of ``view``.

    Serialises the view (it must be JSON), then scans every key and string
    value token by token, and every number (a hand leaked as a bitmask).
    """
    text = json.dumps(view)
    data = json.loads(text)
    hidden_codes = {CODES[c] for c in hidden}
    found: set[str] = set()

    def walk(x: Any) -> None:
        if isinstance(x, dict):
            for k, v in x.items():
                walk(k)
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
        elif isinstance(x, str):
            found.update(t.upper() for t in _TOKEN.findall(x) if t.upper() in hidden_codes)
        elif isinstance(x, int) and not isinstance(x, bool) and abs(x) >= 1 << 16:
            found.add(f"number {x}")

    walk(data)
    return found


def rules_of(preset: str) -> Rules:
    """The preset ``preset`` of the families in use."""
    return get_rules(preset)


def play_to_end(match: Match, rng: random.Random) -> Match:
    """The final state of a random match."""
    last = match
    for last in play_match(match, rng):  # noqa: B007 - keep the last state
        pass
    return last
