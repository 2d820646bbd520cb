"""``base/clock.py``: a ManualClock fires timers and wakes sleepers in deadline order,
only when advanced (chains scheduled inside the window included), runs ``wait_for`` and
``timeout()`` on its own time, and is read safely from other threads; SystemClock on
the running loop.  No test sleeps for time to pass, except SystemClock's few ms."""

from __future__ import annotations

import asyncio
import contextvars
import threading
import time
from collections.abc import Callable, Coroutine
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from polignac.server.base.clock import (
    MONOTONIC_START,
    SYSTEM,
    Clock,
    ManualClock,
    SystemClock,
    Timer,
)

START = 1_800_000_000.0
Runs = Callable[[Coroutine[Any, Any, None]], None]


@pytest.fixture(params=["asyncio", "uvloop"])
def run_loop(request: pytest.FixtureRequest) -> Runs:
    """Runs a coroutine on asyncio's own loop, or on uvloop's (as uvicorn serves)."""
    if request.param == "asyncio":
        return asyncio.run
    uvloop = pytest.importorskip("uvloop")

    def run(main: Coroutine[Any, Any, None]) -> None:
        with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
            runner.run(main)
    return run


def test_time_starts_at_start_and_monotonic_apart_from_it() -> None:
    clock = ManualClock()
    assert clock.time() == START and clock.monotonic() == MONOTONIC_START
    assert ManualClock(12.5).time() == 12.5
    assert clock.pending() == 0 and clock.next_deadline() is None
    for bad in (float("nan"), float("inf")):
        with pytest.raises(ValueError):
            ManualClock(bad)


def test_timers_fire_in_deadline_order_ties_in_scheduling_order() -> None:
    async def run() -> None:
        clock = ManualClock()
        fired: list[tuple[str, float]] = []

        def note(name: str) -> None:
            fired.append((name, clock.monotonic() - MONOTONIC_START))

        clock.call_later(3, note, "c")
        clock.call_later(1, note, "a")
        clock.call_later(2, note, "b1")
        clock.call_at(MONOTONIC_START + 2, note, "b2")
        clock.call_later(10, note, "late")
        assert clock.pending() == 5 and clock.next_deadline() == MONOTONIC_START + 1
        await clock.advance(3)
        assert fired == [("a", 1), ("b1", 2), ("b2", 2), ("c", 3)]
        assert clock.monotonic() == MONOTONIC_START + 3 and clock.time() == START + 3
        assert clock.pending() == 1 and clock.next_deadline() == MONOTONIC_START + 10
        await clock.advance(6.5)
        assert len(fired) == 4
        await clock.advance(0.5)
        assert fired[-1] == ("late", 10) and clock.pending() == 0
    asyncio.run(run())


def test_a_past_deadline_fires_at_the_next_advance_even_of_zero() -> None:
    async def run() -> None:
        clock = ManualClock()
        fired: list[int] = []
        await clock.advance(5)
        clock.call_at(MONOTONIC_START + 1, fired.append, 1)
        clock.call_later(-2, fired.append, 2)
        clock.call_later(0, fired.append, 3)
        assert fired == []  # nothing runs until advanced
        await clock.advance(0)
        assert fired == [1, 2, 3] and clock.monotonic() == MONOTONIC_START + 5
    asyncio.run(run())


def test_cancel() -> None:
    async def run() -> None:
        clock = ManualClock()
        fired: list[str] = []
        keep = clock.call_later(1, fired.append, "keep")
        drop = clock.call_later(1, fired.append, "drop")
        assert clock.pending() == 2
        drop.cancel()
        drop.cancel()  # twice: no effect
        assert drop.cancelled() and not keep.cancelled() and clock.pending() == 1
        assert drop.when == keep.when == MONOTONIC_START + 1
        await clock.advance(2)
        assert fired == ["keep"] and clock.pending() == 0
        keep.cancel()  # after it ran: harmless
        assert clock.pending() == 0
    asyncio.run(run())


def test_a_timer_cancelled_by_an_earlier_one_of_the_same_deadline_does_not_run() -> None:
    async def run() -> None:
        clock = ManualClock()
        fired: list[str] = []
        timers: list[Timer] = []
        first = clock.call_later(1, lambda: timers[0].cancel())
        second = clock.call_later(1, fired.append, "second")
        timers.append(second)
        await clock.advance(1)
        assert fired == [] and second.cancelled() and not first.cancelled()
        assert clock.pending() == 0
    asyncio.run(run())


def test_many_cancelled_timers_are_dropped_from_the_heap() -> None:
    async def run() -> None:
        clock = ManualClock()
        timers = [clock.call_later(i + 1, lambda: None) for i in range(1000)]
        for t in timers[:-1]:
            t.cancel()
        assert clock.pending() == 1 and len(clock._heap) < 200
        assert clock.next_deadline() == MONOTONIC_START + 1000
    asyncio.run(run())


