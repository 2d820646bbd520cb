"""The Hearts family (Black Lady, Black Maria): its rules, checks and scoring.

What the family adds to trick play (its rules text, interpretations marked, is
below; :class:`polignac.core.hearts_deal.HeartsFamily` is its family in the list):

- passing: before play each player passes ``pass_count`` cards, one at a time,
  eldest first, to the player ``offset`` seats on in play order (left: the
  next player, right: the previous one, across: two on); a player sees the
  cards it receives only when everyone has passed;
- the first trick: the holder of the lowest club in play leads it
  (``first_lead`` lowest-club), and no penalty card may be discarded on it
  (``clean_first_trick``) unless the hand holds nothing else;
- hearts may not be led until broken (``break_hearts``), unless the hand
  holds only hearts;
- shooting the moon (``moon``): :func:`shoot_the_moon`.

The deal itself (the passing phase, the legal cards) is
:class:`polignac.core.hearts_deal.HeartsDeal`; this module holds what the rules,
the scoring and the score pad need without a deal.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

from .cards import CODES, SUIT_MASKS, Card, Mask, cards_of
from .errors import RulesError
from .rules import Rules, derive

if TYPE_CHECKING:  # pragma: no cover
    from .describe import Param
    from .scoring import ScoreLine

GAME: Final = "hearts"
HEARTS_MASK: Final[Mask] = SUIT_MASKS[2]
CLUBS_MASK: Final[Mask] = SUIT_MASKS[0]
QUEEN_OF_SPADES: Final[Card] = CODES.index("QS")

ROTATION: Final = ("left", "right", "across", "none")
"""Passing ``rotate``: the direction by the dealer's number (dealer 0 passes left,
1 right, 2 across, 3 keeps: the first dealer is seat 0 unless a match says
otherwise, so deal 1 passes left, deal 2 right, deal 3 across, deal 4 keeps)."""

_HEARTS_ONLY: Final = ("first_lead", "clean_first_trick", "break_hearts", "moon")


def pass_direction(rules: Rules, dealer: int) -> str:
    """The direction of this deal's pass: ``none``, ``left``, ``right`` or ``across``."""
    if rules.passing == "rotate":
        return ROTATION[dealer % len(ROTATION)]
    return rules.passing


