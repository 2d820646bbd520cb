"""The bot interface: what a bot sees (:class:`SeatView`) and what it does (:class:`Bot`).

A bot receives only its seat's view (its own hand and everything public:
every action taken, the tricks, the turn-up, announcements, the match
totals) plus a seeded random generator, and returns one legal action.  It
never receives the :class:`~polignac.core.deal.Deal` itself, so it cannot
see another player's cards (the evaluation-only ``oracle`` is the one
exception, and says so).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from ..core.actions import Action
from ..core.cards import Card, Mask
from ..core.deal import Deal, Trick
from ..core.match import Match
from ..core.rules import Rules


@dataclass(frozen=True)
class SeatView:
    """Everything one player may know, in compact form (ints and bitmasks).

    Player numbers are the deal's: 0 is the deal's first seat and play goes
    in increasing order, wrapping; ``seats[i]`` is the match seat of deal
    player ``i`` (they differ only in tie-break deals).
    """

    rules: Rules
    num_players: int
    player: int
    """The viewer's player number in this deal."""
    dealer: int
    phase: int
    """0 declaration round, 1 trick play, 2 done, 3 passing (see polignac.core.deal)."""
    hand: Mask
    """The viewer's cards still in hand."""
    legal: tuple[Action, ...]
    """The viewer's legal actions (empty when it is not the viewer's turn)."""
    to_act: int
    history: tuple[Action, ...]
    """Every action of the deal so far, in order (all actions are public)."""
    tricks: tuple[Trick, ...]
    """Finished tricks: leader, cards in play order, winner."""
    trick: tuple[Card, ...]
    """Cards of the trick in progress, in play order, led by ``leader``."""
    leader: int
    taken: tuple[Mask, ...]
    """Cards each player has taken in tricks."""
    tricks_won: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    initial_hand: Mask
    """The viewer's hand as dealt."""
    declarer: int
    """The player who declared a contract, or -1."""
    contract: str | None
    turn_up: Card | None
    trump: int | None
    announcements: tuple[tuple[int, str], ...]
    """Announcements so far: (player, name)."""
    side_totals: tuple[int, int]
    """Games scored by sides: each side's partie score counted now (see Deal.side_total)."""
    seats: tuple[int, ...]
    """Match seat of each deal player."""
    match_totals: tuple[int, ...]
    """Match totals before this deal, per deal player (not per seat)."""
    deals_played: int
    """Deals finished in the match so far."""
    passed: Mask = 0
    """Hearts family: the cards the viewer has chosen to pass (see polignac.bots.hearts)."""
    received: Mask = 0
    """Hearts family: the cards the viewer received (once everyone has passed)."""
    pass_to: int = -1
    """Hearts family: the player the viewer passes to (-1: no pass)."""
    family_state: Any = None
    """The scoring family's state of the deal (``Deal.family_state``: public, and read
    only by its family's hooks), for the deals rebuilt from the view and the solver."""

    @property
    def played(self) -> Mask:
        """Every card played so far in this deal."""
        m = 0
        for t in self.taken:
            m |= t
        for c in self.trick:
            m |= 1 << c
        return m

    @property
    def unseen(self) -> Mask:
        """Cards in play that the viewer has not seen: the other players' hands."""
        pack = self.rules.pack_mask(self.num_players)
        up = 0 if self.turn_up is None else 1 << self.turn_up
        return pack & ~self.hand & ~self.played & ~up

    @classmethod
    def of(cls, deal: Deal, player: int, match: Match | None = None) -> SeatView:
        """Build ``player``'s view of ``deal`` (and of ``match``, when given)."""
        n = deal.num_players
        seats = tuple(range(n)) if match is None else match.current_seats or tuple(range(n))
        totals = (
            (0,) * n if match is None else tuple(match.totals[s] for s in seats)
        )
        own = deal.seat_knowledge(player)  # its family's deal says what the seat knows
        by_sides = deal.rules.kind.sides
        return cls(
            rules=own.rules,
            num_players=n,
            player=player,
            dealer=deal.dealer,
            phase=deal.phase,
            hand=deal.hands[player],
            legal=tuple(deal.legal_actions()) if deal.to_act == player and not deal.done else (),
            to_act=deal.to_act,
            history=own.history,
            tricks=deal.past,
            trick=deal.trick,
            leader=deal.leader,
            taken=deal.taken,
            tricks_won=deal.tricks,
            hand_sizes=tuple(h.bit_count() for h in deal.hands),
            initial_hand=own.initial_hand,
            declarer=deal.declarer,
            contract=deal.contract,
            turn_up=deal.turn_up,
            trump=deal.trump,
            announcements=deal.announcements,
            side_totals=(deal.side_total(0), deal.side_total(1)) if by_sides else (0, 0),
            seats=seats,
            match_totals=totals,
            deals_played=0 if match is None else len(match.results),
            passed=own.passed,
            received=own.received,
            pass_to=own.pass_to,
            family_state=deal.family_state,
        )


@runtime_checkable
class Bot(Protocol):
    """A player program.  ``act`` must return one of ``view.legal``."""

    name: str

    def act(self, view: SeatView, rng: random.Random) -> Action:
        """Choose an action for the viewer (it is the viewer's turn)."""
        ...
