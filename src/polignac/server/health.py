"""The event loop's health: a loop-lag monitor and ``GET /health``.

:class:`LagMonitor` sleeps ``interval`` seconds again and again and records how
late each wake-up is: the time anything else waited for the loop then (a
callback that holds the loop 200 ms shows as about 200 ms of lag).  A lag above
``warn`` seconds is logged (at most once a second).  ``GET /health`` answers::

    {"status": "ok" | "lagging", "loop_lag_ms": {"p50", "p99", "max", "samples",
     "window_s"}, "tables": N, "connections": N, "workers": {...}}

over the last ``window`` seconds (``?window=S`` for a shorter one, 1 to the
monitor's window); ``status`` is ``lagging`` when that window's max is over
``warn``.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import time
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

log = logging.getLogger("polignac.server")


class LagMonitor:
    """Measures the event loop's lag every ``interval`` seconds, keeps ``window``
    seconds of samples and logs lags over ``warn`` seconds."""

    def __init__(self, interval: float = 0.05, window: float = 60.0, warn: float = 0.1) -> None:
        self.interval = interval
        self.window = window
        self.warn = warn
        self.samples: collections.deque[tuple[float, float]] = collections.deque(
            maxlen=max(10, int(window / interval) + 10))
        self.worst = 0.0
        self._task: asyncio.Task[None] | None = None
        self._last_log = 0.0

    def start(self) -> None:
        """Start measuring on the running loop."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """Stop measuring."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            before = loop.time()
            await asyncio.sleep(self.interval)
            lag = max(0.0, loop.time() - before - self.interval)
            self.record(lag)

    def record(self, lag: float) -> None:
        """Keep one sample (seconds); log it when over ``warn``."""
        now = time.monotonic()
        self.samples.append((now, lag))
        self.worst = max(self.worst, lag)
        if lag > self.warn and now - self._last_log >= 1.0:
            self._last_log = now
            log.warning("event loop lag %.0f ms (over %.0f ms)", lag * 1000, self.warn * 1000)

    def stats(self, window: float | None = None) -> dict[str, Any]:
        """p50, p99 and max lag (milliseconds) over the last ``window`` seconds."""
        span = self.window if window is None else min(max(window, 0.0), self.window)
        since = time.monotonic() - span
        lags = sorted(lag for t, lag in self.samples if t >= since)

        def pick(q: float) -> float:
            if not lags:
                return 0.0
            return round(lags[min(len(lags) - 1, int(q * len(lags)))] * 1000, 1)

        return {"p50": pick(0.5), "p99": pick(0.99),
                "max": round(lags[-1] * 1000, 1) if lags else 0.0,
                "samples": len(lags), "window_s": span}


async def health(request: Request) -> Response:
    """The server's health: loop lag, tables in memory, connections, workers."""
    hub = request.app.state.hub
    monitor: LagMonitor = hub.lag
    window: float | None = None
    text = request.query_params.get("window")
    if text is not None:
        try:
            window = float(text[:20])
        except ValueError:
            return JSONResponse({"error": "window must be a number of seconds",
                                 "rule": "bad-field"}, status_code=400)
        if not 0 < window <= monitor.window:
            return JSONResponse({"error": f"window must be from 0 to {monitor.window:g} s",
                                 "rule": "bad-field"}, status_code=400)
    lag = monitor.stats(window)
    return JSONResponse({
        "status": "lagging" if lag["max"] > monitor.warn * 1000 else "ok",
        "loop_lag_ms": lag,
        "tables": len(hub.tables),
        "connections": sum(len(t.subscribers) for t in hub.tables.values()),
        "workers": hub.workers.stats(),
    }, headers={"Cache-Control": "no-store"})


def routes() -> list[BaseRoute]:
    """The health route, for the app's route list."""
    return [Route("/health", health)]
