"""Where a match stands between deals, and every match-end rule (docs/rules/common.md#match-end).

:class:`Standing` is shared by the two ways a match is kept: a played
:class:`~polignac.core.match.Match` and a :class:`~polignac.core.scorepad.ScorePad`
filled in at a real table.  Both hand it each finished deal's scores; it
keeps the totals and says when the match is over and who won.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import add as _add
from typing import Any, Final, TypeVar

from .rules import Rules

_T = TypeVar("_T")


@dataclass(frozen=True)
class Standing:
    """Totals and match status after some deals.  Immutable."""

    totals: tuple[int, ...]
    """Per seat: the sum of the counted deals' scores (a family with its own match
    end may say otherwise: in parties, the side's score in the partie in progress)."""
    counted: int = 0
    """Deals that count towards a fixed number (not tie-breaks, not redeals)."""
    finished: bool = False
    winners: tuple[int, ...] = ()
    losers: tuple[int, ...] = ()
    tied: tuple[int, ...] = ()
    """Seats still in a tie-break (threshold-lowest-wins), else empty."""
    family_state: Any = None
    """The scoring family's own state (the parties, a pool that stays), which
    the standing carries without reading it: made by ``Family.start_state``,
    updated by ``Family.after_deal`` or ``Family.next_state``, read by its family."""
    notes: tuple[str, ...] = ()
    """Human-readable events (match end, tie-break deals)."""

    @classmethod
    def start(cls, num_players: int, family_state: Any = None) -> Standing:
        """The standing before the first deal, with the scoring family's state
        (``Family.start_state``)."""
        if cls is not Standing:
            return cls(totals=(0,) * num_players, family_state=family_state)
        return _standing((0,) * num_players, 0, False, (), (), (), family_state, ())

    def next_deal(
        self,
        num_players: int,
        first_dealer: int,
        prev_dealer: int | None,
        prev_redeal: bool,
    ) -> tuple[int, tuple[int, ...]]:
        """The dealer seat and the seats of the next deal.

        The deal passes to the next seat in play order; a redeal in chips
        keeps the dealer; a tie-break deal is among the tied seats, dealt by
        the first tied seat after the previous dealer (docs/rules/common.md#tie-break-deals).
        """
        n = num_players
        everyone = ALL_SEATS[n] if n < len(ALL_SEATS) else tuple(range(n))
        if prev_dealer is None:
            return first_dealer, everyone
        if self.tied:
            for k in range(1, n + 1):
                seat = (prev_dealer + k) % n
                if seat in self.tied:
                    return seat, self.tied
        if prev_redeal:
            return prev_dealer, everyone
        return (prev_dealer + 1) % n, everyone

    def after_deal(
        self,
        rules: Rules,
        scores: Sequence[int],
        *,
        redeal: bool = False,
        claim: tuple[int, bool] | None = None,
        last_trick_side: int | None = None,
        name: Callable[[int], str] = lambda seat: f"seat {seat}",
    ) -> tuple[Standing, Any]:
        """The standing after a finished deal, and what the deal did to the scoring
        family's state under its own match end (``Family.after_deal``: the deal's
        ``family_result``; None under the shared ones).

        ``scores`` has one number per seat (0 for seats not in a tie-break
        deal); ``redeal`` is a redeal in chips; ``claim`` is a
        claim as (seat, correct) and ``last_trick_side`` the side that took
        the last trick; ``name`` names a seat in the notes.
        """
        if self.tied:
            return self._after_tiebreak(scores, name), None
        scorer = rules.scorer
        if scorer.own_match_end:  # the scoring family's own match end (parties)
            own = scorer.after_deal(self, rules, scores, claim, last_trick_side)
            if own is not None:
                return own
        before = self.totals
        n = len(before)
        if len(scores) != n:
            raise ValueError(f"{len(scores)} scores for {n} seats")
        totals = tuple(map(_add, before, scores))
        counted = self.counted + (0 if redeal else 1)
        # built at once (every deal of a match builds one): _replace with its fields
        m = _standing(totals, counted, self.finished, self.winners, self.losers, self.tied,
                      scorer.next_state(self.family_state, redeal), self.notes)
        end = rules.end
        if end.chips:
            if not redeal and counted >= rules.num_deals(n):
                return m._end_by(max, "most chips"), None
            return m, None
        if end.fixed:
            if counted >= rules.num_deals(n):
                best = min if rules.kind.penalty else max
                return m._end_by(best, f"after {counted} deals"), None
            return m, None
        threshold = rules.threshold if rules.threshold is not None else 0
        if max(totals) < threshold:
            return m, None
        if end.target:
            return m._end_by(max, f"reached {threshold}"), None
        if end.shared:  # the lowest share the win
            return m._end_by(min, f"threshold {threshold} reached"), None
        if end.loser:
            top = max(totals)
            return _replace(
                m, finished=True,
                winners=tuple(s for s in range(n) if totals[s] != top),
                losers=tuple(s for s in range(n) if totals[s] == top),
                notes=(*m.notes, f"threshold {threshold} reached"),
            ), None
        # threshold-lowest-wins
        low = min(totals)
        tied = tuple(s for s in range(n) if totals[s] == low)
        if len(tied) == 1:
            return m._end_by(min, f"threshold {threshold} reached"), None
        who = ", ".join(name(s) for s in tied)
        return _replace(m, tied=tied, notes=(
            *m.notes,
            f"threshold {threshold} reached; {who} tie for lowest and play tie-break deals",
        )), None

    def _end_by(self, best: Callable[[Sequence[int]], int], why: str) -> Standing:
        top = best(self.totals)
        n = len(self.totals)
        return _replace(
            self, finished=True,
            winners=tuple(s for s in range(n) if self.totals[s] == top),
            losers=tuple(s for s in range(n) if self.totals[s] != top),
            notes=(*self.notes, why),
        )

    def _after_tiebreak(self, scores: Sequence[int], name: Callable[[int], str]) -> Standing:
        low = min(scores[s] for s in self.tied)
        fewest = tuple(s for s in self.tied if scores[s] == low)
        if len(fewest) > 1:
            return _replace(self, tied=fewest)
        winner = fewest[0]
        return _replace(
            self, finished=True, tied=(), winners=(winner,),
            losers=tuple(s for s in range(len(self.totals)) if s != winner),
            notes=(*self.notes, f"{name(winner)} wins the tie-break"),
        )

