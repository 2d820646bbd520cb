"""Puzzles from played games, each answer proved by the exact solver.

:func:`find_puzzles` scans a game record (``docs/record-format.md``) for card
plays where

* the player to move had at most ``max_cards`` cards in hand (the bound on
  the work: at most that many tricks left to solve);
* every deal of the unseen cards consistent with what that player saw
  (:func:`polignac.bots.analysis.consistent_hands`, at most ``deals`` of them;
  one deal: the player can know every hand from what was played) was solved
  by :class:`polignac.bots.solver.Solver` within ``nodes`` search nodes per
  solve (the paranoid model of :mod:`polignac.bots.solver`);
* on every one of those deals the same card is best, and every other legal
  card is at least ``margin`` worse (so two cards that tie on any deal never
  make a puzzle); and
* the card actually played was not that card, so it lost at least ``margin``
  (at least 1) on every consistent deal.

Values are in the solver's unit (:data:`polignac.bots.analysis.UNITS`: minus
the penalty points in the Polignac family, and so on; higher is better).
Each puzzle carries a theme from :func:`theme` and the solver's principal
line after the answer on the true deal (:func:`principal_line`).  Everything
is deterministic: no sampling, ties broken by the lowest card.  The schema is
in ``docs/puzzles.md``.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.cards import CODES, Card, Mask, cards_of, suit_of
from ..core.deal import Deal
from ..core.errors import RecordError
from ..core.record import replay
from .analysis import choices, consistent_hands, deal_states, unit_of
from .base import SeatView
from .hard import position_of
from .solver import Position, Solver, default_solver, final_result

FORMAT = "polignac-puzzle/1"
"""The ``format`` of each puzzle written."""
THEMES = ("throw-the-jack", "discard", "duck", "unblock", "count-the-suit")
"""The themes :func:`theme` gives, in the order it tries them."""
DEFAULT_MAX_CARDS = 6
DEFAULT_MARGIN = 1
DEFAULT_DEALS = 256
DEFAULT_NODES = 2_000_000


@dataclass(frozen=True)
class PuzzleSettings:
    """The bounds of the search: positions with at most ``max_cards`` cards in the
    mover's hand, at most ``deals`` consistent deals, ``nodes`` search nodes per
    solve; the answer must beat every other card by ``margin`` on every deal."""

    max_cards: int = DEFAULT_MAX_CARDS
    margin: int = DEFAULT_MARGIN
    deals: int = DEFAULT_DEALS
    nodes: int = DEFAULT_NODES

    def check(self) -> None:
        """Raises:
            ValueError: a bound below 1 (``max_cards`` over 13).
        """
        if not 1 <= self.max_cards <= 13:
            raise ValueError(f"max_cards must be 1 to 13, not {self.max_cards}")
        if self.margin < 1 or self.deals < 1 or self.nodes < 1:
            raise ValueError("margin, deals and nodes must be at least 1")


@dataclass
class Scan:
    """What a scan did: records and deals read, positions tried (card plays with a choice within
    ``max_cards``), those skipped for too many consistent deals or over the node
    budget, those rejected for a tie at the top on some deal (``ties``), a best
    card that differs between deals (``differs``) or the best card played
    (``played_best``), and the puzzles found by theme."""

    records: int = 0
    deals: int = 0
    positions: int = 0
    too_many_deals: int = 0
    too_deep: int = 0
    ties: int = 0
    differs: int = 0
    played_best: int = 0
    puzzles: int = 0
    themes: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0

    def add(self, other: Scan) -> None:
        """Add ``other``'s counts to this one."""
        self.records += other.records
        self.deals += other.deals
        self.positions += other.positions
        self.too_many_deals += other.too_many_deals
        self.too_deep += other.too_deep
        self.ties += other.ties
        self.differs += other.differs
        self.played_best += other.played_best
        self.puzzles += other.puzzles
        self.themes.update(other.themes)
        self.seconds += other.seconds


@dataclass(frozen=True)
class Proof:
    """The solver's verdict on one position: the ``best`` card on every deal, the
    smallest gap to the second-best card over the deals (``margin``), each legal
    card's value on the true deal, and how many deals were solved."""

    best: Card
    margin: int
    values: dict[Card, int]
    deals: int


def _best_and_gap(values: Mapping[Card, int]) -> tuple[Card, int]:
    """The best card (the lowest on a tie) and its lead over the next one (0: a tie)."""
    ranked = sorted(values, key=lambda c: (-values[c], c))
    return ranked[0], values[ranked[0]] - values[ranked[1]]


