"""Group commit: one writer for every table's events.

Every write of the running server (events, and the few seat and table
updates) goes through one :class:`Writer`.  A single task takes everything
that is waiting, across all tables, and hands it to one worker thread, which
writes it in **one** transaction (one fsync on SQLite with
``synchronous=FULL``, one WAL flush on PostgreSQL).  Only when that commit
has returned are the callers' futures resolved, so nothing is acknowledged
before it is durable: the guarantee of one transaction per event, at the cost
of one fsync per batch instead of one per event.

The worker thread takes the batch only once its transaction holds the database's
write lock (SQLite: ``BEGIN IMMEDIATE``): with several processes on one SQLite
file, the writes that came while it waited for the other process's commit join
the same transaction, instead of waiting for one more transaction (and fsync) of
their own.  Its transactions, as every write transaction of the server, go through
:func:`~polignac.server.store.db.writing`: on a SQLite file, the writers of all processes
first take turns on a file lock, which the kernel hands on the moment the last one
commits (SQLite's busy wait slept past it).

If a batch fails, its writes are retried one transaction each, so that one
bad write (a sequence number already taken, say) fails alone and the others
still commit.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from sqlalchemy import Connection

from .db import EventRow, Store, writing

log = logging.getLogger("polignac.server")

Op = Callable[[Connection], None]
"""A write other than an event: runs inside the batch's transaction."""


@dataclass(eq=False)
class _Write:
    table_id: str | None
    event: EventRow | None
    op: Op | None
    future: asyncio.Future[None]


class WriterClosedError(RuntimeError):
    """The writer was stopped; nothing more is written."""


class Writer:
    """The one writer of a server process (see the module's docstring).

    Use :meth:`append` and :meth:`run` from the event loop only; the database
    work happens in the writer's own thread.
    """

    def __init__(self, store: Store, max_batch: int = 2000) -> None:
        self.store = store
        self.max_batch = max_batch
        self._pending: list[_Write] = []
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="polignac-writer")
        self._closed = False
        self.batches = 0
        """Transactions committed so far (for tests and the benchmark)."""
        self.writes = 0
        """Writes committed so far."""

    def start(self) -> None:
        """Start the writer task on the running loop."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._loop())

    async def append(self, table_id: str, ev: EventRow, op: Op | None = None) -> None:
        """Write event ``ev`` of ``table_id`` (and ``op``, in the same transaction: a
        match's result with its last event); return once it is committed.

        Raises:
            WriterClosedError: the writer was stopped before the event was written.
            sqlalchemy.exc.IntegrityError: that sequence number is taken.
            sqlalchemy.exc.SQLAlchemyError: the database refused the write.
        """
        await self._submit(_Write(table_id, ev, op, self._future()))

    async def run(self, op: Op) -> None:
        """Run ``op(connection)`` in the next batch's transaction; return once committed.

        Raises:
            WriterClosedError: the writer was stopped before ``op`` ran.
            sqlalchemy.exc.SQLAlchemyError: ``op`` or the commit failed.
        """
        await self._submit(_Write(None, None, op, self._future()))

    def _future(self) -> asyncio.Future[None]:
        return asyncio.get_running_loop().create_future()

    async def _submit(self, write: _Write) -> None:
        if self._closed:
            raise WriterClosedError("the server is stopping")
        self.start()
        self._pending.append(write)
        self._wake.set()
        # Shielded: a caller that is cancelled does not cancel the write,
        # which may already be in the database's hands.
        await asyncio.shield(write.future)

    async def _loop(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            if not self._pending:
                if self._closed:
                    return
                await self._wake.wait()
                self._wake.clear()
                continue
            batch, exc = await loop.run_in_executor(self._thread, self._write_pending)
            if exc is not None:
                if not batch:  # the transaction did not begin: what waits fails with it
                    batch = self._pending[:self.max_batch]
                    del self._pending[:len(batch)]
                if len(batch) == 1:
                    self._fail(batch[0], exc)
                    continue
                log.warning("group commit of %d writes failed (%s); writing them one by one",
                            len(batch), exc)
                for write in batch:
                    try:
                        await loop.run_in_executor(self._thread, self._write, [write])
                    except Exception as one:
                        self._fail(write, one)
                    else:
                        self._done([write])
                continue
            self._done(batch)

    def _write_pending(self) -> tuple[list[_Write], Exception | None]:
        """One transaction for what is waiting, taken once the transaction holds the
        write lock (in the writer thread): the batch, and the error that stopped it
        (None: committed)."""
        batch: list[_Write] = []
        try:
            with writing(self.store.engine) as conn:  # waits for another writer
                # only this thread takes from the list, and the loop only appends to it:
                # what is appended meanwhile stays after the part taken
                batch = self._pending[:self.max_batch]
                del self._pending[:len(batch)]
                self._run(conn, batch)
        except Exception as exc:
            return batch, exc
        return batch, None

    def _write(self, batch: list[_Write]) -> None:
        """One transaction for ``batch`` (in the writer thread).

        Raises:
            sqlalchemy.exc.SQLAlchemyError: a write or the commit failed.
            OSError: the SQLite write lock's file cannot be opened.
        """
        with writing(self.store.engine) as conn:
            self._run(conn, batch)

    def _run(self, conn: Connection, batch: list[_Write]) -> None:
        """``batch``'s writes in ``conn``'s transaction."""
        for write in batch:
            if write.op is not None:
                write.op(conn)
        events = [(w.table_id, w.event) for w in batch if w.event is not None]
        if events:
            self.store.insert_events(conn, events)  # type: ignore[arg-type]

    def _done(self, batch: list[_Write]) -> None:
        self.batches += 1
        self.writes += len(batch)
        for write in batch:
            if not write.future.done():
                write.future.set_result(None)

    def _fail(self, write: _Write, exc: BaseException) -> None:
        if not write.future.done():
            write.future.set_exception(exc)
            write.future.exception()  # retrieved: a cancelled caller logs nothing

    async def stop(self) -> None:
        """Write what is waiting, then stop the task and the thread."""
        self._closed = True
        self._wake.set()
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self._thread.shutdown(wait=True)
