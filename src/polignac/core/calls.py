"""The calls beyond card play: the calls made in a deal so far (:class:`Calls`), a
family's rules for them (:class:`CallRules`), and what a deal's declaration and calls
have set (``_Called``).

A :class:`~polignac.core.deal.Deal` carries a ``_Called`` (its declarer and its
:class:`Calls`) and asks its family's :class:`CallRules` at a call; the scoring family
with calls provides them (``Family.call_rules``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, NamedTuple

from .actions import ANNOUNCE_BASE, Action
from .cards import Mask

if TYPE_CHECKING:  # pragma: no cover
    from .deal import Deal


class Calls:
    """The calls beyond card play so far: per player the slots its announcements
    have used (a bitmask), each side's announcement points, the claim, the log.

    (Which sides have won a trick is in the deal's last trick link, ``link[_WON]``:
    core/trick_chain.py.)
    """

    __slots__ = ("claim", "log", "made", "side_points")

    def __init__(
        self,
        made: tuple[int, ...],
        side_points: tuple[int, int],
        claim: tuple[int, bool] | None,
        log: tuple[tuple[int, str], ...],
    ) -> None:
        self.made = made  # per player: bitmask of used slots (CallRules.slot)
        self.side_points = side_points
        self.claim = claim
        self.log = log  # (player, announcement name) in order


NO_CALLS: Final = Calls((0, 0, 0, 0), (0, 0), None, ())
"""No call made yet."""


@dataclass(frozen=True)
class CallRules:
    """A family's calls beyond card play (announcements, a claim), as the deal
    reads them: its tables (kept in the deal, read at every action of a game
    with calls) and its rules (called at a call).  The family that brings a
    scoring with calls (``ScoreKind.sides``) provides one (``Family.call_rules``)."""

    open: Mapping[Mask, tuple[Action, ...]]
    """The announcements a hand holds, ascending, by ``hand & cards``."""
    cards: Mask
    """Every card an announcement looks at."""
    slot: tuple[int, ...]
    """The slot each announcement (``action - ANNOUNCE_BASE``) uses up for its announcer."""
    fill: Callable[[], None]
    """Fills ``open`` once, when a game with calls first builds its tables."""
    may_announce: Callable[[int, int, bool, int], bool]
    """(player, eldest, before the first lead, sides that won a trick): may it announce now."""
    claimed: Callable[[Deal, Calls, int], Calls]
    """(deal, its calls, player): the calls after the player's claim in the deal
    (whether it is correct is the family's rule)."""
    announced: Callable[[Calls, int, Action, Mask, bool], Calls]
    """(calls, player, announcement, hand, may): the calls after its announcement."""
    needs: Mapping[str, tuple[Mask, int]]
    """Each announcement's cards (a mask) and how many of them it needs in hand
    (the bots' and the research interfaces' inference about hidden hands)."""
    best: Callable[[Sequence[Action]], Action | None]
    """(legal actions): the legal announcement worth the most, or None (the bots)."""
    unannounced: Callable[[Mask, frozenset[str]], int]
    """(hand, the player's announcements so far): the announcement points the
    hand holds that are not yet announced (the bots)."""
    forced: Mapping[str, Mask]
    """The announcements that need every one of their cards, and those cards (the
    research interfaces' sampling of hidden hands)."""

    @property
    def slots_per_player(self) -> int:
        """Announcements one player can make in a deal (its distinct slots)."""
        return max(self.slot, default=-1) + 1



class _Called(NamedTuple):
    """What the calls beyond card play have set: changes only at a declaration or
    a call (never at a card), so a card play copies it as it is."""

    declarer: int
    """The player who declared a contract, or -1."""
    calls: Calls
    """The announcements and the claim (the family's CallRules)."""


_NOT_CALLED: Final = _Called(-1, NO_CALLS)


def _unused(ann: tuple[Action, ...], made: int, slot: tuple[int, ...]) -> list[Action]:
    """The announcements of ``ann`` whose slot is not in ``made`` (a function of its
    own: a comprehension in legal_actions would make cells of its variables at
    every call)."""
    return [a for a in ann if not made >> slot[a - ANNOUNCE_BASE] & 1]
