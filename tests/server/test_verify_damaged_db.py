"""``polignac verify RECORD --log DB`` without ``--strict`` on a server database that
holds a table that does not replay (tests/server/test_poison_tables.py) and rows a
damaged or edited SQLite file may hold (SQLite keeps text in an integer column): it
reports, with exit status 0 (every deal passes), 1 (a deal or the log fails) or 2 (the
log cannot be read), never a traceback (issue 32 item 7)."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from tests.cli.test_verify import run, verifiable_record
from tests.cli.test_verify_log import logged

from polignac.server.store.db import make_engine

from .test_poison_tables import store_poisoned


def _files(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    """A database logging a record's deals (table T) that also holds ``poison1`` (a
    deal event, no entry in the log), and the record."""
    record = verifiable_record(3)
    db = logged(tmp_path, record)
    engine = make_engine(f"sqlite:///{db}")
    store_poisoned(engine, "poison1")
    engine.dispose()
    return db, record


def test_a_poisoned_table_beside_and_a_deal_still_in_play(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db, record = _files(tmp_path)
    n = len(record["deals"])
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record))
    status, out, _ = run(capsys, "verify", str(path), "--log", str(db))
    assert status == 0 and f"{n} of {n} deals verified" in out
    assert "the whole hash chain is sound" in out
    in_play = json.loads(json.dumps(record))  # the last deal's seed not revealed yet
    in_play["deals"][-1]["shuffle"]["seed"] = None
    in_play["deals"][-1]["actions"] = in_play["deals"][-1]["actions"][:3]
    path.write_text(json.dumps(in_play))
    status, out, _ = run(capsys, "verify", str(path), "--log", str(db))
    assert status == 0 and f"{n - 1} of {n} deals verified, 0 failed, 1 not verifiable" in out
    status, out, _ = run(capsys, "verify", str(path), "--log", str(db), "--strict")
    assert status == 1 and f"--strict: deals {n} cannot be verified." in out
    moved = json.loads(json.dumps(record).replace('"table": "T"', '"table": "poison1"'))
    path.write_text(json.dumps(moved))  # a record claiming the poisoned table's id
    status, out, _ = run(capsys, "verify", str(path), "--log", str(db))
    assert status == 1 and "the commitment log has no entry for this deal" in out


@pytest.mark.parametrize("damage", [
    "UPDATE commitment_log SET at = 'x' WHERE seq = 1",
    "UPDATE commitment_log SET deal = 'x' WHERE seq = 1",
    "UPDATE events SET created_at = 'x' WHERE table_id = 'poison1'",
    "UPDATE events SET data = '{not json' WHERE table_id = 'poison1'",
])
def test_rows_of_the_wrong_type_are_reported_not_raised(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, damage: str) -> None:
    """A record of ``poison1`` (its deals may predate the log: the stored events are
    read) and of T, against a database with one damaged row: exit 1, no exception."""
    good, record = _files(tmp_path)
    db = tmp_path / "damaged.db"
    shutil.copy(good, db)
    with sqlite3.connect(db) as conn:
        conn.execute(damage)
    path = tmp_path / "r.json"
    for table in ("poison1", "T"):
        path.write_text(json.dumps(record).replace('"table": "T"', f'"table": "{table}"'))
        status, out, _ = run(capsys, "verify", str(path), "--log", str(db))
        if table == "T" and "events" in damage:  # T's deals and the chain are whole
            assert status == 0 and "the whole hash chain is sound" in out, out
        else:
            assert status == 1, out
            assert "NOT sound" in out or "no entry for this deal" in out, out
