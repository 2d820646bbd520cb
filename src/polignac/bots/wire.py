"""A :class:`~polignac.bots.base.SeatView` as JSON-ready data, and back.

Bot moves computed on other machines (``polignac bot-worker``) travel as JSON,
not pickles: a worker that reads a queue must not run whatever a writer to
that queue put there.  The view's fields are ints, bitmasks, tuples of them,
a few texts and the rules, which travel as their preset and the house rules
that differ from it (:meth:`~polignac.core.rules.Rules.overrides_from`, as in
game records) and are checked again by :func:`~polignac.core.get_rules`.

    data = view_to_wire(view)          # a dict of JSON values
    assert view_from_wire(data) == view
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core.deal import Trick
from ..core.errors import PolignacError
from ..core.presets import get_rules
from ..core.rules import Rules
from .base import SeatView

_INTS = ("num_players", "player", "dealer", "phase", "hand", "to_act", "leader",
         "initial_hand", "declarer", "deals_played", "passed", "received", "pass_to")
_INT_TUPLES = ("legal", "history", "trick", "taken", "tricks_won", "hand_sizes",
               "side_totals", "seats", "match_totals")
_OPTIONAL_INTS = ("turn_up", "trump")
_MAX_ITEMS = 4096
"""Items in any one list of a view at most (a deal has far fewer)."""


class WireError(PolignacError):
    """Data that is not a view: names the field."""


def rules_to_wire(rules: Rules) -> dict[str, Any]:
    """``{"preset", "rules"}``: the preset's name and the parameters that differ."""
    return {"preset": rules.preset, "rules": rules.overrides_from(get_rules(rules.preset))}


def rules_from_wire(data: Any) -> Rules:
    """The rules of :func:`rules_to_wire`'s data.

    Raises:
        WireError: the data is not such an object, or the rules do not validate.
    """
    if not isinstance(data, Mapping) or not isinstance(data.get("preset"), str) \
            or not isinstance(data.get("rules", {}), Mapping):
        raise WireError("rules: expected {\"preset\": name, \"rules\": {overrides}}")
    try:
        return get_rules(data["preset"], data.get("rules") or {})
    except PolignacError as exc:
        raise WireError(f"rules: {exc}") from None


def view_to_wire(view: SeatView) -> dict[str, Any]:
    """The view as a dict of JSON values (lists for tuples)."""
    out: dict[str, Any] = {"rules": rules_to_wire(view.rules)}
    for name in _INTS + _OPTIONAL_INTS:
        out[name] = getattr(view, name)
    for name in _INT_TUPLES:
        out[name] = list(getattr(view, name))
    out["tricks"] = [[t.leader, list(t.cards), t.winner] for t in view.tricks]
    out["contract"] = view.contract
    out["announcements"] = [[p, a] for p, a in view.announcements]
    state = view.family_state  # a deal's family state: None, a bool, an int or a tuple of ints
    out["family_state"] = list(state) if isinstance(state, tuple) else state
    return out


def _family_state(value: Any) -> Any:
    """A deal's family state from the wire (``Family.deal_state``'s values: None, a
    bool, a whole number, or a list of whole numbers, read back as a tuple).

    Raises:
        WireError: another value.
    """
    if value is None or type(value) in (bool, int):
        return value
    if isinstance(value, list):
        return _ints("family_state", value)
    raise WireError("family_state: expected null, a boolean, a whole number or a list of them")


def _int(name: str, value: Any) -> int:
    if type(value) is not int:
        raise WireError(f"{name}: expected a whole number, not {type(value).__name__}")
    return value


def _ints(name: str, value: Any) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) > _MAX_ITEMS:
        raise WireError(f"{name}: expected a list of at most {_MAX_ITEMS} whole numbers")
    return tuple(_int(name, v) for v in value)


def view_from_wire(data: Any) -> SeatView:
    """The view of :func:`view_to_wire`'s data (its types checked, field by field).

    Raises:
        WireError: a field is missing or of the wrong type (the message names it),
            or the rules do not validate.
    """
    if not isinstance(data, Mapping):
        raise WireError("a view must be a JSON object")
    try:
        fields: dict[str, Any] = {"rules": rules_from_wire(data["rules"])}
        for name in _INTS:
            fields[name] = _int(name, data[name])
        for name in _OPTIONAL_INTS:
            fields[name] = None if data[name] is None else _int(name, data[name])
        for name in _INT_TUPLES:
            fields[name] = _ints(name, data[name])
        tricks = data["tricks"]
        contract = data["contract"]
        announcements = data["announcements"]
    except KeyError as exc:
        raise WireError(f"the view has no field {exc}") from None
    if not isinstance(tricks, list) or len(tricks) > _MAX_ITEMS or not all(
            isinstance(t, list) and len(t) == 3 for t in tricks):
        raise WireError("tricks: expected a list of [leader, [cards], winner]")
    fields["tricks"] = tuple(Trick(_int("tricks", t[0]), _ints("tricks", t[1]),
                                   _int("tricks", t[2])) for t in tricks)
    if contract is not None and not isinstance(contract, str):
        raise WireError("contract: expected a text or null")
    fields["contract"] = contract
    if not isinstance(announcements, list) or len(announcements) > _MAX_ITEMS or not all(
            isinstance(a, list) and len(a) == 2 and isinstance(a[1], str)
            for a in announcements):
        raise WireError("announcements: expected a list of [player, name]")
    fields["announcements"] = tuple((_int("announcements", a[0]), a[1])
                                    for a in announcements)
    fields["family_state"] = _family_state(data.get("family_state"))  # absent: an older peer's
    return SeatView(**fields)
