"""Deals dealt before the commitment log (migration 0008) verify against the table's
stored event log: ``polignac verify RECORD --log SOURCE`` passes them with a note, fails
one forged again, and still fails a deal dealt once the log existed whose entry is gone
(the chain rolled back, the event's ``shuffle.log`` stripped), from a database and from
a server (``GET /tables/{id}/commitments``' ``before_log``).

The old database is made as one from before 0008 was: a table played by this server
on a first database, its ``tables``, ``seats`` and ``events`` rows copied into a second
database migrated by alembic to ``0007`` only, its deal events without ``shuffle.log``
(what the code of that time stored: the same ``shuffle`` without ``log``); then that
database is migrated to the head (``db.migrate``, as a server upgrading does) and two
more tables are played on it, whose deals start the chain."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, delete, inspect, select, update
from starlette.testclient import TestClient
from tests.cli.test_verify_log import forged

from polignac.cli.main import main
from polignac.core.commitlog import BEFORE_CHAIN_NOTE, check_chain
from polignac.server import ServerConfig, create_app
from polignac.server.base.clock import ManualClock
from polignac.server.store.commitments import read_chain
from polignac.server.store.db import make_engine, migrate
from polignac.server.store.schema import (
    commitment_head_t,
    commitment_log_t,
    events_t,
    seats_t,
    tables_t,
)

from .test_commitments import _play_match
from .test_verify import TABLE, _config

NO_ENTRY = "failed: the commitment log has no entry for this deal"


def _played(config: ServerConfig, count: int) -> list[str]:
    """``count`` tables created and played to their end on ``config``'s database."""
    ids = []
    with TestClient(create_app(config)) as client:
        for _ in range(count):
            url = client.post("/api/tables", json=TABLE).json()["url"]
            _play_match(client, url)
            ids.append(url.rsplit("/", 1)[-1])
    return ids


def _without_log(data: str | None) -> str | None:
    """A stored deal event's data without ``shuffle.log``."""
    if data is None:
        return None
    parsed = json.loads(data)
    parsed.get("shuffle", {}).pop("log", None)
    return json.dumps(parsed)


def _old_database(source: Engine, table: str, target: Engine) -> None:
    """``target`` migrated to 0007 with ``table``'s rows of ``source`` as the code of that
    time stored them, then migrated to the head."""
    from alembic import command
    from alembic.config import Config

    import polignac.server.store.db as db

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(db.__file__).parent / "migrations"))
    with target.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0007")
    with source.connect() as old, target.begin() as conn:
        for t, where in ((tables_t, tables_t.c.id == table),
                         (seats_t, seats_t.c.table_id == table),
                         (events_t, events_t.c.table_id == table)):
            there = {c["name"] for c in inspect(conn).get_columns(t.name)}  # 0007's columns
            rows = [{k: v for k, v in r.items() if k in there}
                    for r in old.execute(select(t).where(where)).mappings()]
            if t is events_t:
                rows = [{**r, "data": _without_log(r["data"])} for r in rows]
            conn.execute(t.insert(), rows)
    migrate(target)


def _roll_back(engine: Engine, to: int, table: str) -> None:
    """A server hiding deals: the chain cut back to entry ``to`` (the head with it: the
    chain stays sound) and ``table``'s deal events stripped of the entries they carry."""
    with engine.begin() as conn:
        kept = conn.execute(select(commitment_log_t.c.hash)
                            .where(commitment_log_t.c.seq == to)).scalar_one()
        conn.execute(delete(commitment_log_t).where(commitment_log_t.c.seq > to))
        conn.execute(update(commitment_head_t).values(seq=to, hash=kept))
        for seq, data in conn.execute(select(events_t.c.seq, events_t.c.data).where(
                events_t.c.table_id == table, events_t.c.kind == "deal")).all():
            conn.execute(update(events_t).where(events_t.c.table_id == table,
                                                events_t.c.seq == seq)
                         .values(data=_without_log(data)))
    assert check_chain(read_chain(engine)) == []