def replace_fields(obj: _T, **changes: object) -> _T:
    """``dataclasses.replace`` without running ``__init__`` again (the fields are
    already valid): the standing and the match after every deal are built with it."""
    new = _new(type(obj))
    fields = obj.__dict__.copy()
    fields.update(changes)
    _set(new, "__dict__", fields)
    return new


def dict_setter(cls: type) -> Callable[[Any, dict[str, Any]], None]:
    """The setter of the ``__dict__`` of ``cls``' instances (its class' descriptor, a
    step shorter than ``object.__setattr__``): a frozen dataclass' instance built at
    once from its fields, already valid, without its per-field setattr.

    Raises:
        TypeError: ``cls``' instances have no ``__dict__``.
    """
    for c in cls.__mro__:
        descriptor = c.__dict__.get("__dict__")
        if descriptor is not None:
            setter: Callable[[Any, dict[str, Any]], None] = descriptor.__set__
            return setter
    raise TypeError(f"{cls.__name__} instances have no __dict__")


ALL_SEATS: Final = tuple(tuple(range(n)) for n in range(16))
"""``ALL_SEATS[n]``: every seat of ``n``, in order (the seats of a deal everyone plays:
:meth:`Standing.next_deal` returns this very tuple, which a match compares by identity)."""
_replace = replace_fields
_new = object.__new__
_set = object.__setattr__
_set_standing = dict_setter(Standing)


def _standing(totals: tuple[int, ...], counted: int, finished: bool, winners: tuple[int, ...],
              losers: tuple[int, ...], tied: tuple[int, ...], family_state: Any,
              notes: tuple[str, ...]) -> Standing:
    """A :class:`Standing` of these fields (already valid), its ``__dict__`` set at once
    in the fields' order (as its ``__init__`` or :func:`replace_fields` would leave it:
    ``==``, ``repr`` and ``pickle`` see the same), without the frozen dataclass'
    per-field ``__setattr__`` nor a copy of another's fields."""
    new = _new(Standing)
    _set_standing(new, {"totals": totals, "counted": counted, "finished": finished,
                        "winners": winners, "losers": losers, "tied": tied,
                        "family_state": family_state, "notes": notes})
    return new


class StandingView:
    """Read-only properties of a :class:`Standing` for a class that keeps one in
    ``self.standing`` (a played Match and a ScorePad)."""

    __slots__ = ()  # a Match keeps its state in slots (core/match.py:_Slots)

    standing: Standing
    rules: Rules

    def places(self) -> list[int]:
        """Each seat's place, from 1, in a finished match; equal results share a place
        (1, 2, 2, 4).  The winners come first; then, in games scored by totals, the better
        total (lower in penalty games); partners (a game played by sides) share their side's place.
        While the match is on, the same order by the totals so far."""
        st = self.standing
        penalty = self.rules.kind.penalty
        partners = bool(self.rules.partnerships)

        def key(seat: int) -> tuple[int, int]:
            lost = 0 if seat in st.winners else 1
            if partners:
                return (lost, 0)
            total = st.totals[seat]
            return (lost, total if penalty else -total)

        keys = [key(s) for s in range(len(st.totals))]
        return [1 + sum(1 for k in keys if k < mine) for mine in keys]

    @property
    def totals(self) -> tuple[int, ...]:
        """Per seat: the counted deals' scores summed (in parties: the partie in progress)."""
        return self.standing.totals

    @property
    def finished(self) -> bool:
        """True when the match is over."""
        return self.standing.finished

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning seats (empty while not finished, and in a draw of parties)."""
        return self.standing.winners

    @property
    def losers(self) -> tuple[int, ...]:
        """The losing seats (empty while not finished, and in a draw of parties)."""
        return self.standing.losers

    @property
    def tied(self) -> tuple[int, ...]:
        """Seats still in a tie-break (threshold-lowest-wins), else empty."""
        return self.standing.tied

    @property
    def family_state(self) -> Any:
        """The scoring family's own state (``Standing.family_state``)."""
        return self.standing.family_state

    @property
    def notes(self) -> tuple[str, ...]:
        """Human-readable events (misdeals, tie-break deals, match end)."""
        return self.standing.notes

    @property
    def counted_deals(self) -> int:
        """Deals that count towards a fixed number (not tie-breaks, redeals or misdeals)."""
        return self.standing.counted
