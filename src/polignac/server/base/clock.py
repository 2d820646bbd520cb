"""The server's one clock: what reads the time and what waits goes through a :class:`Clock`.

:data:`SYSTEM` is the real clock, on the running asyncio loop.  :class:`ManualClock`
moves only when a test (or a simulation) advances it, firing each timer and waking
each sleeper at its deadline, so that nothing has to sleep for time to pass.

``time()`` is the wall clock (epoch seconds: what is stored as a deadline);
``monotonic()`` is for durations, and ``call_at`` and ``Timer.when`` are on it.
"""

from __future__ import annotations

import asyncio
import contextvars
import heapq
import itertools
import math
import time as _time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from types import TracebackType
from typing import Any, Protocol, TypeVar, TypeVarTuple

T = TypeVar("T")
Ts = TypeVarTuple("Ts")


class Timer:
    """A callback scheduled on a clock: ``when`` (on ``monotonic()``), ``cancel()``."""

    __slots__ = ("_cancelled", "_when")

    def __init__(self, when: float) -> None:
        self._when = when
        self._cancelled = False

    @property
    def when(self) -> float:
        """The deadline, on the clock's ``monotonic()``."""
        return self._when

    def cancelled(self) -> bool:
        """Whether ``cancel()`` was called (even after the callback ran)."""
        return self._cancelled

    def cancel(self) -> None:
        """Keep the callback from running if it has not run yet; raises nothing."""
        if not self._cancelled:
            self._cancelled = True
            self._on_cancel()

    def _on_cancel(self) -> None:
        """What the clock undoes (once)."""


class Clock(Protocol):
    """The time and the waits of the server, injected (``SYSTEM`` or a ``ManualClock``)."""

    def time(self) -> float:
        """Wall-clock seconds since the epoch (deadlines stored in the database)."""
        ...

    def monotonic(self) -> float:
        """Seconds on a clock that never goes back (durations, ``call_at``)."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Wait ``seconds`` (0 or less: only yield to the loop).

        Raises ``CancelledError`` if the task is cancelled, ``ValueError`` for NaN."""
        ...

    def call_later(self, delay: float, callback: Callable[[*Ts], object],
                   *args: *Ts) -> Timer:
        """Call ``callback(*args)`` on the event loop ``delay`` seconds from now.

        Raises ``RuntimeError`` if the clock needs a running loop and there is none,
        ``ValueError`` for a NaN delay."""
        ...

    def call_at(self, when: float, callback: Callable[[*Ts], object],
                *args: *Ts) -> Timer:
        """Call ``callback(*args)`` on the event loop when ``monotonic()`` reaches ``when``.

        Raises as ``call_later``."""
        ...

    async def wait_for(self, awaitable: Awaitable[T], timeout: float | None) -> T:
        """``await awaitable``, cancelled after ``timeout`` seconds of this clock (None: never).

        Raises ``TimeoutError`` when cancelled so, and whatever ``awaitable`` raises."""
        ...

    def timeout(self, seconds: float | None) -> AbstractAsyncContextManager[None]:
        """Cancel the ``async with`` block after ``seconds`` of this clock (None: never).

        The block's cancellation leaves it as ``TimeoutError``; entering it outside a
        task raises ``RuntimeError``."""
        ...


class _LoopTimer(Timer):
    """A timer of the event loop."""

    __slots__ = ("_handle",)

    def __init__(self, when: float, handle: asyncio.TimerHandle) -> None:
        super().__init__(when)
        self._handle = handle

    def _on_cancel(self) -> None:
        self._handle.cancel()


class SystemClock(Clock):
    """The real clock: ``time.time``, ``time.monotonic`` and the running loop's timers."""

    def time(self) -> float:
        return _time.time()

    def monotonic(self) -> float:
        return _time.monotonic()

    async def sleep(self, seconds: float) -> None:
        if math.isnan(seconds):
            raise ValueError("a sleep of NaN seconds")
        await asyncio.sleep(seconds)

    def call_later(self, delay: float, callback: Callable[[*Ts], object],
                   *args: *Ts) -> Timer:
        if math.isnan(delay):
            raise ValueError("a timer's delay is NaN")
        when = _time.monotonic() + delay
        return _LoopTimer(when, asyncio.get_running_loop().call_later(delay, callback, *args))

    def call_at(self, when: float, callback: Callable[[*Ts], object],
                *args: *Ts) -> Timer:
        if math.isnan(when):
            raise ValueError("a timer's deadline is NaN")
        now = _time.monotonic()  # read before the loop's time: never early on its clock
        loop = asyncio.get_running_loop()
        return _LoopTimer(when, loop.call_at(loop.time() + (when - now), callback, *args))

    async def wait_for(self, awaitable: Awaitable[T], timeout: float | None) -> T:
        return await asyncio.wait_for(awaitable, timeout)

    @asynccontextmanager
    async def timeout(self, seconds: float | None) -> AsyncIterator[None]:
        async with asyncio.timeout(seconds):
            yield


