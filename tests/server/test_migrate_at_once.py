"""Any number of processes may start at once on a fresh database (issue 22): three
processes run the migrations at the same moment, on SQLite and on PostgreSQL; all
succeed and the schema is at its head once."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from sqlalchemy import text

from polignac.server.store.db import make_engine, migrate

SCRIPT = """
import sys, time
from polignac.server.store.db import make_engine, migrate
engine = make_engine(sys.argv[1])
time.sleep(max(0.0, float(sys.argv[2]) - time.time()))  # all three at the same moment
migrate(engine)
engine.dispose()
"""


def _race(url: str) -> None:
    """Three processes migrate ``url`` at the same moment; all succeed."""
    start = time.time() + 3  # after every interpreter has started
    procs = [subprocess.Popen([sys.executable, "-c", SCRIPT, url, str(start)],
                              stderr=subprocess.PIPE, env=os.environ.copy())
             for _ in range(3)]
    errors = [p.communicate(timeout=120)[1].decode(errors="replace")[-600:] for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0], errors


def test_three_processes_migrate_one_fresh_database_at_once(database_url: str) -> None:
    if database_url.startswith("sqlite"):  # without the lock, about 1 round in 3 fails
        for n in range(1, 4):
            _race(f"{database_url[:-3]}-{n}.db")
    _race(database_url)
    engine = make_engine(database_url)
    try:
        migrate(engine)  # and once more: nothing to do
        with engine.connect() as conn:
            versions = conn.execute(text("SELECT version_num FROM alembic_version")).all()
            assert len(versions) == 1
            assert conn.execute(text("SELECT count(*) FROM tables")).scalar() == 0
    finally:
        engine.dispose()