def prove(deal: Deal, settings: PuzzleSettings, solver: Solver | None = None
          ) -> Proof | str:
    """Prove the best card of the player to act in ``deal`` (in trick play, with
    a choice) on every deal consistent with its view.

    Returns a :class:`Proof`, or why there is none: ``"tie"`` (no card beats
    every other by ``settings.margin`` on some deal), ``"differs"`` (the best
    card is not the same on every deal), ``"too-many-deals"``, ``"too-deep"``.

    Raises:
        ValueError: the deal is not in trick play or the player has no choice.
    """
    solver = default_solver() if solver is None else solver
    view = SeatView.of(deal, deal.to_act)
    cards = choices(view)
    if deal.phase_name != "play" or len(cards) < 2:
        raise ValueError("not a card play with a choice")
    true = solver.solve_within(Position.from_deal(deal), settings.nodes)
    if true is None:
        return "too-deep"
    best, gap = _best_and_gap(true)
    if gap < settings.margin:
        return "tie"
    worlds = consistent_hands(view, settings.deals)
    if not worlds:
        return "too-many-deals"
    for hands in worlds:
        if tuple(hands) == deal.hands:
            continue
        values = solver.solve_within(position_of(view, hands), settings.nodes)
        if values is None:
            return "too-deep"
        b, g = _best_and_gap(values)
        if b != best:
            return "differs"
        if g < settings.margin:
            return "tie"
        gap = min(gap, g)
    return Proof(best, gap, dict(true), len(worlds))


def _wins_now(deal: Deal, card: Card) -> bool:
    """Whether the player to act is winning the trick once it has played ``card``."""
    p = deal.to_act
    after = deal.apply(card)
    if len(after.past) > len(deal.past):
        return after.past[-1].winner == p
    return after.trick_winner_so_far() == p


def theme(deal: Deal, best: Card, played: Card) -> str:
    """The theme of the puzzle where the player to act in ``deal`` should play
    ``best`` and played ``played`` (the first rule that holds, :data:`THEMES`):

    * ``throw-the-jack``: a trick is led, the player has no card of the led suit,
      and ``best`` carries points (a penalty card: the Jacks in Polignac);
    * ``discard``: a trick is led, the player has no card of the led suit, and
      ``best`` carries none;
    * ``duck``: a trick is led and the player follows suit; after ``best`` the
      player is not winning the trick, after ``played`` it would be;
    * ``unblock``: ``best`` is the strongest card of its suit in the hand and
      ``played`` a weaker card of the same suit;
    * ``count-the-suit``: otherwise.
    """
    rules = deal.rules
    hand = deal.hands[deal.to_act]
    trick = deal.trick
    if trick:
        led = suit_of(trick[0])
        if not any(suit_of(c) == led for c in cards_of(hand)):
            return "throw-the-jack" if rules.point_table()[best] != 0 else "discard"
        if not _wins_now(deal, best) and _wins_now(deal, played):
            return "duck"
    strength = rules.strength()
    suit = [c for c in cards_of(hand) if suit_of(c) == suit_of(best)]
    if (suit_of(played) == suit_of(best)
            and max(suit, key=lambda c: strength[c % 13]) == best
            and strength[played % 13] < strength[best % 13]):
        return "unblock"
    return "count-the-suit"


def principal_line(deal: Deal, card: Card, nodes: int = DEFAULT_NODES,
                   solver: Solver | None = None) -> list[Card] | None:
    """The rest of the deal as the solver plays it after the player to act in
    ``deal`` plays ``card``: every card in turn is the best for the mover (or
    its partner) and the worst for it for the others (the paranoid model;
    ties: the lowest card).  None when a solve needs more than ``nodes`` nodes.

    Raises:
        IllegalActionError: ``card`` is not legal.
    """
    solver = default_solver() if solver is None else solver
    me = deal.to_act
    sides = deal.rules.kind.sides
    d = deal.apply(card)
    line: list[Card] = []
    while not d.done and d.phase_name == "play":
        q = d.to_act
        friend = q == me or (sides and q & 1 == me & 1)
        scored: list[tuple[int, Card]] = []
        for c in cards_of(d.legal_card_mask()):
            child = d.apply(c)
            if child.done:
                v: int | None = final_result(child, me)
            else:
                v = solver.value_within(Position.from_deal(child), nodes, me)
            if v is None:
                return None
            scored.append((-v if friend else v, c))
        pick = min(scored)[1]
        line.append(pick)
        d = d.apply(pick)
    return line


def _codes(mask: Mask) -> list[str]:
    return [CODES[c] for c in cards_of(mask)]


