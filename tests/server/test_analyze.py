"""POST /api/analyze: a record analysed in a worker process; bounds and bad records."""

from __future__ import annotations

import json
import random
from typing import Any

from starlette.testclient import TestClient

from polignac.core import Match, get_rules, replay, summary, to_record
from polignac.server import analysis_routes


def _record(seed: int = 2) -> dict[str, Any]:
    rng = random.Random(seed)
    m = Match.new(get_rules("polignac", {"threshold": 100}), 6, 0).deal_random(rng)
    while m.current is not None:
        m = m.apply(rng.choice(m.legal_actions()))
    return to_record(m)


def test_analyze_returns_the_annotated_record(client: TestClient) -> None:
    record = _record()
    r = client.post("/api/analyze?samples=2", json=record)
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["complete"] is True
    annotated = data["record"]
    (deal,) = annotated["deals"]
    analysis = deal["analysis"]
    assert analysis["samples"] == 2 and len(analysis["actions"]) == len(deal["actions"])
    assert data["totals"] == [{**row} for row in analysis["players"]]
    assert summary(replay(annotated)) == summary(replay(record))
    # the annotated record still goes through the replay route
    assert client.post("/api/replay", json=annotated).status_code == 200


def test_analyze_bounds_and_errors(client: TestClient) -> None:
    record = _record()
    for q in ("samples=0", "samples=17", "samples=x"):
        r = client.post(f"/api/analyze?{q}", json=record)
        assert r.status_code == 400 and r.json()["rule"] == "bad-samples"
    many = {**record, "deals": record["deals"] * (analysis_routes.MAX_DEALS + 1)}
    r = client.post("/api/analyze", json=many)
    assert r.status_code == 400 and "at most" in r.json()["error"]
    r = client.post("/api/analyze", content=b"x" * (analysis_routes.MAX_BODY + 1))
    assert r.status_code == 413
    r = client.post("/api/analyze", json=[1, 2])
    assert r.status_code == 400 and r.json()["rule"] == "bad-record"
    bad = {**record, "deals": [{**record["deals"][0], "actions": ["pass", "pass", "ZZ"]}]}
    r = client.post("/api/analyze?samples=1", json=bad)
    assert r.status_code == 400 and r.json()["deal"] == 1 and r.json()["action"] == 3


def test_the_job_stops_at_its_time_limit() -> None:
    status, raw = analysis_routes.analysis_job(json.dumps(_record()).encode(), 2, 0.0)
    body = json.loads(raw)
    assert status == 200 and body["complete"] is False
    notes = {e.get("note") for e in body["record"]["deals"][0]["analysis"]["actions"]}
    assert notes == {"time"}


def test_a_tables_finished_deal_is_analysed_once(client: TestClient) -> None:
    from tests.server.helpers import hello, play_now, play_until

    url = play_now(client)
    assert client.get(url + "/deals/1/analysis").json()["rule"] == "no-deal"
    with client.websocket_connect(url + "/ws") as ws:
        state = hello(ws)
        play_until(ws, state, random.Random(1), lambda v: len(v["deals"]) >= 1)
    r = client.get(url + "/deals/1/analysis")
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["deal"] == 1
    record = client.get(url + "/record.json").json()
    analysis = data["analysis"]
    assert len(analysis["actions"]) == len(record["deals"][0]["actions"])
    assert analysis["samples"] == analysis_routes.SAMPLES
    # the same answer from the cache (the analysis is deterministic anyway)
    assert client.get(url + "/deals/1/analysis").json() == data
    assert client.get(url + "/deals/2/analysis").status_code == 404
    assert client.get(url + "/deals/x/analysis").status_code == 404
    assert client.get("/tables/nope/deals/1/analysis").json()["rule"] == "no-table"
