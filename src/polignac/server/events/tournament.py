"""An arena tournament's settings and states: a pure model (no I/O; the time is passed
in, read by the caller from the server's one clock).

A tournament is a game (a preset), its table size N (one of the counts the preset is
played by, 3 to 10), a time control (real time or a time a move: an arena is played
at one sitting, so never correspondence nor untimed), a start time, a length in
minutes, rated or casual, and whether bots may fill a table's empty seats after the
players waited ``bot_wait`` seconds.  Its state follows from the start and length
alone: ``scheduled`` before the start, ``running`` from the start until its end,
``finished`` from then on (the matches still running at the end count when they
finish: ``scoring.py``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ...core import PRESETS
from ...core.timecontrol import TimeControl, TimeControlError
from ..base.errors import ApiError

SEATS_RANGE = (3, 10)
"""Seats at an arena's tables, at least and at most (and among the preset's counts)."""
MINUTES_RANGE = (10, 720)
"""An arena's length in minutes, at least and at most (lichess: 20 minutes to 12 hours)."""
BOT_WAIT_RANGE = (10, 600)
"""Seconds players wait before bots may fill their table, at least and at most."""
START_SLACK = 60.0
"""Seconds a start may lie in the past (a form filled a moment ago: "start now")."""
START_AHEAD = 30 * 86_400.0
"""Seconds ahead a tournament may be scheduled at most (30 days)."""
SCHEDULED, RUNNING, FINISHED = "scheduled", "running", "finished"
STATES = (SCHEDULED, RUNNING, FINISHED)


@dataclass(frozen=True)
class Settings:
    """A tournament's settings (see the module); ``bot_wait`` None: no bots."""

    preset: str
    seats: int
    time_control: TimeControl
    starts_at: float
    minutes: int
    rated: bool
    bot_wait: int | None

    @property
    def ends_at(self) -> float:
        """When pairing stops (the start plus the length)."""
        return self.starts_at + self.minutes * 60.0

    def state(self, now: float) -> str:
        """``scheduled``, ``running`` or ``finished`` at the time ``now``."""
        if now < self.starts_at:
            return SCHEDULED
        return RUNNING if now < self.ends_at else FINISHED

    def to_json(self) -> dict[str, Any]:
        """The settings as :meth:`parse` reads them (and the store keeps them)."""
        return {"preset": self.preset, "seats": self.seats,
                "time_control": self.time_control.to_json(), "starts_at": self.starts_at,
                "minutes": self.minutes, "rated": self.rated, "bot_wait": self.bot_wait}

    @classmethod
    def parse(cls, data: Any, now: float) -> Settings:
        """The settings a client sends (``to_json``'s form), checked at the time ``now``.

        Raises:
            ApiError (400): ``bad-field`` (not an object, a key of the wrong type or
                unknown), ``bad-preset``, ``bad-players`` (seats not 3..10 or not a
                count the preset is played by), ``bad-time-control`` (out of bounds,
                untimed or correspondence), ``tournament-start`` (more than a minute
                ago or more than 30 days ahead), ``tournament-length`` (minutes not
                10..720), ``tournament-bot-wait`` (not null nor 10..600 seconds).
        """
        if not isinstance(data, dict):
            raise ApiError("a tournament is an object of settings", "bad-field")
        known = {"preset", "seats", "time_control", "starts_at", "minutes", "rated",
                 "bot_wait"}
        extra = sorted(str(k)[:32] for k in data if k not in known)
        if extra:
            raise ApiError(f"unknown settings: {', '.join(extra[:5])}", "bad-field")
        preset = data.get("preset")
        if not isinstance(preset, str) or preset not in PRESETS:
            raise ApiError(f"preset: no game named {str(preset)[:64]!r}", "bad-preset")
        rules = PRESETS[preset]
        seats = _int(data, "seats")
        low, high = SEATS_RANGE
        if seats is None or not low <= seats <= high or seats not in rules.players:
            counts = [n for n in rules.players if low <= n <= high]
            raise ApiError(f"seats: an arena of {preset} seats "
                           f"{', '.join(map(str, counts)) or 'no count'} players",
                           "bad-players")
        try:
            control = TimeControl.parse(data.get("time_control"))
        except TimeControlError as exc:
            raise ApiError(str(exc), "bad-time-control") from None
        if control is None or control.correspondence:
            raise ApiError("time control: an arena is played in real time or with a "
                           "time a move", "bad-time-control")
        starts_at = data.get("starts_at")
        if isinstance(starts_at, bool) or not isinstance(starts_at, int | float) \
                or not math.isfinite(starts_at) \
                or not now - START_SLACK <= starts_at <= now + START_AHEAD:
            raise ApiError("starts_at: a time from now to 30 days ahead",
                           "tournament-start")
        minutes = _int(data, "minutes")
        if minutes is None or not MINUTES_RANGE[0] <= minutes <= MINUTES_RANGE[1]:
            raise ApiError(f"minutes: a length from {MINUTES_RANGE[0]} to "
                           f"{MINUTES_RANGE[1]} minutes", "tournament-length")
        rated = data.get("rated", False)
        if not isinstance(rated, bool):
            raise ApiError("rated must be true or false", "bad-field")
        bot_wait = None
        if data.get("bot_wait") is not None:
            bot_wait = _int(data, "bot_wait")
            if bot_wait is None or not BOT_WAIT_RANGE[0] <= bot_wait <= BOT_WAIT_RANGE[1]:
                raise ApiError(f"bot_wait: null (no bots) or {BOT_WAIT_RANGE[0]} to "
                               f"{BOT_WAIT_RANGE[1]} seconds", "tournament-bot-wait")
        return cls(preset, seats, control, float(starts_at), minutes, rated, bot_wait)


def _int(data: dict[str, Any], key: str) -> int | None:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value
