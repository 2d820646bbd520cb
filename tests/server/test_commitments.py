"""The commitment log and refused cuts through the server: each deal's commitment is in
the deal event every seat and spectator receives and in the database's hash chain
(the same entry), the routes page through it, a restart continues the chain, two
writers at once neither fork it nor log a deal twice, and a refused cut is announced
to every connection and listed in the record (``commitments.py``, ``cut_window.py``)."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.exc import IntegrityError
from starlette.testclient import TestClient
from tests.cli.test_verify_log import forged

from polignac.cli.main import main
from polignac.core.commitlog import GENESIS, Entry, check_chain
from polignac.server import ServerConfig, create_app
from polignac.server.store.commitments import MAX_PAGE, append, read_chain
from polignac.server.store.db import make_engine, migrate
from polignac.server.tables.cut_window import MAX_REFUSALS

from .helpers import hello, next_non_event, next_of, sibling
from .test_verify import TABLE, Human, _config


def _play_match(client: TestClient, url: str) -> tuple[Human, list[dict[str, Any]]]:
    """Seat 0 plays the match to its end (cutting every deal); also what a spectator saw."""
    with client.websocket_connect(url + "/ws") as ws, \
            sibling(client).websocket_connect(url + "/ws") as spectator:
        spectator.send_json({"type": "hello", "last_seq": 0})
        me = Human(ws, client, url)
        me.until(lambda f: f["type"] == "event" and f["event"].get("match_over"))
        watched: list[dict[str, Any]] = []
        while not (watched and watched[-1].get("type") == "event"
                   and watched[-1]["event"].get("match_over")):
            watched.append(spectator.receive_json())
    return me, watched


def _deal_events(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [f["event"] for f in frames if f.get("type") == "event"
            and f["event"]["kind"] == "deal"]


def test_each_deal_is_logged_and_every_seat_receives_its_entry(
        config: ServerConfig, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = _config(config)
    with TestClient(create_app(config)) as client:
        url = client.post("/api/tables", json=TABLE).json()["url"]
        table = url.rsplit("/", 1)[-1]
        me, watched = _play_match(client, url)
        record = client.get(url + "/record.json").json()
        page = client.get(f"/tables/{table}/commitments").json()
        one = [client.get(f"/tables/{table}/commitments?after={d}&limit=1").json()
               for d in range(4)]
        whole = client.get("/api/commitments?limit=2").json()
        rest = client.get(f"/api/commitments?after={whole['next']}").json()
        for bad in ("after=-1", "after=%C2%B2", "limit=0", f"limit={MAX_PAGE + 1}",
                    "limit=" + "9" * 30):
            answer = client.get(f"/tables/{table}/commitments?{bad}")
            assert answer.status_code == 400 and answer.json()["rule"] == "bad-field", bad
            assert client.get(f"/api/commitments?{bad}").status_code == 400
        assert client.get("/tables/no%20such/commitments").status_code == 404
        assert client.get("/tables/nosuch/commitments").json()["entries"] == []
    seen = _deal_events([json.loads(t) for t in me.texts])
    assert len(seen) == 3 and _deal_events(watched) == [
        {**e, "hand": None} for e in seen]  # the spectator saw the same entries
    logged = [Entry.from_json(d["shuffle"]["log"]) for d in record["deals"]]
    for number, (event, entry) in enumerate(zip(seen, logged, strict=True), start=1):
        assert event["shuffle"]["log"] == entry.to_json()  # sent at the deal's start
        assert entry.sound and (entry.table, entry.deal) == (table, number)
        assert entry.commitment == me.commitments[number] == event["shuffle"]["commitment"]
        assert "seed" not in event["shuffle"]
    assert [e.seq for e in logged] == [1, 2, 3] and logged[0].prev == GENESIS
    assert check_chain(logged) == []
    assert [Entry.from_json(e) for e in page["entries"]] == logged
    assert page["head"] == {"seq": 3, "hash": logged[-1].hash} and page["next"] is None
    assert [p["entries"] for p in one[:3]] == [[e.to_json()] for e in logged]
    assert [p["next"] for p in one] == [1, 2, None, None] and one[3]["entries"] == []
    assert whole["next"] == 2 and rest["next"] is None
    assert [Entry.from_json(e) for e in whole["entries"] + rest["entries"]] == logged
    assert read_chain(make_engine(config.url())) == logged

    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    assert main(["verify", str(path), "--log", str(config.data_dir)]) == 0
    out = capsys.readouterr().out
    assert "3 of 3 deals verified, 0 failed" in out
    assert "the whole hash chain is sound" in out


def test_verify_against_a_running_server_finds_a_forged_deal(
        config: ServerConfig, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from .test_kill9 import Server

    config = _config(config)
    with TestClient(create_app(config)) as client:
        url = client.post("/api/tables", json=TABLE).json()["url"]
        _play_match(client, url)
        record = client.get(url + "/record.json").json()
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    again = forged(record, 3, seed=5)
    assert again["deals"][2]["shuffle"]["commitment"] != \
        record["deals"][2]["shuffle"]["commitment"]
    forged_path = tmp_path / "forged.json"
    forged_path.write_text(json.dumps(again))
    assert main(["verify", str(forged_path)]) == 0  # alone, the forged record passes
    server = Server(config.data_dir, config.url())  # another process, the same database
    try:
        assert main(["verify", str(path), "--log", server.base]) == 0
        assert "the table's entries are sound" in capsys.readouterr().out
        assert main(["verify", str(forged_path), "--log", server.base + "/"]) == 1
        out = capsys.readouterr().out
        assert "Deal 3 failed: the commitment is not the one in the log (entry 3: " in out
    finally:
        server.kill()


def test_a_restart_continues_the_chain(config: ServerConfig) -> None:
    config = _config(config)
    for _ in range(2):  # two server runs on one database
        with TestClient(create_app(config)) as client:
            url = client.post("/api/tables", json=TABLE).json()["url"]
            _play_match(client, url)
    engine = make_engine(config.url())
    chain = read_chain(engine)
    assert [e.seq for e in chain] == list(range(1, 7)) and check_chain(chain) == []
    assert len({e.table for e in chain}) == 2
    engine.dispose()


def test_two_writers_at_once_neither_fork_the_chain_nor_log_a_deal_twice(
        database_url: str) -> None:
    engine = make_engine(database_url)
    migrate(engine)
    engines = [make_engine(database_url) for _ in range(2)]  # two processes' engines

    def writer(k: int) -> None:
        for i in range(25):
            with engines[k].begin() as conn:
                append(conn, f"w{k}", i + 1, f"{k:02x}" * 32)

    threads = [threading.Thread(target=writer, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    chain = read_chain(engine)
    assert [e.seq for e in chain] == list(range(1, 51)) and check_chain(chain) == []
    # a deal already in the chain is refused, and the transaction leaves nothing
    with pytest.raises(IntegrityError), engine.begin() as conn:
        append(conn, "w0", 3, "ff" * 32)
    assert read_chain(engine) == chain
    migrate(engine)  # the migrations leave the chain as it is
    assert read_chain(engine) == chain
    for e in engines + [engine]:
        e.dispose()


def test_a_refused_cut_is_announced_to_every_seat_and_in_the_record(
        config: ServerConfig, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with TestClient(create_app(_config(config))) as client:
        url = client.post("/api/tables", json=TABLE).json()["url"]
        with client.websocket_connect(url + "/ws") as ws, \
                sibling(client).websocket_connect(url + "/ws") as spectator:
            hello(ws)
            hello(spectator)
            frame = next_of(ws, "commitment")
            ws.send_json({"type": "cut", "deal": 1, "value": "abcd", "commitment": "00" * 32})
            mine = next_of(ws, "cut-refused")  # to every connection, the sender's too,
            assert next_of(ws, "error")["rule"] == "stale-commitment"  # then the answer
            told = next_of(spectator, "cut-refused")
            assert told == mine and told["deal"] == 1 and told["seat"] == 0
            assert told["rule"] == "stale-commitment" and told["closes"] > told["at"]
            ws.send_json({"type": "cut", "deal": 7, "value": "abcd"})  # no commitment yet:
            assert next_of(ws, "error")["rule"] == "cut-closed"  # not recorded
            ws.send_json({"type": "cut", "deal": 1, "value": "abcd",
                          "commitment": frame["commitment"]})
            assert next_of(ws, "cut")["accepted"]
            next_of(ws, "event")  # the deal
            for _ in range(MAX_REFUSALS + 3):  # late: refused, at most MAX_REFUSALS kept
                ws.send_json({"type": "cut", "deal": 1, "value": "abcd"})
                assert next_of(ws, "error")["rule"] == "cut-closed"
            late = next_of(spectator, "cut-refused")
            assert late["rule"] == "cut-closed" and late["at"] >= told["at"]
        _play_match(client, url)
        with client.websocket_connect(url + "/ws") as ws:  # cuts of an old deal: answered,
            hello(ws)                                     # neither stored nor announced
            for deal in (1, 1, 2, 5):
                ws.send_json({"type": "cut", "deal": deal, "value": "abcd"})
                assert next_of(ws, "error")["rule"] == "cut-closed"
            ws.send_json({"type": "ping"})
            assert next_non_event(ws)["type"] == "pong"
        record = client.get(url + "/record.json").json()
    refused = record["deals"][0]["shuffle"]["refused"]
    assert [r["rule"] for r in refused] == ["stale-commitment"] + ["cut-closed"] * (
        MAX_REFUSALS - 1)
    assert all(r["seat"] == 0 for r in refused)
    assert all("refused" not in d["shuffle"] for d in record["deals"][1:])
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    assert main(["verify", str(path)]) == 0  # reported, not failed
    out = capsys.readouterr().out
    assert "Deal 1: seat 0's cut refused (stale-commitment) at 20" in out
    assert f"{MAX_REFUSALS} cut(s) refused" in out
    assert main(["verify", str(path), "--json"]) == 0
    deal1 = json.loads(capsys.readouterr().out)["deals"][0]
    assert len(deal1["refused"]) == MAX_REFUSALS


def test_a_reconnecting_client_gets_the_refused_cuts_it_missed(config: ServerConfig) -> None:
    config = _config(config)

    def after_state(ws: Any) -> list[dict[str, Any]]:
        """The frames a (re)connecting client gets after its state, up to the pong."""
        hello(ws)
        ws.send_json({"type": "ping"})
        frames = []
        while (frame := ws.receive_json())["type"] != "pong":
            frames.append(frame)
        return frames

    with TestClient(create_app(config)) as client:
        url = client.post("/api/tables", json=TABLE).json()["url"]
        with client.websocket_connect(url + "/ws") as ws:
            hello(ws)
            next_of(ws, "commitment")
            ws.send_json({"type": "cut", "deal": 1, "value": "abcd", "commitment": "00" * 32})
            told = next_of(ws, "cut-refused")
            assert next_of(ws, "error")["rule"] == "stale-commitment"
        with sibling(client).websocket_connect(url + "/ws") as late:  # a spectator, later
            missed = [f for f in after_state(late) if f["type"] == "cut-refused"]
        assert missed == [{**told, "again": True}]
        with client.websocket_connect(url + "/ws") as ws:  # the sender, reloading
            assert [f for f in after_state(ws) if f["type"] == "cut-refused"] == missed
    with TestClient(create_app(config)) as client, \
            client.websocket_connect(url + "/ws") as ws:  # a restart: from the database
        again = [f for f in after_state(ws) if f["type"] == "cut-refused"]
    assert again == [{**told, "closes": None, "again": True}]


def test_kept_heads_against_a_running_server(config: ServerConfig,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """``polignac commitments head URL`` prints what a watcher keeps; ``verify --log URL
    --head`` finds a chain rewritten behind it (every later entry made again), and the
    consistency route pages the entries between two entry numbers."""
    from tests.cli.test_kept_heads import rewrite

    from .test_kill9 import Server

    config = _config(config)
    with TestClient(create_app(config)) as client:
        url = client.post("/api/tables", json=TABLE).json()["url"]
        _play_match(client, url)
        between = client.get("/api/commitments?after=1&until=2&limit=5").json()
        paged = client.get("/api/commitments?after=0&until=3&limit=2").json()
        for bad in ("until=0", "until=%C2%B2", "until=" + "9" * 30):
            answer = client.get(f"/api/commitments?after=0&{bad}")
            assert answer.status_code == 400 and answer.json()["rule"] == "bad-field", bad
    engine = make_engine(config.url())
    chain = read_chain(engine)
    assert [e["seq"] for e in between["entries"]] == [2] and between["next"] is None
    assert [e["seq"] for e in paged["entries"]] == [1, 2] and paged["next"] == 2
    server = Server(config.data_dir, config.url())
    try:
        assert main(["commitments", "head", server.base]) == 0
        assert capsys.readouterr().out == f"3:{chain[2].hash}\n"
        kept = ["--head", f"1:{chain[0].hash}", "--head", f"3:{chain[2].hash}"]
        assert main(["verify", "--log", server.base, *kept]) == 0
        assert "2 kept head(s) hold" in capsys.readouterr().out
        rewrite(engine, 2, "dd" * 32)  # a sound chain again, but not the one kept
        assert main(["verify", "--log", server.base, *kept]) == 1
        out = capsys.readouterr().out
        assert "entry 3 of the log is" in out and "the log was rewritten" in out
        assert main(["verify", "--log", server.base, *kept[:2]]) == 0  # before the rewrite
        assert main(["commitments", "head", server.base + "/"]) == 0
        assert capsys.readouterr().out.endswith(f"3:{read_chain(engine)[2].hash}\n")
    finally:
        server.kill()
        engine.dispose()
