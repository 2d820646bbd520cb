"""Pollack, the one home of its rules beyond trick play: partnerships, announcements, the claim.

Pollack is played by two sides of partners (seats 0 and 2 against 1 and 3:
a player's side is ``player & 1``).  Besides the cards, a player may
*announce* a combination it holds (three or four Tens, Nines or Aces; a
suit's Ten, Nine and Ace, its "pollack") once its side has won a trick
(forehand also before the first lead), and may *claim* on lead that its side
has reached the partie's target.  A side scores its card points divided by
``point_divisor``, the last trick's points, and its announcements.

Its family, :class:`PollackFamily` (listed in :data:`polignac.core.families.FAMILIES`),
owns everything the shared core does differently for it: the checks of the
partnership parameters, the calls' tables and rules the deal reads
(:class:`~polignac.core.deal.CallRules`), the score of a played deal and of a
score-pad entry (:func:`score_pollack`), the parties (:func:`after_partie_deal`)
and the match sheet, its rules text, its preset, the returns of a deal and
their bounds (zero-sum between the sides, a claim worth the bound) and what
the announcements add to a playout (``return_bounds``, ``returns``,
``calls_card_points``).  The bots and the research interfaces reach this family
only through these hooks, the rule set's flags (``Rules.kind.sides``,
``Rules.has_calls``, ``Rules.plays_parties``) and the calls' tables
(``Rules.scorer.call_rules``: each announcement's cards, the best one open,
the points a hand has not announced yet), which do not name the game; the
shared action numbers are named after :data:`ANNOUNCEMENTS` by the families' list.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Final

from .actions import ANNOUNCE_BASE, NUM_ACTIONS, Action
from .calls import NO_CALLS, CallRules, Calls
from .cards import SUIT_LETTERS, Mask, cards_of, make_card
from .deal import Deal
from .errors import IllegalActionError, RulesError, ScorePadError
from .family import Family
from .rules import Rules, ScoreKind
from .scoring import DealScore, ScoreLine, pack_points

if TYPE_CHECKING:
    from .describe import Param
    from .match import DealResult
    from .scorepad import Entry, ScorePad
    from .standing import Standing


@dataclass(frozen=True)
class Parties:
    """Pollack's state in a match (``Standing.family_state``): the partie in progress
    and the parties played.  Immutable."""

    partie: tuple[int, int] = (0, 0)
    """Each side's score in the partie in progress."""
    parties_won: tuple[int, ...] = ()
    """The winning side of each finished partie."""
    partie_scores: tuple[tuple[int, int], ...] = ()
    """Each finished partie's final score (side 0, side 1)."""
    game_points: tuple[int, int] = (0, 0)
    """Each side's points in every deal of the game (all parties)."""

    @property
    def parties_tally(self) -> tuple[int, int]:
        """How many parties each side (0, 1) has won."""
        return (self.parties_won.count(0), self.parties_won.count(1))


NO_PARTIES: Final = Parties()
"""Before the first deal."""


@dataclass(frozen=True)
class PartieDeal:
    """What a deal did to the parties (a deal result's ``family_result``)."""

    partie: int
    """The number (from 1) of the partie it was played in."""
    partie_winner: int | None = None
    """The side (0: seats 0 and 2; 1: seats 1 and 3) that won the partie with it, if one did."""


def parties_of(standing: Standing) -> Parties:
    """Pollack's state in ``standing`` (none yet: :data:`NO_PARTIES`)."""
    state = standing.family_state
    return state if isinstance(state, Parties) else NO_PARTIES

ANNOUNCEMENT_VALUES: dict[str, int] = {
    "three-tens": 3, "three-nines": 3, "three-aces": 3,
    "four-tens": 4, "four-nines": 4, "four-aces": 4,
    "pollack-C": 3, "pollack-D": 3, "pollack-H": 3, "pollack-S": 3,
}
"""The value of each Pollack announcement (docs/rules/pollack.md#scoring)."""
ANNOUNCEMENTS: Final = tuple(ANNOUNCEMENT_VALUES)
"""Pollack's announcements, in the order of their action numbers from
``ANNOUNCE_BASE`` (the families' list names the shared actions after them)."""

