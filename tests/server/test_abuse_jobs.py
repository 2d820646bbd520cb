"""Bot-worker jobs whose fields do not parse are acknowledged and dropped with one
log line, never retried (issue 22)."""

from __future__ import annotations

import asyncio
import logging
import uuid

import pytest

from polignac.server.jobs.botqueue import MAX_JOB_SECONDS, _job_fields
from polignac.server.jobs.botworker import BotWorker

from .waiting import until

redis = pytest.importorskip("redis")

BAD_LIMITS = [b"abc", b"nan", b"inf", b"-1", b"1e999", b"\xff",
              str(MAX_JOB_SECONDS + 1).encode(), "٣".encode()]


def test_job_fields_parse_or_say_what_is_wrong() -> None:
    good = {b"reply": b"p:replies:x", b"req": b"r1", b"limit": b"2.500"}
    assert _job_fields(good) == ("p:replies:x", "r1", 2.5)
    for limit in BAD_LIMITS:
        with pytest.raises(ValueError, match="limit"):
            _job_fields({**good, b"limit": limit})
    with pytest.raises(ValueError, match="not text"):
        _job_fields({**good, b"reply": b"\xff"})


@pytest.mark.redis
def test_a_worker_drops_jobs_that_do_not_parse(redis_server: object,
                                               caplog: pytest.LogCaptureFixture) -> None:
    url = redis_server.url(1)  # type: ignore[attr-defined]
    prefix = f"t{uuid.uuid4().hex[:8]}"
    bad = [{"req": "x", "job": "move", "args": "[]", "limit": limit,
            "reply": f"{prefix}:replies:nobody"} for limit in BAD_LIMITS]
    bad.append({"req": b"\xff", "job": "move", "args": "[]", "limit": "1",
                "reply": f"{prefix}:replies:nobody"})

    async def go() -> tuple[int, int, int]:
        worker = BotWorker(url, 1, "inproc", prefix, claim_seconds=0.5)
        stop = asyncio.Event()
        task = asyncio.create_task(worker.run(stop))
        client = redis.asyncio.Redis.from_url(url)
        try:
            for fields in bad:
                await client.xadd(f"{prefix}:jobs", fields)
            await until(lambda: worker.malformed >= len(bad),
                        what="the worker to read every bad job")
            left = await client.xlen(f"{prefix}:jobs")  # acknowledged and deleted:
            pending = await client.xpending(f"{prefix}:jobs", worker.group)  # none to retry
            return worker.malformed, worker.errors, left + pending["pending"]
        finally:
            stop.set()
            await asyncio.wait_for(task, 30)
            await client.aclose()

    with caplog.at_level(logging.WARNING, logger="polignac"):
        malformed, errors, left = asyncio.run(go())
    assert (malformed, errors, left) == (len(bad), 0, 0)
    dropped = [r for r in caplog.records if "dropped" in r.getMessage()]
    assert len(dropped) == len(bad), [r.getMessage() for r in dropped]
