"""Bassadewitz: its family, settled in chips.

The dealer puts up a pool (``pool``); after play the players with the fewest
card points (tricks count as points where ``trick_points`` says) share it
(``pool_shares``); a player who takes every trick, or too many card points,
pays the others and the pool stays for a redeal (:func:`score_chips`).  The
match is a fixed number of deals, each player dealing equally often
(``match_end`` chips).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from .deal import Deal
from .errors import RulesError, ScorePadError
from .family import Family
from .rules import Rules, ScoreKind, derive
from .scoring import DealScore, ScoreLine, pack_points

if TYPE_CHECKING:  # pragma: no cover
    from .describe import Param
    from .scorepad import Entry, ScorePad


@dataclass(frozen=True)
class Pool:
    """Bassadewitz' state in a match (``Standing.family_state``).  Immutable."""

    waiting: bool = False
    """The pool stayed after a redeal: the next deal adds no stake."""


POOL_PUT_UP: Final = Pool(False)
"""The next deal's dealer puts up the pool (as before the first deal)."""
POOL_WAITING: Final = Pool(True)
"""The pool stayed after a redeal."""


_BASSADEWITZ = Rules(
    preset="bassadewitz",
    game="bassadewitz",
    players=(4,),
    removals="none",
    rank_order="ATKQJ987",
    packets=(4, 4),
    scoring="chips",
    card_points={"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2},
    declaration="none",
    match_end="chips",
    threshold=None,
)
PRESETS: Final[tuple[Rules, ...]] = (
    _BASSADEWITZ,
    derive(_BASSADEWITZ, "bassadewitz-points",
          card_points={"A": 5, "T": 10, "K": 4, "Q": 3, "J": 2}, trick_points=1),
)
"""The Bassadewitz presets."""


def score_chips(
    rules: Rules,
    dealer: int,
    card_points: Sequence[int],
    tricks: Sequence[int],
    pool_in: bool,
) -> DealScore:
    """Score a deal settled in chips from each player's card points and tricks.

    The engine scores a played deal with this same function.
    """
    n = len(card_points)
    total_tricks = sum(tricks)
    cps = tuple(card_points[p] + rules.trick_points * tricks[p] for p in range(n))
    lines: list[ScoreLine] = []
    chips = [0] * n
    if pool_in:
        chips[dealer] -= rules.pool
        lines.append(ScoreLine(dealer, -rules.pool, "chips-stake", "puts up the pool",
                               "detail.stake"))
    sweeper = next((p for p in range(n) if tricks[p] == total_tricks), -1)
    overload = [p for p in range(n) if p != sweeper and cps[p] >= rules.overload_points]
    redeal = False
    if sweeper >= 0:
        redeal = True
        for p in range(n):
            if p != sweeper:
                chips[p] -= rules.sweep_chips
                chips[sweeper] += rules.sweep_chips
                lines.append(ScoreLine(p, -rules.sweep_chips, "chips-sweep",
                                       f"pays player {sweeper}, who won every trick",
                                       "detail.pays-sweeper", (("player", sweeper),)))
        lines.append(ScoreLine(sweeper, rules.sweep_chips * (n - 1), "chips-sweep",
                               "won every trick", "detail.swept"))
    elif overload:
        redeal = True
        for q in overload:
            for p in range(n):
                if p != q:
                    chips[p] += rules.overload_chips
                    chips[q] -= rules.overload_chips
            lines.append(ScoreLine(q, -rules.overload_chips * (n - 1), "chips-overload",
                                   f"{cps[q]} card points", "detail.card-points",
                                   (("n", cps[q]),)))
            for p in range(n):
                if p != q:
                    lines.append(ScoreLine(p, rules.overload_chips, "chips-overload",
                                           f"paid by player {q}", "detail.paid-by",
                                           (("player", q),)))
    elif len(set(cps)) == 1:
        redeal = True
    else:
        eldest = (dealer + 1) % n
        order = sorted(range(n), key=lambda p: (cps[p], 1 if tricks[p] else 0, (p - eldest) % n))
        for place, p in enumerate(order[: len(rules.pool_shares)]):
            share = rules.pool_shares[place]
            chips[p] += share
            lines.append(ScoreLine(p, share, "chips-pool",
                                   f"place {place + 1} with {cps[p]} card points", "detail.place",
                                   (("place", place + 1), ("n", cps[p]))))
    return DealScore(tuple(chips), tuple(lines), card_points=cps, redeal=redeal)


class BassadewitzFamily(Family):
    """Bassadewitz: a pool, settled in chips."""

    name = "bassadewitz"
    games = ("bassadewitz",)
    parameters = ("pool", "pool_shares", "sweep_chips", "overload_points", "overload_chips")
    scorings = (ScoreKind("chips", penalty=False, taker_gains=False, chips=True, sides=False,
                          match_ends=("chips",)),)
    score_unit = "chips per deal"
    taken_unit = "cardPoints"  # the chips are settled from them at the end
    total_word = "chips"
    modules = ("polignac.core.bassadewitz",)
    presets = PRESETS

    def check_rules(self, rules: Rules) -> None:
        """The pool's shares (with ``scoring`` chips).

        Raises:
            RulesError: the shares do not add up to the pool, or pay every player.
        """
        if not rules.kind.chips:
            return
        if len(rules.pool_shares) < 1 or sum(rules.pool_shares) != rules.pool:
            raise RulesError(
                f"pool_shares {list(rules.pool_shares)} must add up to pool ({rules.pool})"
            )
        if any(len(rules.pool_shares) >= n for n in rules.players):
            raise RulesError(
                f"pool_shares {list(rules.pool_shares)} must pay fewer players than play"
            )

    def points_taken(self, deal: Deal) -> tuple[int, ...]:
        """The card and trick points taken so far (the pool's settlement comes at
        the end, from the same points: :func:`score_chips`)."""
        r = deal.rules
        tricks = deal.tricks
        return tuple(deal.card_points(p) + r.trick_points * tricks[p]
                     for p in range(deal.num_players))

    def score_deal(self, deal: Deal) -> DealScore:
        """Each player's card points and tricks (:func:`score_chips`)."""
        cps = [deal.card_points(p) for p in range(deal.num_players)]
        return score_chips(deal.rules, deal.dealer, cps, deal.tricks,
                           self.pool_in(deal.family_state))

    def score_entry(self, pad: ScorePad, entry: Entry, dealer: int,
                    seats: tuple[int, ...]) -> DealScore:
        """A score pad's entry: each player's card points and tricks.

        Raises:
            ScorePadError: a bad entry; its ``field`` names the bad field.
        """
        r = pad.rules
        e = entry
        pad._unused(e, "taken", "first_trick", "last_trick", "slam", "contract",
                    "announcements", "claim")
        k = len(seats)
        cps = pad._per_seat(e.card_points, "card_points", seats)
        tricks = pad._per_seat(e.tricks, "tricks", seats)
        if cps is None:
            raise ScorePadError("missing: say each player's card points", "card_points")
        if tricks is None:
            raise ScorePadError("missing: say how many tricks each player took", "tricks")
        total = pack_points(r, k)
        if sum(cps) != total:
            raise ScorePadError(f"add up to {sum(cps)}; the pack has {total}", "card_points")
        size = r.hand_size(k)
        if sum(tricks) != size:
            raise ScorePadError(f"add up to {sum(tricks)}; a deal has {size} tricks", "tricks")
        for i in range(k):
            if tricks[i] == 0 and cps[i]:
                raise ScorePadError(f"{pad.names[seats[i]]} took no trick, so no card points",
                                    f"card_points[{seats[i]}]")
        return score_chips(r, seats.index(dealer), cps, tricks,
                           self.pool_in(self.deal_state(pad.family_state)))

    def start_state(self, rules: Rules, n: int) -> Any:
        """The first dealer puts up the pool (:data:`POOL_PUT_UP`)."""
        return POOL_PUT_UP

    def deal_state(self, state: Any) -> Any:
        """Whether the deal's dealer puts up the pool (a bool: not after a redeal)."""
        return not (isinstance(state, Pool) and state.waiting)

    def pool_in(self, deal_state: Any) -> bool:
        """Whether the deal's dealer puts up the pool: the deal's state (:meth:`deal_state`;
        None, a deal on its own, puts it up)."""
        return deal_state is not False

    def stake(self, rules: Rules, deal_state: Any) -> int:
        """The pool, unless it stayed after a redeal (:meth:`pool_in`)."""
        return rules.pool if self.pool_in(deal_state) else 0

    def next_state(self, state: Any, redeal: bool) -> Any:
        """The pool stays after a redeal (:data:`POOL_WAITING`)."""
        return POOL_WAITING if redeal else POOL_PUT_UP

    def return_bounds(self, rules: Rules, n: int,
                      deal_state: Any = None) -> tuple[float, float]:
        """The chips one player can lose (its stake, when it puts up the pool, and
        paying for a sweep or an overload) and win (a sweep, a share of the
        pool, another's overload) in one deal (exact: :func:`score_chips`)."""
        stake = self.stake(rules, deal_state)
        pay = max(rules.overload_chips * (n - 1), rules.sweep_chips)
        gain = max(rules.sweep_chips * (n - 1), max(rules.pool_shares, default=0),
                   rules.overload_chips)
        # the dealer who sweeps gains the sweep after its stake, others at most `gain`
        return -float(stake + pay), float(gain)

    def scoring_lines(self, rules: Rules) -> list[Param]:
        """The pool, its shares, the sweep and the overload."""
        from .describe import SEMI, Join, _card_values, _per_deal_total, msg

        paid = Join(SEMI, tuple(
            msg("rules.chips.share", place=msg(f"rules.place.{i + 1}") if i < 5
                else msg("rules.place.n", n=i + 1), n=msg("rules.nChips", n=s))
            for i, s in enumerate(rules.pool_shares)))
        return [
            msg("rules.chips.intro"),
            msg("rules.chips.cards.trick" if rules.trick_points else "rules.chips.cards",
                values=_card_values(rules), trick=rules.trick_points,
                total=_per_deal_total(rules)),
            msg("rules.chips.pool", pool=msg("rules.nChips", n=rules.pool), paid=paid),
            msg("rules.chips.ties"),
            msg("rules.chips.sweep", sweep=msg("rules.nChips", n=rules.sweep_chips),
                overload=rules.overload_points, chips=msg("rules.nChips", n=rules.overload_chips)),
            msg("rules.chips.redeal"),
            msg("rules.chips.change"),
        ]

    def match_end_lines(self, rules: Rules) -> list[Param] | None:
        """A fixed number of deals, in chips."""
        from .describe import _deals, msg

        return [msg("rules.end.chips", deals=_deals(rules))]


BASSADEWITZ: Final = BassadewitzFamily()

__all__ = ["BASSADEWITZ", "POOL_PUT_UP", "POOL_WAITING", "PRESETS", "BassadewitzFamily", "Pool",
           "score_chips"]