# Pollack announcements: the cards each needs (by rank over suits, or one suit's
# Ten, Nine and Ace), how many of them, and their value (ANNOUNCEMENT_VALUES).
_T, _9, _A = 8, 7, 12
_RANK_ALL: Final = {r: sum(1 << make_card(r, s) for s in range(4)) for r in (_T, _9, _A)}
_CARDS_NEEDED: Final[tuple[tuple[Mask, int], ...]] = (
    (_RANK_ALL[_T], 3),
    (_RANK_ALL[_9], 3),
    (_RANK_ALL[_A], 3),
    (_RANK_ALL[_T], 4),
    (_RANK_ALL[_9], 4),
    (_RANK_ALL[_A], 4),
) + tuple(
    ((1 << make_card(_T, s)) | (1 << make_card(_9, s)) | (1 << make_card(_A, s)), 3)
    for s in range(4)
)
ANN_NEED: Final[tuple[tuple[Mask, int, int], ...]] = tuple(
    (mask, k, ANNOUNCEMENT_VALUES[name])
    for name, (mask, k) in zip(ANNOUNCEMENTS, _CARDS_NEEDED, strict=True)
)
ANNOUNCEMENT_NEEDS: Final[dict[str, tuple[Mask, int]]] = dict(
    zip(ANNOUNCEMENTS, _CARDS_NEEDED, strict=True))
"""Pollack: each announcement's cards (a mask) and how many of them it needs in hand."""
# Which "slot" an announcement uses up for its announcer: a rank (as three or
# four) or a suit's pollack.
ANN_SLOT: Final = (0, 1, 2, 0, 1, 2, 3, 4, 5, 6)
RANK_SLOTS: Final = 3
"""Slots below this are a rank's (three or four of it); the others a suit's pollack."""
# Every card an announcement looks at (the Tens, Nines and Aces).
ANN_CARDS: Final = _RANK_ALL[_T] | _RANK_ALL[_9] | _RANK_ALL[_A]


def _open_announcements(hand: Mask) -> tuple[Action, ...]:
    """The announcements ``hand`` holds (by its Tens, Nines and Aces), ascending."""
    return tuple(
        ANNOUNCE_BASE + i
        for i, (need, k, _value) in enumerate(ANN_NEED)
        if (hand & need).bit_count() >= k
    )


OPEN_ANNOUNCEMENTS: Final[dict[Mask, tuple[Action, ...]]] = {}
"""The announcements a hand holds, ascending, by ``hand & ANN_CARDS``.

The Tens, Nines and Aces in hand decide it, so one dict lookup replaces
checking the ten announcements at every action (2**12 keys, all filled by
fill_open_announcements before a Pollack deal is dealt; a plain dict: a subclass
with ``__missing__`` pays a Python-level ``__getitem__`` lookup at every read).
The caller drops those whose slot the player has already used (rare: only
after its own announcement).
"""


def fill_open_announcements() -> None:
    """Fill OPEN_ANNOUNCEMENTS for every set of Tens, Nines and Aces.

    The 2**12 sets take ~10 ms once, when a Pollack game's tables are first
    built (filling on first use cost ~5 us for each of hundreds of new hands).
    """
    if 0 in OPEN_ANNOUNCEMENTS and ANN_CARDS in OPEN_ANNOUNCEMENTS:
        return
    sub = 0
    while True:  # every subset of ANN_CARDS, 0 included
        OPEN_ANNOUNCEMENTS[sub] = _open_announcements(sub)
        sub = (sub - ANN_CARDS) & ANN_CARDS
        if not sub:
            break


def may_announce(player: int, eldest: int, before_first_lead: bool, won: int) -> bool:
    """Whether ``player`` may announce now: once its side has won a trick (``won``
    has a bit per side, ``player & 1``), or forehand (``eldest``) before the first lead."""
    return bool(won >> (player & 1) & 1) or (before_first_lead and player == eldest)


