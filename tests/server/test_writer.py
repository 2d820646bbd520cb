"""Group commit (writer.py): the writes waiting share one transaction, a write that
came while another process held SQLite's write lock joins the transaction that was
waiting for it, the writers of several processes take turns on a file lock, and a
bad write fails alone."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import threading
from pathlib import Path

import pytest
from sqlalchemy import event, select
from sqlalchemy.exc import IntegrityError

from polignac.server.store.db import EventRow, Store, TableRow, make_engine, migrate
from polignac.server.store.schema import events_t
from polignac.server.store.writer import Writer

from .table_support import person
from .waiting import until


def _event(seq: int) -> EventRow:
    return EventRow(seq, "say", "", 0, {"text": f"m{seq}"})


async def _store(path: Path) -> Store:
    engine = make_engine(f"sqlite:///{path}")
    await asyncio.to_thread(migrate, engine)
    store = Store(engine)
    row = TableRow("t1", "polignac", {}, 4, 0, [person(s) for s in range(4)], [],
                   creator_seat=0, options={})
    await asyncio.to_thread(store.create_table, row)
    return store


def _stored_seqs(store: Store) -> list[int]:
    with store.engine.connect() as conn:
        return sorted(r.seq for r in conn.execute(select(events_t.c.seq)))


def test_writes_waiting_for_another_processs_commit_join_one_transaction(
        tmp_path: Path) -> None:
    """Another process (another connection to the file) holds the write lock: the
    writer's transaction waits for it, and every write that came meanwhile, the first
    one's and the nine after it, is committed in that one transaction."""

    async def scenario() -> None:
        store = await _store(tmp_path / "db.sqlite")
        began = threading.Event()
        event.listen(store.engine, "begin", lambda _conn: began.set())
        other = sqlite3.connect(tmp_path / "db.sqlite", isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # the other process is committing
        writer = Writer(store)
        try:
            first = asyncio.create_task(writer.append("t1", _event(1)))
            # the writer's thread has begun its transaction (and waits for the lock)
            assert await asyncio.to_thread(began.wait, 60)
            rest = [asyncio.create_task(writer.append("t1", _event(seq)))
                    for seq in range(2, 11)]
            await until(lambda: len(writer._pending) == 10,  # every write is submitted
                        what="the ten writes submitted")
            assert not first.done()
            other.execute("COMMIT")
            await asyncio.wait_for(asyncio.gather(first, *rest), 60)
            assert (writer.batches, writer.writes) == (1, 10)
            assert await asyncio.to_thread(_stored_seqs, store) == list(range(1, 11))
        finally:
            other.close()
            await writer.stop()
            store.engine.dispose()

    asyncio.run(scenario())


def _waits_on(inode: int) -> bool:
    """Whether a lock on the file ``inode`` has a waiter now (``/proc/locks``: a blocked
    request is listed with ``->``)."""
    return any("->" in line and line.split()[-3].endswith(f":{inode}")
               for line in Path("/proc/locks").read_text().splitlines())


def test_writers_of_several_processes_take_turns_on_a_file_lock(tmp_path: Path) -> None:
    """Another process's writer holds ``<database>.write-lock``: this writer waits on it
    in the kernel (listed as the lock's waiter) before it begins a transaction, so it
    neither holds SQLite's lock nor sleeps in SQLite's busy wait, and it commits once
    the lock is let go."""
    fcntl = pytest.importorskip("fcntl")
    if not Path("/proc/locks").exists():
        pytest.skip("no /proc/locks on this system")

    async def scenario() -> None:
        store = await _store(tmp_path / "db.sqlite")
        began = threading.Event()
        event.listen(store.engine, "begin", lambda _conn: began.set())
        writer = Writer(store)
        try:
            with open(tmp_path / "db.sqlite.write-lock", "a+b") as other:
                fcntl.flock(other.fileno(), fcntl.LOCK_EX)  # the other process writes
                write = asyncio.create_task(writer.append("t1", _event(1)))
                inode = os.fstat(other.fileno()).st_ino
                await until(lambda: _waits_on(inode), what="a waiter on the write lock")
                assert not began.is_set() and not write.done()
                fcntl.flock(other.fileno(), fcntl.LOCK_UN)
                await asyncio.wait_for(write, 60)
            assert await asyncio.to_thread(_stored_seqs, store) == [1]
        finally:
            await writer.stop()
            store.engine.dispose()

    asyncio.run(scenario())


def test_a_bad_write_fails_alone(tmp_path: Path) -> None:
    """A batch with a sequence number already taken: that write raises, the others of
    its batch are committed."""

    async def scenario() -> None:
        store = await _store(tmp_path / "db.sqlite")
        writer = Writer(store)
        try:
            await writer.append("t1", _event(1))
            results = await asyncio.gather(
                *(writer.append("t1", _event(seq)) for seq in (2, 1, 3)),
                return_exceptions=True)
            assert results[0] is None and results[2] is None
            assert isinstance(results[1], IntegrityError)
            assert await asyncio.to_thread(_stored_seqs, store) == [1, 2, 3]
        finally:
            await writer.stop()
            store.engine.dispose()

    asyncio.run(scenario())


def test_a_transaction_that_cannot_begin_fails_its_writes(tmp_path: Path) -> None:
    """The database refuses every transaction (a file that is not a database): the
    waiting writes fail with its error, and the writer takes new ones after."""

    async def scenario() -> None:
        store = await _store(tmp_path / "db.sqlite")
        writer = Writer(store)
        path = tmp_path / "db.sqlite"
        try:
            await writer.append("t1", _event(1))
            store.engine.dispose()
            saved = path.read_bytes()
            path.write_bytes(b"not a database" * 100)
            for suffix in ("-wal", "-shm"):
                Path(f"{path}{suffix}").unlink(missing_ok=True)
            results = await asyncio.wait_for(asyncio.gather(
                *(writer.append("t1", _event(seq)) for seq in (2, 3)),
                return_exceptions=True), 60)
            assert all(isinstance(r, Exception) for r in results), results
            store.engine.dispose()
            path.write_bytes(saved)
            await asyncio.wait_for(writer.append("t1", _event(2)), 60)
            assert await asyncio.to_thread(_stored_seqs, store) == [1, 2]
        finally:
            await writer.stop()
            store.engine.dispose()

    asyncio.run(scenario())


def test_every_write_transaction_of_the_server_takes_its_turn() -> None:
    """The server's modules open write transactions only through ``db.writing`` (the
    processes' writers take turns on a file lock, then SQLite's lock at once): an
    ``engine.begin()`` elsewhere would wait in SQLite's busy wait, sleeping in steps,
    and hold up the others' writers."""
    server = Path(__file__).resolve().parents[2] / "src" / "polignac" / "server"
    found = [f"{path.name}:{number}"
             for path in sorted(server.glob("*.py")) if path.name != "db.py"
             for number, line in enumerate(path.read_text().splitlines(), 1)
             if ".begin()" in line or ".begin," in line]
    assert found == []
