"""Pollack, the one home of its rules beyond trick play: partnerships, announcements, the claim.

Pollack is played by two sides of partners (seats 0 and 2 against 1 and 3:
a player's side is ``player & 1``).  Besides the cards, a player may
*announce* a combination it holds (three or four Tens, Nines or Aces; a
suit's Ten, Nine and Ace, its "pollack") once its side has won a trick
(forehand also before the first lead), and may *claim* on lead that its side
has reached the partie's target.  A side scores its card points divided by
``point_divisor``, the last trick's points, and its announcements.

The engine (:class:`~polignac.core.deal.Deal`, the score pad) reads the
tables here and scores with :func:`score_pollack`; the bots and the research
interfaces reach this family only through the rule set's flags
(``Rules.kind.sides``, ``Rules.has_calls``) and the functions below
(:func:`best_announcement`, :func:`unannounced_points`, :func:`side_calls_points`,
:data:`FORCED_CARDS`, :data:`SIDE_ANNOUNCE_MAX`), which do not name the game.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Final

from .actions import ANNOUNCE_BASE, ANNOUNCEMENTS, NUM_ACTIONS, Action
from .cards import SUIT_LETTERS, Mask, make_card
from .errors import IllegalActionError
from .rules import Rules
from .scoring import DealScore, ScoreLine

if TYPE_CHECKING:
    from .standing import Standing

ANNOUNCEMENT_VALUES: dict[str, int] = {
    "three-tens": 3, "three-nines": 3, "three-aces": 3,
    "four-tens": 4, "four-nines": 4, "four-aces": 4,
    "pollack-C": 3, "pollack-D": 3, "pollack-H": 3, "pollack-S": 3,
}
"""The value of each Pollack announcement (docs/rules/pollack.md#scoring)."""

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


class _OpenAnnouncements(dict[int, tuple[Action, ...]]):
    """The announcements a hand holds, ascending, by ``hand & ANN_CARDS``.

    The Tens, Nines and Aces in hand decide it, so one dict lookup replaces
    checking the ten announcements at every action (2**12 keys, all filled by
    fill_open_announcements).  The caller drops those whose slot the player
    has already used (rare: only after its own announcement).
    """

    def __missing__(self, hand: int) -> tuple[Action, ...]:
        calls = self[hand] = tuple(
            ANNOUNCE_BASE + i
            for i, (need, k, _value) in enumerate(ANN_NEED)
            if (hand & need).bit_count() >= k
        )
        return calls


OPEN_ANNOUNCEMENTS: Final = _OpenAnnouncements()


def fill_open_announcements() -> None:
    """Fill OPEN_ANNOUNCEMENTS for every set of Tens, Nines and Aces.

    Filling on first use cost a __missing__ call (~5 us) for hundreds of new
    hands a few hundred Pollack deals in; the 2**12 sets take ~10 ms once,
    when a Pollack game's tables are first built.
    """
    if 0 in OPEN_ANNOUNCEMENTS and ANN_CARDS in OPEN_ANNOUNCEMENTS:
        return
    sub = 0
    while True:  # every subset of ANN_CARDS, 0 included
        OPEN_ANNOUNCEMENTS[sub]  # __missing__ fills the entry
        sub = (sub - ANN_CARDS) & ANN_CARDS
        if not sub:
            break


class Calls:
    """Pollack calls so far: announcements per player, their points per side, claim.

    (Which sides have won a trick is in the deal's last trick link, ``link[_WON]``.)
    """

    __slots__ = ("claim", "log", "made", "side_points")

    def __init__(
        self,
        made: tuple[int, ...],
        side_points: tuple[int, int],
        claim: tuple[int, bool] | None,
        log: tuple[tuple[int, str], ...],
    ) -> None:
        self.made = made  # per player: bitmask of used slots (ANN_SLOT)
        self.side_points = side_points
        self.claim = claim
        self.log = log  # (player, announcement name) in order


NO_CALLS: Final = Calls((0, 0, 0, 0), (0, 0), None, ())


def may_announce(player: int, eldest: int, before_first_lead: bool, won: int) -> bool:
    """Whether ``player`` may announce now: once its side has won a trick (``won``
    has a bit per side, ``player & 1``), or forehand (``eldest``) before the first lead."""
    return bool(won >> (player & 1) & 1) or (before_first_lead and player == eldest)


def claimed(calls: Calls, player: int, on_lead: bool, side_total: int, target: int) -> Calls:
    """The calls after ``player`` claims "out": correct when its side's total
    counted now (``side_total``, see ``Deal.side_total``) reaches ``target``.

    Raises:
        IllegalActionError: the player is not on lead (rule ``claim-not-on-lead``).
    """
    if not on_lead:
        raise IllegalActionError(
            f"claim not on lead: player {player} may claim only when about to "
            "lead a trick", rule="claim-not-on-lead", action="claim",
        )
    return Calls(calls.made, calls.side_points, (player, side_total >= target), calls.log)


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
) -> tuple[Standing, int | None]:
    """The standing after a deal of a match played in parties (``match_end``
    ``parties``), and the side that won the partie with it (or None).

    ``scores`` has one number per seat (its side's deal score); ``claim`` is
    ``(seat, correct)`` when a claim ended the deal; ``last_trick_side`` breaks
    a tie at the target.  A correct claim wins the partie for the claimant's
    side, a wrong one loses it; else a side that reaches ``partie_target``
    wins it (the higher if both do).  After ``parties`` parties the side
    that won more wins the game (equal: a draw).
    """
    partie = (standing.partie[0] + scores[0], standing.partie[1] + scores[1])
    game = (standing.game_points[0] + scores[0], standing.game_points[1] + scores[1])
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
        return replace(standing, partie=partie, counted=standing.counted + 1, game_points=game,
                       totals=tuple(partie[s & 1] for s in range(n))), None
    parties = (*standing.parties_won, winner)
    m = replace(standing, partie=(0, 0), totals=(0,) * n, parties_won=parties,
                partie_scores=(*standing.partie_scores, partie), counted=standing.counted + 1,
                game_points=game)
    if len(parties) < rules.parties:
        return m, winner
    won = (parties.count(0), parties.count(1))
    if won[0] == won[1]:
        return replace(m, finished=True, winners=(), losers=(),
                       notes=(*m.notes, f"{won[0]}-{won[1]}: a draw")), winner
    side = 0 if won[0] > won[1] else 1
    return replace(
        m, finished=True,
        winners=tuple(s for s in range(n) if s & 1 == side),
        losers=tuple(s for s in range(n) if s & 1 != side),
        notes=(*m.notes, f"parties {won[0]}-{won[1]}"),
    ), winner


__all__ = [
    "ANNOUNCEMENT_NEEDS",
    "ANNOUNCEMENT_VALUES",
    "FORCED_CARDS",
    "NO_CALLS",
    "RANK_SLOTS",
    "SIDE_ANNOUNCE_MAX",
    "SLOTS_PER_PLAYER",
    "Calls",
    "after_partie_deal",
    "announcement_slot",
    "announcement_value",
    "best_announcement",
    "may_announce",
    "score_pollack",
    "side_calls_points",
    "unannounced_points",
]