def test_a_chain_of_timers_scheduled_by_callbacks_fires_in_one_advance(run_loop: Runs) -> None:
    async def run() -> None:
        clock = ManualClock()
        at: list[float] = []

        def tick(n: int) -> None:
            at.append(clock.monotonic() - MONOTONIC_START)
            if n > 0:
                clock.call_later(1, tick, n - 1)

        clock.call_later(1, tick, 10)
        await clock.advance(5)
        assert at == [1, 2, 3, 4, 5] and clock.pending() == 1
        await clock.advance(100)
        assert at == [float(i) for i in range(1, 12)] and clock.pending() == 0
    run_loop(run())


def test_a_chain_through_tasks_and_sleeps_runs_within_the_window(run_loop: Runs) -> None:
    async def run() -> None:
        clock = ManualClock()
        log: list[tuple[str, float]] = []

        async def pacer() -> None:  # as a table pacing its tricks
            for trick in range(3):
                await clock.sleep(2)
                log.append((f"trick {trick}", clock.monotonic() - MONOTONIC_START))
                await asyncio.sleep(0)  # other awaits between the waits
                child = asyncio.create_task(clock.sleep(0.5))
                await child

        task = asyncio.create_task(pacer())  # not started yet: advance lets it start
        await clock.advance(5)
        assert log == [("trick 0", 2), ("trick 1", 4.5)] and not task.done()
        await clock.advance(2)  # the sleep of 0.5 ending at 5 was reached: trick 2 at 7
        assert log[-1] == ("trick 2", 7) and not task.done()
        await clock.advance(0.5)
        assert task.done() and clock.pending() == 0
    run_loop(run())


def test_sleep_resolves_only_after_advance(run_loop: Runs) -> None:
    async def run() -> None:
        clock = ManualClock()
        task = asyncio.create_task(clock.sleep(5))
        for _ in range(20):
            await asyncio.sleep(0)
        assert not task.done() and clock.pending() == 1
        await clock.advance(4)
        assert not task.done()
        await clock.advance(1)
        assert task.done() and clock.pending() == 0
        await task
    run_loop(run())


def test_sleep_of_zero_or_less_only_yields() -> None:
    async def run() -> None:
        clock = ManualClock()
        for seconds in (0.0, -1.0):
            other_ran: list[bool] = []
            asyncio.get_running_loop().call_soon(other_ran.append, True)
            await clock.sleep(seconds)
            assert other_ran == [True] and clock.pending() == 0
        with pytest.raises(ValueError):
            await clock.sleep(float("nan"))
        assert clock.monotonic() == MONOTONIC_START
    asyncio.run(run())


def test_a_cancelled_sleeper_is_removed() -> None:
    async def run() -> None:
        clock = ManualClock()
        task = asyncio.create_task(clock.sleep(5))
        await clock.advance(1)
        assert clock.pending() == 1
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert clock.pending() == 0 and clock.next_deadline() is None
        await clock.advance(10)
    asyncio.run(run())


def test_wait_for_times_out_only_when_advanced_past_its_timeout(run_loop: Runs) -> None:
    async def run() -> None:
        clock = ManualClock()
        never: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        task = asyncio.create_task(clock.wait_for(never, 10))
        await clock.advance(9.5)
        assert not task.done()
        await clock.advance(0.5)
        assert task.done() and never.cancelled()
        with pytest.raises(TimeoutError):
            await task
        assert clock.pending() == 0
    run_loop(run())


def test_wait_for_returns_the_result_and_raises_what_it_raises(run_loop: Runs) -> None:
    async def run() -> None:
        clock = ManualClock()

        async def answer(after: float) -> int:
            await clock.sleep(after)
            return 42

        async def fail() -> int:
            raise KeyError("x")

        task = asyncio.create_task(clock.wait_for(answer(3), 10))
        await clock.advance(3)
        assert task.done() and await task == 42
        assert clock.pending() == 0  # the timeout's timer is gone
        assert await clock.wait_for(answer(0), None) == 42
        with pytest.raises(KeyError):
            await clock.wait_for(fail(), 1)
        with pytest.raises(TimeoutError):  # no time left: at the first wait
            await clock.wait_for(answer(1), 0)
    run_loop(run())


