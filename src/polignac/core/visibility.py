"""What each seat may see of an event and of a refused action: one home for it.

The server (or any other front end) only serialises what these functions give:

- :func:`act_event` is everything public about one action (the seat, the
  action unless it is private, the trick it completed, the scores at a deal's
  end); :func:`seen_by` is an event as one seat (None: a spectator) sees it:
  its own hand of a deal, and an action of a private phase (one of the deal
  class's ``Deal.private_phases``) only when it is its own.
- :func:`seat_error` is a refused action as the seat that tried it may read it:
  a :class:`SeatError` with fields (the rule, the action, the seat that tried
  it and the seat to act, numbered as the table numbers them) and a message
  written from those fields only, so that it never tells what the seat may
  not know (who holds a card, another seat's hand).

Pure: no I/O, standard library and the core only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from .cards import CODES
from .deal import HIDDEN, Deal
from .errors import IllegalActionError
from .match import Match

_YOU: Final[Mapping[str, str]] = {
    "card-not-in-hand": "card not in hand: you do not hold {action}",
    "must-follow-suit": "must follow suit: {action} does not follow the suit led, and you "
                        "hold a card of that suit",
    "first-lead": "first lead: {action} may not lead the first trick; lead the card the "
                  "rules name",
    "penalty-on-first-trick": "no penalty card on the first trick: you may not play "
                              "{action} while holding another card",
    "hearts-not-broken": "hearts not broken: you may not lead {action} before a heart has "
                         "been played, while holding another suit",
    "pass-a-card": "passing: choose a card to pass, not {action}",
    "pass-not-in-hand": "pass not in hand: you do not hold {action}, or chose it already",
    "claim-not-on-lead": "claim not on lead: you may claim only when about to lead a trick",
    "announcement-too-early": "announcement not allowed yet: you may announce only after "
                              "your side has won a trick (forehand also before the first "
                              "lead)",
    "announcement-repeated": "announcement repeated: you have already announced that this "
                             "deal",
    "false-announcement": "false announcement: you do not hold what {action} announces",
    "declaration-round": "declaration round first: pass or declare before any card is "
                         "played, not {action}",
}
"""Messages of the rules whose core message speaks of the acting player (in the
deal's numbering) or of cards: written again from the fields, to that seat."""

_PUBLIC: Final = frozenset({
    "unknown-action", "not-in-this-game", "wrong-contract", "declaration-out-of-time",
    "call-out-of-time", "deal-over", "match-over", "no-deal", "deal-in-progress",
    "deal-not-over",
})
"""Rules whose core message names no player and no card but the one tried: shown as is."""


@dataclass(frozen=True)
class SeatError:
    """A refused action as the seat that tried it may read it."""

    rule: str
    """The rule broken (stable, e.g. ``must-follow-suit``); pages translate by it."""
    message: str
    """The refusal in English words, written from the fields below only."""
    action: str | None = None
    """The action tried, as its text (e.g. ``JS``)."""
    seat: int | None = None
    """The seat that tried it, numbered as the table numbers seats."""
    to_act: int | None = None
    """The seat to act, numbered as the table numbers seats (None: none)."""


def seat_error(exc: IllegalActionError, seat: int | None = None) -> SeatError:
    """``exc`` as ``seat`` (the one that tried the action) may read it.

    The seats come from the error's fields (``Match.apply`` sets them, in the
    table's numbering); ``seat`` is used when the error has none.  A rule this
    module does not know gets a plain message naming the rule and the action.
    """
    action = exc.action
    tried = exc.seat if exc.seat is not None else seat
    shown = action if action is not None else "that"
    if exc.rule == "not-your-turn":
        message = "not your turn" if exc.to_act is None else \
            f"not your turn: seat {exc.to_act} is to act"
    elif exc.rule in _YOU:
        message = _YOU[exc.rule].format(action=shown)
    elif exc.rule in _PUBLIC:
        message = str(exc)
    else:
        message = f"{shown} is not allowed now ({exc.rule})"
    return SeatError(exc.rule, message, action, tried, exc.to_act)


def _finished_deal(match: Match) -> Deal | None:
    return match.results[-1].deal if match.results else None


def act_event(before: Match, after: Match, seat: int | None, action: str) -> dict[str, Any]:
    """Everything public about ``seat``'s ``action`` that turned ``before`` into
    ``after``: ``{"kind": "act", "seat", "action"}``, ``passing`` when the action is
    private (``Deal.private_phases``; :func:`seen_by` hides it from the others), the
    ``trick`` it completed (leader, winner, cards, who played each, as seats), and at
    a deal's end ``deal_over`` and the deal's ``scores`` (``match_over`` too at the
    match's end)."""
    out: dict[str, Any] = {"kind": "act", "seat": seat, "action": action}
    old = before.current
    if old is not None and old.phase_name in old.private_phases:
        out["passing"] = True
    new = after.current if after.current is not None else _finished_deal(after)
    if old is not None and new is not None and len(new.past) > len(old.past):
        t = new.past[-1]
        seats = before.current_seats
        n = len(seats)
        out["trick"] = {"leader": seats[t.leader], "winner": seats[t.winner],
                        "cards": [CODES[c] for c in t.cards],
                        "seats": [seats[(t.leader + i) % n] for i in range(len(t.cards))]}
    if after.current is None:
        out["deal_over"] = True
        out["scores"] = list(after.results[-1].scores)
        if after.finished:
            out["match_over"] = True
    return out


def seen_by(event: Mapping[str, Any], seat: int | None) -> dict[str, Any]:
    """``event`` (a deal with every hand, or :func:`act_event`) as ``seat`` sees it
    (None: a spectator): a deal shows only the seat's own ``hand`` (None for a seat
    not dealt in, and for spectators); a private action shows as ``"hidden"`` to
    everyone but its actor."""
    shown = dict(event)
    if shown.get("kind") == "deal":
        hands = shown.pop("hands")
        seats = shown["seats"]
        shown["hand"] = hands[seats.index(seat)] if seat in seats else None
    elif shown.get("passing") and shown.get("seat") != seat:
        shown["action"] = HIDDEN
    return shown
