"""Game records (``polignac-record/1``): write a match, replay one, summarise it.

The format is documented in ``docs/record-format.md``.  Everything here is
pure: records are dicts (parsed JSON); reading and writing files is the
caller's business.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .actions import action_name, parse_action
from .cards import CODES, cards_of
from .errors import CardParseError, IllegalActionError, PolignacError, RecordError, RulesError
from .match import Match
from .presets import get_rules
from .rules import BOUNDS, show
from .scoring import ScoreLine

FORMAT = "polignac-record/1"
MAX_NAME = 100
"""Longest player name a record may hold (characters)."""
MAX_TOKEN = 40
"""Longest card or action text a record may hold (characters)."""
MAX_DEALS = 1000
"""Most deals a record may hold (tie-break deals included)."""


def to_record(match: Match,
              shuffles: Sequence[Mapping[str, Any] | None] = ()) -> dict[str, Any]:
    """Return the record of ``match`` (finished or not), JSON-ready.

    Every deal carries its dealer, seats, hands as dealt, turn-up and actions;
    a deal in progress is included with the actions so far.  ``shuffles[i]``,
    when given and not None, is deal ``i + 1``'s verification data (the
    ``shuffle`` object of :class:`polignac.core.shuffle.Proof`).
    """
    base = get_rules(match.rules.preset)
    deals = []
    entries = [(r.dealer, r.seats, r.deal) for r in match.results]
    if match.current is not None:
        entries.append((match.current_dealer, match.current_seats, match.current))
    for i, (dealer, seats, deal) in enumerate(entries):
        entry: dict[str, Any] = {
            "dealer": dealer,
            "seats": list(seats),
            "hands": [[CODES[c] for c in cards_of(h)] for h in deal.initial_hands],
            "turn_up": None if deal.turn_up is None else CODES[deal.turn_up],
            "actions": [action_name(a) for a in deal.history],
        }
        if i < len(shuffles) and shuffles[i] is not None:
            entry["shuffle"] = dict(shuffles[i] or {})
        deals.append(entry)
    return {
        "format": FORMAT,
        "preset": match.rules.preset,
        "rules": match.rules.overrides_from(base),
        "players": list(match.names),
        "first_dealer": match.first_dealer,
        "deals": deals,
    }


def replay(record: Mapping[str, Any]) -> Match:
    """Replay a record and return the match it reaches.

    Raises:
        RecordError: the record is malformed, or an action is illegal; the
            message names the deal number, the action number, the action and
            the rule broken (``.deal`` and ``.action`` are 1-based).  Sizes are
            bounded before any work: the rules by :data:`polignac.core.rules.BOUNDS`,
            names by :data:`MAX_NAME`, cards and actions by :data:`MAX_TOKEN`,
            deals by :data:`MAX_DEALS`.
    """
    if not isinstance(record, Mapping):
        raise RecordError("a record must be a JSON object")
    fmt = record.get("format", FORMAT)
    if fmt != FORMAT:
        raise RecordError(f"format {show(fmt)} is not {FORMAT!r}")
    preset = _field(record, "preset", str)
    overrides = record.get("rules") or {}
    if not isinstance(overrides, Mapping):
        raise RecordError("rules must be an object of parameter overrides")
    players = _field(record, "players", list)
    if len(players) > BOUNDS["players"][1]:
        raise RecordError(f"players: {len(players)} names; at most {BOUNDS['players'][1]} play")
    if not all(isinstance(p, str) for p in players):
        raise RecordError("players must be a list of names")
    if any(len(p) > MAX_NAME for p in players):
        raise RecordError(f"players: a name has at most {MAX_NAME} characters")
    first_dealer = record.get("first_dealer", 0)
    if not isinstance(first_dealer, int) or isinstance(first_dealer, bool):
        raise RecordError("first_dealer must be a seat number")
    deals = record.get("deals", [])
    if not isinstance(deals, list):
        raise RecordError("deals must be a list")
    if len(deals) > MAX_DEALS:
        raise RecordError(f"deals: {len(deals)} deals; a record holds at most {MAX_DEALS}")
    try:
        rules = get_rules(preset, overrides)
        match = Match.new(rules, len(players), first_dealer, players)
    except RulesError as exc:
        raise RecordError(f"record rules: {exc}") from exc
    for d, entry in enumerate(deals, start=1):
        match = _replay_deal(match, entry, d)
    return match


def _replay_deal(match: Match, entry: Any, d: int) -> Match:
    where = f"deal {d}"
    if not isinstance(entry, Mapping):
        raise RecordError(f"{where}: must be an object", deal=d)
    if match.finished:
        raise RecordError(f"{where}: the match was already over after deal {d - 1}", deal=d)
    dealer, seats = match.next_deal()
    if "dealer" in entry and entry["dealer"] != dealer:
        raise RecordError(f"{where}: dealer is {show(entry['dealer'])}, but seat {dealer} "
                          "deals", deal=d)
    if entry.get("seats") is not None and (not isinstance(entry["seats"], list)
                                           or entry["seats"] != list(seats)):
        raise RecordError(
            f"{where}: seats are {show(entry['seats'])}, but seats {list(seats)} play", deal=d)
    hands = entry.get("hands")
    if not isinstance(hands, list) or len(hands) != len(seats) or not all(
            isinstance(h, list) and len(h) <= 52 for h in hands):
        raise RecordError(f"{where}: hands must be a list of {len(seats)} hands (lists of "
                          "at most 52 cards)", deal=d)
    try:
        parsed = [[_card(c) for c in hand] for hand in hands]
        turn_up = entry.get("turn_up")
        up = None if turn_up is None else _card(turn_up)
        match = match.start_deal(parsed, up)
    except (RulesError, CardParseError, TypeError) as exc:
        raise RecordError(f"{where}: {exc}", deal=d) from exc
    actions = entry.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError(f"{where}: actions must be a list", deal=d)
    for a, text in enumerate(actions, start=1):
        try:
            if not isinstance(text, str):
                raise IllegalActionError(f"an action must be text, not {show(text)}",
                                         rule="unknown-action")
            if len(text) > MAX_TOKEN:
                raise IllegalActionError(f"an action has at most {MAX_TOKEN} characters",
                                         rule="unknown-action")
            if match.current is None:
                raise IllegalActionError("the deal is already over", rule="deal-over")
            match = match.apply(parse_action(text))
        except IllegalActionError as exc:
            raise RecordError(
                f"deal {d}, action {a} ({show(text, 40)}): {exc} [rule: {exc.rule}]",
                deal=d, action=a,
            ) from exc
    return match


def _card(text: Any) -> int:
    if not isinstance(text, str):
        raise CardParseError(f"a card must be text, not {show(text)}")
    if len(text) > MAX_TOKEN:
        raise CardParseError(f"not a card: {show(text, 20)}")
    from .cards import parse_card

    return parse_card(text)


def _field(record: Mapping[str, Any], name: str, kind: type) -> Any:
    if name not in record:
        raise RecordError(f"record has no {name!r}")
    value = record[name]
    if not isinstance(value, kind):
        raise RecordError(f"{name} must be a {kind.__name__}, not {show(value)}")
    return value


def _seat_line(line: dict[str, Any], seats: tuple[int, ...]) -> dict[str, Any]:
    """A score line with its match ``seat`` (and a ``player`` parameter made a match seat)."""
    out = {**line, "seat": seats[line["player"]]}
    if "player" in out.get("params", {}):
        out["params"] = {**out["params"], "player": seats[out["params"]["player"]]}
    return out


def _side_line(line: ScoreLine, seats: tuple[int, ...]) -> dict[str, Any]:
    """A partnership game's score line: its ``side``, and the ``seat`` of the player
    who made it (a side's own ``card-points`` line has none)."""
    out = line.to_dict()
    if line.reason != "card-points":
        out["seat"] = seats[line.player]
    return out


def summary(match: Match) -> dict[str, Any]:
    """The replay summary printed by ``polignac replay --json``.

    ``deals[i].scores`` has one number per seat; ``totals`` sums the deals
    that count (tie-break deals do not; in parties: the partie in progress);
    ``winners``/``losers`` are seat lists, empty while not finished.
    """
    deals = []
    scorer = match.rules.scorer
    for r in match.results:
        entry: dict[str, Any] = {
            "number": r.number,
            "dealer": r.dealer,
            "seats": list(r.seats),
            "scores": list(r.scores),
            "reasons": [
                _side_line(line, r.seats) if match.rules.partnerships
                else _seat_line(line.to_dict(), r.seats)
                for line in r.score.lines
            ],
            **r.sheet(),
        }
        if r.tiebreak:
            entry["tiebreak"] = True
        if r.score.redeal:
            entry["redeal"] = True
        if r.score.card_points:
            entry["card_points"] = [0] * match.num_players
            for i, seat in enumerate(r.seats):
                entry["card_points"][seat] = r.score.card_points[i]
        if r.score.claim is not None:
            entry["claim"] = {"seat": r.seats[r.score.claim[0]], "correct": r.score.claim[1]}
        if r.family_result is not None:  # the scoring family's (in parties: partie_winner)
            entry.update(scorer.record_entry(r.family_result, match.num_players))
        deals.append(entry)
    out: dict[str, Any] = {
        "preset": match.rules.preset,
        "players": list(match.names),
        "deals": deals,
        "totals": list(match.totals),
        "finished": match.finished,
        "winners": list(match.winners),
        "losers": list(match.losers),
    }
    if match.rules.partnerships:
        out["sides"] = [list(side) for side in match.rules.sides]
    out.update(match.family_sheet())
    out.update(scorer.record_summary(match.standing, match.num_players))  # in parties: parties
    if match.current is not None:
        out["in_progress"] = {"deal": match.deal_number,
                              "actions": len(match.current.history)}
    return out


__all__ = ["FORMAT", "PolignacError", "replay", "summary", "to_record"]
