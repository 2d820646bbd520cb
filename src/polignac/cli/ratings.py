"""``polignac ratings rebuild``: compute every rating again from the finished records.

Ratings are a pure function of the stored finished matches (``server/players/ratings.py``):
this reads ``match_results`` and ``match_seats`` of the server's database, rates
every rated match again in its order, compares the result with the live
``ratings`` table, prints the differences (none: the live ratings were exact) and,
unless ``--check``, writes the recomputed ratings.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
             help_line: str) -> None:
    """Add the ``ratings`` command to ``subparsers``."""
    p = subparsers.add_parser(
        "ratings", help=help_line,
        description="ratings rebuild: rate every finished rated match again, in order, "
        "from the database's records; compare with the live ratings and replace them.")
    p.add_argument("action", choices=["rebuild"], help="what to do (rebuild)")
    p.add_argument("--data", type=Path, default=Path("polignac-data"), metavar="DIR",
                   help="the server's data folder (SQLite file DIR/polignac.db)")
    p.add_argument("--database-url", default=None, metavar="URL",
                   help="the server's database (any SQLAlchemy URL), instead of --data")
    p.add_argument("--check", action="store_true",
                   help="only compare: exit 1 when the live ratings differ, write nothing")
    p.set_defaults(func=run_ratings)


def run_ratings(args: argparse.Namespace) -> int:
    """Run ``polignac ratings rebuild``; 0 when the live ratings were exact (or were
    replaced), 1 with ``--check`` when they differ.

    Raises:
        sqlalchemy.exc.SQLAlchemyError: the database cannot be opened or read.
    """
    from ..server.players.ratings import rebuild
    from ..server.store.db import make_engine, migrate

    url = args.database_url or f"sqlite:///{args.data / 'polignac.db'}"
    engine = make_engine(url)
    try:
        migrate(engine)
        count, diff = rebuild(engine, write=not args.check)
    finally:
        engine.dispose()
    for line in diff:
        print(line, file=sys.stdout)
    if not diff:
        print(f"{count} ratings rebuilt from the records: equal to the live ratings")
        return 0
    if args.check:
        print(f"{len(diff)} of the live ratings differ from the records")
        return 1
    print(f"{len(diff)} live ratings differed from the records; replaced ({count} ratings)")
    return 0
