"""The score pad (docs/rules/common.md#score-pad): scoring a match played with real cards.

Per deal the players enter what happened (who took which penalty cards, the
tricks, the card points, contracts, revokes, announcements and claims);
the pad scores it exactly as the engine scores a played deal (the same
:class:`~polignac.core.rules.Rules` data, the same :class:`DealScore` lines),
keeps the totals and the dealer, and applies the preset's match-end rule.

A :class:`ScorePad` is immutable: :meth:`ScorePad.add` returns a new pad.
Player numbers are the match seats ``0..n-1`` in play order; every per-player
list in an entry has one item per seat (0 for a seat that sits out a
tie-break deal).

>>> from polignac.core.presets import get_rules
>>> pad = ScorePad.new(get_rules("polignac", {"threshold": 10}), ["Ann", "Bob", "Cy", "Di"])
>>> pad = pad.add({"taken": {"JS": 0, "JC": 1, "JD": 1, "JH": 2}})
>>> pad.totals, pad.next_dealer
((2, 2, 1, 0), 1)
>>> ScorePad.from_json(pad.to_json()).totals
(2, 2, 1, 0)
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

from .cards import CODES, parse_card
from .errors import PolignacError, RulesError, ScorePadError
from .families import ANNOUNCEMENTS, FAMILIES
from .presets import PRESETS, get_rules
from .rules import BOUNDS, Rules, show
from .scoring import (
    DealScore,
    ScoreLine,
    pack_points,
    point_cards_in_play,
    score_tricks,
)
from .standing import Standing, StandingView

FORMAT: Final = "polignac-scorepad/1"

MAX_NUMBER: Final = 1_000_000
"""Largest size of any whole number in a pad or an entry (seats, tricks, points)."""
MAX_LIST: Final = 52
"""Most items of any list or map in an entry (``taken``, ``tricks``, ``revokes`` ...)."""
MAX_ENTRIES: Final = 2000
"""Most deal entries a pad may hold (misdeals included)."""
MAX_REVOKE: Final = 100
"""Largest revoke penalty."""
MAX_TEXT: Final = 500
"""Longest text of a note or of exposed cards."""

REVOKE_DEFAULTS: Final[dict[str, int]] = {
    preset: penalty for family in FAMILIES for preset, penalty in family.revoke_penalties.items()
}
"""Revoke penalties of the presets whose source has one (docs/rules/common.md#revoke-penalty),
gathered from their families (``Family.revoke_penalties``)."""


def _sheet_keys() -> dict[str, Any]:
    """The keys of a scoring family's sheet that a pad's JSON has in every game, as
    before the first partie (``Family.sheet`` fills them in parties)."""
    return {"partie": [0, 0], "parties_won": [], "partie_scores": [], "parties_tally": [0, 0],
            "game_points": [0, 0]}

_ENTRY_KEYS: Final = frozenset({
    "misdeal", "taken", "tricks", "first_trick", "last_trick", "slam", "contract",
    "card_points", "announcements", "claim", "revokes", "exposed", "note",
})


# --------------------------------------------------------------- the entries


@dataclass(frozen=True)
class Entry:
    """What the players say happened in one deal (validated against the pad).

    ``taken`` maps each penalty card (code) to the seat that took it (None:
    nobody, a Knaves turn-up); ``tricks`` and ``card_points`` have one item per
    seat (by sides: ``card_points`` per side, side 0 = seats 0 and 2);
    ``slam`` is the seat that took every trick; ``contract`` is
    ``(declarer, made)``; ``last_trick`` is a seat (by sides: a side);
    ``claim`` the seat that claimed "out"; ``revokes`` one seat per
    revoke called; ``exposed`` notes (seat, cards), which score nothing.
    """

    misdeal: bool = False
    taken: tuple[tuple[str, int | None], ...] = ()
    tricks: tuple[int, ...] | None = None
    first_trick: int | None = None
    last_trick: int | None = None
    slam: int | None = None
    contract: tuple[int, bool] | None = None
    card_points: tuple[int, ...] | None = None
    announcements: tuple[tuple[int, str], ...] = ()
    claim: int | None = None
    revokes: tuple[int, ...] = ()
    exposed: tuple[tuple[int, str], ...] = ()
    note: str = ""

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Entry:
        """Read an entry from JSON-ready data (types only; the pad checks the facts).

        Raises:
            ScorePadError: an unknown field or a value of the wrong kind.
        """
        if not isinstance(data, Mapping):
            raise ScorePadError("a deal entry must be an object", "entry")
        for key in data:
            if key not in _ENTRY_KEYS:
                raise ScorePadError(
                    f"unknown field; fields are: {', '.join(sorted(_ENTRY_KEYS))}", str(key))
        for key in ("taken", "announcements", "exposed"):
            raw = data.get(key)
            if isinstance(raw, (Mapping, list)) and len(raw) > MAX_LIST:
                raise ScorePadError(f"{len(raw)} items; at most {MAX_LIST}", key)
        taken_raw = data.get("taken") or {}
        if not isinstance(taken_raw, Mapping):
            raise ScorePadError("must map card codes to seats", "taken")
        taken: list[tuple[str, int | None]] = []
        for code, seat in taken_raw.items():
            try:
                if len(str(code)) > 8:
                    raise ScorePadError(f"not a card: {show(code, 20)}", "taken")
                card = CODES[parse_card(str(code))]
            except PolignacError as exc:
                raise ScorePadError(str(exc), f"taken.{str(code)[:8]}") from None
            taken.append((card, _opt_int(seat, f"taken.{card}")))
        contract = None
        raw_c = data.get("contract")
        if raw_c is not None:
            if not isinstance(raw_c, Mapping) or "declarer" not in raw_c or "made" not in raw_c:
                raise ScorePadError("must be {\"declarer\": seat, \"made\": true/false}",
                                    "contract")
            made = raw_c["made"]
            if not isinstance(made, bool):
                raise ScorePadError("must be true or false", "contract.made")
            contract = (_int(raw_c["declarer"], "contract.declarer"), made)
        anns: list[tuple[int, str]] = []
        for i, a in enumerate(data.get("announcements") or ()):
            where = f"announcements[{i}]"
            if not isinstance(a, Mapping):
                raise ScorePadError("must be {\"player\": seat, \"announcement\": name}", where)
            name = a.get("announcement")
            if name not in ANNOUNCEMENTS:
                raise ScorePadError(
                    f"unknown announcement {show(name)}; announcements are: "
                    + ", ".join(ANNOUNCEMENTS), where + ".announcement")
            anns.append((_int(a.get("player"), where + ".player"), str(name)))
        exposed: list[tuple[int, str]] = []
        for i, x in enumerate(data.get("exposed") or ()):
            where = f"exposed[{i}]"
            if not isinstance(x, Mapping):
                raise ScorePadError("must be {\"player\": seat, \"cards\": text}", where)
            cards = x.get("cards", "")
            if not isinstance(cards, str) or len(cards) > MAX_TEXT:
                raise ScorePadError(f"must be text of at most {MAX_TEXT} characters",
                                    where + ".cards")
            exposed.append((_int(x.get("player"), where + ".player"), cards))
        note = data.get("note", "")
        if not isinstance(note, str) or len(note) > MAX_TEXT:
            raise ScorePadError(f"must be text of at most {MAX_TEXT} characters", "note")
        misdeal = data.get("misdeal", False)
        if not isinstance(misdeal, bool):
            raise ScorePadError("must be true or false", "misdeal")
        return cls(
            misdeal=misdeal,
            taken=tuple(taken),
            tricks=_opt_ints(data.get("tricks"), "tricks"),
            first_trick=_opt_int(data.get("first_trick"), "first_trick"),
            last_trick=_opt_int(data.get("last_trick"), "last_trick"),
            slam=_opt_int(data.get("slam"), "slam"),
            contract=contract,
            card_points=_opt_ints(data.get("card_points"), "card_points"),
            announcements=tuple(anns),
            claim=_opt_int(data.get("claim"), "claim"),
            revokes=_opt_ints(data.get("revokes"), "revokes") or (),
            exposed=tuple(exposed),
            note=str(note)[:500],
        )

    def to_dict(self) -> dict[str, Any]:
        """Return the entry as JSON-ready data (only the fields that are set)."""
        out: dict[str, Any] = {}
        if self.misdeal:
            out["misdeal"] = True
        if self.taken:
            out["taken"] = dict(self.taken)
        for name in ("tricks", "card_points"):
            value = getattr(self, name)
            if value is not None:
                out[name] = list(value)
        for name in ("first_trick", "last_trick", "slam", "claim"):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        if self.contract is not None:
            out["contract"] = {"declarer": self.contract[0], "made": self.contract[1]}
        if self.announcements:
            out["announcements"] = [{"player": p, "announcement": a}
                                    for p, a in self.announcements]
        if self.revokes:
            out["revokes"] = list(self.revokes)
        if self.exposed:
            out["exposed"] = [{"player": p, "cards": c} for p, c in self.exposed]
        if self.note:
            out["note"] = self.note
        return out


def _int(value: Any, name: str) -> int:
    """``value`` as a whole number of at most :data:`MAX_NUMBER` in size.

    Raises:
        ScorePadError: not a whole number, or too large (field ``name``).
    """
    if isinstance(value, str) and len(value) <= 12:
        with contextlib.suppress(ValueError):
            value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScorePadError(f"must be a whole number, not {show(value)}", name)
    if abs(value) > MAX_NUMBER:
        raise ScorePadError(f"must be from {-MAX_NUMBER} to {MAX_NUMBER}, not {show(value)}",
                            name)
    return value


def _opt_int(value: Any, name: str) -> int | None:
    return None if value is None or value == "" else _int(value, name)


def _opt_ints(value: Any, name: str) -> tuple[int, ...] | None:
    if value is None:
        return None
    if not isinstance(value, (list, tuple)):
        raise ScorePadError("must be a list of whole numbers", name)
    if len(value) > MAX_LIST:
        raise ScorePadError(f"{len(value)} items; at most {MAX_LIST}", name)
    return tuple(_int(v, f"{name}[{i}]") for i, v in enumerate(value))


# ------------------------------------------------------- scoring (pure helpers)


def trick_entry_score(pad: ScorePad, entry: Entry, seats: tuple[int, ...]) -> DealScore:
    """The checks and the score of a trick game's entry (who took which point
    card, the tricks, the contract or slam): the hook of the trick games'
    families (``Family.score_entry``).

    Raises:
        ScorePadError: a bad entry; its ``field`` names the bad field.
    """
    return pad.score_tricks(entry, seats)


# ------------------------------------------------------------------ the pad


@dataclass(frozen=True)
class PadDeal:
    """One entered deal: the entry, who dealt, the seats that played, the score.

    ``scores`` has one number per match seat (0 for seats not in a tie-break
    deal); ``tiebreak`` deals and ``misdeal`` entries do not count in the
    totals; ``redeal`` marks a deal in chips after which the pool stays.
    """

    number: int
    entry: Entry
    dealer: int
    seats: tuple[int, ...]
    scores: tuple[int, ...]
    lines: tuple[ScoreLine, ...] = ()
    tiebreak: bool = False
    redeal: bool = False
    family_result: Any = None
    """What the deal did to the scoring family's state under its own match end
    (``Family.after_deal``; in parties: the partie and its winner), carried unread."""

    def to_dict(self, names: Sequence[str], rules: Rules | None = None) -> dict[str, Any]:
        """Return the deal as JSON-ready data, with a line of words per reason (and,
        given the pad's ``rules``, its scoring family's part: ``Family.pad_entry``)."""
        out: dict[str, Any] = {
            "number": self.number, "dealer": self.dealer, "seats": list(self.seats),
            "scores": list(self.scores), "tiebreak": self.tiebreak,
            "misdeal": self.entry.misdeal, "redeal": self.redeal,
            "lines": [line.to_dict() for line in self.lines],
            "entry": self.entry.to_dict(),
        }
        if self.family_result is not None and rules is not None:  # in parties: partie_winner
            out.update(rules.scorer.pad_entry(self.family_result))
        return out


@dataclass(frozen=True)
class ScorePad(StandingView):
    """A match kept on paper.  Build with :meth:`new`; :meth:`add` enters a deal."""

    rules: Rules
    names: tuple[str, ...]
    first_dealer: int = 0
    revoke_penalty: int | None = None
    deals: tuple[PadDeal, ...] = ()
    standing: Standing = field(default_factory=lambda: Standing(()))
    """Totals and match status, kept by the same rules as a played match."""


    # ---------------------------------------------------------- construction

    @classmethod
    def new(
        cls,
        rules: Rules,
        names: Sequence[str],
        first_dealer: int = 0,
        revoke_penalty: int | str | None = "default",
    ) -> ScorePad:
        """Start a pad for ``rules`` and these players (seats in play order).

        ``revoke_penalty``: points a called revoke costs; ``"default"`` takes
        the preset's (docs/rules/common.md#revoke-penalty), None allows no revokes.

        Raises:
            ScorePadError: the player count is not allowed (field ``names``),
                a name is empty, the first dealer is no seat, a chips
                number of deals does not let everyone deal equally, or a bad
                revoke penalty.
        """
        n = len(names)
        try:
            rules.check_player_count(n)
        except RulesError as exc:
            raise ScorePadError(str(exc), "names") from None
        clean = tuple(str(x).strip() for x in names)
        for i, name in enumerate(clean):
            if not name or len(name) > 40:
                raise ScorePadError("a name must have 1 to 40 characters", f"names[{i}]")
        if not 0 <= first_dealer < n:
            raise ScorePadError(f"{first_dealer} is not a seat (0-{n - 1})", "first_dealer")
        if rules.end.chips and rules.num_deals(n) % n:
            raise ScorePadError(
                f"{rules.num_deals(n)} deals do not let each of {n} players deal "
                f"equally; choose a multiple of {n}", "deals")
        if revoke_penalty == "default":
            revoke_penalty = REVOKE_DEFAULTS.get(rules.preset)
        if revoke_penalty is not None and (
                not isinstance(revoke_penalty, int) or isinstance(revoke_penalty, bool)
                or not 0 <= revoke_penalty <= MAX_REVOKE):
            raise ScorePadError(f"must be a whole number from 0 to {MAX_REVOKE}, not "
                                f"{show(revoke_penalty)}", "revoke_penalty")
        return cls(rules, clean, first_dealer, revoke_penalty,
                   standing=Standing.start(n, rules.scorer.start_state(rules, n)))

    # ---------------------------------------------------------------- state

    @property
    def num_players(self) -> int:
        """Number of players in the match."""
        return len(self.names)

    def next_deal(self) -> tuple[int, tuple[int, ...]]:
        """The dealer seat and the seats of the next deal.

        Raises:
            ScorePadError: the match is over (field ``entry``).
        """
        if self.finished:
            raise ScorePadError("the match is over: no more deals", "entry")
        prev = self.deals[-1] if self.deals else None
        if prev is not None and prev.entry.misdeal:
            return prev.dealer, prev.seats
        return self.standing.next_deal(
            self.num_players, self.first_dealer,
            None if prev is None else prev.dealer,
            prev is not None and prev.redeal,
        )

    @property
    def next_dealer(self) -> int | None:
        """The seat that deals next, or None when the match is over."""
        return None if self.finished else self.next_deal()[0]

    def form(self) -> dict[str, Any]:
        """What the next deal's entry needs (for a form), JSON-ready."""
        r = self.rules
        n = self.num_players
        dealer, seats = (None, tuple(range(n))) if self.finished else self.next_deal()
        k = len(seats)
        kind = "chips" if r.kind.chips else r.scoring if r.kind.sides else "tricks"
        return {
            "kind": kind,
            "dealer": dealer,
            "seats": list(seats),
            "tiebreak": bool(self.tied),
            "point_cards": list(point_cards_in_play(r, k)) if kind == "tricks" else [],
            "card_values": {c: r.point_table()[CODES.index(c)]
                            for c in point_cards_in_play(r, k)} if kind == "tricks" else {},
            "tricks_per_player": r.hand_size(k),
            "pack_points": pack_points(r, k),
            "needs_tricks": kind == "chips" or bool(r.trick_points),
            "needs_first_trick": bool(r.first_trick_points) or r.all_three_points is not None,
            "needs_last_trick": bool(r.last_trick_points) or r.all_three_points is not None,
            "contract": r.contract.word if r.contract.declared else None,
            "chelem": r.contract.automatic,
            "turn_up": r.has_turn_up,
            "revoke_penalty": self.revoke_penalty,
            "announcements": list(r.scorer.announcements) if r.announcements else [],
            # a deal in chips puts up a stake unless the pool stayed (pool >= 1)
            "pool_in": kind != "chips"
            or r.scorer.stake(r, r.scorer.deal_state(self.family_state)) > 0,
            "moon": r.moon,
        }

    # --------------------------------------------------------------- entering

    def add(self, entry: Entry | Mapping[str, Any]) -> ScorePad:
        """Enter the next deal and apply the match-end rule.

        Raises:
            ScorePadError: the match is over, or the entry is invalid; the
                error's ``field`` names the bad field.
        """
        if not isinstance(entry, Entry):
            entry = Entry.from_dict(entry)
        dealer, seats = self.next_deal()
        n = self.num_players
        number = len(self.deals) + 1
        if entry.misdeal:
            deal = PadDeal(number, entry, dealer, seats, (0,) * n, tiebreak=bool(self.tied))
            note = f"deal {number}: misdeal, the same dealer deals again"
            return replace(self, deals=self.deals + (deal,),
                           standing=replace(self.standing, notes=(*self.notes, note)))
        score = self._score(entry, dealer, seats)
        scores = [0] * n
        for i, seat in enumerate(seats):
            scores[seat] = score.scores[i]
        by_sides = self.rules.kind.sides
        lines = tuple(ScoreLine(x.player if by_sides else seats[x.player], x.points, x.reason,
                                x.detail, x.key,
                                tuple((k, v if by_sides or k != "player" else seats[v])
                                      for k, v in x.params), x.side)
                      for x in score.lines)
        rev_lines, rev_scores = self._revokes(entry, seats)
        scores = [a + b for a, b in zip(scores, rev_scores, strict=True)]
        deal = PadDeal(number, entry, dealer, seats, tuple(scores), lines + rev_lines,
                       tiebreak=bool(self.tied), redeal=score.redeal)
        return self._finish(deal, score)

    def undo(self) -> ScorePad:
        """The pad without its last deal (the same pad if there is none)."""
        if not self.deals:
            return self
        pad = ScorePad.new(self.rules, self.names, self.first_dealer, self.revoke_penalty)
        for d in self.deals[:-1]:
            pad = pad.add(d.entry)
        return pad

    # ------------------------------------------------------------ validation

    def _seat(self, value: int | None, name: str, seats: Sequence[int],
              required: bool = True) -> int | None:
        if value is None:
            if required:
                raise ScorePadError("missing: say which player", name)
            return None
        if value not in seats:
            raise ScorePadError(
                f"{value} is not a player of this deal (players: "
                + ", ".join(f"{s} {self.names[s]}" for s in seats) + ")", name)
        return value

    def _per_seat(self, values: tuple[int, ...] | None, name: str,
                  seats: Sequence[int]) -> list[int] | None:
        """Per-seat numbers of the deal's players (seats outside the deal must be 0)."""
        if values is None:
            return None
        n = self.num_players
        if len(values) != n:
            raise ScorePadError(f"needs one number per player ({n}), not {len(values)}", name)
        for s, v in enumerate(values):
            if v < 0:
                raise ScorePadError(f"{self.names[s]}: {v} is negative", f"{name}[{s}]")
            if s not in seats and v:
                raise ScorePadError(f"{self.names[s]} does not play this tie-break deal",
                                    f"{name}[{s}]")
        return [values[s] for s in seats]

    def _score(self, e: Entry, dealer: int, seats: tuple[int, ...]) -> DealScore:
        # the scoring family's checks and score (core/families.py)
        return self.rules.scorer.score_entry(self, e, dealer, seats)

    def _unused(self, e: Entry, *names: str) -> None:
        for name in names:
            value = getattr(e, name)
            if value not in (None, (), False):
                raise ScorePadError(f"does not belong to preset {self.rules.preset!r}", name)

    def score_tricks(self, e: Entry, seats: tuple[int, ...]) -> DealScore:
        r = self.rules
        k = len(seats)
        self._unused(e, "card_points", "announcements", "claim")
        if not r.contract.automatic:
            self._unused(e, "slam")
        in_play = point_cards_in_play(r, k)
        given = dict(e.taken)
        for code in given:
            if code not in in_play:
                raise ScorePadError(
                    f"{code} scores nothing in this deal; the penalty cards are "
                    + " ".join(in_play), f"taken.{code}")
        taken: dict[str, int | None] = {}
        nobody = 0
        for code in in_play:
            if code not in given:
                continue
            seat = given[code]
            if seat is None and r.has_turn_up:
                nobody += 1
                if nobody > 1:
                    raise ScorePadError("only the turn-up card belongs to nobody",
                                        f"taken.{code}")
                taken[code] = None
                continue
            s = self._seat(seat, f"taken.{code}", seats)
            taken[code] = None if s is None else seats.index(s)
        for code in in_play:
            if code not in given:
                raise ScorePadError("missing: say who took it", f"taken.{code}")
        size = r.hand_size(k)
        tricks = self._per_seat(e.tricks, "tricks", seats)
        if tricks is None and r.trick_points:
            raise ScorePadError("missing: say how many tricks each player took", "tricks")
        if tricks is not None and sum(tricks) != size:
            raise ScorePadError(f"add up to {sum(tricks)}; a deal has {size} tricks", "tricks")
        needs_first = bool(r.first_trick_points) or r.all_three_points is not None
        needs_last = bool(r.last_trick_points) or r.all_three_points is not None
        first = self._seat(e.first_trick, "first_trick", seats, needs_first)
        last = self._seat(e.last_trick, "last_trick", seats, needs_last)
        # Who took every trick: from the tricks, the contract or the slam field.
        slam = -1
        if tricks is not None:
            slam = next((i for i in range(k) if tricks[i] == size), -1)
        declarer = -1
        if e.contract is not None:
            if not r.has_declaration_round:
                raise ScorePadError(
                    f"preset {r.preset!r} has no contract to declare", "contract")
            d = self._seat(e.contract[0], "contract.declarer", seats)
            declarer = seats.index(d) if d is not None else -1
            if e.contract[1]:
                if tricks is not None and slam != declarer:
                    raise ScorePadError("the declarer did not take every trick (see tricks)",
                                        "contract.made")
                slam = declarer
            elif slam == declarer:
                raise ScorePadError("the declarer took every trick (see tricks): it was made",
                                    "contract.made")
        if e.slam is not None:
            s = self._seat(e.slam, "slam", seats)
            si = seats.index(s) if s is not None else -1
            if tricks is not None and si != slam:
                raise ScorePadError("does not agree with tricks", "slam")
            slam = si
        if slam >= 0:
            who = self.names[seats[slam]]
            for code in in_play:
                if taken[code] is not None and taken[code] != slam:
                    raise ScorePadError(f"{who} took every trick, so every card", f"taken.{code}")
            for name, value in (("first_trick", first), ("last_trick", last)):
                if value is not None and value != seats[slam]:
                    raise ScorePadError(f"{who} took every trick", name)
        if tricks is not None:
            for code in in_play:
                t = taken[code]
                if t is not None and tricks[t] == 0:
                    raise ScorePadError(f"{self.names[seats[t]]} took no trick", f"taken.{code}")
            for name, value in (("first_trick", first), ("last_trick", last)):
                if value is not None and tricks[seats.index(value)] == 0:
                    raise ScorePadError(f"{self.names[value]} took no trick", name)
        if first is not None and last is not None and size == 1 and first != last:
            raise ScorePadError("a one-trick deal has one trick", "last_trick")
        return score_tricks(
            r, k, taken, tricks if tricks is not None else [0] * k,
            -1 if first is None else seats.index(first),
            -1 if last is None else seats.index(last),
            declarer, slam)

    def _revokes(self, e: Entry, seats: tuple[int, ...]
                 ) -> tuple[tuple[ScoreLine, ...], list[int]]:
        n = self.num_players
        out = [0] * n
        if not e.revokes:
            return (), out
        v = self.revoke_penalty
        if v is None:
            raise ScorePadError(
                f"preset {self.rules.preset!r} has no revoke penalty; set revoke_penalty "
                "to allow revokes", "revokes")
        lines: list[ScoreLine] = []
        for i, s in enumerate(e.revokes):
            self._seat(s, f"revokes[{i}]", seats)
            kind = self.rules.kind
            if kind.penalty:
                out[s] += v
                lines.append(ScoreLine(s, v, "revoke"))
            elif kind.chips:
                for p in seats:
                    if p != s:
                        out[p] += v
                        out[s] -= v
                lines.append(ScoreLine(s, -v * (len(seats) - 1), "revoke",
                                       f"pays {v} to each other player", "detail.revoke-pays",
                                       (("n", v),)))
            elif not kind.sides:
                out[s] -= v
                lines.append(ScoreLine(s, -v, "revoke"))
            else:  # by sides: the other side scores the penalty
                for p in range(n):
                    if p & 1 != s & 1:
                        out[p] += v
                lines.append(ScoreLine(s, v, "revoke", "scored by the other side",
                                       "detail.other-side", side=1 - (s & 1)))
        return tuple(lines), out

    # ------------------------------------------------------------ match end

    def _finish(self, deal: PadDeal, score: DealScore) -> ScorePad:
        """Add a scored deal and apply the match-end rule (as a played Match does)."""
        standing, family_result = self.standing.after_deal(
            self.rules, deal.scores, redeal=deal.redeal, claim=score.claim,
            last_trick_side=deal.entry.last_trick, name=lambda seat: self.names[seat],
        )
        deal = replace(deal, family_result=family_result)
        return replace(self, deals=self.deals + (deal,), standing=standing)

    # ---------------------------------------------------------- serializing

    def words(self) -> dict[str, Any]:
        """What the sheet's words depend on, from the family and the scoring (so a page
        compares no scoring names): ``total`` (the total row's word,
        ``Family.total_word``), ``side_reasons`` (the lines under no player,
        ``Family.side_reasons``), ``higher_better`` (a higher score wins)."""
        family = self.rules.family
        return {"total": family.total_word, "side_reasons": list(family.side_reasons),
                "higher_better": not self.rules.kind.penalty}

    def to_dict(self) -> dict[str, Any]:
        """Return the pad as JSON-ready data: the setup and entries (enough to
        rebuild it) plus the derived state (totals, match end, next form)."""
        base = PRESETS[self.rules.preset] if self.rules.preset in PRESETS else Rules()
        return {
            "format": FORMAT,
            "preset": self.rules.preset,
            "overrides": self.rules.overrides_from(base),
            "names": list(self.names),
            "first_dealer": self.first_dealer,
            "revoke_penalty": self.revoke_penalty,
            "entries": [d.entry.to_dict() for d in self.deals],
            "deals": [d.to_dict(self.names, self.rules) for d in self.deals],
            "totals": list(self.totals),
            "finished": self.finished,
            "winners": list(self.winners),
            "losers": list(self.losers),
            "tied": list(self.tied),
            # the pad's JSON has these keys in every game (the pages read them), the
            # scoring family's sheet fills them (Family.sheet: in parties)
            **_sheet_keys(),
            **self.rules.scorer.sheet(self.standing, self.rules),
            "sides": [list(x) for x in self.rules.sides],
            "notes": list(self.notes),
            "scoring": self.rules.scoring,
            "words": self.words(),
            "match_end": self.rules.match_end,
            "threshold": self.rules.threshold,
            "num_deals": (self.rules.num_deals(self.num_players)
                          if self.rules.end.fixed else None),
            "counted_deals": self.counted_deals,
            "next": None if self.finished else self.form(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ScorePad:
        """Rebuild a pad from :meth:`to_dict` data (or just its setup part),
        replaying and re-checking every entry; derived fields are ignored.

        Raises:
            ScorePadError: a bad setup (field ``preset``, ``overrides``,
                ``names`` ...) or an entry that does not score (field
                ``entries[i].<field>``).
        """
        if not isinstance(data, Mapping):
            raise ScorePadError("must be an object", "pad")
        preset = data.get("preset", "polignac")
        overrides = data.get("overrides") or {}
        if not isinstance(overrides, Mapping):
            raise ScorePadError("must be an object of rule parameters", "overrides")
        try:
            rules = get_rules(str(preset))
        except RulesError as exc:
            raise ScorePadError(str(exc), "preset") from None
        try:
            rules = rules.with_overrides(overrides) if overrides else rules
        except RulesError as exc:
            raise ScorePadError(str(exc), "overrides") from None
        names = data.get("names")
        if not isinstance(names, list):
            raise ScorePadError("must be a list of player names", "names")
        if len(names) > BOUNDS["players"][1]:
            raise ScorePadError(f"{len(names)} names; at most {BOUNDS['players'][1]} play",
                                "names")
        revoke = data.get("revoke_penalty", "default")
        pad = cls.new(rules, [str(x) for x in names],
                      _int(data.get("first_dealer", 0), "first_dealer"),
                      revoke if revoke == "default" or revoke is None
                      else _int(revoke, "revoke_penalty"))
        entries = data.get("entries") or []
        if not isinstance(entries, list):
            raise ScorePadError("must be a list of deal entries", "entries")
        if len(entries) > MAX_ENTRIES:
            raise ScorePadError(f"{len(entries)} entries; at most {MAX_ENTRIES}", "entries")
        for i, entry in enumerate(entries):
            try:
                pad = pad.add(entry)
            except ScorePadError as exc:
                raise ScorePadError(exc.reason, f"entries[{i}].{exc.field}") from None
        return pad

    def to_json(self) -> str:
        """Return :meth:`to_dict` as JSON text."""
        return json.dumps(self.to_dict())

    @classmethod
    def from_json(cls, text: str) -> ScorePad:
        """Rebuild a pad from :meth:`to_json` text.

        Raises:
            ScorePadError: the text is not JSON (field ``pad``), or as :meth:`from_dict`.
        """
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise ScorePadError(f"not JSON: {exc}", "pad") from None
        return cls.from_dict(data)
