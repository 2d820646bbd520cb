"""A match: the sequence of deals, the rotating dealer, and every match-end rule.

A :class:`Match` is immutable.  Between deals it waits for the next deal
(:attr:`Match.needs_deal`): dealing needs randomness, which the caller injects
(:meth:`Match.deal_random` with a seeded ``random.Random`` or, for live games,
``secrets.SystemRandom()``), or a known deal (:meth:`Match.start_deal`,
:meth:`Match.deal_from_pack`).

>>> import random
>>> from polignac.core.presets import get_rules
>>> m = Match.new(get_rules("polignac"), 4, first_dealer=0)
>>> rng = random.Random(7)
>>> while not m.finished:
...     m = m.deal_random(rng) if m.needs_deal else m.apply(rng.choice(m.legal_actions()))
>>> max(m.totals) >= 20
True
"""

from __future__ import annotations

import random as _random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .actions import Action, parse_action
from .cards import CODES, Card, Mask, cards_of
from .deal import Deal, DealScore
from .errors import GameOverError, IllegalActionError, NotYourTurnError, RulesError
from .rules import Rules


@dataclass(frozen=True)
class DealResult:
    """A finished deal of a match.

    ``seats`` are the match seats that played it (deal player ``i`` is
    ``seats[i]``); ``scores`` has one number per match seat (0 for seats not
    in a tie-break deal); ``tiebreak`` deals do not count in the totals.
    """

    number: int
    dealer: int
    seats: tuple[int, ...]
    deal: Deal
    score: DealScore
    scores: tuple[int, ...]
    tiebreak: bool = False
    partie_winner: int | None = None
    """Pollack: the side (0: seats 0 and 2; 1: seats 1 and 3) that won the partie
    with this deal, if one did."""


