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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Final

from .actions import Action, parse_action
from .cards import CODES, Card, Mask, cards_of
from .deal import Deal, DealScore
from .errors import GameOverError, IllegalActionError, NotYourTurnError, RulesError
from .rules import Rules
from .standing import ALL_SEATS, Standing, StandingView, dict_setter
from .trick_chain import _WINNER


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
    family_result: Any = None
    """What the deal did to the scoring family's state under its own match end
    (``Family.after_deal``; in parties: the partie it was played in and the side
    that won it with this deal), carried unread; None otherwise."""
    after: Standing | None = None
    """Where the match stood after this deal."""

    def sheet(self) -> dict[str, Any]:
        """The scoring family's part of this deal's line of the score sheet,
        JSON-ready (``Family.result_sheet``; in parties: ``partie``, ``side_scores``,
        ``partie_won_by``, ``partie_score``, ``parties_tally``, ``game_points``);
        empty in other games."""
        if self.family_result is None:
            return {}
        return self.deal.rules.scorer.result_sheet(self)


class _Shared:
    """What every state of a match during one deal shares: the fields of
    :class:`Match` but the deal in progress (a plain object: built once per deal,
    never changed once built)."""

    __slots__ = ("current_dealer", "current_seats", "first_dealer", "names", "num_players",
                 "results", "rules", "standing")

    rules: Rules
    num_players: int
    first_dealer: int
    names: tuple[str, ...]
    results: tuple[DealResult, ...]
    current_seats: tuple[int, ...]
    current_dealer: int
    standing: Standing


def _shared(rules: Rules, num_players: int, first_dealer: int, names: tuple[str, ...],
            results: tuple[DealResult, ...], current_seats: tuple[int, ...],
            current_dealer: int, standing: Standing) -> _Shared:
    """A match's shared fields."""
    f = _Shared()
    f.rules = rules
    f.num_players = num_players
    f.first_dealer = first_dealer
    f.names = names
    f.results = results
    f.current_seats = current_seats
    f.current_dealer = current_dealer
    f.standing = standing
    return f


class _Slots:
    """A match's own state: the deal in progress (``current``), ``finished`` and
    ``needs_deal`` (read at every step of a play loop), and the fields it shares with
    the other states of that deal (``_f``).  An action in a deal changes only the
    deal: the match after it is a new object with these four slots set."""

    __slots__ = ("_f", "current", "finished", "needs_deal")

    _f: _Shared
    if TYPE_CHECKING:  # the Match's fields (its dataclass' annotations) say the rest
        current: Deal | None
        finished: bool
        needs_deal: bool


class _Build(_Slots):
    """A match being built (:func:`_built`, :meth:`Match.apply`): the same slots as a
    :class:`Match`, set by plain attribute stores (a frozen dataclass' own
    ``__setattr__`` refuses them, and setting a slot through its descriptor costs
    several times more), then given the class :class:`Match` (``__class__``
    assignment: the same layout).  A match whose fields lived in its ``__dict__``
    cost about twice as much to build and to read (Python 3.11 keeps no fast path
    for an instance dict set at once, nor for an instance attribute that shadows
    a class attribute, the dataclass' default)."""

    __slots__ = ()


def _built(f: _Shared, current: Deal | None) -> Match:
    """A match of these shared fields and this deal in progress."""
    new = _Build()
    new._f = f
    new.current = current
    finished = new.finished = f.standing.finished
    new.needs_deal = current is None and not finished
    new.__class__ = Match  # type: ignore[assignment]
    return new  # type: ignore[return-value]


