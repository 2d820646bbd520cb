"""Abuse: one client floods the shared worker pool with analyses and hints; another
client's replays and score pads are still answered, each ahead of the flood's waiting
jobs (server/jobs/workers.py's fair share, through the real routes).  The loops are bounded
by the other client's requests; the speed figure is benchmarks/bench_fair_share.py's."""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from polignac.core import Match, get_rules, to_record
from polignac.server import ServerConfig, create_app
from polignac.server.jobs.botmoves import PoolBackend

from .waiting import wait_until

FLOOD = ("10.0.0.1", 50000)
OTHER = ("10.0.0.2", 50000)
PAD = {"pad": {"preset": "polignac", "overrides": {"threshold": 10},
               "names": ["Ann", "Bob", "Cy", "Dee"], "entries": []},
       "entry": {"taken": {"JS": 0, "JC": 1, "JD": 1, "JH": 2}}}


def _record(seed: int, deals: int) -> dict[str, Any]:
    rng = random.Random(seed)
    m = Match.new(get_rules("polignac", {"threshold": 500}), 6, 0)
    for _ in range(deals):
        m = m.deal_random(rng)
        while m.current is not None:
            m = m.apply(rng.choice(m.legal_actions()))
    return to_record(m)


@pytest.fixture
def app_client(config: ServerConfig, bot_backend: PoolBackend) -> Iterator[TestClient]:
    with TestClient(create_app(config, bot_backend), base_url="http://testserver",
                    client=FLOOD) as c:
        yield c


def test_a_flood_of_analyses_does_not_hold_another_clients_replays(
        app_client: TestClient) -> None:
    hub = app_client.app.state.hub  # type: ignore[attr-defined]
    pool = hub.workers
    other = TestClient(app_client.app, base_url="http://testserver", client=OTHER)
    other.portal = app_client.portal  # the app's event loop
    jobs: list[Any] = []
    original = pool._finished

    def record_finish(job: Any, fut: Any) -> None:
        jobs.append(job)
        original(job, fut)

    pool._finished = record_finish
    stop = threading.Event()
    flood_answers: list[int] = []

    def flood(seed: int) -> None:
        n = 0
        while not stop.is_set():  # bounded: the other client's requests end it
            n += 1
            body = _record(seed * 1000 + n, 3)
            r = app_client.post("/api/analyze?samples=2", json=body)
            flood_answers.append(r.status_code)

    threads = [threading.Thread(target=flood, args=(i,), daemon=True) for i in range(3)]
    for t in threads:
        t.start()
    try:
        answers = []
        for i in range(12):
            wait_until(lambda: pool._by_client.get(FLOOD[0], 0) >= 2,  # the flood has
                       300, what="the flood to fill its queue")  # jobs waiting
            if i % 2:
                r = other.post("/api/scorepad/score", json=PAD)
            else:
                r = other.post("/api/replay", json=_record(i, 1))
            answers.append(r.status_code)
    finally:
        stop.set()
        for t in threads:
            t.join(600)
    assert answers == [200] * 12
    mine = [j for j in jobs if j.key[0] == OTHER[0]]
    assert len(mine) == 12 and not any(j.key[1] for j in mine)  # replays, pads: light
    # each started at once: no job of the flood's queue started ahead of it
    assert [j.start_turn - j.queued_turn - 1 for j in mine] == [0] * 12
    flood_jobs = [j for j in jobs if j.key[0] == FLOOD[0]]
    assert flood_jobs and all(j.key[1] for j in flood_jobs)  # analyses: heavy
    assert set(flood_answers) <= {200, 503}  # the flood: answered, or refused past its share
    assert json.loads(json.dumps(pool.stats()))["pending"] == 0
