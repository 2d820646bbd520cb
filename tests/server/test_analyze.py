"""The analysis of every action (server/web/analysis_routes.py): one job per deal in the
shared pool, streamed with its progress; stored once computed, for a posted record and
for a table's finished deals; bounds and bad records."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from starlette.testclient import TestClient

from polignac.bots.analysis import Settings, analyze_record_deal, annotate
from polignac.core import Match, get_rules, replay, summary, to_record
from polignac.server import ServerConfig, create_app
from polignac.server.jobs.botmoves import PoolBackend
from polignac.server.jobs.jobs import analysis_deal_job
from polignac.server.web import analysis_routes

from .helpers import hello, play_now, play_until
from .waiting import wait_until


def _record(seed: int = 2, deals: int = 1) -> dict[str, Any]:
    rng = random.Random(seed)
    m = Match.new(get_rules("polignac", {"threshold": 500}), 6, 0)
    for _ in range(deals):
        m = m.deal_random(rng)
        while m.current is not None:
            m = m.apply(rng.choice(m.legal_actions()))
    return to_record(m)


def _lines(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines()]


def test_analyze_streams_each_deal_with_its_progress(client: TestClient) -> None:
    record = _record(deals=2)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    done = hub.workers.done
    r = client.post("/api/analyze?samples=2", json=record)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("application/x-ndjson")
    lines = _lines(r.text)
    assert lines[0] == {"total": 2, "done": 0}, lines
    assert "error" not in lines[-1], lines[-1]
    assert [(x["deal"], x["done"], x["total"]) for x in lines[1:3]] == [(1, 1, 2), (2, 2, 2)]
    assert lines[3] == {"total": 2, "done": 2, "complete": True}
    assert hub.workers.done == done + 3  # the plan, then one job per deal
    settings = Settings(samples=2, nodes=analysis_routes.NODES)
    for n in (1, 2):
        assert lines[n]["analysis"] == analyze_record_deal(record, n, settings)
    annotated = annotate(record, [lines[1]["analysis"], lines[2]["analysis"]])
    assert summary(replay(annotated)) == summary(replay(record))
    assert client.post("/api/replay", json=annotated).status_code == 200
    # stored once computed: the same record again costs no job
    done = hub.workers.done
    again = client.post("/api/analyze?samples=2", json=record)
    assert _lines(again.text) == lines and hub.workers.done == done


def test_analyze_bounds_and_errors(client: TestClient) -> None:
    record = _record()
    for q in ("samples=0", "samples=17", "samples=x", "samples=%C2%B2"):
        r = client.post(f"/api/analyze?{q}", json=record)
        assert r.status_code == 400 and r.json()["rule"] == "bad-samples"
    many = {**record, "deals": record["deals"] * (analysis_routes.MAX_DEALS + 1)}
    r = client.post("/api/analyze", json=many)
    assert r.status_code == 400 and "at most" in r.json()["error"]
    r = client.post("/api/analyze", content=b"x" * (analysis_routes.MAX_BODY + 1),
                    headers={"content-type": "application/json"})
    assert r.status_code == 413
    r = client.post("/api/analyze", json=[1, 2])
    assert r.status_code == 400 and r.json()["rule"] == "bad-record"
    r = client.post("/api/analyze", content=b"{", headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["rule"] == "bad-json"
    bad = {**record, "deals": [{**record["deals"][0], "actions": ["pass", "pass", "ZZ"]}]}
    r = client.post("/api/analyze?samples=1", json=bad)
    assert r.status_code == 400 and r.json()["deal"] == 1 and r.json()["action"] == 3


def test_a_deal_job_stops_at_its_time_limit() -> None:
    status, raw = analysis_deal_job(json.dumps(_record()).encode(), 1, 2, 0.0)
    assert status == 200
    assert {e.get("note") for e in json.loads(raw)["actions"]} == {"time"}
    status, raw = analysis_deal_job(json.dumps(_record()).encode(), 2, 2, 1.0)
    assert status == 400 and json.loads(raw)["rule"] == "bad-record"


def _until(client: TestClient, url: str, seconds: float = 600) -> dict[str, Any]:
    """GET ``url`` until its analysis no longer runs (every 50 ms, at most ``seconds``)."""
    def ended() -> dict[str, Any] | None:
        data: dict[str, Any] = client.get(url).json()
        return None if data["running"] else data

    done: dict[str, Any] = wait_until(ended, seconds, what="the analysis to end",
                                      interval=0.05)
    return done


def test_a_tables_deals_are_analysed_once_and_stored(client: TestClient) -> None:
    url = play_now(client)
    assert client.get(url + "/deals/1/analysis").json()["rule"] == "no-deal"
    empty = client.get(url + "/analysis").json()
    assert empty == {"total": 0, "done": 0, "running": False, "jobs": 0, "deals": {}}
    with client.websocket_connect(url + "/ws") as ws:
        play_until(ws, hello(ws), random.Random(1), lambda v: len(v["deals"]) >= 2)
    started = client.post(url + "/analysis")
    assert started.status_code == 202, started.text
    assert started.json()["running"] is True and started.json()["total"] >= 2
    data = _until(client, url + "/analysis")
    total = data["total"]
    assert data["done"] == total and data["jobs"] == total and "error" not in data
    record = client.get(url + "/record.json").json()
    assert sorted(data["deals"], key=int) == [str(n) for n in range(1, total + 1)]
    first = data["deals"]["1"]
    assert len(first["actions"]) == len(record["deals"][0]["actions"])
    assert first["samples"] == analysis_routes.SAMPLES
    assert first == analyze_record_deal(record, 1, Settings(samples=analysis_routes.SAMPLES,
                                                            nodes=analysis_routes.NODES))
    # stored: asking again starts nothing, the one-deal route answers from the store
    again = client.post(url + "/analysis")
    assert again.status_code == 200 and again.json()["running"] is False
    assert client.get(url + "/deals/1/analysis").json() == {"deal": 1, "analysis": first}
    assert client.get(url + "/analysis").json()["jobs"] == total
    for bad in ("x", "%C2%B2", "0", str(total + 1)):
        assert client.get(f"{url}/deals/{bad}/analysis").json()["rule"] == "no-deal"
    assert client.get("/tables/nope/deals/1/analysis").json()["rule"] == "no-table"
    assert client.get("/tables/nope/analysis").json()["rule"] == "no-table"
    assert client.post("/tables/nope/analysis").json()["rule"] == "no-table"


def test_a_tables_analysis_is_served_from_the_database_after_a_restart(
        config: ServerConfig, bot_backend: PoolBackend, monkeypatch: pytest.MonkeyPatch) -> None:
    with TestClient(create_app(config, bot_backend), base_url="http://testserver") as client:
        url = play_now(client)
        with client.websocket_connect(url + "/ws") as ws:
            play_until(ws, hello(ws), random.Random(3), lambda v: len(v["deals"]) >= 2)
        assert client.post(url + "/analysis").status_code == 202
        before = _until(client, url + "/analysis")
        total = before["total"]
        assert before["done"] == total >= 2 and before["jobs"] == total
    # A new app on the same database, nothing in memory: no job may run.
    analysis_routes._kept.clear()
    analysis_routes._tables.clear()

    async def no_job(*args: Any, **kwargs: Any) -> tuple[int, bytes]:
        raise AssertionError("a worker job ran for a stored analysis")

    monkeypatch.setattr(analysis_routes, "_job", no_job)
    with TestClient(create_app(config, bot_backend), base_url="http://testserver") as client:
        after = client.get(url + "/analysis").json()
        assert after["jobs"] == 0 and after["running"] is False
        assert after["deals"] == before["deals"] and after["done"] == total
        again = client.post(url + "/analysis")
        assert again.status_code == 200 and again.json() == {
            "total": total, "done": total, "running": False, "jobs": 0}
        analysis_routes._kept.clear()  # the one-deal route reads the database too
        assert client.get(url + "/deals/2/analysis").json() == {
            "deal": 2, "analysis": before["deals"]["2"]}
        record = client.get(url + "/record.json").json()
        assert [d["analysis"] for d in record["deals"][:total]] == [
            before["deals"][str(n)] for n in range(1, total + 1)]
        assert replay(record) is not None  # a record with its analysis still replays