def claimed(deal: Deal, calls: Calls, player: int) -> Calls:
    """The calls after ``player`` claims "out" in ``deal``: correct when its side's
    total counted now (``Deal.side_total``) reaches ``partie_target``.

    Raises:
        IllegalActionError: the player is not on lead (rule ``claim-not-on-lead``).
    """
    if deal.trick:
        raise IllegalActionError(
            f"claim not on lead: player {player} may claim only when about to "
            "lead a trick", rule="claim-not-on-lead", action="claim",
        )
    correct = deal.side_total(player & 1) >= deal.rules.partie_target
    return Calls(calls.made, calls.side_points, (player, correct), calls.log)


def announced(calls: Calls, player: int, action: Action, hand: Mask, may: bool) -> Calls:
    """The calls after ``player``, holding ``hand``, makes announcement ``action``;
    ``may``: its side has won a trick (or it is forehand before the first lead).

    Raises:
        IllegalActionError: too early, a slot already used, or a combination
            not in hand (rules ``announcement-too-early``, ``announcement-repeated``,
            ``false-announcement``).
    """
    i = action - ANNOUNCE_BASE
    ann = ANNOUNCEMENTS[i]
    name = "announce:" + ann
    if not may:
        raise IllegalActionError(
            f"announcement not allowed yet: player {player} may announce only after "
            "its side has won a trick (forehand also before the first lead)",
            rule="announcement-too-early", action=name,
        )
    need, k, value = ANN_NEED[i]
    if calls.made[player] >> ANN_SLOT[i] & 1:
        what = "that suit's pollack" if i >= 6 else "that rank"
        raise IllegalActionError(
            f"announcement repeated: player {player} has already announced {what} "
            "this deal", rule="announcement-repeated", action=name,
        )
    if (hand & need).bit_count() < k:
        raise IllegalActionError(
            f"false announcement: player {player} does not hold {ann} in hand",
            rule="false-announcement", action=name,
        )
    made = list(calls.made)
    made[player] |= 1 << ANN_SLOT[i]
    sp = list(calls.side_points)
    sp[player & 1] += value
    return Calls(tuple(made), (sp[0], sp[1]), calls.claim, calls.log + ((player, ann),))


FORCED_CARDS: Final[dict[str, Mask]] = {
    name: mask for name, (mask, k) in ANNOUNCEMENT_NEEDS.items() if mask.bit_count() == k
}
"""The announcements that need every one of their cards (four of a rank, a
suit's pollack): each one's cards, all of which its announcer held."""

SIDE_ANNOUNCE_MAX: Final = 15
"""The most announcement points one side can make in a deal (two partners
holding, between them, the 12 Tens, Nines and Aces; computed by enumerating
every split: e.g. pollack-C + pollack-D + three-tens + three-nines for one
partner, pollack-H for the other)."""

SLOTS_PER_PLAYER: Final = max(ANN_SLOT) + 1
"""Announcements one player can make in a deal (a rank's three or four, each
suit's pollack)."""


def announcement_slot(name: str) -> int:
    """The slot (:data:`ANN_SLOT`) announcement ``name`` uses up for its announcer.

    Raises:
        ValueError: ``name`` is not an announcement.
    """
    return ANN_SLOT[ANNOUNCEMENTS.index(name)]


def announcement_value(action: Action) -> int:
    """The value of the announcement ``action``, 0 for any other action."""
    if ANNOUNCE_BASE <= action < NUM_ACTIONS:
        return ANNOUNCEMENT_VALUES[ANNOUNCEMENTS[action - ANNOUNCE_BASE]]
    return 0


def best_announcement(legal: Iterable[Action]) -> Action | None:
    """The legal announcement worth the most (the first on a tie), or None."""
    best: Action | None = None
    value = 0
    for a in legal:
        v = announcement_value(a)
        if v > value:
            best, value = a, v
    return best


