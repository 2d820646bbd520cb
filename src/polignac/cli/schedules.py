"""``polignac tournaments add|list|remove``: a club's recurring arenas in the server's
database, and the schedule file of ``polignac serve --schedule FILE``
(docs/events.md, "Clubs' schedules").

Every refusal is one line on stderr and exit status 2 (``CliError``): the entry's
checks are the server's (``server/events/schedule.py:parse_entry``, with the arena
settings' bounds and rule codes).
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
import time
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from .common import CliError

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from ..server.events.schedule import Schedule


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
             help_line: str) -> None:
    """Add the ``tournaments`` command to ``subparsers``."""
    p = subparsers.add_parser(
        "tournaments", help=help_line,
        description="A club's recurring arenas: the server creates each occurrence as a "
        "tournament a day ahead. add: every day, every week on a day, or once on a date, at "
        "a local time in a time zone; list; remove ID.")
    sub = p.add_subparsers(dest="action", metavar="ACTION", parser_class=type(p))
    sub.required = True
    add = sub.add_parser("add", help="add (or replace, by --id) a recurring arena")
    add.add_argument("--name", required=True, help="its name, shown in the lobby")
    add.add_argument("--id", default=None, metavar="ID",
                     help="a stable id (default: made from the name); the same id replaces")
    add.add_argument("--game", default="polignac", metavar="PRESET",
                     help="the game's preset (default polignac)")
    add.add_argument("--seats", type=int, default=4, metavar="N", help="table size (default 4)")
    when = add.add_mutually_exclusive_group(required=True)
    when.add_argument("--every", metavar="DAY",
                      help="daily, or a day of the week (monday .. sunday)")
    when.add_argument("--on", metavar="YYYY-MM-DD", help="once, on this date")
    add.add_argument("--at", required=True, metavar="HH:MM", help="the local start time")
    add.add_argument("--tz", required=True, metavar="ZONE",
                     help="an IANA time zone, for example Europe/Paris")
    add.add_argument("--length", type=int, default=60, metavar="MINUTES",
                     help="minutes of pairing, 10 to 720 (default 60)")
    add.add_argument("--time-control", default="3+2", metavar="TC",
                     help="M+S (3+2) or seconds a move (30s); default 3+2")
    add.add_argument("--rated", action="store_true", help="rated (default casual)")
    add.add_argument("--bots-after", type=int, default=None, metavar="SECONDS",
                     help="bots fill a table after this wait, 10 to 600 (default: no bots)")
    sub.add_parser("list", help="list the recurring arenas and their next start")
    remove = sub.add_parser("remove", help="remove one (its arenas already created stay)")
    remove.add_argument("ident", metavar="ID")
    for q in sub.choices.values():
        q.add_argument("--data", type=Path, default=Path("polignac-data"), metavar="DIR",
                       help="the server's data folder (SQLite file DIR/polignac.db)")
        q.add_argument("--database-url", default=None, metavar="URL",
                       help="the server's database (any SQLAlchemy URL), instead of --data")
    p.set_defaults(func=run)


def describe(schedule: Schedule, now: float) -> str:
    """One line: id, name, settings, rule and the next start in its zone."""
    from ..server.events.schedule_store import next_start

    bots = f"bots after {schedule.bot_wait} s" if schedule.bot_wait else "no bots"
    start = next_start(schedule, now)
    zone = _zone(schedule.rule.tz)
    nxt = (dt.datetime.fromtimestamp(start, zone).strftime("%a %Y-%m-%d %H:%M %Z")
           if start is not None else "none")
    return (f"{schedule.id}  {schedule.name!r}: {schedule.preset}, tables of "
            f"{schedule.seats}, {schedule.time_control.label()}, {schedule.minutes} min, "
            f"{'rated' if schedule.rated else 'casual'}, {bots}; "
            f"{schedule.rule.describe()}; next: {nxt} ({schedule.source})")


def _zone(name: str) -> dt.tzinfo:
    from zoneinfo import ZoneInfo

    return ZoneInfo(name)


def read_file(path: Path, now: float) -> list[Schedule]:
    """The schedules of a schedule file (TOML: ``[[arena]]`` tables, each read by
    ``parse_entry``; an entry's id defaults to its name's).

    Raises:
        CliError: the file cannot be read, is not TOML, has an entry refused (its
            number, name and the reason) or two entries of one id.
    """
    from ..server.base.errors import ApiError
    from ..server.events.schedule import parse_entry

    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise CliError(f"--schedule {path}: {exc}") from None
    extra = sorted(k for k in data if k != "arena")
    entries = data.get("arena", [])
    if extra or not isinstance(entries, list):
        raise CliError(f"--schedule {path}: only [[arena]] tables (found {extra[:3]})")
    found: list[Schedule] = []
    for n, entry in enumerate(entries, 1):
        try:
            schedule = parse_entry(entry, now, "file")
        except ApiError as exc:
            raise CliError(f"--schedule {path}: arena {n} ({str(entry.get('name'))[:40]}): "
                           f"{exc} [{exc.rule}]") from None
        if any(s.id == schedule.id for s in found):
            raise CliError(f"--schedule {path}: arena {n}: the id {schedule.id!r} is "
                           "already used above (give each an id)")
        found.append(schedule)
    return found


def sync_file(engine: Engine, path: Path, out: TextIO) -> None:
    """Read the schedule file and make its entries the stored ones (upserted by id; the
    file's former entries it lost are removed); say so on ``out``.

    Raises:
        CliError: as :func:`read_file`, or the database fails.
    """
    from sqlalchemy.exc import SQLAlchemyError

    from ..server.events import schedule_store
    from ..server.store.db import writing

    now = time.time()
    schedules = read_file(path, now)
    try:
        with writing(engine) as conn:
            gone = schedule_store.sync_file(conn, schedules, now)
    except SQLAlchemyError as exc:
        raise CliError(f"--schedule {path}: the database: {str(exc).splitlines()[0]}") from None
    print(f"polignac: schedule {path}: {len(schedules)} recurring arena(s)"
          + (f"; removed {', '.join(gone)}" if gone else ""), file=out, flush=True)


def _entry(args: argparse.Namespace) -> dict[str, Any]:
    data = {"name": args.name, "game": args.game, "seats": args.seats, "at": args.at,
            "tz": args.tz, "length": args.length, "time_control": args.time_control,
            "rated": args.rated, "bots_after": args.bots_after}
    data.update({k: v for k, v in (("every", args.every), ("on", args.on), ("id", args.id))
                 if v is not None})
    return data


def run(args: argparse.Namespace) -> int:
    """Run ``polignac tournaments ACTION``; 0 when done.

    Raises:
        CliError: a refused entry (the rule's message), an unknown id to remove, or the
            database cannot be opened (exit status 2).
    """
    from sqlalchemy.exc import SQLAlchemyError

    from ..server.base.errors import ApiError
    from ..server.events import schedule_store
    from ..server.events.schedule import ENTRY_KEYS, parse_entry
    from ..server.store.db import make_engine, migrate, writing

    now = time.time()
    out = sys.stdout
    schedule = None
    if args.action == "add":
        try:
            schedule = parse_entry(_entry(args), now, "cli")
        except ApiError as exc:
            key, sep, rest = str(exc).partition(": ")
            said = f" --{key.replace('_', '-')}: {rest}" if sep and key in ENTRY_KEYS \
                else f": {exc}"
            raise CliError(f"tournaments add{said} [{exc.rule}]") from None
    url = args.database_url or f"sqlite:///{args.data / 'polignac.db'}"
    try:
        if url.startswith("sqlite:///"):
            Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
        engine = make_engine(url)
        try:
            migrate(engine)
            with writing(engine) as conn:
                if schedule is not None:
                    new = schedule_store.upsert(conn, schedule, now)
                    print(f"{'added' if new else 'replaced'}: {describe(schedule, now)}",
                          file=out)
                elif args.action == "remove":
                    if not schedule_store.remove(conn, args.ident):
                        raise CliError(f"tournaments remove: no schedule {args.ident!r} "
                                       "(see polignac tournaments list)")
                    print(f"removed {args.ident} (its arenas already created stay)", file=out)
                else:
                    found = schedule_store.all_schedules(conn)
                    for one in found:
                        print(describe(one, now), file=out)
                    if not found:
                        print("no recurring arena (add one: polignac tournaments add)",
                              file=out)
        finally:
            engine.dispose()
    except (SQLAlchemyError, OSError) as exc:
        raise CliError(f"tournaments {args.action}: the database: "
                       f"{str(exc).splitlines()[0][:200]}") from None
    return 0