@dataclass(frozen=True)
class Match:
    """The state of a match.  Build with :meth:`new`; every method returns a new match."""

    rules: Rules
    num_players: int
    first_dealer: int
    names: tuple[str, ...]
    results: tuple[DealResult, ...] = ()
    current: Deal | None = None
    current_seats: tuple[int, ...] = ()
    current_dealer: int = -1
    totals: tuple[int, ...] = ()
    finished: bool = False
    winners: tuple[int, ...] = ()
    losers: tuple[int, ...] = ()
    tied: tuple[int, ...] = ()
    """Seats still in a tie-break (threshold-lowest-wins), else empty."""
    pool_waiting: bool = False
    """Bassadewitz: the pool stayed after a redeal (the next deal adds no stake)."""
    partie: tuple[int, int] = (0, 0)
    """Pollack: each side's score in the partie in progress."""
    parties_won: tuple[int, ...] = ()
    """Pollack: the winning side of each finished partie."""
    notes: tuple[str, ...] = field(default=())
    """Human-readable events (match end, tie-break deals, redeals)."""

    # ---------------------------------------------------------- construction

    @classmethod
    def new(
        cls,
        rules: Rules,
        num_players: int | None = None,
        first_dealer: int = 0,
        names: Sequence[str] | None = None,
    ) -> Match:
        """Start a match (no deal yet: see :meth:`deal_random`).

        Raises:
            RulesError: the player count is not allowed, the first dealer is no
                seat, the names do not match the count, or a fixed number of
                Bassadewitz deals does not let everyone deal equally.
        """
        n = rules.default_players if num_players is None else num_players
        rules.check_player_count(n)
        if not 0 <= first_dealer < n:
            raise RulesError(f"first_dealer {first_dealer} is not a seat (0-{n - 1})")
        if rules.match_end == "chips" and rules.num_deals(n) % n:
            raise RulesError(
                f"deals: {rules.num_deals(n)} deals do not let each of {n} players "
                f"deal equally; choose a multiple of {n}"
            )
        if names is None:
            names = [f"Player {i + 1}" for i in range(n)]
        if len(names) != n:
            raise RulesError(f"{len(names)} player names for {n} players")
        return cls(rules, n, first_dealer, tuple(names), totals=(0,) * n)

    # ---------------------------------------------------------------- state

    @property
    def needs_deal(self) -> bool:
        """True when the match waits for the next deal to be dealt."""
        return not self.finished and self.current is None

    @property
    def deal_number(self) -> int:
        """1-based number of the current (or next) deal."""
        return len(self.results) + 1

    @property
    def counted_deals(self) -> int:
        """Deals that count towards a fixed number (not tie-breaks, not Bassadewitz redeals)."""
        return sum(
            1 for r in self.results if not r.tiebreak and not r.score.redeal
        )

    def next_deal(self) -> tuple[int, tuple[int, ...]]:
        """The dealer seat and the seats of the next deal.

        Raises:
            GameOverError: the match is over.
        """
        if self.finished:
            raise GameOverError("the match is over", rule="match-over")
        n = self.num_players
        if not self.results:
            return self.first_dealer, tuple(range(n))
        prev = self.results[-1]
        if self.tied:
            for k in range(1, n + 1):
                seat = (prev.dealer + k) % n
                if seat in self.tied:
                    return seat, self.tied
        if prev.score.redeal:
            return prev.dealer, tuple(range(n))
        return (prev.dealer + 1) % n, tuple(range(n))

    def to_act(self) -> int | None:
        """The seat to act in the current deal, or None between deals."""
        if self.current is None or self.current.done:
            return None
        return self.current_seats[self.current.to_act]

    def legal_actions(self) -> list[Action]:
        """The legal actions of the seat to act (empty between deals)."""
        return [] if self.current is None else self.current.legal_actions()

    # -------------------------------------------------------------- dealing

    def start_deal(
        self,
        hands: Sequence[Sequence[Card] | Mask],
        turn_up: Card | None = None,
    ) -> Match:
        """Start the next deal with these hands (``hands[i]`` for ``next_deal()`` seat ``i``).

        Raises:
            GameOverError: the match is over.
            IllegalActionError: a deal is in progress.
            RulesError: the hands are not a valid deal.
        """
        dealer, seats = self._check_can_deal()
        deal = Deal.from_hands(self.rules, hands, seats.index(dealer), turn_up,
                               self.partie, not self.pool_waiting)
        return self._with_deal(deal, dealer, seats)

    def deal_from_pack(self, pack_order: Sequence[Card]) -> Match:
        """Start the next deal from a pack order, dealt by the preset's packets.

        Raises:
            GameOverError, IllegalActionError, RulesError: as :meth:`start_deal`.
        """
        dealer, seats = self._check_can_deal()
        deal = Deal.from_pack(self.rules, pack_order, len(seats), seats.index(dealer),
                              self.partie, not self.pool_waiting)
        return self._with_deal(deal, dealer, seats)

    def deal_random(self, rng: _random.Random) -> Match:
        """Shuffle with ``rng`` and start the next deal.

        Raises:
            GameOverError, IllegalActionError: as :meth:`start_deal`.
        """
        _dealer, seats = self._check_can_deal()
        order = cards_of(self.rules.pack_mask(len(seats)))
        rng.shuffle(order)
        return self.deal_from_pack(order)

    def _check_can_deal(self) -> tuple[int, tuple[int, ...]]:
        if self.finished:
            raise GameOverError("the match is over: no more deals", rule="match-over")
        if self.current is not None:
            raise IllegalActionError("a deal is in progress", rule="deal-in-progress")
        return self.next_deal()

    def _with_deal(self, deal: Deal, dealer: int, seats: tuple[int, ...]) -> Match:
        return _replace(self, current=deal, current_seats=seats, current_dealer=dealer)

    # --------------------------------------------------------------- acting

    def apply(self, action: Action, seat: int | None = None) -> Match:
        """Apply an action of the seat to act; finish the deal and the match as due.

        Raises:
            GameOverError: the match is over.
            IllegalActionError: no deal in progress, or an illegal action.
            NotYourTurnError: ``seat`` is not the seat to act.
        """
        if self.finished:
            raise GameOverError("the match is over", rule="match-over")
        deal = self.current
        if deal is None:
            raise IllegalActionError("no deal in progress: deal the cards first",
                                     rule="no-deal")
        player = None
        if seat is not None:
            if seat not in self.current_seats:
                raise NotYourTurnError(
                    f"not your turn: seat {seat} does not play in this tie-break deal",
                    rule="not-your-turn",
                )
            player = self.current_seats.index(seat)
        try:
            deal = deal.apply(action, player)
        except NotYourTurnError as exc:
            to_act = self.to_act()
            raise NotYourTurnError(
                f"not your turn: seat {seat} tried {exc.action}, but seat {to_act} is to act",
                rule="not-your-turn", action=exc.action,
            ) from None
        if not deal.done:  # the hot path: only the deal changes
            new = object.__new__(Match)
            fields = new.__dict__
            fields.update(self.__dict__)
            fields["current"] = deal
            return new
        return self._finish_deal(deal)

    def apply_text(self, text: str, seat: int | None = None) -> Match:
        """Like :meth:`apply`, reading the action from its record text.

        Raises:
            IllegalActionError: unknown text, or as :meth:`apply`.
        """
        return self.apply(parse_action(text), seat)

    # ----------------------------------------------------------- match end

    def _finish_deal(self, deal: Deal) -> Match:
        rules = self.rules
        n = self.num_players
        seats = self.current_seats
        score = deal.score()
        scores = [0] * n
        for i, seat in enumerate(seats):
            scores[seat] = score.scores[i]
        tiebreak = bool(self.tied)
        result = DealResult(
            number=len(self.results) + 1,
            dealer=self.current_dealer,
            seats=seats,
            deal=deal,
            score=score,
            scores=tuple(scores),
            tiebreak=tiebreak,
        )
        base = _replace(self, current=None, current_seats=(), current_dealer=-1)
        if tiebreak:
            return base._after_tiebreak(result)
        if rules.match_end == "parties":
            return base._after_pollack_deal(result)
        totals = tuple(t + s for t, s in zip(self.totals, scores, strict=True))
        m = _replace(base, results=self.results + (result,), totals=totals)
        end = rules.match_end
        if end == "chips":
            m = _replace(m, pool_waiting=score.redeal)
            if not score.redeal and m.counted_deals >= rules.num_deals(n):
                return m._end_by(max, "most chips")
            return m
        if end == "fixed-deals":
            if m.counted_deals >= rules.num_deals(n):
                best = max if rules.scoring == "points" else min
                return m._end_by(best, f"after {m.counted_deals} deals")
            return m
        threshold = rules.threshold if rules.threshold is not None else 0
        if max(totals) < threshold:
            return m
        if end == "first-to-target":
            return m._end_by(max, f"reached {threshold}")
        if end == "threshold-loser":
            top = max(totals)
            losers = tuple(s for s in range(n) if totals[s] == top)
            winners = tuple(s for s in range(n) if totals[s] != top)
            return _replace(m, finished=True, winners=winners, losers=losers,
                            notes=m.notes + (f"threshold {threshold} reached",))
        # threshold-lowest-wins
        low = min(totals)
        tied = tuple(s for s in range(n) if totals[s] == low)
        if len(tied) == 1:
            return m._end_by(min, f"threshold {threshold} reached")
        return _replace(m, tied=tied, notes=m.notes + (
            f"threshold {threshold} reached; seats {', '.join(map(str, tied))} tie for "
            "lowest and play tie-break deals",))

    def _end_by(self, best: Any, why: str) -> Match:
        top = best(self.totals)
        winners = tuple(s for s in range(self.num_players) if self.totals[s] == top)
        losers = tuple(s for s in range(self.num_players) if self.totals[s] != top)
        return _replace(self, finished=True, winners=winners, losers=losers,
                        notes=self.notes + (why,))

    def _after_tiebreak(self, result: DealResult) -> Match:
        m = _replace(self, results=self.results + (result,))
        pen = {seat: result.scores[seat] for seat in self.tied}
        low = min(pen.values())
        fewest = tuple(s for s in self.tied if pen[s] == low)
        if len(fewest) == 1:
            winner = fewest[0]
            losers = tuple(s for s in range(self.num_players) if s != winner)
            return _replace(m, finished=True, tied=(), winners=(winner,), losers=losers,
                            notes=m.notes + (f"seat {winner} wins the tie-break",))
        return _replace(m, tied=fewest)

    def _after_pollack_deal(self, result: DealResult) -> Match:
        rules = self.rules
        deal, score = result.deal, result.score
        side_score = (score.scores[0], score.scores[1])
        partie = (self.partie[0] + side_score[0], self.partie[1] + side_score[1])
        winner: int | None = None
        if score.claim is not None:
            claimant, correct = score.claim
            winner = claimant & 1 if correct else 1 - (claimant & 1)
        else:
            target = rules.partie_target
            at = [partie[i] >= target for i in (0, 1)]
            if at[0] and at[1]:
                if partie[0] != partie[1]:
                    winner = 0 if partie[0] > partie[1] else 1
                else:
                    winner = deal.past[-1].winner & 1
            elif at[0] or at[1]:
                winner = 0 if at[0] else 1
        result = DealResult(result.number, result.dealer, result.seats, result.deal,
                            result.score, result.scores, False, winner)
        n = self.num_players
        if winner is None:
            totals = tuple(partie[s & 1] for s in range(n))
            return _replace(self, results=self.results + (result,), partie=partie,
                            totals=totals)
        parties = self.parties_won + (winner,)
        m = _replace(self, results=self.results + (result,), partie=(0, 0),
                     totals=(0,) * n, parties_won=parties)
        if len(parties) < rules.parties:
            return m
        won = [parties.count(0), parties.count(1)]
        if won[0] == won[1]:
            return _replace(m, finished=True, winners=(), losers=(),
                            notes=m.notes + (f"{won[0]}-{won[1]}: a draw",))
        side = 0 if won[0] > won[1] else 1
        winners = tuple(s for s in range(n) if s & 1 == side)
        losers = tuple(s for s in range(n) if s & 1 != side)
        return _replace(m, finished=True, winners=winners, losers=losers,
                        notes=m.notes + (f"parties {won[0]}-{won[1]}",))

    # ----------------------------------------------------------------- views

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (None: a spectator), JSON-ready.

        Seat numbers in the ``deal`` part are the deal's players; ``deal_seats``
        maps them to match seats.  Between deals, ``last_deal`` shows the deal
        just finished (tricks, takings, score; ``hand`` is the viewer's hand as
        dealt), with ``last_deal_seats``.
        """
        out: dict[str, Any] = {
            "preset": self.rules.preset,
            "names": list(self.names),
            "seat": seat,
            "totals": list(self.totals),
            "deal_number": self.deal_number,
            "deals": [
                {"dealer": r.dealer, "seats": list(r.seats), "scores": list(r.scores),
                 "tiebreak": r.tiebreak}
                for r in self.results
            ],
            "finished": self.finished,
            "winners": list(self.winners),
            "losers": list(self.losers),
            "tied": list(self.tied),
        }
        if self.rules.match_end == "parties":
            out["partie"] = list(self.partie)
            out["parties_won"] = list(self.parties_won)
        if self.current is not None:
            player = None
            if seat is not None and seat in self.current_seats:
                player = self.current_seats.index(seat)
            out["deal"] = self.current.view(player)
            out["deal_seats"] = list(self.current_seats)
            out["dealer"] = self.current_dealer
        elif self.results:
            # Between deals (and after the match) the finished deal stays on view:
            # its tricks, takings and score, and the viewer's own hand as dealt.
            last = self.results[-1]
            player = last.seats.index(seat) if seat is not None and seat in last.seats else None
            done = last.deal.view(player)
            done["hand"] = None if player is None else [
                CODES[c] for c in cards_of(last.deal.initial_hands[player])]
            out["last_deal"] = done
            out["last_deal_seats"] = list(last.seats)
        return out


def _replace(match: Match, **changes: Any) -> Match:
    """A copy of ``match`` with some fields changed (a cheap dataclasses.replace:
    the fields are already valid, so no __init__ or __post_init__ runs)."""
    new = object.__new__(Match)
    fields = new.__dict__
    fields.update(match.__dict__)
    fields.update(changes)
    return new