def unannounced_points(hand: Mask, made: frozenset[str]) -> int:
    """Announcement points ``hand`` holds that are not yet announced.

    ``made``: the player's announcements so far (a rank announced as three or
    four, or a suit's pollack, is used up).  Four of a rank count as four.
    """
    v = 0
    for word in ("tens", "nines", "aces"):
        if "three-" + word in made or "four-" + word in made:
            continue
        for name in ("four-" + word, "three-" + word):
            cards, k = ANNOUNCEMENT_NEEDS[name]
            if (hand & cards).bit_count() >= k:
                v += ANNOUNCEMENT_VALUES[name]
                break
    for suit in SUIT_LETTERS:
        name = "pollack-" + suit
        cards, k = ANNOUNCEMENT_NEEDS[name]
        if name not in made and (hand & cards).bit_count() >= k:
            v += ANNOUNCEMENT_VALUES[name]
    return v


def side_calls_points(announcements: Iterable[tuple[int, str]], player: int) -> int:
    """The announcement points made by ``player``'s side (``(player, name)`` pairs)."""
    return sum(ANNOUNCEMENT_VALUES[name] for p, name in announcements if p & 1 == player & 1)


def score_pollack(
    rules: Rules,
    side_cards: Sequence[int],
    last_trick: int | None,
    announcements: Sequence[tuple[int, str]],
    claim: tuple[int, bool] | None,
    card_points: Sequence[int] = (),
) -> DealScore:
    """Score a Pollack deal from each side's card points, the last trick and the calls.

    ``last_trick`` is the player (or, on a score pad, the side) that took the
    last trick, None when a claim ended the deal; players ``p`` and sides are
    matched by ``p & 1``.  ``card_points`` (per player, when known) is passed
    through to the score; by default the sides' totals.  Each side has one
    ``card-points`` line (its card points, with the last trick's, divided)
    and one ``announce`` line per announcement, so its lines add up to its score.
    """
    cards = [side_cards[0], side_cards[1]]
    last_side = last_trick & 1 if claim is None and last_trick is not None else None
    if last_side is not None:
        cards[last_side] += rules.last_trick_points
    side = [cards[i] // rules.point_divisor for i in (0, 1)]
    lines: list[ScoreLine] = []
    div = rules.point_divisor
    for i in (0, 1):
        if i == last_side:
            lines.append(ScoreLine(
                i, side[i], "card-points",
                f"{cards[i]} card points, {rules.last_trick_points} of them for the "
                f"last trick, / {div}", "detail.side-points-last",
                (("n", cards[i]), ("last", rules.last_trick_points), ("div", div)), side=i))
        else:
            lines.append(ScoreLine(i, side[i], "card-points", f"{cards[i]} card points / {div}",
                                   "detail.side-points", (("n", cards[i]), ("div", div)),
                                   side=i))
    for p, ann in announcements:
        lines.append(ScoreLine(p, ANNOUNCEMENT_VALUES[ann], "announce", ann, side=p & 1))
        side[p & 1] += ANNOUNCEMENT_VALUES[ann]
    return DealScore(tuple(side[p & 1] for p in range(4)), tuple(lines),
                     card_points=tuple(card_points) or (side_cards[0], side_cards[1]),
                     claim=claim)


def after_partie_deal(
    standing: Standing,
    rules: Rules,
    scores: Sequence[int],
    claim: tuple[int, bool] | None,
    last_trick_side: int | None,
) -> tuple[Standing, PartieDeal]:
    """The standing after a deal of a match played in parties (``match_end``
    ``parties``; its state: :class:`Parties`), and the partie the deal was played
    in with the side that won it with this deal, if one did (:class:`PartieDeal`).

    ``scores`` has one number per seat (its side's deal score); ``claim`` is
    ``(seat, correct)`` when a claim ended the deal; ``last_trick_side`` breaks
    a tie at the target.  A correct claim wins the partie for the claimant's
    side, a wrong one loses it; else a side that reaches ``partie_target``
    wins it (the higher if both do).  After ``parties`` parties the side
    that won more wins the game (equal: a draw).
    """
    before = parties_of(standing)
    number = PartieDeal(len(before.parties_won) + 1)
    partie = (before.partie[0] + scores[0], before.partie[1] + scores[1])
    game = (before.game_points[0] + scores[0], before.game_points[1] + scores[1])
    winner: int | None = None
    if claim is not None:
        claimant, correct = claim
        winner = claimant & 1 if correct else 1 - (claimant & 1)
    else:
        at = [partie[i] >= rules.partie_target for i in (0, 1)]
        if at[0] and at[1]:
            if partie[0] != partie[1]:
                winner = 0 if partie[0] > partie[1] else 1
            else:
                winner = last_trick_side
        elif at[0] or at[1]:
            winner = 0 if at[0] else 1
    n = len(standing.totals)
    if winner is None:
        return replace(standing, counted=standing.counted + 1,
                       family_state=replace(before, partie=partie, game_points=game),
                       totals=tuple(partie[s & 1] for s in range(n))), number
    parties = (*before.parties_won, winner)
    m = replace(standing, totals=(0,) * n, counted=standing.counted + 1,
                family_state=Parties((0, 0), parties, (*before.partie_scores, partie), game))
    done = replace(number, partie_winner=winner)
    if len(parties) < rules.parties:
        return m, done
    won = (parties.count(0), parties.count(1))
    if won[0] == won[1]:
        return replace(m, finished=True, winners=(), losers=(),
                       notes=(*m.notes, f"{won[0]}-{won[1]}: a draw")), done
    side = 0 if won[0] > won[1] else 1
    return replace(
        m, finished=True,
        winners=tuple(s for s in range(n) if s & 1 == side),
        losers=tuple(s for s in range(n) if s & 1 != side),
        notes=(*m.notes, f"parties {won[0]}-{won[1]}"),
    ), done


PRESETS: Final[tuple[Rules, ...]] = (
    Rules(
        preset="pollack",
        game="pollack",
        players=(4,),
        removals="none",
        rank_order="T9AKQJ87",
        packets=(3, 3, 2),
        scoring="pollack",
        card_points={"A": 3, "K": 1, "Q": 1, "J": 1, "T": 1, "9": 1},
        last_trick_points=3,
        declaration="none",
        match_end="parties",
        threshold=None,
        partnerships=True,
        announcements=True,
        point_divisor=3,
    ),
)
"""The Pollack preset."""


class PollackFamily(Family):
    """Pollack: partnerships, announcements and a claim, a match in parties."""

    name = "pollack"
    games = ("pollack",)
    parameters = ("partnerships", "announcements", "point_divisor", "partie_target", "parties")
    scorings = (ScoreKind("pollack", penalty=False, taker_gains=True, chips=False, sides=True,
                          match_ends=("parties",)),)
    calls = True
    call_rules = CallRules(OPEN_ANNOUNCEMENTS, ANN_CARDS, ANN_SLOT, fill_open_announcements,
                           may_announce, claimed, announced, ANNOUNCEMENT_NEEDS,
                           best_announcement, unannounced_points, FORCED_CARDS)
    announcements = ANNOUNCEMENTS
    zero_sum = True
    score_unit = "side points per deal (own side)"
    taken_unit = "side"  # each side's card points
    total_word = "partie"  # the partie in progress
    side_reasons = ("card-points",)
    modules = ("polignac.core.pollack",)
    presets = PRESETS

    def check_rules(self, rules: Rules) -> None:
        """Partnerships, the partie's numbers, announcements only with this scoring.

        Raises:
            RulesError: names the parameter.
        """
        sides = rules.kind.sides
        if sides or rules.partnerships:
            if tuple(rules.players) != (4,):
                raise RulesError(
                    f"partnership games need players [4], not {list(rules.players)}"
                )
            if rules.point_divisor < 1:
                raise RulesError(f"point_divisor must be at least 1, not {rules.point_divisor}")
            if rules.partie_target < 1 or rules.parties < 1:
                raise RulesError("partie_target and parties must be at least 1")
        if sides and not rules.partnerships:
            raise RulesError("scoring 'pollack' needs partnerships true")
        if rules.announcements and not sides:
            raise RulesError("announcements need scoring 'pollack' (allowed: false)")

    def score_deal(self, deal: Deal) -> DealScore:
        """Each side's card points, the last trick and the calls (:func:`score_pollack`)."""
        claim = deal.claim
        past = deal.past
        last = past[-1].winner if claim is None and past else None
        return score_pollack(
            deal.rules, (deal.side_card_points(0), deal.side_card_points(1)), last,
            deal.announcements, claim, tuple(deal.card_points(p) for p in range(deal.num_players)),
        )

    def score_entry(self, pad: ScorePad, entry: Entry, dealer: int,
                    seats: tuple[int, ...]) -> DealScore:
        """A score pad's entry: each side's card points, the last trick or a claim,
        the announcements.

        Raises:
            ScorePadError: a bad entry; its ``field`` names the bad field.
        """
        r = pad.rules
        e = entry
        pad._unused(e, "taken", "tricks", "first_trick", "slam", "contract")
        cps = e.card_points
        if cps is None:
            raise ScorePadError("missing: say each side's card points", "card_points")
        if len(cps) != 2:
            raise ScorePadError("needs two numbers, one per side", "card_points")
        for i, v in enumerate(cps):
            if v < 0:
                raise ScorePadError(f"{v} is negative", f"card_points[{i}]")
        total = pack_points(r, 4)
        slots: dict[tuple[int, int], bool] = {}
        owners: dict[int, int] = {}
        for i, (p, ann) in enumerate(e.announcements):
            where = f"announcements[{i}]"
            pad._seat(p, where + ".player", range(4))
            slot = announcement_slot(ann)
            if (p, slot) in slots:
                raise ScorePadError(f"{pad.names[p]} already announced that "
                                    f"{'rank' if slot < RANK_SLOTS else 'pollack'}",
                                    where)
            slots[p, slot] = True
            if owners.setdefault(slot, p) != p:
                raise ScorePadError(f"{pad.names[owners[slot]]} already announced {ann}: "
                                    "the cards cannot be in two hands", where)
        claim: tuple[int, bool] | None = None
        last: int | None
        if e.claim is not None:
            c = pad._seat(e.claim, "claim", range(4))
            assert c is not None
            if sum(cps) > total:
                raise ScorePadError(f"add up to {sum(cps)}; the pack has {total}",
                                    "card_points")
            if e.last_trick is not None:
                raise ScorePadError("a claim ends the deal before the last trick", "last_trick")
            side = c & 1
            bonus = sum(ANNOUNCEMENT_VALUES[a] for p, a in e.announcements if p & 1 == side)
            before = parties_of(pad.standing).partie[side]
            correct = before + bonus + cps[side] // r.point_divisor >= r.partie_target
            claim = (c, correct)
            last = None
        else:
            if sum(cps) != total:
                raise ScorePadError(f"add up to {sum(cps)}; the pack has {total}",
                                    "card_points")
            if e.last_trick not in (0, 1):
                raise ScorePadError("say which side took the last trick (0: the first and third "
                                    "players, 1: the second and fourth)", "last_trick")
            last = e.last_trick
        return score_pollack(r, cps, last, e.announcements, claim)

    def return_bounds(self, rules: Rules, n: int,
                      deal_state: Any = None) -> tuple[float, float]:
        """Plus or minus one side's most: every card point (divided by
        ``point_divisor``), the last trick and :data:`SIDE_ANNOUNCE_MAX`."""
        pts = rules.point_table()
        cards = sum(max(0, pts[c]) for c in cards_of(rules.pack_mask(n))) \
            + max(0, rules.last_trick_points)
        bound = cards // max(1, rules.point_divisor) + SIDE_ANNOUNCE_MAX
        return -float(bound), float(bound)

    def returns(self, score: DealScore, rules: Rules, n: int) -> list[float]:
        """The player's side's deal score minus the other side's; a deal ended by a
        claim is worth the bound (:meth:`return_bounds`) to the claimant's side
        when correct, minus the bound when wrong, and the opposite to the other side."""
        if score.claim is not None:
            claimant, correct = score.claim
            bound = self.return_bounds(rules, n)[1]
            sign = 1.0 if correct else -1.0
            return [sign * bound if p % 2 == claimant % 2 else -sign * bound
                    for p in range(n)]
        side = (score.scores[0], score.scores[1])
        return [float(side[p % 2] - side[1 - p % 2]) for p in range(n)]

    def points_taken(self, deal: Deal) -> tuple[int, ...]:
        """Each player shows its side's card points so far, undivided, the last
        trick's included once taken (not after a claim)."""
        side = [deal.side_card_points(0), deal.side_card_points(1)]
        past = deal.past
        if len(past) == deal.rules.hand_size(deal.num_players) and deal.claim is None:
            side[past[-1].winner & 1] += deal.rules.last_trick_points
        return tuple(side[p & 1] for p in range(deal.num_players))

    def calls_card_points(self, deal: Deal, player: int) -> int:
        """The side's announcements, each point worth ``point_divisor`` card points
        (as in the deal score: :func:`score_pollack`)."""
        return side_calls_points(deal.announcements, player) * deal.rules.point_divisor

    def solver_unit(self, scoring: str) -> str:
        """Card points (:meth:`solver_result`)."""
        return "card-points"

    def solver_result(self, deal: Deal, player: int) -> int:
        """The side's raw card points, the last trick's points included (the
        announcements apart: :meth:`calls_card_points`).

        Raises:
            IllegalActionError: the deal is not finished.
        """
        pts = deal.side_card_points(player & 1)
        if deal.past and deal.past[-1].winner & 1 == player & 1:
            pts += deal.rules.last_trick_points
        return pts

    def start_state(self, rules: Rules, n: int) -> Any:
        """No partie played yet (:data:`NO_PARTIES`)."""
        return NO_PARTIES

    def deal_state(self, state: Any) -> Any:
        """Each side's score in the partie before the deal (a pair of ints)."""
        return (state if isinstance(state, Parties) else NO_PARTIES).partie

    def side_total(self, deal: Deal, side: int) -> int:
        """A side's partie score counted now: the partie before the deal
        (:meth:`deal_state`), the deal's announcements and its card points so far
        divided by ``point_divisor``, rounded down."""
        state = deal.family_state
        before = state[side] if isinstance(state, tuple) else 0
        return (before + deal.calls.side_points[side]
                + deal.side_card_points(side) // deal.rules.point_divisor)

    def side_of(self, seat: int) -> int | None:
        """Partners sit opposite: seats 0 and 2 against 1 and 3."""
        return seat & 1

    def after_deal(self, standing: Standing, rules: Rules, scores: Sequence[int],
                   claim: tuple[int, bool] | None,
                   last_trick_side: int | None) -> tuple[Standing, Any] | None:
        """The parties (:func:`after_partie_deal`)."""
        return after_partie_deal(standing, rules, scores, claim, last_trick_side)

    def sheet(self, standing: Standing, rules: Rules) -> dict[str, Any]:
        """Where the game stands: ``partie`` (each side's score in the partie in
        progress), ``parties_won`` (the winning side of each finished partie),
        ``partie_scores`` (their final scores), ``parties_tally`` (parties each
        side won) and ``game_points`` (each side's points in all parties)."""
        state = parties_of(standing)
        return {
            "partie": list(state.partie),
            "parties_won": list(state.parties_won),
            "partie_scores": [list(x) for x in state.partie_scores],
            "parties_tally": list(state.parties_tally),
            "game_points": list(state.game_points),
        }

    def result_sheet(self, result: DealResult) -> dict[str, Any]:
        """This deal's line of the score sheet: ``partie`` (its number),
        ``side_scores``, ``partie_won_by`` (the side that won the partie with it, or
        None), and after it ``partie_score`` (the partie's final score when this
        deal ended it), ``parties_tally`` and ``game_points``."""
        done = result.family_result
        if not isinstance(done, PartieDeal) or result.after is None:
            return {}
        after = parties_of(result.after)
        partie = after.partie_scores[-1] if done.partie_winner is not None else after.partie
        return {"partie": done.partie, "side_scores": [result.scores[0], result.scores[1]],
                "partie_won_by": done.partie_winner, "partie_score": list(partie),
                "parties_tally": list(after.parties_tally),
                "game_points": list(after.game_points)}

    def record_entry(self, family_result: Any, n: int) -> dict[str, Any]:
        """``partie_winner``: the seats of the side that won the partie with the deal."""
        if not isinstance(family_result, PartieDeal) or family_result.partie_winner is None:
            return {}
        return {"partie_winner": [s for s in range(n) if s & 1 == family_result.partie_winner]}

    def record_summary(self, standing: Standing, n: int) -> dict[str, Any]:
        """``parties``: the seats of the side that won each partie."""
        return {"parties": [[s for s in range(n) if s & 1 == side]
                            for side in parties_of(standing).parties_won]}

    def pad_entry(self, family_result: Any) -> dict[str, Any]:
        """``partie_winner``: the side that won the partie with the deal."""
        if not isinstance(family_result, PartieDeal) or family_result.partie_winner is None:
            return {}
        return {"partie_winner": family_result.partie_winner}

    def play_notes(self, rules: Rules) -> list[Param]:
        """No need to head the trick."""
        from .describe import msg

        return [msg("rules.pollack.noHead")]

    def scoring_lines(self, rules: Rules) -> list[Param]:
        """The sides' points, the announcements, the partie and the claim."""
        from .describe import INTERP, SEMI, Join, _card_values, msg

        ann = Join(SEMI, tuple(msg("rules.pollack.announcement", name=msg(f"announce.{a}"),
                                   n=ANNOUNCEMENT_VALUES[a])
                               for a in ANNOUNCEMENTS if not a.startswith("pollack-")))
        target, div = rules.partie_target, rules.point_divisor
        lines: list[Param] = [
            msg("rules.pollack.values", values=_card_values(rules),
                last=rules.last_trick_points),
            msg("rules.pollack.dealScore", last=rules.last_trick_points, div=div),
        ]
        if rules.announcements:
            lines += [
                msg("rules.pollack.ann", list=ann, pollack=ANNOUNCEMENT_VALUES["pollack-S"],
                    interp=INTERP),
                msg("rules.pollack.annWhen", interp=INTERP),
                msg("rules.pollack.annTrue", interp=INTERP),
                msg("rules.pollack.annOnce"),
            ]
        lines += [
            msg("rules.pollack.partie", target=target, div=div),
            msg("rules.pollack.claim", interp=INTERP),
            msg("rules.pollack.noClaim", target=target),
        ]
        return lines

    def match_end_lines(self, rules: Rules) -> list[Param] | None:
        """The parties."""
        from .describe import msg

        return [msg("rules.end.parties", n=rules.parties)]

    def scoring_interpretations(self, rules: Rules) -> list[Param]:
        """The division, the turn, the hand, the claim, the caption."""
        from .describe import INTERP, msg

        return [
            msg("rules.interp.pollackDivision", div=rules.point_divisor, interp=INTERP),
            msg("rules.interp.pollackTurn", interp=INTERP),
            msg("rules.interp.pollackHand", interp=INTERP),
            msg("rules.interp.pollackClaim", interp=INTERP),
            msg("rules.interp.pollackCaption"),
        ]


POLLACK: Final = PollackFamily()


__all__ = [
    "ANNOUNCEMENT_NEEDS",
    "ANNOUNCEMENT_VALUES",
    "FORCED_CARDS",
    "NO_CALLS",
    "NO_PARTIES",
    "POLLACK",
    "PRESETS",
    "RANK_SLOTS",
    "SIDE_ANNOUNCE_MAX",
    "SLOTS_PER_PLAYER",
    "Calls",
    "PartieDeal",
    "Parties",
    "PollackFamily",
    "after_partie_deal",
    "announcement_slot",
    "announcement_value",
    "best_announcement",
    "may_announce",
    "parties_of",
    "score_pollack",
    "side_calls_points",
    "unannounced_points",
]
