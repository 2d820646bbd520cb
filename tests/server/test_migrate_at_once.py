"""Any number of processes may start at once on a fresh database (issue 22): three
processes run the migrations at the same moment, on SQLite and on PostgreSQL; all
succeed and the schema is at its head once."""

from __future__ import annotations

import os
import select
import subprocess
import sys

from sqlalchemy import text

from polignac.server.store.db import make_engine, migrate

SCRIPT = """
import sys
from polignac.server.store.db import make_engine, migrate
engine = make_engine(sys.argv[1])
print("ready", flush=True)
sys.stdin.readline()  # until the test lets all three go at the same moment
migrate(engine)
engine.dispose()
"""


def _race(url: str) -> None:
    """Three processes migrate ``url`` at the same moment; all succeed.

    Each says when it is ready (its interpreter started, its engine made) and waits
    for a line on its input: the test sends the three lines together once all three
    are ready, whatever time they took to start."""
    procs = [subprocess.Popen([sys.executable, "-c", SCRIPT, url], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              env=os.environ.copy())
             for _ in range(3)]
    try:
        for p in procs:
            assert p.stdout is not None
            readable, _, _ = select.select([p.stdout], [], [], 120)
            assert readable and p.stdout.readline() == b"ready\n", "a process did not start"
    except AssertionError:
        for p in procs:
            p.kill()
        raise AssertionError([p.communicate(timeout=60)[1].decode(errors="replace")[-600:]
                              for p in procs]) from None
    for p in procs:
        assert p.stdin is not None
        p.stdin.write(b"go\n")
        p.stdin.flush()
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
