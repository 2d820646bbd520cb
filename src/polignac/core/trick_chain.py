"""The finished tricks of a deal as a chain: :class:`Trick`, the chain's links (a list
a trick, shared by every state after it), and what is read off them (the cards and
tricks each player has taken, the tricks as objects, a slam).

A :class:`~polignac.core.deal.Deal` adds a link when a trick ends
(:meth:`~polignac.core.deal.Deal.apply`) and reads its totals from here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from .cards import CODES, Card, Mask


@dataclass(frozen=True)
class Trick:
    """A finished trick: who led, the cards in play order, who won it."""

    leader: int
    cards: tuple[Card, ...]
    winner: int

    def to_dict(self) -> dict[str, object]:
        """Return the trick as JSON-ready data."""
        return {
            "leader": self.leader,
            "cards": [CODES[c] for c in self.cards],
            "winner": self.winner,
        }


def _make_trick(leader: int, cards: tuple[Card, ...], winner: int) -> Trick:
    """Build a :class:`Trick` without the frozen dataclass ``__init__`` (hot path)."""
    trick = _new(Trick)
    fields = trick.__dict__
    fields["leader"] = leader
    fields["cards"] = cards
    fields["winner"] = winner
    return trick


_new = object.__new__

# The finished tricks of a deal, as a chain with one link a trick, shared by
# the states that follow it: a list indexed by the _PREV.._REM constants
# below (a list, not a class: a trick's end builds one, and a list literal
# costs a quarter of an instance).  Ending a trick only adds a link;
# totals, (taken, tricks, past) after this trick as the taken/tricks/past
# properties give them, is None until a reader asks, and is then worked out
# from the last link that has it and kept in the link (a cache: every state
# after the trick sees the same values), so reading them at every state costs
# one update a trick, as building them eagerly did.
_Link = list[Any]
_PREV: Final = 0  # the link of the trick before, or None
_LEADER: Final = 1  # who led the trick
_CARDS: Final = 2  # its cards in play order
_WINNER: Final = 3  # who won it
_MASK: Final = 4  # its cards as a mask
_WON: Final = 5  # a bit per side (player & 1) that has won a trick so far
_TOTALS: Final = 6  # the cached (taken, tricks, past or None) after it, or None
_REM: Final = 7  # the cards still in the hands after it (the deal's _rem then)
_Totals = tuple[tuple[Mask, ...], tuple[int, ...], tuple["Trick", ...] | None]


def _totals(link: _Link | None, n: int) -> _Totals:
    """(taken, tricks, past) after the trick of ``link`` (None: no trick yet) for ``n``
    players; past is None until :func:`_past` has built it (the tricks as objects
    cost more than the rest, and scoring a deal needs only the rest)."""
    if link is None:
        return (0,) * n, (0,) * n, ()
    totals: _Totals | None = link[_TOTALS]
    if totals is not None:
        return totals
    # Nothing read before (a deal scored at its end): one walk back that adds up the
    # tricks (in any order: | and +), kept in the last link only; an earlier state
    # that is read later walks back on its own.
    last = link
    taken = [0] * n
    tricks = [0] * n
    at: _Link | None = link
    while at is not None and at[_TOTALS] is None:
        winner = at[_WINNER]
        taken[winner] |= at[_MASK]
        tricks[winner] += 1
        at = at[_PREV]
    second = link[_PREV]
    if at is None and second is not None and second[_PREV] is not None:  # 3 tricks or more
        last[_TOTALS] = totals = (tuple(taken), tuple(tricks), None)
        return totals
    todo = []  # the links without totals, latest first
    while link is not None and link[_TOTALS] is None:
        todo.append(link)
        link = link[_PREV]
    taken_: tuple[Mask, ...] = (0,) * n
    tricks_: tuple[int, ...] = (0,) * n
    if link is not None:
        taken_, tricks_ = link[_TOTALS][:2]
    for link in reversed(todo):
        winner = link[_WINNER]
        mask = link[_MASK]
        taken = list(taken_)
        taken[winner] |= mask
        tricks = list(tricks_)
        tricks[winner] += 1
        taken_, tricks_ = tuple(taken), tuple(tricks)
        link[_TOTALS] = totals = (taken_, tricks_, None)
    assert totals is not None
    return totals


def slam_of(tricks: tuple[int, ...], total: int) -> int:
    """The player whose count in ``tricks`` is ``total`` (every trick of the deal), or -1
    (:meth:`Deal.slam`; a deal's score reads it off its totals)."""
    return tricks.index(total) if total in tricks else -1


def _past(link: _Link | None, n: int) -> tuple[Trick, ...]:
    """The finished tricks up to ``link``'s, built on first read and kept in the
    links' totals (every state after a trick sees the same tuple)."""
    if link is None:
        return ()
    past = _totals(link, n)[2]
    if past is not None:
        return past
    todo = []  # the links whose totals have no past yet, latest first
    at: _Link | None = link
    while at is not None and (at[_TOTALS] is None or at[_TOTALS][2] is None):
        todo.append(at)
        at = at[_PREV]
    built: tuple[Trick, ...] = () if at is None else at[_TOTALS][2]
    for at in reversed(todo):
        built = built + (_make_trick(at[_LEADER], at[_CARDS], at[_WINNER]),)
        if at[_TOTALS] is not None:  # kept where the totals are (else read on its own)
            taken, tricks, _none = at[_TOTALS]
            at[_TOTALS] = (taken, tricks, built)
    return built