SYSTEM = SystemClock()
"""The real clock, for the server when nothing else is injected."""


class _Deadline:
    """``Clock.timeout`` on any clock's own timers (``asyncio.timeout``'s logic)."""

    def __init__(self, clock: Clock, seconds: float | None) -> None:
        self._clock = clock
        self._seconds = seconds
        self._task: asyncio.Task[Any] | None = None
        self._timer: Timer | asyncio.Handle | None = None
        self._cancelling = 0
        self._expired = False

    async def __aenter__(self) -> None:
        if self._task is not None:
            raise RuntimeError("a timeout() is entered once")
        task = asyncio.current_task()
        if task is None:
            raise RuntimeError("timeout() is used inside a task")
        self._task, self._cancelling = task, task.cancelling()
        if self._seconds is None:
            return
        if self._seconds <= 0:  # already past: on the loop's next pass, as asyncio does
            self._timer = asyncio.get_running_loop().call_soon(self._expire)
        else:
            self._timer = self._clock.call_later(self._seconds, self._expire)

    async def __aexit__(self, exc_type: type[BaseException] | None,
                        exc: BaseException | None, tb: TracebackType | None) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        assert self._task is not None
        if (self._expired and self._task.uncancel() <= self._cancelling
                and exc_type is asyncio.CancelledError):
            raise TimeoutError from exc  # no other cancel request: this one was ours

    def _expire(self) -> None:
        assert self._task is not None
        self._timer = None
        self._expired = True
        self._task.cancel()


