"""Clubs' schedules: recurring arenas ("every Friday 20:00 Europe/Paris, 60 minutes"),
a pure model (no I/O; the time is passed in).

A schedule is a name, an arena's settings without a start (``tournament.py:Settings``:
preset, seats, time control, length, rated, bots) and a :class:`Rule`: every day, every
week on one day, or once on a date, at a local time of day in an IANA time zone.  Its
occurrences are computed in that zone with :mod:`zoneinfo`, so a weekly 20:00
Europe/Paris stays 20:00 local across the changes of summer time.  A local time that
does not exist that day (the hour skipped in spring) is read with the offset before the
change, so it falls that much later (02:30 becomes 03:30 summer time); a local time that
happens twice (the hour repeated in autumn) is the first of the two (summer time).

:func:`parse_entry` reads one schedule from a dict: a ``[[arena]]`` table of a
schedule file (``polignac serve --schedule FILE``) or the options of
``polignac tournaments add``; each refusal is an ``ApiError`` with its rule code.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ...core.timecontrol import TimeControl
from ..base.errors import ApiError
from .tournament import BOT_WAIT_RANGE, Settings

DAILY, WEEKLY, ONCE = "daily", "weekly", "once"
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
AHEAD = 86_400.0
"""Seconds before its start an occurrence is created as a tournament (a day)."""
MAX_SPAN = 400 * 86_400.0
"""The longest span :func:`occurrences` goes over (a bound on its work)."""
NAME_LENGTH = 64
ID_PATTERN = re.compile(r"[a-z0-9][a-z0-9\-]{0,31}")
ENTRY_KEYS = frozenset({"id", "name", "game", "seats", "time_control", "length", "rated",
                        "bots_after", "every", "on", "at", "tz"})
"""The keys of a schedule's entry (a file's ``[[arena]]``; the command line's options)."""
_SETTING_KEYS = {"bad-preset": "game", "bad-players": "seats",
                 "bad-time-control": "time_control", "tournament-length": "length",
                 "tournament-bot-wait": "bots_after"}
_AT = re.compile(r"([01]?\d|2[0-3]):([0-5]\d)")
_REALTIME = re.compile(r"(\d{1,3}(?:\.\d+)?)\+(\d{1,3})")
_PER_MOVE = re.compile(r"(\d{1,3})\s*s(?:\s*/\s*move)?")


@dataclass(frozen=True)
class Rule:
    """When a schedule's arenas start: ``repeat`` is ``daily``, ``weekly`` (on
    ``weekday``, 0 Monday .. 6 Sunday) or ``once`` (on ``on``), at ``at`` local time in
    the zone ``tz``."""

    repeat: str
    at: dt.time
    tz: str
    weekday: int | None = None
    on: dt.date | None = None

    def matches(self, day: dt.date) -> bool:
        """Whether an occurrence falls on the local date ``day``."""
        if self.repeat == DAILY:
            return True
        if self.repeat == WEEKLY:
            return day.weekday() == self.weekday
        return day == self.on

    def start_on(self, day: dt.date) -> float:
        """The epoch seconds of the local time ``at`` on ``day`` (see the module for a
        time skipped or repeated by a change of summer time)."""
        return dt.datetime.combine(day, self.at, tzinfo=ZoneInfo(self.tz)).timestamp()

    def to_json(self) -> dict[str, Any]:
        """``{"every", "at", "tz", "on"}``: ``every`` is ``daily``, a weekday's name or
        ``once``; ``on`` the date of a one-off (ISO), else None."""
        every = WEEKDAYS[self.weekday] if self.repeat == WEEKLY and self.weekday is not None \
            else self.repeat
        return {"every": every, "at": self.at.strftime("%H:%M"), "tz": self.tz,
                "on": self.on.isoformat() if self.on else None}

    def describe(self) -> str:
        """In words (English, for the command line): ``every friday 20:00 Europe/Paris``."""
        at = f"{self.at.strftime('%H:%M')} {self.tz}"
        if self.repeat == DAILY:
            return f"every day {at}"
        if self.repeat == WEEKLY and self.weekday is not None:
            return f"every {WEEKDAYS[self.weekday]} {at}"
        return f"once on {self.on} {at}"


def occurrences(rule: Rule, after: float, until: float) -> list[float]:
    """The starts (epoch seconds) of ``rule``'s occurrences in ``(after, until]``, in
    order.

    Raises:
        ValueError: the span is longer than :data:`MAX_SPAN`.
    """
    if until - after > MAX_SPAN:
        raise ValueError("occurrences: a span of at most 400 days")
    if until <= after:
        return []
    zone = ZoneInfo(rule.tz)
    day = dt.datetime.fromtimestamp(after, zone).date() - dt.timedelta(days=1)
    last = dt.datetime.fromtimestamp(until, zone).date() + dt.timedelta(days=1)
    if rule.repeat == ONCE:
        days = [rule.on] if rule.on is not None and day <= rule.on <= last else []
    else:
        days = []
        while day <= last:
            if rule.matches(day):
                days.append(day)
            day += dt.timedelta(days=1)
    starts = (rule.start_on(d) for d in days)
    return [s for s in starts if after < s <= until]


@dataclass(frozen=True)
class Schedule:
    """A stored schedule: its stable ``id``, ``name``, the arenas' settings (their
    ``starts_at`` is each occurrence's), its rule and where it comes from (``file``
    or ``cli``)."""

    id: str
    name: str
    preset: str
    seats: int
    time_control: TimeControl
    minutes: int
    rated: bool
    bot_wait: int | None
    rule: Rule
    source: str = "cli"

    def settings_at(self, starts_at: float) -> Settings:
        """The settings of the occurrence starting at ``starts_at``."""
        return Settings(self.preset, self.seats, self.time_control, starts_at, self.minutes,
                        self.rated, self.bot_wait)


