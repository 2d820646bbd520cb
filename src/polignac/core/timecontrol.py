"""Time controls and the seats' clocks: pure arithmetic on times the caller passes in.

A table is untimed, or has one :class:`TimeControl`:

- ``realtime``: each seat has ``base`` seconds for the whole match, and gets
  ``increment`` seconds back after each of its moves (``3+2``: 180 s, +2 s a move);
- ``move``: ``per_move`` seconds for each move, nothing carried over;
- ``days``: correspondence, ``per_move`` seconds (whole days) for each move.

:class:`Clocks` is the state of every seat's clock: the time left, whose clock runs
and since when (wall time, as stored with each event), and the seats that ran out
of time.  Only the seat to act whose move is a person's has a running clock; a bot's
move, the deal and the time between deals take nobody's time.  The server keeps it
(``server/tables/seat_clocks.py``) and replays it from the stored events' times, so
that a restart or another process keeps every clock.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from .errors import PolignacError

__all__ = ["CORRESPONDENCE_DAYS", "KINDS", "Clocks", "TimeControl", "TimeControlError"]

KINDS = ("realtime", "move", "days")
"""The kinds of time control."""
CORRESPONDENCE_DAYS = (1, 2, 3, 5, 7)
"""The days a move a correspondence table may give."""
DAY = 86_400.0
BASE_RANGE = (30, 3 * 3600)
"""Seconds of a real-time control's base time, at least and at most."""
INCREMENT_RANGE = (0, 60)
"""Seconds of its increment."""
MOVE_RANGE = (5, 600)
"""Seconds of a fixed time a move."""


class TimeControlError(PolignacError):
    """A time control that is not one of the allowed kinds or is out of its bounds
    (``rule`` is ``bad-time-control``)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.rule = "bad-time-control"


def _number(data: dict[str, Any], key: str, low: float, high: float) -> float:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise TimeControlError(f"time control: {key} must be a number from {low:g} to {high:g}")
    if not low <= value <= high:
        raise TimeControlError(f"time control: {key} must be from {low:g} to {high:g}, "
                               f"not {value:g}")
    return float(value)


@dataclass(frozen=True)
class TimeControl:
    """One table's time control (see the module)."""

    kind: str
    base: float = 0.0
    increment: float = 0.0
    per_move: float = 0.0

    @classmethod
    def parse(cls, data: Any) -> TimeControl | None:
        """The time control of a table option: None or ``{"kind": "none"}`` (untimed),
        ``{"kind": "realtime", "base": S, "increment": S}``, ``{"kind": "move",
        "seconds": S}`` or ``{"kind": "days", "days": D}``.

        Raises:
            TimeControlError: another shape, kind or key, or a number out of its bounds.
        """
        if data is None:
            return None
        if not isinstance(data, dict):
            raise TimeControlError("time control: an object with a kind is expected")
        kind = data.get("kind")
        allowed = {"none": {"kind"}, "realtime": {"kind", "base", "increment"},
                   "move": {"kind", "seconds"}, "days": {"kind", "days"}}
        if kind not in allowed:
            raise TimeControlError(f"time control: kind must be one of none, "
                                   f"{', '.join(KINDS)}")
        extra = sorted(set(data) - allowed[kind])
        if extra:
            raise TimeControlError(f"time control: {kind} takes no {', '.join(extra)}")
        if kind == "none":
            return None
        if kind == "realtime":
            return cls("realtime", base=_number(data, "base", *BASE_RANGE),
                       increment=_number(data, "increment", *INCREMENT_RANGE))
        if kind == "move":
            return cls("move", per_move=_number(data, "seconds", *MOVE_RANGE))
        days = data.get("days")
        if isinstance(days, bool) or days not in CORRESPONDENCE_DAYS:
            raise TimeControlError("time control: days must be one of "
                                   + ", ".join(map(str, CORRESPONDENCE_DAYS)))
        return cls("days", per_move=float(days) * DAY)

    def to_json(self) -> dict[str, Any]:
        """The option's form (:meth:`parse` reads it back)."""
        if self.kind == "realtime":
            return {"kind": "realtime", "base": _int(self.base),
                    "increment": _int(self.increment)}
        if self.kind == "move":
            return {"kind": "move", "seconds": _int(self.per_move)}
        return {"kind": "days", "days": _int(self.per_move / DAY)}

    @property
    def correspondence(self) -> bool:
        """Days a move: the table is stored, not held, while it waits."""
        return self.kind == "days"

    def label(self) -> str:
        """A short label (``3+2``, ``30 s/move``, ``3 d/move``)."""
        if self.kind == "realtime":
            return f"{_int(self.base / 60)}+{_int(self.increment)}"
        if self.kind == "move":
            return f"{_int(self.per_move)} s/move"
        return f"{_int(self.per_move / DAY)} d/move"