def _strip(record: dict[str, Any], deals: range) -> dict[str, Any]:
    """``record`` with the log entries of ``deals`` (numbers) taken out."""
    out = json.loads(json.dumps(record))
    for number in deals:
        out["deals"][number - 1]["shuffle"].pop("log", None)
    return out


def _verify(capsys: pytest.CaptureFixture[str], tmp_path: Path, record: dict[str, Any],
            source: str) -> tuple[int, str]:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    status = main(["verify", str(path), "--log", source])
    return status, capsys.readouterr().out


@pytest.mark.slow
def test_deals_from_before_the_log_verify_against_the_stored_event_log(
        config: ServerConfig, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from .test_kill9 import Server

    then = _config(config)
    (old,) = _played(then, 1)
    # the upgraded server starts later (an hour on its clock) than the old one stopped
    now = replace(then, data_dir=tmp_path / "now", clock=ManualClock(then.clock.time() + 3600))
    now.data_dir.mkdir()
    engine = make_engine(now.url())
    then_engine = make_engine(then.url())
    _old_database(then_engine, old, engine)
    then_engine.dispose()
    assert read_chain(engine) == []  # 0008 starts an empty chain

    b, c = _played(now, 2)  # dealt once the log existed: entries 1-3, then 4-6
    with TestClient(create_app(now)) as client:
        records = {t: client.get(f"/tables/{t}/record.json").json() for t in (old, b, c)}
        pages = [client.get(f"/tables/{old}/commitments?after={d}&limit=1").json()
                 for d in range(4)]
        whole = client.get(f"/tables/{old}/commitments").json()
        logged = client.get(f"/tables/{c}/commitments").json()
    chain = read_chain(engine)
    assert [(e.table, e.deal) for e in chain] == [(t, d) for t in (b, c) for d in (1, 2, 3)]
    old_record = records[old]
    assert len(old_record["deals"]) == 3
    assert all("log" not in d["shuffle"] for d in old_record["deals"])  # as records were
    commits = [d["shuffle"]["commitment"] for d in old_record["deals"]]
    assert whole["entries"] == [] and whole["next"] is None
    assert whole["before_log"] == [{"deal": n, "commitment": commits[n - 1]}
                                   for n in (1, 2, 3)]
    assert [p["before_log"] for p in pages] == [[x] for x in whole["before_log"]] + [[]]
    assert [p["next"] for p in pages] == [1, 2, None, None]
    assert logged["before_log"] == [] and len(logged["entries"]) == 3

    # from the database: the old deals pass, noted; re-forged, the last one fails
    status, out = _verify(capsys, tmp_path, old_record, str(now.data_dir))
    assert status == 0, out
    assert "3 of 3 deals verified" in out and out.count(BEFORE_CHAIN_NOTE) == 3
    assert "the whole hash chain is sound" in out
    assert main(["verify", str(tmp_path / "record.json"), "--log", str(now.data_dir),
                 "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert [d["notes"] for d in result["deals"]] == [[BEFORE_CHAIN_NOTE]] * 3
    again = forged(old_record, 3, seed=11)
    assert again["deals"][2]["shuffle"]["commitment"] != commits[2]
    status, out = _verify(capsys, tmp_path, again, str(now.data_dir))
    assert status == 1
    assert ("Deal 3 failed: dealt before the commitment log, but the commitment is not "
            "the one in the table's stored event log") in out
    for t in (b, c):  # deals dealt since: checked against their entries, no note
        status, out = _verify(capsys, tmp_path, records[t], str(now.data_dir))
        assert status == 0 and BEFORE_CHAIN_NOTE not in out, out

    # a deal dealt once the log existed whose entry is gone (the chain rolled back,
    # the event stripped of its entry): its table's earlier deals are logged: it fails
    _roll_back(engine, 5, c)
    status, out = _verify(capsys, tmp_path, _strip(records[c], range(3, 4)),
                          str(now.data_dir))
    assert status == 1 and "Deal 3 failed: the commitment log has no entry for this deal" \
        in out, out
    # every entry of the table gone too: its deals were stored after the chain began
    _roll_back(engine, 3, c)
    no_entries = _strip(records[c], range(1, 4))
    status, out = _verify(capsys, tmp_path, no_entries, str(now.data_dir))
    assert status == 1 and out.count(NO_ENTRY) == 3
    assert BEFORE_CHAIN_NOTE not in out
    # which a head kept before the roll-back shows as well
    assert main(["verify", "--log", str(now.data_dir), "--head",
                 f"{chain[-1].seq}:{chain[-1].hash}"]) == 1
    assert "the log has no entry 6" in capsys.readouterr().out

    # from a server: the same answers
    server = Server(now.data_dir, now.url())
    try:
        status, out = _verify(capsys, tmp_path, old_record, server.base)
        assert status == 0 and out.count(BEFORE_CHAIN_NOTE) == 3, out
        status, out = _verify(capsys, tmp_path, again, server.base)
        assert status == 1 and "not the one in the table's stored event log" in out
        status, out = _verify(capsys, tmp_path, no_entries, server.base)
        assert status == 1 and out.count(NO_ENTRY) == 3
        status, out = _verify(capsys, tmp_path, records[b], server.base)
        assert status == 0 and BEFORE_CHAIN_NOTE not in out
    finally:
        server.kill()
        engine.dispose()


def test_a_table_dealt_across_the_migration_pages_both_kinds(tmp_path: Path) -> None:
    """A table whose deals 1-3 were stored before the chain and 4-5 after: its page
    gives the first as ``before_log`` and the others as entries, ``limit`` of both
    together in deal order; its deals after a logged one never count as early."""
    from polignac.server.store.commitments import append, table_page

    engine = make_engine(f"sqlite:///{tmp_path / 'polignac.db'}")
    migrate(engine)
    commits = [f"{n:02x}" * 32 for n in range(1, 6)]
    with engine.begin() as conn:
        conn.execute(tables_t.insert().values(id="T", preset="polignac", overrides="{}",
                                              num_players=4, first_dealer=0, created_at=1.0,
                                              options="{}"))
        for n in range(1, 6):  # deals (one action between them), before the chain: 1-3
            shuffle: dict[str, Any] = {"commitment": commits[n - 1]}
            if n > 3:
                shuffle["log"] = append(conn, "T", n, commits[n - 1], at=10_000 + n).to_json()
            conn.execute(events_t.insert(), [
                {"table_id": "T", "seq": 2 * n - 1, "kind": "deal", "action": "deal",
                 "seat": None, "data": json.dumps({"shuffle": shuffle}),
                 "created_at": 11.0 if n > 3 else float(n)},
                {"table_id": "T", "seq": 2 * n, "kind": "act", "action": "pass", "seat": 0,
                 "data": None, "created_at": 11.0 if n > 3 else float(n)}])

    def page(after: int, limit: int) -> tuple[list[int], list[int], int | None]:
        got = table_page(engine, "T", after, limit)
        return ([d["deal"] for d in got["before_log"]], [e["deal"] for e in got["entries"]],
                got["next"])

    assert page(0, 100) == ([1, 2, 3], [4, 5], None)
    assert [page(a, 2) for a in (0, 2, 4)] == [([1, 2], [], 2), ([3], [4], 4), ([], [5], None)]
    assert table_page(engine, "T", 0, 1)["before_log"] == [{"deal": 1,
                                                            "commitment": commits[0]}]
    with engine.begin() as conn:  # a deal stored after the chain began, without an entry
        conn.execute(update(events_t).where(events_t.c.seq == 5)
                     .values(created_at=20.0))
    assert page(0, 100) == ([1, 2], [4, 5], None)
    engine.dispose()
