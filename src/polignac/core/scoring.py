"""Scoring a finished deal from its facts (docs/rules/common.md#scoring, #declarations).

A played :class:`~polignac.core.deal.Deal` and a
:class:`~polignac.core.scorepad.ScorePad` entry both end here: the deal
reads its facts (who took which cards and tricks, the contract, the calls)
off the play, the pad off what the players enter.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from .cards import CODES, Mask, cards_of
from .rules import Rules

SCORE_REASONS: dict[str, tuple[str, ...]] = {
    "card": ("",), "tricks": ("",), "first-trick": ("",), "last-trick": ("",),
    "all-three": ("detail.all-three",),
    **{f"{w}-made": ("",) for w in ("capot", "general", "generale")},
    "capot-failed": ("",), "general-failed": ("",), "generale-failed": ("detail.own-cards",),
    **{f"opponent-{w}": ("detail.by",) for w in ("capot", "general", "generale", "chelem")},
    "chelem": ("",),
    "card-points": ("detail.side-points", "detail.side-points-last"),
    "announce": ("",),
    "chips-stake": ("detail.stake",), "chips-pool": ("detail.place",),
    "chips-sweep": ("detail.swept", "detail.pays-sweeper"),
    "chips-overload": ("detail.card-points", "detail.paid-by"),
    "revoke": ("", "detail.revoke-pays", "detail.other-side"),
    "moon": ("detail.every-penalty",), "opponent-moon": ("detail.by",),
}
"""Every score line's ``reason`` and the detail ``key`` each may carry ("": none),
so that pages can have a sentence for each (``why.REASON`` or ``why.REASON.KEY``
in the catalogs, KEY without its ``detail.`` prefix)."""


_set_dict = object.__setattr__
"""Sets a new frozen instance's ``__dict__`` at once (a deal's end builds several)."""


@dataclass(frozen=True, init=False)
class ScoreLine:
    """One reason in a deal's score: ``player`` scores ``points`` because of ``reason``.

    ``reason`` is a stable word (``card``, ``tricks``, ``first-trick``,
    ``last-trick``, ``all-three``, ``capot-made``, ``capot-failed``,
    ``opponent-capot``, ``chelem``, ``opponent-chelem``, ``card-points``,
    ``announce``, ``chips-stake``, ``chips-pool``, ``chips-sweep``,
    ``chips-overload``); ``detail`` adds the card code, the announcement or
    the count. A detail in words (English) also has a catalog ``key`` and
    its ``params`` (a ``player`` parameter is a seat), so pages can translate it.

    In a game scored by sides (``ScoreKind.sides``) ``side`` is the side (0 or 1, see
    :attr:`~polignac.core.rules.Rules.sides`) whose score the points go to;
    a ``card-points`` line is the side's own (its ``player`` is the side),
    the others name the ``player`` who made them (an announcement, a revoke).
    A side's lines add up to its score for the deal.
    """

    player: int
    points: int
    reason: str
    detail: str = ""
    key: str = ""
    params: tuple[tuple[str, int], ...] = ()
    side: int | None = None

    def __init__(self, player: int, points: int, reason: str, detail: str = "", key: str = "",
                 params: tuple[tuple[str, int], ...] = (), side: int | None = None) -> None:
        # The dataclass' own __init__ sets each field through object.__setattr__ (frozen):
        # three times slower, and every finished deal builds several lines.
        _set_dict(self, "__dict__", {"player": player, "points": points, "reason": reason,
                                     "detail": detail, "key": key, "params": params,
                                     "side": side})

    def to_dict(self) -> dict[str, object]:
        """Return the line as JSON-ready data (``key`` and ``params`` only when there is a key)."""
        out: dict[str, object] = {"player": self.player, "points": self.points,
                                  "reason": self.reason, "detail": self.detail}
        if self.key:
            out["key"] = self.key
            out["params"] = dict(self.params)
        if self.side is not None:
            out["side"] = self.side
        return out


@dataclass(frozen=True, init=False)
class DealScore:
    """A finished deal's score: one number per player and the lines that make it.

    ``card_points`` are the card points each player took (in chips and by sides,
    by player).  ``redeal`` is true when a chips deal's pool stays and the same
    dealer deals again.  By sides, ``scores`` gives each player its side's
    score, and ``claim`` is ``(player, correct)`` when the deal ended by a claim.
    """

    scores: tuple[int, ...]
    lines: tuple[ScoreLine, ...]
    card_points: tuple[int, ...] = ()
    redeal: bool = False
    claim: tuple[int, bool] | None = None

    def __init__(self, scores: tuple[int, ...], lines: tuple[ScoreLine, ...],
                 card_points: tuple[int, ...] = (), redeal: bool = False,
                 claim: tuple[int, bool] | None = None) -> None:
        _set_dict(self, "__dict__", {"scores": scores, "lines": lines,
                                     "card_points": card_points, "redeal": redeal,
                                     "claim": claim})

    def to_dict(self) -> dict[str, object]:
        """Return the score as JSON-ready data."""
        out: dict[str, object] = {
            "scores": list(self.scores),
            "lines": [line.to_dict() for line in self.lines],
        }
        if self.card_points:
            out["card_points"] = list(self.card_points)
        if self.redeal:
            out["redeal"] = True
        if self.claim is not None:
            out["claim"] = {"player": self.claim[0], "correct": self.claim[1]}
        return out


_new = object.__new__
_set_score: Callable[[DealScore, dict[str, object]], None] = \
    DealScore.__dict__["__dict__"].__set__
"""Sets a new deal score's ``__dict__`` (its class' descriptor: a step shorter than
``object.__setattr__``, and no ``__init__`` call)."""


def pack_points(rules: Rules, num_players: int) -> int:
    """The card points of the whole pack in play (the score pad checks entries against it)."""
    pts = rules.point_table()
    return sum(pts[c] for c in cards_of(rules.pack_mask(num_players)))


def point_cards_in_play(rules: Rules, num_players: int) -> tuple[str, ...]:
    """The codes of the cards that score when taken, in a deal of ``num_players``."""
    return _point_cards(rules, num_players)[1]


_POINT_CARDS: dict[tuple[int, int], tuple[Rules, tuple[str, ...], tuple[tuple[str, int], ...]]] = {}
"""Per (rules, players): the rules (kept, so that their id stays theirs), the codes of
the point cards in play in card order, and each with its points (a cache: at most 256)."""


def _point_cards(rules: Rules, n: int) -> tuple[Rules, tuple[str, ...],
                                                 tuple[tuple[str, int], ...]]:
    """The point cards of ``rules`` in play for ``n`` players (see _POINT_CARDS)."""
    found = _POINT_CARDS.get((id(rules), n))
    if found is None or found[0] is not rules:
        pts = rules.point_table()
        cards = [c for c in cards_of(rules.pack_mask(n)) if pts[c]]  # ascending: CODES' order
        found = (rules, tuple(CODES[c] for c in cards), tuple((CODES[c], pts[c]) for c in cards))
        if len(_POINT_CARDS) >= 256:
            _POINT_CARDS.clear()
        _POINT_CARDS[id(rules), n] = found
    return found


class _Lines:
    """The score lines a trick game's deal can have, for one rule set and player
    count, built once (:func:`_lines_of`): a line is immutable, so every deal's score
    shares them (building a line costs more than the rest of the score)."""

    __slots__ = ("adjust", "all_three", "automatic", "by_card", "card_rows", "chelem", "codes",
                 "contract_failed", "contract_made", "declarer_leads", "first", "last",
                 "opponent", "opponent_chelem", "point_mask", "rules", "trick_points", "tricks")

    def __init__(self, rules: Rules, n: int) -> None:
        _rules, _in_play, valued = _point_cards(rules, n)
        self.rules = rules
        self.codes = tuple((CODES.index(c), c) for c, _value in valued)
        """Per point card in play, in card order: its number and its code."""
        self.point_mask = sum(1 << c for c, _code in self.codes)
        """The point cards in play."""
        by_card: list[tuple[ScoreLine, ...] | None] = [None] * 52
        for c, value in valued:
            by_card[CODES.index(c)] = tuple(ScoreLine(p, value, "card", c) for p in range(n))
        self.by_card = tuple(by_card)
        """Per card number: its line for each player who took it (None: no points)."""
        self.card_rows: tuple[dict[Mask, tuple[ScoreLine, ...]], ...] | None = None
        """With at most :data:`_ROW_TABLE_CARDS` point cards in play: per player, its
        card lines (in card order) for each set of point cards it can take (a mask);
        None with more (each deal's lines are then read off ``by_card`` one by one)."""
        if len(self.codes) <= _ROW_TABLE_CARDS:
            rows: list[dict[Mask, tuple[ScoreLine, ...]]] = []
            for p in range(n):
                row: dict[Mask, tuple[ScoreLine, ...]] = {}
                for subset in range(1 << len(self.codes)):
                    chosen = [c for i, (c, _code) in enumerate(self.codes) if subset >> i & 1]
                    row[sum(1 << c for c in chosen)] = tuple(
                        by_card[c][p] for c in chosen)  # type: ignore[index]
                rows.append(row)
            self.card_rows = tuple(rows)
        tp = self.trick_points = rules.trick_points
        size = rules.hand_size(n)
        self.tricks = tuple(tuple(ScoreLine(p, tp * k, "tricks", str(k)) if tp and k else None
                                  for k in range(size + 1)) for p in range(n))
        """``tricks[p][k]``: player ``p``'s line for ``k`` tricks (None: no line)."""
        ft, lt = rules.first_trick_points, rules.last_trick_points
        self.first = tuple(ScoreLine(p, ft, "first-trick") if ft else None for p in range(n))
        self.last = tuple(ScoreLine(p, lt, "last-trick") if lt else None for p in range(n))
        a3 = rules.all_three_points
        self.all_three = tuple(
            None if a3 is None else ScoreLine(p, a3, "all-three",
                                              "first trick, last trick and every point card",
                                              "detail.all-three") for p in range(n))
        v = rules.contract_points
        contract = rules.contract
        self.declarer_leads = contract.declarer_leads
        self.automatic = contract.automatic
        word = contract.word
        mine = -v if contract.bonus else 0
        # the opponents' line when player d makes its contract (or takes every trick
        # without one: chelem), and the declarer's own lines
        self.opponent = tuple(tuple(ScoreLine(p, v, "opponent-" + word, f"player {d}",
                                              "detail.by", (("player", d),)) for p in range(n))
                              for d in range(n))
        self.contract_made = tuple(ScoreLine(d, mine, word + "-made") for d in range(n))
        self.contract_failed = tuple(
            ScoreLine(d, v, word + "-failed", "own cards do not count", "detail.own-cards")
            if contract.declarer_leads else ScoreLine(d, v, word + "-failed")
            for d in range(n))
        self.opponent_chelem = tuple(tuple(ScoreLine(p, v, "opponent-chelem", f"player {s}",
                                                     "detail.by", (("player", s),))
                                           for p in range(n)) for s in range(n))
        self.chelem = tuple(ScoreLine(s, 0, "chelem") for s in range(n))
        family = rules.family
        self.adjust = family.adjust_lines if family.adjusts_lines else None
        """The game family's change to the lines (the moon), None: none."""


_ROW_TABLE_CARDS: Final = 6
"""The most point cards in play for which a rule set's lines hold a table of each
player's card lines (``_Lines.card_rows``: 2 ** 6 sets of cards a player)."""

_LINES: dict[tuple[int, int], _Lines] = {}
"""Per (rules, players): its lines (a cache: at most 256; the rules are kept in it,
so that their id stays theirs)."""


def _lines_of(rules: Rules, n: int) -> _Lines:
    """The lines of ``rules`` for ``n`` players (see _LINES)."""
    found = _LINES.get((id(rules), n))
    if found is None or found.rules is not rules:
        found = _Lines(rules, n)
        if len(_LINES) >= 256:
            _LINES.clear()
        _LINES[id(rules), n] = found
    return found


def score_tricks(
    rules: Rules,
    n: int,
    taken: Mapping[str, int | None],
    tricks: Sequence[int],
    first_trick: int,
    last_trick: int,
    declarer: int,
    slam: int,
) -> DealScore:
    """Score a trick-game deal (the trick-avoidance games, Knaves, the Hearts family)
    from its facts (:func:`score_taken`, the cards taken given by their takers).

    Players are numbered within the deal; ``taken`` maps each point card in
    play to its taker (None: nobody); ``declarer`` and ``slam`` are -1 for
    none.
    """
    masks = [0] * n
    for c, code in _lines_of(rules, n).codes:
        p = taken.get(code)
        if p is not None and 0 <= p < n:
            masks[p] |= 1 << c
    return score_taken(rules, n, masks, tricks, first_trick, last_trick, declarer, slam,
                       lambda: taken)


def score_taken(
    rules: Rules,
    n: int,
    taken: Sequence[Mask],
    tricks: Sequence[int],
    first_trick: int,
    last_trick: int,
    declarer: int,
    slam: int,
    takers: Callable[[], Mapping[str, int | None]],
) -> DealScore:
    """Score a trick-game deal from its facts: the one home of the rule (a played deal
    is scored here straight, a score pad's entry through :func:`score_tricks`).

    ``taken`` has each player's cards taken (masks: the point cards in play count);
    ``takers`` gives them as :func:`score_tricks`' ``taken`` for the game family's
    change to the lines (the moon), asked only where it has one; ``tricks`` each
    player's trick count; ``declarer`` and ``slam`` are -1 for none.
    """
    lines = _LINES.get((id(rules), n))  # _lines_of, its usual case inlined
    if lines is None or lines.rules is not rules:
        lines = _lines_of(rules, n)
    by_card = lines.by_card
    point_mask = lines.point_mask
    per: list[list[ScoreLine]] = []
    card_rows = lines.card_rows
    if card_rows is not None:  # each player's cards in card order, from the table
        for p in range(n):
            m = taken[p] & point_mask
            per.append(list(card_rows[p][m]) if m else [])
    else:
        for p in range(n):  # each player's cards in card order
            m = taken[p] & point_mask
            if m:
                row = []
                while m:
                    low = m & -m
                    row.append(by_card[low.bit_length() - 1][p])  # type: ignore[index]
                    m ^= low
                per.append(row)
            else:
                per.append([])
    tp = lines.trick_points
    if tp:
        counts = lines.tricks
        for p in range(n):
            k = tricks[p]
            if k:
                count_lines = counts[p]
                won = count_lines[k] if 0 < k < len(count_lines) else None
                if won is not None:
                    per[p].append(won)
                else:  # a count no hand has (a score pad's entry)
                    per[p].append(ScoreLine(p, tp * k, "tricks", str(k)))
    if 0 <= first_trick < n:
        first = lines.first[first_trick]
        if first is not None:
            per[first_trick].append(first)
    if 0 <= last_trick < n:
        last = lines.last[last_trick]
        if last is not None:
            per[last_trick].append(last)
    p = first_trick
    if 0 <= p < n and p == last_trick:
        all_three = lines.all_three[p]
        if all_three is not None and taken[p] & point_mask == point_mask:
            per[p] = [all_three]
    if lines.adjust is not None:
        per = lines.adjust(rules, n, takers(), per)  # the game family's (the moon)
    if declarer >= 0:
        if slam == declarer:
            opponent = lines.opponent[declarer]
            per = [[opponent[p]] for p in range(n)]
            per[declarer] = [lines.contract_made[declarer]]
        elif lines.declarer_leads:
            per[declarer] = [lines.contract_failed[declarer]]
        else:
            per[declarer].append(lines.contract_failed[declarer])
    elif slam >= 0 and lines.automatic:
        opponent = lines.opponent_chelem[slam]
        per = [[opponent[p]] for p in range(n)]
        per[slam] = [lines.chelem[slam]]
    scores = []
    flat: list[ScoreLine] = []
    for g in per:
        if g:
            total = 0
            for x in g:
                total += x.points
            scores.append(total)
            flat += g
        else:
            scores.append(0)
    # built as DealScore(tuple(scores), tuple(flat)) would be, without its __init__ call
    score = _new(DealScore)
    _set_score(score, {"scores": tuple(scores), "lines": tuple(flat), "card_points": (),
                       "redeal": False, "claim": None})
    return score


def trick_score_bounds(rules: Rules, n: int) -> tuple[int, int]:
    """The lowest and highest score one player can get from a deal scored by
    :func:`score_tricks` with ``n`` players (sound bounds, 0 between them): its
    card points, trick, first- and last-trick points, all three, the contracts.

    A game family's change to the lines (``Family.adjust_lines``, the moon)
    must keep each player's score within them (the moon only moves the
    positive card points to the others, at most their total)."""
    pts = rules.point_table()
    in_play = cards_of(rules.pack_mask(n))
    tricks = rules.hand_size(n)
    pos = sum(max(0, pts[c]) for c in in_play)
    neg = sum(min(0, pts[c]) for c in in_play)
    tp = rules.trick_points
    hi = pos + max(0, tp) * tricks + max(0, rules.first_trick_points) \
        + max(0, rules.last_trick_points)
    lo = neg + min(0, tp) * tricks + min(0, rules.first_trick_points) \
        + min(0, rules.last_trick_points)
    if rules.all_three_points is not None:
        hi = max(hi, rules.all_three_points)
        lo = min(lo, rules.all_three_points)
    v = rules.contract_points
    contract = rules.contract
    if rules.has_declaration_round:
        hi = max(hi, v) if contract.declarer_leads else max(hi + v, v)
        lo = min(lo, 0, -v if contract.bonus else 0)
    elif contract.automatic:
        hi = max(hi, v)
        lo = min(lo, 0)
    return min(lo, 0), max(hi, 0)
