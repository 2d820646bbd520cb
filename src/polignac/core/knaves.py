"""Knaves: its family.  The last card of the pack is turned up for trumps
(``trumps`` turn-up: the deal's, :class:`~polignac.core.deal.Deal`), and the
taker gains: each trick scores for its winner, each Jack against it
(``scoring`` points), up to a target (``match_end`` first-to-target)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .avoidance import TrickScoredFamily
from .rules import Rules, ScoreKind

if TYPE_CHECKING:  # pragma: no cover
    from .describe import Param


PRESETS: Final[tuple[Rules, ...]] = (
    Rules(
        preset="knaves",
        game="knaves",
        players=(3,),
        default_players=3,
        pack=52,
        removals="none",
        rank_order="AKQJT98765432",
        packets=(1,),
        trumps="turn-up",
        scoring="points",
        card_points={"JS": -1, "JC": -2, "JD": -3, "JH": -4},
        trick_points=1,
        declaration="none",
        match_end="first-to-target",
        threshold=20,
    ),
)
"""The Knaves preset."""


def points_lines(rules: Rules) -> list[Param]:
    """The scoring section when the taker gains (``scoring`` points)."""
    from .describe import SEMI, Join, _card, _rank, _signed, msg

    lines: list[Param] = [msg("rules.points.intro")]
    if rules.trick_points:
        lines.append(msg("rules.eachTrick", value=_signed(rules.trick_points)))
    cards = tuple(
        msg("rules.signedValue",
            card=_card(k, rules) if len(k) == 2 else msg("rules.everyRankName",
                                                         rank=_rank(k, rules)),
            value=_signed(v))
        for k, v in rules.card_points.items())
    if cards:
        lines.append(msg("rules.points.cards", cards=Join(SEMI, cards)))
    if rules.first_trick_points:
        lines.append(msg("rules.firstTrick", value=_signed(rules.first_trick_points)))
    if rules.last_trick_points:
        lines.append(msg("rules.lastTrick", value=_signed(rules.last_trick_points)))
    return lines


class KnavesFamily(TrickScoredFamily):
    """Knaves: a turned-up trump, the taker gains its points (scored from the tricks
    taken, as the penalty games: :class:`~polignac.core.avoidance.TrickScoredFamily`)."""

    name = "knaves"
    games = ("knaves",)
    scorings = (ScoreKind("points", penalty=False, taker_gains=True, chips=False, sides=False,
                          match_ends=("first-to-target", "fixed-deals")),)
    modules = ("polignac.core.knaves", "polignac.core.scoring")
    presets = PRESETS

    def scoring_lines(self, rules: Rules) -> list[Param]:
        """Points for the taker (:func:`points_lines`)."""
        return points_lines(rules)


KNAVES: Final = KnavesFamily()

__all__ = ["KNAVES", "PRESETS", "KnavesFamily", "points_lines"]
