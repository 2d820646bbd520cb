"""Every input bounded, everywhere; nothing heavy on the event loop (issue 10).

Each abuse gets a fast, clear refusal (4xx with the rule and a message that
names what was wrong, or an error frame) and leaves the server's state as it
was; heavy work (replays, score pads) runs in worker processes, with a time
limit; ``GET /health`` reports the loop's lag.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import json
import os
import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from polignac.cli.main import main as cli_main
from polignac.core import Match, get_rules, to_record
from polignac.server import ServerConfig, create_app
from polignac.server.base.requests import MAX_DEPTH, MAX_INT_DIGITS, too_deep
from polignac.server.jobs.jobs import replay_job
from polignac.server.jobs.workers import PoolBusy, WorkerPool
from polignac.server.web import replay_routes

from .helpers import hello, play_now
from .waiting import TIMEOUT, Gate, held, held_then, until, until_done, wait_until

SEATS = [{"kind": "you"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]


def _tables(client: TestClient) -> int:
    r = client.get("/health")
    assert r.status_code == 200, r.text
    tables: int = r.json()["tables"]
    return tables


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def _record(deals: int = 3, seed: int = 1, **rules: Any) -> dict[str, Any]:
    rng = random.Random(seed)
    m = Match.new(get_rules("polignac", {"match_end": "fixed-deals", "deals": deals, **rules}),
                  4, first_dealer=0)
    while not m.finished:
        m = m.deal_random(rng) if m.needs_deal else m.apply(rng.choice(m.legal_actions()))
    return to_record(m)


def _create(client: TestClient, **body: Any) -> Any:
    return client.post("/api/tables", json={"seats": SEATS, **body})


# ------------------------------------------------------------ rule parameters


@pytest.mark.parametrize(("overrides", "named"), [
    ({"players": "2-10000000"}, "from 2 to 13"),
    ({"players": "3-99999999999999"}, "from 2 to 13"),
    ({"players": list(range(2, 2000))}, "at most 12"),
    ({"threshold": 10 ** 18}, "threshold must be from 1 to 500"),
    ({"threshold": 501}, "threshold must be from 1 to 500"),
    ({"match_end": "fixed-deals", "deals": 10 ** 9}, "deals must be from 1 to 500"),
    ({"contract_points": 101}, "contract_points must be from 0 to 100"),
    ({"card_points": {"JS": 10 ** 6}}, "card_points must be from -1000 to 1000"),
    ({"game": "x" * 10_000}, "at most 200"),
])
def test_rules_out_of_bounds_are_refused_and_no_table_is_made(
        client: TestClient, overrides: dict[str, Any], named: str) -> None:
    before = _tables(client)
    r = _create(client, overrides=overrides)
    assert r.status_code == 400, r.text
    assert r.json()["rule"] == "bad-rules" and named in r.json()["error"], r.text
    assert len(r.text) < 1000
    assert _tables(client) == before


def test_the_lobby_offers_the_cores_bounds(client: TestClient) -> None:
    house = client.get("/api/presets").json()["house_rules"]
    assert (house["threshold"]["min"], house["threshold"]["max"]) == (1, 500)
    assert (house["contract_points"]["min"], house["contract_points"]["max"]) == (0, 100)
    r = _create(client, overrides={"threshold": house["threshold"]["max"] + 1})
    assert r.status_code == 400 and "threshold" in r.json()["error"]
    assert _create(client, overrides={"threshold": house["threshold"]["max"]}).status_code == 200


def test_the_same_range_through_a_record_and_the_score_pad(client: TestClient) -> None:
    record = _record()
    record["rules"] = {"players": "2-10000000"}
    r = client.post("/api/replay", json=record)
    assert r.status_code == 400 and r.json()["rule"] == "bad-record", r.text
    assert "players" in r.json()["error"] and "from 2 to 13" in r.json()["error"]
    pad = {"preset": "polignac", "overrides": {"players": "2-10000000"},
           "names": ["A", "B", "C", "D"]}
    r = client.post("/api/scorepad/score", json={"pad": pad})
    assert r.status_code == 400 and r.json()["field"] == "overrides", r.text
    assert "from 2 to 13" in r.json()["error"]


def test_the_cli_refuses_the_same_range(capsys: pytest.CaptureFixture[str]) -> None:
    status = cli_main(["rules", "polignac", "--rule", "players=2-10000000"])
    err = capsys.readouterr().err
    assert status == 2 and "players" in err and "from 2 to 13" in err
    assert cli_main(["rules", "polignac", "--params"]) == 0
    assert "Bounds: from 1 to 500." in capsys.readouterr().out


# ------------------------------------------------------------ JSON itself


def test_too_deep_counts_brackets_outside_strings() -> None:
    assert not too_deep(_nested(MAX_DEPTH)) and too_deep(_nested(MAX_DEPTH + 1))
    assert not too_deep(json.dumps(["[" * 1000, "{" * 1000]))
    assert not too_deep(json.dumps([[1]] * 10_000))


@pytest.mark.parametrize(("body", "rule"), [
    (_nested(2000).encode(), "too-deep"),
    (_nested(8000).encode(), "too-deep"),  # 16 000 bytes: under every limit
    (b'{"preset": "polignac", "players": ' + b"9" * 5000 + b"}", "too-large-number"),
    (b'{"players": -' + b"1" * (MAX_INT_DIGITS + 1) + b"}", "too-large-number"),
    (b'{"players": NaN}', "bad-json"),
    (b'{"name": "\xff\xfe"}', "bad-json"),
    (b'{"preset": ', "bad-json"),
])
@pytest.mark.parametrize("path", ["/api/tables", "/api/play-now", "/api/replay",
                                  "/api/scorepad/score", "/api/seeks"])
def test_bad_json_is_a_400_everywhere(client: TestClient, path: str, body: bytes,
                                      rule: str) -> None:
    before = _tables(client)
    r = client.post(path, content=body, headers={"content-type": "application/json"})
    assert r.status_code == 400, (path, r.status_code, r.text[:300])
    assert r.json()["rule"] == rule, r.text
    assert _tables(client) == before


def test_a_body_over_its_limit_is_refused_unread(client: TestClient) -> None:
    r = client.post("/api/tables", content=b" " * 20_000,
                    headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["rule"] == "too-large"

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
        for _ in range(100):
            yield b" " * 65_536

    r = client.post("/api/replay", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["rule"] == "too-large", r.text
    assert "at most 4194304 bytes" in r.json()["error"]


def test_websocket_frames_get_error_frames_and_stay_open(client: TestClient) -> None:
    url = play_now(client)
    with client.websocket_connect(f"{url}/ws") as ws:
        hello(ws)
        for text, rule in [(_nested(2000), "too-deep"),
                           ('{"type": "hello", "last_seq": ' + "7" * 5000 + "}",
                            "too-large-number"),
                           ('{"type": "ping", "x": Infinity}', "bad-json"),
                           ('{"type": "act", "action": [' * 40 + "]}" * 40, "too-deep")]:
            ws.send_text(text)
            frame = ws.receive_json()
            while frame["type"] != "error":  # events of the bots' play may come first
                frame = ws.receive_json()
            assert frame["rule"] == rule, frame
        ws.send_json({"type": "ping"})
        frame = ws.receive_json()
        while frame["type"] != "pong":
            frame = ws.receive_json()


# ------------------------------------------------------------ records and the pad


def test_a_record_whose_seats_is_a_number_is_a_400(client: TestClient) -> None:
    record = _record()
    record["deals"][1]["seats"] = 7
    r = client.post("/api/replay", json=record)
    assert r.status_code == 400 and r.json()["deal"] == 2, r.text
    assert "deal 2: seats are 7" in r.json()["error"]


@pytest.mark.parametrize(("change", "words"), [
    (lambda r: r["deals"][0]["actions"].__setitem__(3, "x" * 100_000), "at most 40 characters"),
    (lambda r: r["deals"][0]["hands"][0].extend(["JS"] * 1000), "at most 52 cards"),
    (lambda r: r.__setitem__("players", ["x" * 1000] * 4), "at most 100 characters"),
    (lambda r: r.__setitem__("players", ["A"] * 10_000), "at most 13 play"),
    (lambda r: r.__setitem__("deals", r["deals"] * 400), "at most 1000"),
    (lambda r: r["deals"][0].__setitem__("dealer", "d" * 100_000), "100000 characters"),
])
def test_records_are_bounded_with_short_messages(client: TestClient, change: Any,
                                                  words: str) -> None:
    record = _record()
    change(record)
    r = client.post("/api/replay", json=record)
    assert r.status_code == 400 and r.json()["rule"] == "bad-record", r.text[:300]
    assert words in r.json()["error"] and len(r.json()["error"]) < 400, r.json()["error"]


def test_an_illegal_action_still_names_the_deal_and_action(client: TestClient) -> None:
    record = _record()
    record["deals"][1]["actions"][4] = "pass"
    r = client.post("/api/replay", json=record)
    assert r.status_code == 400, r.text
    data = r.json()
    assert (data["deal"], data["action"]) == (2, 5) and "deal 2, action 5" in data["error"]


@pytest.mark.parametrize(("pad", "entry", "field"), [
    ({"entries": [{"misdeal": True}] * 2001}, None, "entries"),
    ({"names": ["A"] * 10_000}, None, "names"),
    ({"revoke_penalty": 10 ** 12}, None, "revoke_penalty"),
    ({}, {"tricks": list(range(10_000))}, "tricks"),
    ({}, {"taken": {f"{i}": 0 for i in range(1000)}}, "taken"),
    ({}, {"note": "n" * 100_000}, "note"),
    ({}, {"taken": {"JS": 10 ** 15}}, "taken.JS"),
    ({}, {"taken": {"JS": "--5"}}, "taken.JS"),
])
def test_score_pad_abuse_is_refused(client: TestClient, pad: dict[str, Any],
                                    entry: dict[str, Any] | None, field: str) -> None:
    body: dict[str, Any] = {"pad": {"preset": "polignac", "names": ["A", "B", "C", "D"], **pad}}
    if entry is not None:
        body["entry"] = entry
    r = client.post("/api/scorepad/score", json=body)
    assert r.status_code == 400, r.text[:300]
    assert r.json()["field"] == field and len(r.json()["error"]) < 400, r.json()


# ------------------------------------------------------------ off the loop; /health


def test_health_reports_lag_tables_connections_and_workers(client: TestClient) -> None:
    data = client.get("/health").json()
    assert data["status"] in ("ok", "lagging")
    assert set(data["loop_lag_ms"]) == {"p50", "p99", "max", "samples", "window_s"}
    assert set(data["loop_cpu_ms"]) == {"p50", "p99", "max"}
    assert data["loop_lag_ms"]["p50"] <= data["loop_lag_ms"]["p99"] <= data["loop_lag_ms"]["max"]
    assert data["workers"]["size"] == 2 and data["workers"]["pending"] == 0
    url = play_now(client)
    with client.websocket_connect(f"{url}/ws") as ws:
        hello(ws)
        now = client.get("/health?window=5").json()
        assert now["tables"] == data["tables"] + 1 and now["connections"] == 1
        assert now["loop_lag_ms"]["window_s"] == 5
    for bad in ("0", "-1", "nan", "1e9", "soon"):
        r = client.get(f"/health?window={bad}")
        assert r.status_code == 400 and r.json()["rule"] == "bad-field"


def test_the_lag_monitor_sees_a_stalled_loop(client: TestClient) -> None:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    before = client.get("/health").json()["loop_lag_ms"]["samples"]
    hub.lag.record(0.5)  # as the monitor does after a 500 ms stall
    data = client.get("/health").json()
    assert data["loop_lag_ms"]["max"] >= 500 and data["status"] == "lagging"
    assert data["loop_lag_ms"]["samples"] > before


def test_a_long_replay_runs_off_the_loop_and_is_stopped(
        config: ServerConfig, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A replay that runs past the time limit of one job runs in a worker (the loop
    answers /health meanwhile), is stopped and answered 503 job-timeout; a fresh worker
    answers the next one.

    Nothing here depends on how fast this machine replays: the replay is held in its
    worker (a gate that opens only after the answer), so the time limit always fires
    first, however short it is.  The one worker is first taken by another job (held
    too, with a longer limit), so the replay waits in the pool's queue, where its limit
    does not count yet, for as long as the test needs to see the loop answer
    /health; then that job is let go and the replay starts."""
    heavy = json.dumps(_record(deals=500, seed=2))
    limit = 0.2
    answers: list[Any] = []
    with Gate(tmp_path, "replay") as replay_gate, Gate(tmp_path, "other") as other_gate:
        monkeypatch.setattr(replay_routes, "replay_job",
                            functools.partial(held_then, replay_gate.path, replay_job))
        cfg = dataclasses.replace(config, job_seconds=limit, workers=1)
        with TestClient(create_app(cfg)) as client:
            pool = client.app.state.hub.workers  # type: ignore[attr-defined]
            other = client.portal.start_task_soon(functools.partial(
                pool.run, held, other_gate.path, time_limit=120.0, client="someone else"))
            wait_until(lambda: client.get("/health").json()["workers"]["running"] == 1,
                       what="the other job to take the one worker")
            thread = threading.Thread(
                target=lambda: answers.append(
                    client.post("/api/replay?from=469&count=32", content=heavy,
                                            headers={"content-type": "application/json"})))
            thread.start()
            # the loop answers /health while the replay waits for the worker
            wait_until(lambda: client.get("/health").json()["workers"]["pending"] == 2,
                       what="the replay in the pool")
            other_gate.open()  # the worker is free: the replay starts, held, and is stopped
            other.result(timeout=TIMEOUT)
            thread.join(TIMEOUT)
            assert not thread.is_alive(), "no answer to the replay"
            r = answers[0]
            assert r.status_code == 503 and r.json()["rule"] == "job-timeout", r.text[:300]
            assert f"more than {limit:g} s" in r.json()["error"]
            monkeypatch.setattr(replay_routes, "replay_job", replay_job)
            small = client.post("/api/replay", json=_record(deals=1))  # a fresh worker answers
            assert small.status_code == 200 and len(small.json()["deals"]) == 1
            assert client.get("/health").json()["workers"]["timeouts"] == 1


def test_the_worker_pool_refuses_past_its_queue_and_returns_errors(tmp_path: Path) -> None:
    async def scenario(gate: Gate) -> None:
        pool = WorkerPool(size=1, time_limit=60.0, max_waiting=1)
        try:
            slow = asyncio.create_task(pool.run(held, gate.path))
            await until(lambda: pool.pending == 1, what="the job to be counted")
            with pytest.raises(PoolBusy):
                await pool.run(os.getpid)
            gate.open()
            await until_done(slow, what="the held job")
            assert await pool.run(os.getpid) != os.getpid()  # another process
            with pytest.raises(ValueError, match="invalid literal"):
                await pool.run(int, "twelve")  # the job's own error comes back
            assert pool.stats()["refused"] == 1 and pool.stats()["pending"] == 0
        finally:
            await pool.stop()

    with Gate(tmp_path) as gate:
        asyncio.run(scenario(gate))