def control_of_text(text: Any) -> dict[str, Any]:
    """A time control written as on the command line: ``3+2`` (minutes + seconds of
    increment) or ``30s`` (``30 s/move``: seconds a move), as ``TimeControl.parse``
    reads it (its bounds are checked there).

    Raises:
        ApiError: ``bad-time-control`` (neither form).
    """
    value = str(text).strip().lower()[:32]
    found = _REALTIME.fullmatch(value)
    if found:
        return {"kind": "realtime", "base": round(float(found[1]) * 60),
                "increment": int(found[2])}
    found = _PER_MOVE.fullmatch(value)
    if found:
        return {"kind": "move", "seconds": int(found[1])}
    raise ApiError(f"time control: not {value!r}; write M+S (3+2) or seconds a move (30s)",
                   "bad-time-control")


def slug(name: str) -> str:
    """A stable id made from a name: lower-case letters, digits and dashes (at most 32)."""
    text = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:32].strip("-")
    return text or "arena"


def parse_rule(data: dict[str, Any]) -> Rule:
    """The rule of an entry: ``every`` (``daily`` or a weekday) or ``on`` (a date,
    once), ``at`` (``HH:MM``) and ``tz`` (an IANA zone).

    Raises:
        ApiError: ``schedule-every`` (neither or both of every and on, an unknown day,
            a bad date), ``schedule-at``, ``schedule-tz``.
    """
    every, on = data.get("every"), data.get("on")
    if (every is None) == (on is None):
        raise ApiError("give either every (daily or a day of the week) or on (a date)",
                       "schedule-every")
    at = _AT.fullmatch(str(data.get("at", ""))[:8])
    if at is None:
        raise ApiError("at: a local time HH:MM, for example 20:00", "schedule-at")
    tz = data.get("tz")
    try:
        if not isinstance(tz, str) or not 0 < len(tz) <= 64:
            raise ValueError(tz)
        ZoneInfo(tz)
    except (ValueError, ZoneInfoNotFoundError):
        raise ApiError(f"tz: no time zone named {str(tz)[:64]!r} (an IANA name such as "
                       "Europe/Paris)", "schedule-tz") from None
    time = dt.time(int(at[1]), int(at[2]))
    if on is not None:
        try:
            day = on if isinstance(on, dt.date) and not isinstance(on, dt.datetime) \
                else dt.date.fromisoformat(str(on)[:10])
        except ValueError:
            raise ApiError(f"on: a date YYYY-MM-DD, not {str(on)[:32]!r}",
                           "schedule-every") from None
        return Rule(ONCE, time, tz, on=day)
    word = str(every).strip().lower()
    if word == DAILY:
        return Rule(DAILY, time, tz)
    if word not in WEEKDAYS:
        raise ApiError(f"every: daily or a day of the week (monday .. sunday), not "
                       f"{str(every)[:32]!r}", "schedule-every")
    return Rule(WEEKLY, time, tz, weekday=WEEKDAYS.index(word))


def parse_entry(data: dict[str, Any], now: float, source: str = "cli",
                ident: str | None = None) -> Schedule:
    """One schedule from ``data`` (a schedule file's ``[[arena]]`` table or the
    command line's options): ``name``, ``id`` (else ``ident``, else made from the
    name), ``game``, ``seats``, ``time_control`` (``3+2``), ``length`` (minutes),
    ``rated``, ``bots_after`` (seconds; absent: no bots) and the rule
    (:func:`parse_rule`).  The settings are checked by ``Settings.parse`` (their
    bounds and rule codes).

    Raises:
        ApiError: ``schedule-name``, ``schedule-id``, ``bad-field`` (an unknown key),
            the rule's and the settings' own.
    """
    extra = sorted(str(k)[:32] for k in data if k not in ENTRY_KEYS)
    if extra:
        raise ApiError(f"unknown keys: {', '.join(extra[:5])} (known: "
                       f"{', '.join(sorted(ENTRY_KEYS))})", "bad-field")
    name = data.get("name")
    if not isinstance(name, str) or not 0 < len(name.strip()) <= NAME_LENGTH:
        raise ApiError(f"name: 1 to {NAME_LENGTH} characters", "schedule-name")
    key = data.get("id", ident) or slug(name)
    if not isinstance(key, str) or not ID_PATTERN.fullmatch(key):
        raise ApiError(f"id {str(key)[:40]!r}: 1 to 32 lower-case letters, digits and "
                       "dashes", "schedule-id")
    rule = parse_rule(data)
    try:
        settings = Settings.parse({
            "preset": data.get("game", "polignac"), "seats": data.get("seats", 4),
            "time_control": control_of_text(data.get("time_control", "3+2")),
            "starts_at": now, "minutes": data.get("length", 60),
            "rated": data.get("rated", False), "bot_wait": data.get("bots_after")}, now)
    except ApiError as exc:  # named by the entry's key, not the settings' own
        key = _SETTING_KEYS.get(exc.rule)
        low, high = BOT_WAIT_RANGE
        said = f"left out (no bots) or {low} to {high} seconds" \
            if exc.rule == "tournament-bot-wait" else str(exc).split(": ", 1)[-1]
        text = f"{key}: {said}" if key else str(exc)
        raise ApiError(text, exc.rule) from None
    return Schedule(key, name.strip(), settings.preset, settings.seats,
                    settings.time_control, settings.minutes, settings.rated,
                    settings.bot_wait, rule, source)
