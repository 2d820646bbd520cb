"""Waiting in tests: on a condition, never on the time a machine takes.

A test waits for what it needs to see (``wait_until`` in plain code, ``until`` on an
event loop), with a generous deadline that is only there so a broken product fails
instead of hanging: it is never what the test checks, and no limit is derived from
how fast this machine runs.  Time that the server itself must see pass (a grace, a
pause, a bot's delay, a cooldown) is a ``ManualClock`` advanced by the test instead.

A :class:`Gate` holds jobs running in other processes (worker pools) until the test
opens it, so that a job is still running exactly as long as the test needs.

    wait_until(lambda: proc.ready(), what="the server to answer /ready")
    await until(lambda: table.paused, what="the table to pause")
"""

from __future__ import annotations

import asyncio
import inspect
import os
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

TIMEOUT = 30.0
"""The default deadline of a wait (seconds): far beyond what any wait here needs."""


def _describe(what: str | Callable[[], str]) -> str:
    return what() if callable(what) else what


def _timed_out(timeout: float, what: str | Callable[[], str],
               last: BaseException | None) -> AssertionError:
    message = f"gave up after {timeout:g} s waiting for {_describe(what)}"
    if last is not None:
        message += f" (last: {type(last).__name__}: {last})"
    return AssertionError(message)


def wait_until(predicate: Callable[[], T], timeout: float = TIMEOUT,
               what: str | Callable[[], str] = "the condition", interval: float = 0.01,
               ignoring: tuple[type[BaseException], ...] = (),
               pause: Callable[[float], object] = time.sleep) -> T:
    """Call ``predicate()`` every ``interval`` seconds until it returns something true;
    return that.

    ``ignoring``: exceptions of ``predicate`` that count as "not yet" (a server that
    does not listen yet).  ``what`` (or ``what()``, called on failure) says what was
    awaited.  ``pause(interval)`` waits between two calls (a Playwright page's
    ``wait_for_timeout``, which lets its events run, instead of ``time.sleep``).

    Raises:
        AssertionError: ``timeout`` seconds passed first (its message names ``what``).
        Exception: whatever ``predicate`` raised that is not in ``ignoring`` (an
            ``AssertionError`` there fails at once: a process that exited).
    """
    deadline = time.monotonic() + timeout
    last: BaseException | None = None
    while True:
        try:
            value = predicate()
        except ignoring as exc:
            last = exc
        else:
            if value:
                return value
        if time.monotonic() >= deadline:
            raise _timed_out(timeout, what, last)
        pause(interval)


async def until(predicate: Callable[[], T | Awaitable[T]], timeout: float = TIMEOUT,
                what: str | Callable[[], str] = "the condition",
                interval: float = 0.005) -> T:
    """As :func:`wait_until`, on the running event loop (the loop goes on meanwhile);
    ``predicate`` may be a coroutine function (its answer is awaited).

    The deadline is the real clock's (``time.monotonic``), never a ``ManualClock``'s.

    Raises:
        AssertionError: ``timeout`` seconds passed first.
    """
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if inspect.isawaitable(value):
            value = await value
        if value:
            return value
        if time.monotonic() >= deadline:
            raise _timed_out(timeout, what, None)
        await asyncio.sleep(interval)


async def until_done(awaitable: Awaitable[T], timeout: float = TIMEOUT,
                     what: str = "the task") -> T:
    """``await awaitable``, failing (not hanging) if it has not finished after
    ``timeout`` real seconds.

    Raises:
        AssertionError: it did not finish in time (it is cancelled).
    """
    try:
        return await asyncio.wait_for(awaitable, timeout)
    except TimeoutError:
        raise _timed_out(timeout, what, None) from None


class Gate:
    """A file in ``folder`` that jobs in other processes wait for (``held``) until the
    test opens it.

    ``path`` is a string, to pass to a job; ``open()`` lets every holder, present and
    future, through.  As a context manager it opens on the way out, so that a job
    still held when a test fails ends instead of keeping its worker.
    """

    def __init__(self, folder: Path, name: str = "gate") -> None:
        self.path = str(folder / name)

    def open(self) -> None:
        Path(self.path).touch()

    def __enter__(self) -> Gate:
        return self

    def __exit__(self, *exc: object) -> None:
        self.open()


def held(path: str, timeout: float = 120.0) -> None:
    """Job (in a worker): wait until the gate at ``path`` is open.

    Raises:
        AssertionError: it stayed shut ``timeout`` seconds (a test that forgot it).
    """
    wait_until(lambda: os.path.exists(path), timeout, what=f"the gate {path}",
               interval=0.002)


def held_then(path: str, job: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Job (in a worker): ``job(*args, **kwargs)`` once the gate at ``path`` is open
    (``functools.partial(held_then, gate.path, job)`` stands in for ``job``)."""
    held(path)
    return job(*args, **kwargs)