def test_timeout_cancels_the_block_on_the_clock(run_loop: Runs) -> None:
    async def run() -> None:
        clock = ManualClock()
        reached: list[str] = []

        async def block(seconds: float) -> None:
            async with clock.timeout(seconds):
                await clock.sleep(100)
                reached.append("end of block")

        task = asyncio.create_task(block(2))
        await clock.advance(1.5)
        assert not task.done()
        await clock.advance(0.5)
        with pytest.raises(TimeoutError):
            await task
        assert reached == [] and clock.pending() == 0

        async def quick() -> str:
            async with clock.timeout(5):
                await clock.sleep(1)
            async with clock.timeout(None):
                await clock.sleep(1)
            return "done"

        task2 = asyncio.create_task(quick())
        await clock.advance(2)
        assert await task2 == "done" and clock.pending() == 0
    run_loop(run())


def test_timeout_leaves_a_cancel_from_outside_as_a_cancel(run_loop: Runs) -> None:
    async def run() -> None:
        clock = ManualClock()

        async def block() -> None:
            async with clock.timeout(10):
                await clock.sleep(100)

        task = asyncio.create_task(block())
        await clock.advance(1)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert clock.pending() == 0

        async def reused() -> None:
            deadline = clock.timeout(1)
            async with deadline:
                pass
            async with deadline:
                pass

        with pytest.raises(RuntimeError):
            await reused()
    run_loop(run())


def test_nested_timeouts_each_raise_their_own(run_loop: Runs) -> None:
    async def run() -> None:
        clock = ManualClock()
        outcome: list[str] = []

        async def nested() -> None:
            try:
                async with clock.timeout(10):
                    try:
                        async with clock.timeout(1):
                            await clock.sleep(100)
                    except TimeoutError:
                        outcome.append("inner")
                    await clock.sleep(100)
            except TimeoutError:
                outcome.append("outer")

        task = asyncio.create_task(nested())
        await clock.advance(20)
        await task
        assert outcome == ["inner", "outer"]
    run_loop(run())


def test_advance_to_a_wall_deadline_reaches_the_timer_for_the_same_delay() -> None:
    async def run() -> None:
        clock = ManualClock()
        await clock.advance(123.456)

        def record(at: list[float]) -> None:
            at.append(clock.time())

        for delay in (0.1, 29.7, 1e-3, 3600.25):  # not all binary fractions
            fired: list[float] = []
            deadline = clock.time() + delay  # as stored in the database
            clock.call_later(delay, record, fired)
            await clock.advance_to(deadline)
            assert fired == [deadline] and clock.time() == deadline
        with pytest.raises(ValueError):
            await clock.advance_to(clock.time() - 1)
        with pytest.raises(ValueError):
            await clock.advance(-1)
        for bad in (float("nan"), float("inf")):
            with pytest.raises(ValueError):
                await clock.advance(bad)
            with pytest.raises(ValueError):
                await clock.advance_to(bad)
        with pytest.raises(ValueError):
            clock.call_later(float("nan"), lambda: None)
        with pytest.raises(ValueError):
            clock.call_at(float("nan"), lambda: None)
        assert clock.pending() == 0
    asyncio.run(run())


def test_one_advance_at_a_time() -> None:
    async def run() -> None:
        clock = ManualClock()
        errors: list[BaseException] = []

        async def second() -> None:
            try:
                await clock.advance(1)
            except RuntimeError as e:
                errors.append(e)

        clock.call_later(1, lambda: asyncio.ensure_future(second()))
        await clock.advance(2)
        assert len(errors) == 1 and clock.monotonic() == MONOTONIC_START + 2
    asyncio.run(run())


def test_callbacks_run_on_the_loop_in_their_scheduling_context() -> None:
    async def run() -> None:
        clock = ManualClock()
        var: contextvars.ContextVar[str] = contextvars.ContextVar("var", default="none")
        seen: list[tuple[str, bool]] = []
        errors: list[dict[str, Any]] = []
        asyncio.get_running_loop().set_exception_handler(lambda _loop, c: errors.append(c))
        advancing = asyncio.current_task()

        def look() -> None:
            seen.append((var.get(), asyncio.current_task() is advancing))

        def boom() -> None:
            raise ZeroDivisionError

        var.set("scheduled")
        clock.call_later(1, look)
        clock.call_later(1, boom)
        clock.call_later(2, look)
        var.set("advanced")
        await clock.advance(2)
        assert seen == [("scheduled", False)] * 2  # the loop ran them, not advance()
        assert len(errors) == 1 and isinstance(errors[0]["exception"], ZeroDivisionError)
    asyncio.run(run())


def test_time_can_be_read_from_another_thread() -> None:
    clock = ManualClock()
    started, stop = threading.Event(), threading.Event()
    problems: list[str] = []
    reads = [0]

    def reader() -> None:
        last = clock.monotonic()
        started.set()
        while not stop.is_set():
            m = clock.monotonic()
            w = clock.time()
            if m < last or w - m < START - MONOTONIC_START:
                problems.append(f"{last} {m} {w}")
            last = m
            reads[0] += 1

    async def run() -> None:
        for _ in range(2000):
            await clock.advance(0.5)

    thread = threading.Thread(target=reader)
    thread.start()
    started.wait()
    try:
        asyncio.run(run())
    finally:
        stop.set()
        thread.join()
    assert problems == [] and reads[0] > 0
    assert clock.time() == START + 1000