def _position(deal: Deal, totals: Sequence[int]) -> dict[str, Any]:
    """What redraws the position (deal player numbers; see docs/puzzles.md)."""
    return {
        "dealer": deal.dealer,
        "hands": [_codes(h) for h in deal.hands],
        "tricks": [{"leader": t.leader, "cards": [CODES[c] for c in t.cards],
                    "winner": t.winner} for t in deal.past],
        "trick": {"leader": deal.leader, "cards": [CODES[c] for c in deal.trick]},
        "taken": [_codes(m) for m in deal.taken],
        "points": list(deal.points_taken()),
        "totals": list(totals),
        "turn_up": None if deal.turn_up is None else CODES[deal.turn_up],
        "contract": deal.contract,
        "declarer": deal.declarer,
    }


def _totals_before(record: Mapping[str, Any], seats: int) -> list[list[int]]:
    """The match totals (per seat) before each deal of ``record`` (item ``k``:
    before deal ``k + 1``).

    Raises:
        RecordError: the record does not replay.
    """
    out = [[0] * seats]
    for result in replay(record).results:
        after = result.after
        out.append(list(after.totals) if after is not None else list(out[-1]))
    return out


def find_puzzles(record: Mapping[str, Any], settings: PuzzleSettings | None = None,
                 source: str | None = None, solver: Solver | None = None
                 ) -> tuple[list[dict[str, Any]], Scan]:
    """The puzzles of ``record`` (one JSON-ready object each, docs/puzzles.md) and
    what the scan did; ``source`` names the record in each puzzle (a file name).

    Raises:
        RecordError: the record is malformed, does not replay, or is of a family
            the exact solver does not model.
        ValueError: bad settings.
    """
    settings = PuzzleSettings() if settings is None else settings
    settings.check()
    solver = default_solver() if solver is None else solver
    start = time.monotonic()
    scan = Scan(records=1)
    out: list[dict[str, Any]] = []
    players = record.get("players")
    if not isinstance(players, list):
        raise RecordError("the record has no list of players")
    totals = _totals_before(record, len(players))
    entries = list(record.get("deals") or [])
    rid = record.get("id")
    for number, deal, seats, actions in deal_states(record):
        scan.deals += 1
        shuffle = entries[number - 1].get("shuffle") or {}
        for index, action in enumerate(actions, start=1):
            if deal.done:
                break
            if (deal.phase_name == "play" and action < 52
                    and deal.hands[deal.to_act].bit_count() <= settings.max_cards):
                found = _try(deal, action, settings, solver, scan)
                if found is not None:
                    p = deal.to_act
                    before = totals[number - 1] if number - 1 < len(totals) else totals[-1]
                    out.append({
                        "format": FORMAT,
                        "game": {"source": source, "id": rid if isinstance(rid, str) else None,
                                 "table": shuffle.get("table"), "seed": shuffle.get("seed")},
                        "preset": deal.rules.preset,
                        "rules": record.get("rules") or {},
                        "deal": number,
                        "action": index,
                        "seats": list(seats),
                        "player": p,
                        "seat": seats[p],
                        "unit": unit_of(deal.rules.scoring),
                        "position": _position(deal, before),
                        **found,
                    })
            deal = deal.apply(action)
    scan.puzzles = len(out)
    scan.themes.update(str(p["theme"]) for p in out)
    scan.seconds = time.monotonic() - start
    return out, scan


def _try(deal: Deal, played: Card, settings: PuzzleSettings, solver: Solver,
         scan: Scan) -> dict[str, Any] | None:
    """The answer part of a puzzle at ``deal`` where ``played`` was played, or None."""
    view = SeatView.of(deal, deal.to_act)
    cards = choices(view)
    if len(cards) < 2 or played not in cards:
        return None
    scan.positions += 1
    proof = prove(deal, settings, solver)
    if proof == "too-many-deals":
        scan.too_many_deals += 1
    elif proof == "too-deep":
        scan.too_deep += 1
    elif proof == "tie":
        scan.ties += 1
    elif proof == "differs":
        scan.differs += 1
    if not isinstance(proof, Proof):
        return None
    if proof.best == played:
        scan.played_best += 1
        return None
    line = principal_line(deal, proof.best, settings.nodes, solver)
    if line is None:
        scan.too_deep += 1
        return None
    values = proof.values
    return {
        "answer": CODES[proof.best],
        "played": CODES[played],
        "loss": values[proof.best] - values[played],
        "margin": proof.margin,
        "values": {CODES[c]: v for c, v in sorted(values.items())},
        "known": proof.deals == 1,
        "deals": proof.deals,
        "line": [CODES[c] for c in line],
        "theme": theme(deal, proof.best, played),
    }


__all__ = [
    "DEFAULT_DEALS", "DEFAULT_MARGIN", "DEFAULT_MAX_CARDS", "DEFAULT_NODES", "FORMAT", "THEMES",
    "Proof", "PuzzleSettings", "Scan", "find_puzzles", "principal_line", "prove", "theme",
]
