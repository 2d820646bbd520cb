"""Tables that cannot start or cannot replay (issue 22, item 2): the rules are checked
completely before anything is stored; a stored table that does not replay is marked
once, logged once and never tried again, and a takeover hears ``cannot-replay``."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from sqlalchemy import Engine
from starlette.testclient import TestClient

from polignac.server import ServerConfig, create_app
from polignac.server.store.db import EventRow, SeatRow, Store, TableRow, make_engine, migrate
from polignac.server.tables.hub import CANNOT_REPLAY
from polignac.server.web.app import Hub

ORIGIN = {"origin": "http://testserver"}
FOUR = [{"kind": "you"}] + [{"kind": "bot"}] * 3


def _hub(client: TestClient) -> Hub:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return hub


def _stored(config: ServerConfig) -> list[TableRow]:
    engine = make_engine(config.url())
    try:
        migrate(engine)
        store = Store(engine)
        with engine.connect() as conn:
            ids = [r[0] for r in conn.exec_driver_sql("SELECT id FROM tables")]
        return [row for i in ids if (row := store.load_one(i)) is not None]
    finally:
        engine.dispose()


@pytest.mark.parametrize(("preset", "overrides"), [
    ("bassadewitz", {"deals": 2}),
    ("polignac", {"threshold": -5}),
    ("nonesuch", {}),
])
def test_rules_that_make_no_match_get_400_and_nothing_is_stored(
        config: ServerConfig, preset: str, overrides: dict[str, Any]) -> None:
    with TestClient(create_app(config)) as client:
        r = client.post("/api/tables", headers=ORIGIN, json={
            "preset": preset, "overrides": overrides, "seats": FOUR})
        assert r.status_code == 400, r.text
        assert r.json()["rule"] == "bad-rules" and r.json()["error"]
        assert not _hub(client).tables
    assert _stored(config) == []


def _poisoned(config: ServerConfig) -> str:
    """A stored table whose second event is not a legal action."""
    engine = make_engine(config.url())
    try:
        migrate(engine)
        return store_poisoned(engine, "poison1")
    finally:
        engine.dispose()


def store_poisoned(engine: Engine, table_id: str) -> str:
    """Store table ``table_id`` (four seats, Polignac), whose second event is not a legal
    action, in the migrated database of ``engine``; its id."""
    seats = [SeatRow(0, "human", None, "Ann", "t", None)] + [
        SeatRow(s, "bot", "random", f"Bot {s}", None, None) for s in range(1, 4)]
    hands = [["7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"],
             ["7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH"],
             ["7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD"],
             ["7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC"]]
    deal = EventRow(1, "deal", "deal", None, {"dealer": 0, "seats": [0, 1, 2, 3],
                                              "hands": hands, "turn_up": None})
    row = TableRow(table_id, "polignac", {}, 4, 0, seats,
                   [deal, EventRow(2, "act", "AS", 3, None)], creator_seat=0)
    Store(engine).create_table(row)
    with engine.begin() as conn:
        Store.insert_events(conn, [(row.id, ev) for ev in row.events])
    return row.id


def test_a_table_that_does_not_replay_is_marked_once_and_never_tried_again(
        config: ServerConfig, caplog: pytest.LogCaptureFixture) -> None:
    table_id = _poisoned(config)
    caplog.set_level(logging.INFO, "polignac.server")
    with TestClient(create_app(config)) as client:
        hub = _hub(client)
        assert table_id not in hub.tables
        assert client.get(f"/tables/{table_id}/record.json").json()["rule"] == "no-table"
        assert client.portal.call(hub.adopt, table_id) == CANNOT_REPLAY  # type: ignore[union-attr]
    marks = [r for r in caplog.records if "does not replay" in r.getMessage()]
    assert len(marks) == 1 and marks[0].exc_info is None  # once, without a traceback
    (stored,) = _stored(config)
    assert stored.broken and stored.closed_at is not None
    caplog.clear()
    with TestClient(create_app(config)) as client:  # a restart does not try it again
        hub = _hub(client)
        assert table_id not in hub.tables
        assert client.get(f"/tables/{table_id}").status_code == 404
        assert client.portal.call(hub.adopt, table_id) == CANNOT_REPLAY  # type: ignore[union-attr]
    assert not [r for r in caplog.records if "replay" in r.getMessage()]


def test_adopt_says_elsewhere_for_a_table_loaded_here(config: ServerConfig) -> None:
    with TestClient(create_app(config)) as client:
        r = client.post("/api/tables", headers=ORIGIN, json={"seats": FOUR})
        table_id = r.json()["id"]
        hub = _hub(client)
        assert client.portal.call(hub.adopt, table_id) == "elsewhere"  # type: ignore[union-attr]
        assert client.portal.call(hub.adopt, "nosuchtable") == "elsewhere"  # type: ignore[union-attr]