@dataclass(frozen=True, init=False)
class Match(_Slots, StandingView):
    """The state of a match.  Build with :meth:`new`; every method returns a new match.

    ``current``, ``finished`` and ``needs_deal`` are slots, the other fields
    read-only properties of the part shared by the states of a deal (see
    :class:`_Slots`); ``dataclasses.replace``, ``==``, ``repr``, ``copy`` and
    ``pickle`` work as on any frozen dataclass.
    """

    __slots__ = ()

    rules: Rules
    num_players: int
    first_dealer: int
    names: tuple[str, ...]
    results: tuple[DealResult, ...] = ()
    current: Deal | None = None
    current_seats: tuple[int, ...] = ()
    current_dealer: int = -1
    standing: Standing = field(default_factory=lambda: Standing(()))
    """Totals and match status (see :class:`~polignac.core.standing.Standing`)."""
    # Read at every step of a play loop: slots kept equal to what they say (set
    # whenever current or the standing changes), instead of properties of the
    # standing (a property call costs several times more than a slot).
    finished: bool = field(default=False, init=False, repr=False, compare=False)
    """True when the match is over (``standing.finished``)."""
    needs_deal: bool = field(default=True, init=False, repr=False, compare=False)
    """True when the match waits for the next deal to be dealt (no deal in
    progress, the match not over)."""

    def __init__(
        self,
        rules: Rules,
        num_players: int,
        first_dealer: int,
        names: tuple[str, ...],
        results: tuple[DealResult, ...] = (),
        current: Deal | None = None,
        current_seats: tuple[int, ...] = (),
        current_dealer: int = -1,
        standing: Standing | None = None,
    ) -> None:
        built = _built(_shared(rules, num_players, first_dealer, names, results, current_seats,
                               current_dealer, Standing(()) if standing is None else standing),
                       current)
        for name in _Slots.__slots__:  # the frozen dataclass' __setattr__ refuses them
            _set(self, name, getattr(built, name))

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle and copy: the shared fields and the deal in progress."""
        f = self._f
        return _rebuild, (f.rules, f.num_players, f.first_dealer, f.names, f.results,
                          f.current_seats, f.current_dealer, f.standing, self.current)

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
                deals in chips does not let everyone deal equally.
        """
        n = rules.default_players if num_players is None else num_players
        rules.check_player_count(n)
        if not 0 <= first_dealer < n:
            raise RulesError(f"first_dealer {first_dealer} is not a seat (0-{n - 1})")
        if rules.end.chips and rules.num_deals(n) % n:
            raise RulesError(
                f"deals: {rules.num_deals(n)} deals do not let each of {n} players "
                f"deal equally; choose a multiple of {n}"
            )
        if names is None:
            names = _DEFAULT_NAMES[n] if n < len(_DEFAULT_NAMES) else [
                f"Player {i + 1}" for i in range(n)]
        if len(names) != n:
            raise RulesError(f"{len(names)} player names for {n} players")
        standing = Standing.start(n, rules.scorer.start_state(rules, n))
        if cls is not Match:
            return cls(rules, n, first_dealer, tuple(names), standing=standing)
        # as Match(...) builds it, without building it twice (__init__ copies a _built)
        return _built(_shared(rules, n, first_dealer, tuple(names), (), (), -1, standing),
                      None)

    # ---------------------------------------------------------------- state


    @property
    def deal_number(self) -> int:
        """1-based number of the current (or next) deal."""
        return len(self.results) + 1

    def next_deal(self) -> tuple[int, tuple[int, ...]]:
        """The dealer seat and the seats of the next deal.

        Raises:
            GameOverError: the match is over.
        """
        if self.finished:
            raise GameOverError("the match is over", rule="match-over")
        f = self._f
        results = f.results
        if not results:
            return f.standing.next_deal(f.num_players, f.first_dealer, None, False)
        prev = results[-1]
        return f.standing.next_deal(f.num_players, f.first_dealer, prev.dealer,
                                    prev.score.redeal)

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
                               self._deal_state())
        return self._with_deal(deal, dealer, seats)

    def deal_from_pack(self, pack_order: Sequence[Card]) -> Match:
        """Start the next deal from a pack order, dealt by the preset's packets.

        Raises:
            GameOverError, IllegalActionError, RulesError: as :meth:`start_deal`.
        """
        dealer, seats = self._check_can_deal()
        deal = Deal.from_pack(self.rules, pack_order, len(seats), seats.index(dealer),
                              self._deal_state())
        return self._with_deal(deal, dealer, seats)

    def deal_random(self, rng: _random.Random) -> Match:
        """Shuffle with ``rng`` and start the next deal.

        Raises:
            GameOverError, IllegalActionError: as :meth:`start_deal`.
        """
        if self.needs_deal:  # the usual case: everyone plays, the dealer rotates
            dealer, seats = self.next_deal()
        else:
            dealer, seats = self._check_can_deal()
        # Deal.shuffled shuffles the pack in order as rng.shuffle does and deals it as
        # Deal.from_pack would: the same deal and the same rng state, without the checks
        # of a pack that comes from outside.
        f = self._f
        rules = f.rules
        deal = Deal.shuffled(rules, len(seats), seats.index(dealer), rng,
                             rules.scorer.deal_state(f.standing.family_state))
        # _with_deal, inlined
        return _built(_shared(rules, f.num_players, f.first_dealer, f.names, f.results,
                              seats, dealer, f.standing), deal)

    def _deal_state(self) -> Any:
        """The scoring family's state of the next deal (``Family.deal_state``)."""
        return self.rules.scorer.deal_state(self.standing.family_state)

    def _check_can_deal(self) -> tuple[int, tuple[int, ...]]:
        if self.finished:
            raise GameOverError("the match is over: no more deals", rule="match-over")
        if self.current is not None:
            raise IllegalActionError("a deal is in progress", rule="deal-in-progress")
        return self.next_deal()

    def _with_deal(self, deal: Deal, dealer: int, seats: tuple[int, ...]) -> Match:
        f = self._f
        return _built(_shared(f.rules, f.num_players, f.first_dealer, f.names, f.results,
                              seats, dealer, f.standing), deal)

    # --------------------------------------------------------------- acting

    def apply(self, action: Action, seat: int | None = None) -> Match:
        """Apply an action of the seat to act; finish the deal and the match as due.

        Raises:
            GameOverError: the match is over.
            IllegalActionError: no deal in progress, or an illegal action.
            NotYourTurnError: ``seat`` is not the seat to act.
        """
        deal = self.current
        if deal is None or seat is not None:
            return self._apply_checked(action, seat)
        # the hot path (no seat to check): the deal numbers its own errors' players
        try:
            deal = deal.apply(action)
        except IllegalActionError as exc:
            self._seat_fields(exc, None)
            raise
        if deal.done:
            return self._finish_deal(deal)
        # only the deal changes: the new match shares this one's other fields (_Slots,
        # _Build: _built, inlined)
        new = _Build()
        new._f = self._f
        new.current = deal
        new.finished = self.finished
        new.needs_deal = False
        new.__class__ = Match  # type: ignore[assignment]
        return new  # type: ignore[return-value]

    def _apply_checked(self, action: Action, seat: int | None) -> Match:
        """:meth:`apply` with a seat to check, or without a deal in progress.

        Raises:
            GameOverError, IllegalActionError, NotYourTurnError: as :meth:`apply`.
        """
        deal = self.current
        if deal is None:  # a finished match has no deal in progress either
            if self.standing.finished:
                raise GameOverError("the match is over", rule="match-over")
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
                rule="not-your-turn", action=exc.action, seat=seat, to_act=to_act,
            ) from None
        except IllegalActionError as exc:
            self._seat_fields(exc, seat)
            raise
        if deal.done:
            return self._finish_deal(deal)
        return _built(self._f, deal)

    def _seat_fields(self, exc: IllegalActionError, seat: int | None) -> None:
        """Name the seats in an illegal action's error fields: the deal numbers its
        players (core/visibility.py:seat_error writes the message a seat reads)."""
        exc.seat = self.to_act() if seat is None else seat
        exc.to_act = self.to_act()

    def apply_text(self, text: str, seat: int | None = None) -> Match:
        """Like :meth:`apply`, reading the action from its record text.

        Raises:
            IllegalActionError: unknown text, or as :meth:`apply`.
        """
        return self.apply(parse_action(text), seat)

    # ----------------------------------------------------------- match end

    def _finish_deal(self, deal: Deal) -> Match:
        f = self._f
        n = f.num_players
        seats = f.current_seats
        score = deal._s.score_deal(deal)  # Deal.score: the deal is done
        deal_scores = score.scores
        if seats is _ALL_SEATS[n] or seats == _ALL_SEATS[n]:  # seat i is player i
            scores = deal_scores
        else:
            by_seat = [0] * n
            for i, seat in enumerate(seats):
                by_seat[seat] = deal_scores[i]
            scores = tuple(by_seat)
        claim = None
        if score.claim is not None:
            claim = (seats[score.claim[0]], score.claim[1])
        last = deal._last  # the last trick's link: its winner (no Trick built)
        rules = f.rules
        last_side = rules.scorer.side_of(seats[last[_WINNER]]) if last is not None else None
        before = f.standing
        standing, family_result = before.after_deal(
            rules, scores, redeal=score.redeal, claim=claim,
            last_trick_side=last_side, name=self._name,
        )
        results = f.results
        # built as the frozen dataclass would be, without its per-field setattr
        result = _new(DealResult)
        _set_result(result, {
            "number": len(results) + 1, "dealer": f.current_dealer, "seats": seats,
            "deal": deal, "score": score, "scores": scores, "tiebreak": bool(before.tied),
            "family_result": family_result, "after": standing})
        return _built(_shared(rules, n, f.first_dealer, f.names, (*results, result), (), -1,
                              standing), None)

    def _name(self, seat: int) -> str:
        return self.names[seat]

    # ----------------------------------------------------------------- views

    def family_sheet(self) -> dict[str, Any]:
        """The scoring family's own part of the match sheet, JSON-ready
        (``Family.sheet``: in parties, ``partie``, ``parties_won``,
        ``partie_scores``, ``parties_tally`` and ``game_points``); empty in
        other games."""
        return self.rules.scorer.sheet(self.standing, self.rules)

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (None: a spectator), JSON-ready.

        Seat numbers in the ``deal`` part are the deal's players; ``deal_seats``
        maps them to match seats.  Between deals, ``last_deal`` shows the deal
        just finished (tricks, takings, score; ``hand`` is the viewer's hand as
        dealt), with ``last_deal_seats``.
        """
        return self.views((seat,))[seat]

    def views(self, seats: Iterable[int | None]) -> dict[int | None, dict[str, Any]]:
        """:meth:`view` of each of ``seats`` (None: a spectator), the part every viewer
        may see built once for all of them (the match's and the deal's: see
        :meth:`Deal.views <polignac.core.deal.Deal.views>`).  Each view is a dict of
        its own; the values of the public part are shared between them (JSON-ready
        data, not to be changed in place)."""
        seats = tuple(dict.fromkeys(seats))
        if not seats:
            return {}
        public: dict[str, Any] = {
            "preset": self.rules.preset,
            "names": list(self.names),
            "seat": None,
            "totals": list(self.totals),
            "deal_number": self.deal_number,
            "deals": [
                {"dealer": r.dealer, "seats": list(r.seats), "scores": list(r.scores),
                 "tiebreak": r.tiebreak, **r.sheet()}
                for r in self.results
            ],
            "finished": self.finished,
            "winners": list(self.winners),
            "losers": list(self.losers),
            "tied": list(self.tied),
        }
        if self.finished:
            public["places"] = self.places()
        if self.rules.partnerships:
            public["sides"] = [list(side) for side in self.rules.sides]
        public.update(self.family_sheet())
        out: dict[int | None, dict[str, Any]] = {}
        if self.current is not None:
            deal_seats = self.current_seats
            players = {seat: deal_seats.index(seat) if seat is not None and seat in deal_seats
                       else None for seat in seats}
            deal_views = self.current.views(players.values())
            shown_seats = list(deal_seats)
            for seat in seats:
                out[seat] = own = dict(public)
                own["seat"] = seat
                own["deal"] = deal_views[players[seat]]
                own["deal_seats"] = shown_seats
                own["dealer"] = self.current_dealer
        elif self.results:
            # Between deals (and after the match) the finished deal stays on view:
            # its tricks, takings and score, and the viewer's own hand as dealt.
            last = self.results[-1]
            players = {seat: last.seats.index(seat) if seat is not None and seat in last.seats
                       else None for seat in seats}
            done = last.deal.views(players.values())
            shown_seats = list(last.seats)
            for seat in seats:
                player = players[seat]
                out[seat] = own = dict(public)
                own["seat"] = seat
                own["last_deal"] = last_deal = dict(done[player])
                last_deal["hand"] = None if player is None else [
                    CODES[c] for c in cards_of(last.deal.initial_hands[player])]
                own["last_deal_seats"] = shown_seats
        else:
            for seat in seats:
                out[seat] = own = dict(public)
                own["seat"] = seat
        return out


_new = object.__new__
_set_result = dict_setter(DealResult)
"""Sets a new deal result's ``__dict__`` at once (the frozen dataclass' ``__setattr__``
refuses it)."""
_set = object.__setattr__
for _field in _Slots.__slots__:  # the dataclass' defaults: the slots (_Slots) are read instead
    if _field in Match.__dict__:
        delattr(Match, _field)
for _field in _Shared.__slots__:  # the fields but current: read from the shared part
    setattr(Match, _field, property(attrgetter("_f." + _field)))


def _rebuild(rules: Rules, num_players: int, first_dealer: int, names: tuple[str, ...],
             results: tuple[DealResult, ...], current_seats: tuple[int, ...],
             current_dealer: int, standing: Standing, current: Deal | None) -> Match:
    """A match from :meth:`Match.__reduce__`'s parts."""
    return Match(rules, num_players, first_dealer, names, results, current, current_seats,
                 current_dealer, standing)


_ALL_SEATS: Final = ALL_SEATS
"""``_ALL_SEATS[n]``: every seat of ``n``, in order (a deal that everyone plays)."""
_DEFAULT_NAMES: Final = tuple(tuple(f"Player {i + 1}" for i in range(n)) for n in range(16))
"""``_DEFAULT_NAMES[n]``: the names of ``n`` seats when none are given (``Player 1``...)."""