def pass_offset(direction: str, n: int) -> int:
    """How many seats on (in play order) the passed cards go; 0 for no pass."""
    if direction == "left":
        return 1 % n
    if direction == "right":
        return (n - 1) % n
    if direction == "across":
        return (n // 2) % n
    return 0


def penalty_cards(rules: Rules, n: int) -> Mask:
    """The cards in play that score more than 0 for their taker (the moon's cards)."""
    pts = rules.point_table()
    return sum(1 << c for c in cards_of(rules.pack_mask(n)) if pts[c] > 0)


def lowest_club(rules: Rules, n: int) -> Card:
    """The lowest club in play for ``n`` players (the first lead with lowest-club).

    Raises:
        RulesError: no club is in play.
    """
    clubs = rules.pack_mask(n) & CLUBS_MASK
    if not clubs:
        raise RulesError("first_lead 'lowest-club' needs a club in the pack")
    return (clubs & -clubs).bit_length() - 1


def check_rules(rules: Rules) -> None:
    """The Hearts family's checks of a rule set (called by ``Rules.validate``).

    Raises:
        RulesError: a Hearts-only parameter set in another game, or a Hearts
            rule set that cannot be played; the message names the parameter.
    """
    if rules.game != GAME:
        for name in _HEARTS_ONLY:
            default = "eldest" if name == "first_lead" else False
            if getattr(rules, name) != default:
                raise RulesError(f"{name} belongs to the Hearts family (game 'hearts'); "
                                 f"allowed here: {default!r}")
        if rules.passing != "none":
            raise RulesError("passing belongs to the Hearts family (game 'hearts'); "
                             "allowed here: 'none'")
        return
    if not rules.kind.penalty or rules.has_turn_up or rules.has_contract:
        raise RulesError("game 'hearts' needs scoring 'penalty', trumps 'none' and "
                         "declaration 'none'")
    if rules.partnerships or rules.announcements:
        raise RulesError("game 'hearts' has no partnerships or announcements")
    for n in rules.players:
        if rules.passing != "none" and rules.pass_count >= rules.hand_size(n):
            raise RulesError(f"pass_count {rules.pass_count} must be smaller than the "
                             f"hand ({rules.hand_size(n)} cards with {n} players)")
        if rules.first_lead == "lowest-club":
            lowest_club(rules, n)


def shoot_the_moon(
    rules: Rules,
    n: int,
    taken: Mapping[str, int | None],
    per: list[list[ScoreLine]],
) -> list[list[ScoreLine]]:
    """Score lines per player after the moon: unchanged unless one player took
    every penalty card; then its penalty-card lines become one ``moon`` line of
    0 and each other player gets an ``opponent-moon`` line of their total
    (cards scoring less than 0, such as the Jack of diamonds bonus, still count):
    each score stays within :func:`~polignac.core.scoring.trick_score_bounds`,
    the returns' bounds (tests/core/test_families.py plays moons that reach them).
    """
    from .scoring import ScoreLine

    pts = rules.point_table()
    penalties = [CODES[c] for c in cards_of(penalty_cards(rules, n))]
    if not penalties:
        return per
    shooter = taken.get(penalties[0])
    if shooter is None or any(taken.get(c) != shooter for c in penalties):
        return per
    total = sum(pts[CODES.index(c)] for c in penalties)
    out: list[list[ScoreLine]] = []
    for p in range(n):
        kept = [line for line in per[p] if not (line.reason == "card" and line.points > 0)]
        if p == shooter:
            kept.insert(0, ScoreLine(p, 0, "moon", f"every penalty card ({total} points)",
                                     "detail.every-penalty", (("n", total),)))
        else:
            kept.insert(0, ScoreLine(p, total, "opponent-moon", f"player {shooter}",
                                     "detail.by", (("player", shooter),)))
        out.append(kept)
    return out


# ------------------------------------------------------------ the rules text


def hearts_section(rules: Rules) -> list[Param]:
    """The Hearts family's section of the rules text: passing and leads."""
    from .describe import INTERP, msg

    lines: list[Param] = []
    count = rules.pass_count
    if rules.passing == "none":
        lines.append(msg("rules.hearts.noPass"))
    elif rules.passing == "rotate":
        lines.append(msg("rules.hearts.passRotate", count=msg("rules.nCards", n=count),
                         interp=INTERP))
    else:
        lines.append(msg(f"rules.hearts.pass.{rules.passing}", count=msg("rules.nCards", n=count)))
    if rules.passing != "none":
        lines.append(msg("rules.hearts.passOrder", interp=INTERP))
    if rules.clean_first_trick:
        lines.append(msg("rules.hearts.cleanFirst", interp=INTERP))
    if rules.break_hearts:
        lines.append(msg("rules.hearts.breakHearts"))
        if rules.queen_breaks:
            lines.append(msg("rules.hearts.queenBreaks"))
    return lines


def breakers(rules: Rules) -> Mask:
    """The cards whose play breaks hearts (``break_hearts``): the hearts, and the
    Queen of spades with ``queen_breaks``.  The deal (``HeartsDeal.hearts_broken``)
    and the solver (``bots/solver.py``) both read it."""
    return HEARTS_MASK | ((1 << QUEEN_OF_SPADES) if rules.queen_breaks else 0)


def lead_line(rules: Rules) -> Param | None:
    """Who leads the first trick with ``first_lead`` lowest-club (None: eldest)."""
    from .describe import LIST, Join, _card, card, msg

    if rules.first_lead != "lowest-club":
        return None
    lows = sorted({lowest_club(rules, n) for n in rules.players})
    if len(lows) == 1:
        return msg("rules.hearts.firstLead", card=_card(CODES[lows[0]], rules))
    return msg("rules.hearts.firstLeadLowest", cards=Join(LIST, tuple(
        msg("rules.hearts.lowestWith", card=card(CODES[c], rules.german), n=Join(LIST, tuple(
            n for n in rules.players if lowest_club(rules, n) == c))) for c in lows)))


def scoring_notes(rules: Rules) -> list[Param]:
    """The moon, and the Jack of diamonds left to house rules."""
    from .describe import msg

    lines: list[Param] = []
    if rules.moon:
        table = rules.point_table()
        totals = {sum(table[c] for c in cards_of(penalty_cards(rules, n))) for n in rules.players}
        total: Param = totals.pop() if len(totals) == 1 else msg("rules.hearts.moonTotal")
        lines.append(msg("rules.hearts.moon", total=total))
    if "JD" not in rules.card_points:
        lines.append(msg("rules.hearts.jdHouse"))
    return lines


_OPENSPIEL_PRESETS: Final = ("black-lady",)
"""Presets played as OpenSpiel's Hearts is (its rules, the rule book says)."""


def interpretations(rules: Rules) -> list[Param]:
    """The rule book's interpretations of the Hearts family's presets."""
    from .describe import INTERP, msg

    out: list[Param] = []
    if rules.preset in _OPENSPIEL_PRESETS:
        out.append(msg("rules.interp.openspiel"))
    if rules.preset == "black-maria":
        out.append(msg("rules.interp.blackMaria", interp=INTERP))
    return out


# ---------------------------------------------------------------- presets

_HEART_POINTS: Final = {f"{r}H": 1 for r in "23456789TJQKA"}
_BLACK_LADY = Rules(  # OpenSpiel's `hearts` with its default parameters, played to 100
    preset="black-lady",
    game="hearts",
    players=(4,),
    pack=52,
    removals="none",
    rank_order="AKQJT98765432",
    packets=(1,),
    card_points={"QS": 13, **_HEART_POINTS},
    declaration="none",
    match_end="threshold-lowest-shared",
    threshold=100,
    passing="rotate",
    first_lead="lowest-club",
    clean_first_trick=True,
    break_hearts=True,
    moon=True,
)

PRESETS: Final[tuple[Rules, ...]] = (
    _BLACK_LADY,
    derive(_BLACK_LADY, "black-maria", players=(3, 4, 5, 6, 7), default_players=3,
          removals="lowest-cards", passing="right",
          card_points={"QS": 13, "KS": 10, "AS": 7, **_HEART_POINTS}),
)
"""The Hearts family's presets (of :class:`polignac.core.hearts_deal.HeartsFamily`)."""
