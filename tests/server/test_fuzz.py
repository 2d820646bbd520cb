"""A short Hypothesis run of the fuzzer (``fuzzing.py``): frames of every message type
and requests to every POST route (and the GET routes that read input), with wrong
fields, types and sizes; no crash, no 5xx, no state change from refused input.
The long run is ``benchmarks/bench_fuzz.py``."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from . import fuzzing

SETTINGS = settings(max_examples=120, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


class Live:
    """One harness on its own event loop for the whole module (a fresh app per
    example would spend the run on migrations)."""

    def __init__(self, data_dir: Path) -> None:
        self.loop = asyncio.new_event_loop()
        self.config = fuzzing.fuzz_config(data_dir)
        self.harness = fuzzing.Harness(self.config, random.Random(1))
        self.loop.run_until_complete(self.harness.start())
        self.loop.run_until_complete(self.harness.new_table())

    def play(self, steps: list[fuzzing.FrameTemplate | fuzzing.RequestTemplate]) -> None:
        """Run ``steps``; fail on any crash, 5xx or state change they caused."""
        async def go() -> None:
            for step in steps:
                if isinstance(step, fuzzing.FrameTemplate):
                    await self.harness.run_frame(step)
                else:
                    await self.harness.run_request(step)
            self.harness.check_log()

        self.loop.run_until_complete(go())
        stats = self.harness.stats
        assert (stats.crashes, stats.responses_5xx, stats.state_changes) == (0, 0, 0), \
            stats.problems

    def close(self) -> None:
        """Check the database against what was served; stop the app."""
        try:
            self.loop.run_until_complete(self.harness.settle())
            self.harness.check_database(self.config.data_dir / "polignac.db")
        finally:
            self.loop.run_until_complete(self.harness.stop())
            self.loop.close()


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    """The app, started once for this module."""
    live = Live(tmp_path_factory.mktemp("fuzz"))
    yield live
    live.close()
    stats = live.harness.stats
    assert (stats.crashes, stats.state_changes) == (0, 0), stats.problems


@SETTINGS
@given(st.lists(fuzzing.frame_templates(), min_size=1, max_size=25))
def test_fuzz_table_frames(live: Live, frames: list[fuzzing.FrameTemplate]) -> None:
    live.play(list(frames))


@SETTINGS
@given(st.lists(fuzzing.request_templates(), min_size=1, max_size=10))
def test_fuzz_http_requests(live: Live, requests: list[fuzzing.RequestTemplate]) -> None:
    live.play(list(requests))


@SETTINGS
@given(st.lists(fuzzing.frame_templates() | fuzzing.request_templates(), min_size=1,
                max_size=20))
def test_fuzz_frames_and_requests_mixed(
        live: Live, steps: list[fuzzing.FrameTemplate | fuzzing.RequestTemplate]) -> None:
    live.play(list(steps))


def test_the_fuzz_reaches_every_message_type_and_route(live: Live) -> None:
    """What the runs above sent (this test runs after them, in file order): every
    message type and route, and accepted actions and refusals.  A route or message type
    the seeded draws happened to miss (adding a route shifts every draw) is sent once,
    plainly, here, so that each is exercised in every run, and must then be seen."""
    kinds = live.harness.stats.kinds
    missed: list[fuzzing.FrameTemplate | fuzzing.RequestTemplate] = [
        fuzzing.FrameTemplate(message={"type": kind}) for kind in fuzzing.FRAME_FIELDS
        if kinds[kind] == 0]
    parts = {"table": fuzzing.Slot("table"), "seat": 1, "token": "x", "preset": "polignac",
             "lang": "en", "num": "1", "odd": "99", "tid": fuzzing.Slot("tournament"),
             "person": "fuzzer"}
    missed += [fuzzing.RequestTemplate(e, parts, {}, None, None, fuzzing.HOST,
                                       "application/json", "seat")
               for e in fuzzing.ENDPOINTS
               if kinds[f"{e.method} {e.path.split('?')[0]}"] == 0]
    if missed:
        live.play(missed)
    for kind in fuzzing.FRAME_FIELDS:
        assert kinds[kind] > 0, kind
    for endpoint in fuzzing.ENDPOINTS:
        assert kinds[f"{endpoint.method} {endpoint.path.split('?')[0]}"] > 0, endpoint.path
    stats = live.harness.stats
    assert stats.refused_frames and stats.refused_requests and stats.acts_accepted


@settings(max_examples=30, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.lists(fuzzing.frame_templates(huge=True) | fuzzing.request_templates(huge=True),
                min_size=1, max_size=4))
def test_fuzz_json_too_deep_or_too_long(
        tmp_path_factory: pytest.TempPathFactory,
        steps: list[fuzzing.FrameTemplate | fuzzing.RequestTemplate]) -> None:
    live = Live(tmp_path_factory.mktemp("huge"))
    try:
        live.play(list(steps))
    finally:
        live.close()


def test_a_busy_or_slow_503_is_told_apart_from_other_5xx() -> None:
    """bench_fuzz.py lists a 503 busy or job-timeout apart (still a 5xx in its status)."""
    assert fuzzing.busy_rule(503, b'{"error": "the hint took too long", '
                                  b'"rule": "job-timeout"}') == "job-timeout"
    assert fuzzing.busy_rule(503, b'{"error": "busy", "rule": "busy"}') == "busy"
    for status, body in ((503, b'{"rule": "worker-failed"}'), (500, b'{"rule": "busy"}'),
                         (503, b"Internal Server Error"), (503, b'["busy"]'), (503, b"")):
        assert fuzzing.busy_rule(status, body) is None, (status, body)
