"""The event loop's health: a loop-lag monitor and ``GET /health``.

:class:`LagMonitor` sleeps ``interval`` seconds again and again and records how
late each wake-up is: the time anything else waited for the loop then (a
callback that holds the loop 200 ms shows as about 200 ms of lag).  A lag above
``warn`` seconds is logged (at most once a second).  ``GET /health`` answers::

    {"status": "ok" | "lagging", "loop_lag_ms": {"p50", "p99", "max", "samples",
     "window_s"}, "loop_cpu_ms": {"p50", "p99", "max"}, "tables": N,
     "connections": N, "workers": {...}, "process": ID, "owned_tables": N}

over the last ``window`` seconds (``?window=S`` for a shorter one, 1 to the
monitor's window); ``status`` is ``lagging`` when that window's max is over
``warn``.  ``loop_cpu_ms`` is the CPU time the loop's thread used during each
sample (the server's own work: request handling, uvicorn's parsing): a lag much
larger than it means the process waited for a CPU (a busy machine), not that
something held the loop.

``GET /ready`` answers 503 until the process has started and its database (and,
with several processes, its bus) answer, then 200.
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

from .httplimits import WRITE_CUTS

log = logging.getLogger("polignac.server")


class LagMonitor:
    """Measures the event loop's lag every ``interval`` seconds, keeps ``window``
    seconds of samples and logs lags over ``warn`` seconds."""

    def __init__(self, interval: float = 0.05, window: float = 60.0, warn: float = 0.1) -> None:
        self.interval = interval
        self.window = window
        self.warn = warn
        self.samples: collections.deque[tuple[float, float, float]] = collections.deque(
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
            before, cpu = loop.time(), time.thread_time()
            await asyncio.sleep(self.interval)
            lag = max(0.0, loop.time() - before - self.interval)
            self.record(lag, time.thread_time() - cpu)

    def record(self, lag: float, cpu: float = 0.0) -> None:
        """Keep one sample: its lag and the loop thread's CPU time (seconds); log the
        lag when over ``warn``."""
        now = time.monotonic()
        self.samples.append((now, lag, cpu))
        self.worst = max(self.worst, lag)
        if lag > self.warn and now - self._last_log >= 1.0:
            self._last_log = now
            log.warning("event loop lag %.0f ms (over %.0f ms)", lag * 1000, self.warn * 1000)

    def stats(self, window: float | None = None) -> dict[str, Any]:
        """p50, p99 and max lag (milliseconds) over the last ``window`` seconds."""
        return self._stats(1, window)

    def cpu_stats(self, window: float | None = None) -> dict[str, Any]:
        """p50, p99 and max CPU time of the loop's thread per sample (milliseconds)."""
        out = self._stats(2, window)
        return {k: out[k] for k in ("p50", "p99", "max")}

    def _stats(self, column: int, window: float | None) -> dict[str, Any]:
        span = self.window if window is None else min(max(window, 0.0), self.window)
        since = time.monotonic() - span
        values = sorted(sample[column] for sample in self.samples if sample[0] >= since)

        def pick(q: float) -> float:
            if not values:
                return 0.0
            return round(values[min(len(values) - 1, int(q * len(values)))] * 1000, 1)

        return {"p50": pick(0.5), "p99": pick(0.99),
                "max": round(values[-1] * 1000, 1) if values else 0.0,
                "samples": len(values), "window_s": span}


async def health(request: Request) -> Response:
    """The server's health: loop lag, tables in memory, connections, workers, HTTP
    requests in the app (``/health`` and ``/ready`` not counted), waiting for a place
    now and since the start, refused (429) and
    cut for not reading (httplimits.py)."""
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
    counts = getattr(request.app.state, "http_requests", None)
    return JSONResponse({
        "status": "lagging" if lag["max"] > monitor.warn * 1000 else "ok",
        "loop_lag_ms": lag,
        "loop_cpu_ms": monitor.cpu_stats(window),
        "tables": len(hub.tables),
        "connections": sum(len(t.subscribers) for t in hub.tables.values()),
        "workers": hub.workers.stats(),
        "bot_workers": hub.bots.stats(),
        "process": hub.process_id,
        "owned_tables": len(hub.tables),
        "cluster": hub.cluster.stats(),
        "http": {"requests": counts.in_flight if counts is not None else None,
                 "waiting": counts.waiting if counts is not None else None,
                 "waited": counts.waited if counts is not None else None,
                 "refused": counts.refused if counts is not None else None,
                 "write_cuts": WRITE_CUTS[0]},
    }, headers={"Cache-Control": "no-store"})


async def ready(request: Request) -> Response:
    """200 ``{"ready": true, "process"}`` once this process has started and its
    database and bus answer; else 503 ``{"ready": false, "why"}`` (for a load
    balancer or an orchestrator: send no one here yet)."""
    hub = request.app.state.hub
    why = None
    if not hub.started or hub.store is None:
        why = "starting"
    else:
        try:
            await asyncio.wait_for(asyncio.to_thread(_ping_database, hub.store.engine), 5.0)
        except Exception as exc:  # any driver error: not ready
            why = f"database: {type(exc).__name__}"
        if why is None and not await hub.cluster.ready():
            why = "bus: no answer within 2 s"
    body = {"ready": why is None, "process": hub.process_id}
    if why is not None:
        body["why"] = why
    return JSONResponse(body, status_code=200 if why is None else 503,
                        headers={"Cache-Control": "no-store"})


def _ping_database(engine: Any) -> None:
    from sqlalchemy import text

    with engine.connect() as conn:
        conn.execute(text("SELECT 1"))


def routes() -> list[BaseRoute]:
    """The health and readiness routes, for the app's route list."""
    return [Route("/health", health), Route("/ready", ready)]
