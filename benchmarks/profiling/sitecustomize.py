"""Profile a Python process with cProfile, every thread apart, between two signals,
while ``$POLIGNAC_PROFILE`` names a folder.

``bench_server.py --profile DIR`` puts this folder first on the server's
``PYTHONPATH``, sends ``SIGUSR1`` to each server process (the web processes and
``--workers``' supervisor) when the play starts and ``SIGUSR2`` when it ends; each
then writes ``DIR/PID-main.prof`` (its event loop's thread) and
``DIR/PID-tN-THREAD.prof`` (its other threads: the writer's, ``to_thread``'s), the
play's part only.  The multiprocessing fork server of the worker pools is left
alone.  The event loop's thread is timed by cProfile's own wall clock (a thread's
CPU clock would cost a system call per function call, 7 times the work): on a busy
machine the time it waited for a core is spread over what it was running.  The
other threads (the writer's, few calls each) by their own CPU clock
(``time.thread_time``), so that their waits (fsync, SQLite's lock) do not count.
cProfile about doubles the CPU of Python code: compare profiles with each other,
not with the benchmark's figures.
Read them with ``benchmarks/profiling/compare.py``.
"""

from __future__ import annotations

import os
import sys

_FOLDER = os.environ.get("POLIGNAC_PROFILE")

Stats = dict  # pstats' raw dict: func -> (cc, nc, tt, ct, callers)


def _minus(now: Stats, before: Stats) -> Stats:
    """The calls in ``now`` that were not yet in ``before`` (two snapshots of a profiler)."""
    out: Stats = {}
    for func, (cc, nc, tt, ct, callers) in now.items():
        old = before.get(func)
        if old is None:
            out[func] = (cc, nc, tt, ct, dict(callers))
            continue
        ocallers = old[4]
        new_callers = {}
        for caller, value in callers.items():
            prev = ocallers.get(caller)
            if prev is None:
                new_callers[caller] = value
            elif isinstance(value, tuple):
                diff = tuple(a - b for a, b in zip(value, prev, strict=True))
                if diff[0] > 0:
                    new_callers[caller] = diff
            elif value - prev > 0:
                new_callers[caller] = value - prev
        if nc - old[1] > 0:
            out[func] = (cc - old[0], nc - old[1], tt - old[2], ct - old[3], new_callers)
    return out


def _start(folder: str) -> None:
    import cProfile
    import marshal
    import re
    import signal
    import threading
    import time

    threads: list[tuple[str, cProfile.Profile]] = []
    before: dict[int, Stats] = {}
    main = cProfile.Profile()
    run = threading.Thread.run

    def profiled_run(self: threading.Thread) -> None:
        prof = cProfile.Profile(time.thread_time)  # few calls: the clock's cost is small
        threads.append((self.name, prof))
        prof.enable()
        try:
            run(self)
        finally:
            prof.disable()

    threading.Thread.run = profiled_run  # type: ignore[method-assign]

    def snapshot(prof: cProfile.Profile) -> Stats:
        prof.snapshot_stats()  # another thread's profiler keeps running
        return dict(prof.stats)  # type: ignore[attr-defined]

    def begin(_sig: int, _frame: object) -> None:
        for _name, prof in list(threads):
            before[id(prof)] = snapshot(prof)
        main.enable()

    def end(_sig: int, _frame: object) -> None:
        main.disable()
        pid = os.getpid()
        main.dump_stats(os.path.join(folder, f"{pid}-main.prof"))
        for n, (name, prof) in enumerate(list(threads)):
            stats = _minus(snapshot(prof), before.get(id(prof), {}))
            if not stats:
                continue
            safe = re.sub(r"[^A-Za-z0-9_.-]", "_", name)[:40]
            with open(os.path.join(folder, f"{pid}-t{n}-{safe}.prof"), "wb") as f:
                marshal.dump(stats, f)

    signal.signal(signal.SIGUSR1, begin)
    signal.signal(signal.SIGUSR2, end)


if _FOLDER and "forkserver" not in " ".join(getattr(sys, "orig_argv", sys.argv)):
    os.makedirs(_FOLDER, exist_ok=True)
    _start(_FOLDER)