def _int(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value


@dataclass(frozen=True)
class Clocks:
    """Every seat's clock under one :class:`TimeControl` (see the module).

    ``remaining[s]`` is seat ``s``'s time left when its clock last stopped (for
    ``move`` and ``days``: the time of the move in progress); ``running`` is the seat
    whose clock runs, since the wall time ``since``; ``flagged`` the seats that ran
    out of time.
    """

    control: TimeControl
    remaining: tuple[float, ...]
    running: int | None = None
    since: float | None = None
    flagged: frozenset[int] = frozenset()

    @classmethod
    def new(cls, control: TimeControl, seats: int) -> Clocks:
        """Fresh clocks for ``seats`` seats, none running."""
        start = control.base if control.kind == "realtime" else control.per_move
        return cls(control, (start,) * seats)

    def start(self, seat: int, now: float) -> Clocks:
        """Start ``seat``'s clock at ``now`` (a fixed time a move starts full).  The
        clock that ran is stopped first.  A flagged seat's clock never runs."""
        clocks = self.stop(now)
        if seat in clocks.flagged:
            return clocks
        remaining = clocks.remaining
        if self.control.kind != "realtime":
            remaining = _set(remaining, seat, self.control.per_move)
        return replace(clocks, remaining=remaining, running=seat, since=now)

    def stop(self, now: float, moved: bool = False) -> Clocks:
        """Stop the running clock at ``now`` (nothing when none runs): its time left
        loses what ran, and gains the increment when the seat ``moved``."""
        if self.running is None or self.since is None:
            return self
        seat = self.running
        left = max(0.0, self.remaining[seat] - max(0.0, now - self.since))
        if moved and self.control.kind == "realtime" and left > 0:
            left += self.control.increment
        return replace(self, remaining=_set(self.remaining, seat, left), running=None,
                       since=None)

    def left(self, seat: int, now: float) -> float:
        """Seconds ``seat`` has left at ``now``."""
        if seat == self.running and self.since is not None:
            return max(0.0, self.remaining[seat] - max(0.0, now - self.since))
        return self.remaining[seat]

    def deadline(self) -> float | None:
        """When the running clock reaches zero (wall time), or None when none runs."""
        if self.running is None or self.since is None:
            return None
        return self.since + self.remaining[self.running]

    def flag(self, seat: int, now: float) -> Clocks:
        """``seat`` ran out of time (or left for good): its clock stops at zero and
        never runs again."""
        clocks = self.stop(now) if self.running == seat else self
        return replace(clocks, remaining=_set(clocks.remaining, seat, 0.0),
                       flagged=clocks.flagged | {seat})

    def unflag(self, seat: int) -> Clocks:
        """``seat`` is back (a casual table): it plays on with the time of one move
        (``move``, ``days``) or a tenth of its base (``realtime``, at least 30 s)."""
        if seat not in self.flagged:
            return self
        back = (max(30.0, self.control.base / 10) if self.control.kind == "realtime"
                else self.control.per_move)
        return replace(self, remaining=_set(self.remaining, seat, back),
                       flagged=self.flagged - {seat})

    def view(self, now: float) -> dict[str, Any]:
        """What every seat is shown: the control, each seat's time left at ``now``, the
        running seat and its deadline (wall time, for the page's countdown)."""
        return {"control": self.control.to_json(), "label": self.control.label(),
                "remaining": [round(self.left(s, now), 3) for s in range(len(self.remaining))],
                "running": self.running, "deadline": self.deadline(), "now": now,
                "flagged": sorted(self.flagged)}


def _set(values: tuple[float, ...], index: int, value: float) -> tuple[float, ...]:
    return (*values[:index], value, *values[index + 1:])