def test_a_manual_clock_is_a_clock() -> None:
    clocks: list[Clock] = [ManualClock(), SYSTEM]  # as mypy checks
    assert isinstance(clocks[1], SystemClock)


def test_system_clock_reads_the_machine() -> None:
    before_w, before_m = time.time(), time.monotonic()
    w, m = SYSTEM.time(), SYSTEM.monotonic()
    after_w, after_m = time.time(), time.monotonic()
    assert before_w <= w <= after_w and before_m <= m <= after_m


def test_system_clock_timers_and_waits(run_loop: Runs) -> None:
    async def run() -> None:
        clock: Clock = SYSTEM
        fired = asyncio.Event()
        at: list[float] = []
        dropped: list[int] = []

        def hit() -> None:
            at.append(time.monotonic())
            fired.set()

        late = clock.call_later(0.001, dropped.append, 1)
        late.cancel()
        assert late.cancelled()
        timer = clock.call_at(clock.monotonic() + 0.002, hit)
        await fired.wait()
        slack = 1e-3  # uvloop rounds to milliseconds from a time cached per loop pass
        assert at[0] >= timer.when - slack and not timer.cancelled()
        fired.clear()
        before = time.monotonic()
        timer = clock.call_later(0.001, hit)
        assert before + 0.001 <= timer.when <= time.monotonic() + 0.001
        await fired.wait()
        before = time.monotonic()
        await clock.sleep(0.002)
        assert time.monotonic() - before >= 0.002 - slack
        await clock.sleep(0)
        await clock.sleep(-1)

        async def answer() -> int:
            return 7

        assert await clock.wait_for(answer(), 1) == 7
        assert await clock.wait_for(answer(), None) == 7
        with pytest.raises(TimeoutError):
            await clock.wait_for(asyncio.Event().wait(), 0.001)
        with pytest.raises(TimeoutError):
            async with clock.timeout(0.001):
                await asyncio.Event().wait()
        async with clock.timeout(None):
            await asyncio.sleep(0)
        with pytest.raises(ValueError):
            clock.call_later(float("nan"), hit)
        assert dropped == []
    run_loop(run())


def test_system_clock_timers_need_a_running_loop() -> None:
    with pytest.raises(RuntimeError):
        SYSTEM.call_later(1, lambda: None)


delays = st.floats(min_value=0, max_value=50, allow_nan=False)


@given(specs=st.lists(st.tuples(delays, st.none() | delays, st.booleans()), max_size=25),
       steps=st.lists(st.floats(min_value=0, max_value=40, allow_nan=False),
                      min_size=1, max_size=6))
def test_timers_fire_in_deadline_order_once_never_early(
        specs: list[tuple[float, float | None, bool]], steps: list[float]) -> None:
    """Random delays (some cancelled, some scheduling a child when they fire) and
    advance steps: each due timer fires once, in (deadline, scheduling) order, at its
    deadline and in the step that reached it; none fires early or when cancelled."""
    async def run() -> None:
        clock = ManualClock()
        made: list[Timer] = []
        fired: list[tuple[int, float]] = []  # (index in made, monotonic() then)

        def schedule(after: float, child: float | None) -> None:
            made.append(clock.call_later(after, on_fire, len(made), child))

        def on_fire(index: int, child: float | None) -> None:
            fired.append((index, clock.monotonic()))
            if child is not None:
                schedule(child, None)

        for after, child, _ in specs:
            schedule(after, child)
        for timer, (_, _, cancel) in zip(made, specs, strict=True):
            if cancel:
                timer.cancel()
        reached = clock.monotonic()
        for k, step in enumerate(steps):
            count = len(fired)
            await clock.advance(step)
            for index, _ in fired[count:]:  # fired in the step that reached it
                assert made[index].when <= clock.monotonic()
                assert k == 0 or made[index].when > reached
            reached = clock.monotonic()
        indexes = [i for i, _ in fired]
        assert len(set(indexes)) == len(indexes)
        assert set(indexes) == {i for i, t in enumerate(made)
                                if not t.cancelled() and t.when <= reached}
        assert fired == sorted(fired, key=lambda f: (made[f[0]].when, f[0]))
        assert all(at == made[i].when for i, at in fired)  # at its deadline, not before
        assert clock.pending() == sum(1 for i, t in enumerate(made)
                                      if not t.cancelled() and i not in set(indexes))
    asyncio.run(run())