def _wake(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


class _ManualTimer(Timer):
    """A timer of a ``ManualClock``: in its heap until fired or cancelled."""

    __slots__ = ("_args", "_callback", "_clock", "_context", "_handle", "_queued")

    def __init__(self, clock: ManualClock, when: float, callback: Callable[..., object],
                 args: tuple[Any, ...]) -> None:
        super().__init__(when)
        self._clock = clock
        self._callback = callback
        self._args = args
        self._context = contextvars.copy_context()  # as the loop's call_later does
        self._handle: asyncio.Handle | None = None  # once fired, until it has run
        self._queued = True

    def _fire(self, loop: asyncio.AbstractEventLoop) -> None:
        self._queued = False
        self._handle = loop.call_soon(self._callback, *self._args, context=self._context)

    def _on_cancel(self) -> None:
        if self._queued:
            self._queued = False
            self._clock._forget()
        if self._handle is not None:
            self._handle.cancel()


MONOTONIC_START = 1_100_000_000.0
"""A ``ManualClock``'s ``monotonic()`` at first.  It differs from ``time()`` (mixing
them up shows) but lies in the same binary range, [2**30, 2**31), as the default start:
between the two, ``x + (time() - monotonic())`` is then exact, so ``advance_to(time() +
d)`` reaches a timer set by ``call_later(d)`` exactly.  From a start outside that range
(before 2004 or after 2038) the wall deadline may fall one float step (about 0.24 us)
short of the timer."""

_SEEN_PASSES = 10_000
"""Most loop passes of one settling where the loop's ready queue can be seen."""
_BLIND_PASSES = 100
"""Loop passes of one settling where it cannot (uvloop)."""


class ManualClock(Clock):
    """A clock that moves only when told (``advance``), for tests and simulations.

    Timers and sleepers are kept in a heap by (deadline, order of scheduling).
    ``advance`` moves time to each due one in turn, hands its callback to the loop
    and lets the loop settle before the next: it yields (``asyncio.sleep(0)``) until
    the loop's ready queue is empty (at most ``_SEEN_PASSES`` times; where the queue
    cannot be seen, as under uvloop, exactly ``_BLIND_PASSES`` times).  What a
    callback or a woken task schedules inside the window fires in the same advance.
    Work that waits on I/O or on other threads is not waited for.

    Timers are set and fired on the loop's thread; ``time()`` and ``monotonic()``
    may be read from any thread (one float attribute, replaced whole).  Times are
    floats: ten ``advance(0.1)`` fall short of a timer at ``1.0``.
    """

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        """``start``: the first ``time()``.  Raises ``ValueError`` unless finite."""
        if not math.isfinite(start):
            raise ValueError(f"a clock starts at a finite time, not {start}")
        self._start = start
        self._now = MONOTONIC_START
        self._heap: list[tuple[float, int, _ManualTimer]] = []
        self._order = itertools.count()
        self._live = 0
        self._advancing = False

    def time(self) -> float:
        return self._start + (self._now - MONOTONIC_START)

    def monotonic(self) -> float:
        return self._now

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        timer = self.call_later(seconds, _wake, future)
        try:
            await future
        finally:
            timer.cancel()  # a cancelled sleeper leaves the heap's count

    def call_later(self, delay: float, callback: Callable[[*Ts], object],
                   *args: *Ts) -> Timer:
        if math.isnan(delay):
            raise ValueError("a timer's delay is NaN")
        return self.call_at(self._now + delay, callback, *args)

    def call_at(self, when: float, callback: Callable[[*Ts], object],
                *args: *Ts) -> Timer:
        if math.isnan(when):
            raise ValueError("a timer's deadline is NaN")
        timer = _ManualTimer(self, when, callback, args)
        heapq.heappush(self._heap, (when, next(self._order), timer))
        self._live += 1
        return timer

    async def wait_for(self, awaitable: Awaitable[T], timeout: float | None) -> T:
        async with _Deadline(self, timeout):
            return await awaitable

    def timeout(self, seconds: float | None) -> AbstractAsyncContextManager[None]:
        return _Deadline(self, seconds)

    def pending(self) -> int:
        """Timers and sleepers neither fired nor cancelled."""
        return self._live

    def next_deadline(self) -> float | None:
        """The earliest pending deadline on ``monotonic()``, or None."""
        self._drop_cancelled()
        return self._heap[0][0] if self._heap else None

    async def advance(self, seconds: float) -> None:
        """Move time ``seconds`` forward, firing what falls due (see the class).

        Raises ``ValueError`` for a negative or non-finite step, ``RuntimeError``
        while another ``advance`` runs."""
        if not 0 <= seconds < math.inf:
            raise ValueError(f"a clock advances by a finite step >= 0, not {seconds}")
        await self._run_until(self._now + seconds)

    async def advance_to(self, when_wall: float) -> None:
        """Move time forward until ``time()`` is ``when_wall`` (epoch seconds).

        Raises ``ValueError`` for a time before ``time()`` or not finite, and as
        ``advance``."""
        if not self.time() <= when_wall < math.inf:
            raise ValueError(f"advance_to takes a finite time from {self.time()}, not {when_wall}")
        await self._run_until(max(self._now, MONOTONIC_START + (when_wall - self._start)))

    async def _run_until(self, target: float) -> None:
        if self._advancing:
            raise RuntimeError("a ManualClock advances in one task at a time")
        self._advancing = True
        try:
            loop = asyncio.get_running_loop()
            await _settle(loop)  # tasks just created get to schedule their waits
            while self._heap:
                self._drop_cancelled()
                if not self._heap or self._heap[0][0] > target:
                    break
                when, _, timer = heapq.heappop(self._heap)
                self._live -= 1
                self._now = max(self._now, when)
                timer._fire(loop)
                await _settle(loop)
            self._now = max(self._now, target)
        finally:
            self._advancing = False

    def _drop_cancelled(self) -> None:
        while self._heap and not self._heap[0][2]._queued:
            heapq.heappop(self._heap)

    def _forget(self) -> None:
        """A queued timer was cancelled: count it out, and compact a heap mostly cancelled."""
        self._live -= 1
        if len(self._heap) > 64 and self._live < len(self._heap) // 2:
            self._heap = [e for e in self._heap if e[2]._queued]
            heapq.heapify(self._heap)


async def _settle(loop: asyncio.AbstractEventLoop) -> None:
    """Yield until nothing is ready to run on ``loop`` (see ``ManualClock``)."""
    ready = getattr(loop, "_ready", None)  # asyncio's own loops: a deque of handles
    if ready is None:
        for _ in range(_BLIND_PASSES):
            await asyncio.sleep(0)
        return
    for _ in range(_SEEN_PASSES):
        await asyncio.sleep(0)
        if not ready:
            return
