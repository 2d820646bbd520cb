"""Storage on SQLite and on a real PostgreSQL server: migrations, restart, seats."""

from __future__ import annotations

import random
from pathlib import Path

from sqlalchemy import inspect
from starlette.testclient import TestClient

from polignac.server import ServerConfig, create_app
from polignac.server.store.db import make_engine, migrate

from .helpers import hello, play_now, play_until, sibling


def test_migrations_reach_head_and_are_idempotent(database_url: str) -> None:
    engine = make_engine(database_url)
    try:
        migrate(engine)
        migrate(engine)
        with engine.connect() as conn:
            version = conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalar()
        assert version == "0023"
        assert {"claimant", "address", "network", "polled_at"} <= {
            c["name"] for c in inspect(engine).get_columns("seeks")}
        buckets = {c["name"] for c in inspect(engine).get_columns("rate_buckets")}
        assert buckets == {"key", "tat"}
        names = {c["name"] for c in inspect(engine).get_columns("tables")}
        assert {"rematch_id", "options", "closed_at", "finished_at", "broken"} <= names
        assert "name" in {c["name"] for c in inspect(engine).get_columns("passkeys")}
        leases = {c["name"] for c in inspect(engine).get_columns("leases")}
        assert leases == {"table_id", "owner", "expires", "term"}
    finally:
        engine.dispose()


def test_restart_rebuilds_identical_state(backend_config: ServerConfig) -> None:
    config = backend_config
    with TestClient(create_app(config)) as client:
        url = play_now(client)
        with client.websocket_connect(url + "/ws") as ws:
            seq, _view = play_until(ws, hello(ws), random.Random(3),
                                   lambda v: len(v["deals"]) >= 1 and bool(
                                       v.get("deal", {}).get("legal")))
            before = hello(ws, 0)
        cookies = dict(client.cookies)
        record = client.get(url + "/record.json").json()
        listed = client.get("/api/tables").json()["tables"]
    with TestClient(create_app(config), cookies=cookies) as client:
        with client.websocket_connect(url + "/ws") as ws:
            after = hello(ws, 0)
            assert after["seq"] == before["seq"] and after["view"] == before["view"]
            assert after["summary"] == before["summary"] and after["table"] == before["table"]
            assert ws.receive_json()["type"] == "presence"
            ws.send_json({"type": "hello", "last_seq": seq - 3})  # reconnect: missed events
            missed = [ws.receive_json() for _ in range(3)]
            assert [f["seq"] for f in missed] == [seq - 2, seq - 1, seq]
            assert missed[-1]["view"] == before["view"]
        assert client.get(url + "/record.json").json() == record
        assert client.get("/api/tables").json()["tables"] == listed


def test_taken_seat_and_rematch_survive_a_restart(backend_config: ServerConfig) -> None:
    from dataclasses import replace

    config = replace(backend_config, grace_seconds=60)
    with TestClient(create_app(config)) as client:
        r = client.post("/api/tables", json={
            "preset": "slobberhannes", "overrides": {"threshold": 1},
            "seats": [{"kind": "you"}] + [{"kind": "bot", "level": "random"}] * 3})
        url = r.json()["url"]
        table_id = r.json()["id"]
        with client.websocket_connect(url + "/ws") as ws:
            play_until(ws, hello(ws), random.Random(4), lambda v: v["finished"])
        friend = sibling(client)
        friend.get(url)  # the page gives the browser its identity
        took = friend.post(f"{url}/seats/2/take", json={"name": "Bea"})
        assert took.status_code == 409 and took.json()["rule"] == "finished"
        again = client.post(url + "/rematch")
        assert again.status_code == 200, again.text
        new_url = again.json()["url"]
        cookies = dict(client.cookies)
    with TestClient(create_app(config), cookies=cookies) as client:
        listed = {t["id"]: t for t in client.get("/api/tables").json()["tables"]}
        assert listed[table_id]["rematch"] == new_url.rsplit("/", 1)[1]
        assert listed[table_id]["status"] == "finished"
        with client.websocket_connect(new_url + "/ws") as ws:
            state = hello(ws)
            assert state["you"] == 0 and state["table"]["preset"] == "slobberhannes"
            assert state["table"]["overrides"] == {"threshold": 1}


def test_the_hints_setting_survives_a_restart(backend_config: ServerConfig) -> None:
    """Chosen against the seats' default both ways, ``hints`` is stored with the table."""
    bots = [{"kind": "bot", "level": "random"}] * 3
    with TestClient(create_app(backend_config)) as client:
        off = client.post("/api/tables", json={"hints": False, "seats": [{"kind": "you"}]
                                               + bots}).json()["url"]
        on = client.post("/api/tables", json={"hints": True, "seats": [
            {"kind": "you"}, {"kind": "open"}] + bots[:2]}).json()["url"]
    with TestClient(create_app(backend_config)) as client:
        for url, hints in ((off, False), (on, True)):
            with client.websocket_connect(url + "/ws") as ws:
                assert hello(ws)["table"]["hints"] is hints


def test_the_migrations_build_exactly_the_schema(tmp_path: Path) -> None:
    """``store/schema.py`` (the whole schema, in one place) and the migrations agree: a
    migrated database has every table, column and index of the schema, and no other."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from polignac.server.store.schema import metadata

    engine = make_engine(f"sqlite:///{tmp_path / 'm.db'}")
    migrate(engine)
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), metadata)
    engine.dispose()
    assert diff == [], diff
