"""``polignac verify RECORD --log DB``: each deal's commitment must be the logged one
(a deal forged again with a new seed and its matching commitment passes alone, fails
against the log), and the log's hash chain must be whole (an entry changed, changed
with its hash made again, or removed, is found)."""

from __future__ import annotations

import json
import random
import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from polignac.core import replay, to_record
from polignac.core.commitlog import (
    BEFORE_CHAIN_NOTE,
    GENESIS,
    DealLog,
    Entry,
    LogError,
    StoredDeal,
    before_chain,
    check_chain,
    check_record_deals,
    entry_hash,
)
from polignac.core.shuffle import Proof, commitment, deal_order
from polignac.server.store.commitments import append
from polignac.server.store.db import make_engine, migrate

from .test_verify import run, verifiable_record


def logged(tmp_path: Path, record: dict[str, Any], extra: int = 1) -> Path:
    """A server database whose commitment log holds the record's deals, then ``extra``
    deals of another table."""
    db = tmp_path / "polignac.db"
    engine = make_engine(f"sqlite:///{db}")
    migrate(engine)
    with engine.begin() as conn:
        for number, deal in enumerate(record["deals"], start=1):
            append(conn, "T", number, deal["shuffle"]["commitment"])
            if number <= extra:
                append(conn, "other", number, "ee" * 32)
    engine.dispose()
    return db


def forged(record: dict[str, Any], first: int, seed: int) -> dict[str, Any]:
    """``record`` with deal ``first`` on dealt again from new seeds (new commitments that
    match them) and played to the end: it verifies on its own."""
    rng = random.Random(seed)
    m = replay({**record, "deals": record["deals"][:first - 1]})
    proofs = [d["shuffle"] for d in record["deals"][:first - 1]]
    table = record["deals"][first - 1]["shuffle"]["table"]
    cuts = [bytes.fromhex(c) if c else None
            for c in record["deals"][first - 1]["shuffle"]["cuts"]]
    while not m.finished:
        if m.needs_deal:
            server, n = rng.randbytes(32), len(m.next_deal()[1])
            proofs.append(Proof(table, commitment(server, table, m.deal_number), server,
                                tuple(cuts), m.rules.packets).to_json())
            m = m.deal_from_pack(deal_order(m.rules, n, server, table, m.deal_number, cuts))
        else:
            m = m.apply(rng.choice(m.legal_actions()))
    return to_record(m, proofs)


def test_a_record_matches_its_log_and_a_forged_deal_does_not(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = verifiable_record(3)
    n = len(record["deals"])
    assert n >= 2
    db = logged(tmp_path, record)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    for source in (str(db), str(tmp_path), f"sqlite:///{db}"):  # file, folder, URL
        status, out, _ = run(capsys, "verify", str(path), "--log", source)
        assert status == 0, out
        assert f"{n} of {n} deals verified" in out and "the whole hash chain is sound" in out

    again = forged(record, n, seed=9)
    assert again["deals"][n - 1]["hands"] != record["deals"][n - 1]["hands"]
    path.write_text(json.dumps(again))
    assert run(capsys, "verify", str(path))[0] == 0  # alone, it passes
    status, out, _ = run(capsys, "verify", str(path), "--log", str(db))
    assert status == 1
    assert f"Deal {n} failed: the commitment is not the one in the log (entry " in out
    status, out, _ = run(capsys, "verify", str(path), "--log", str(db), "--json")
    result = json.loads(out)
    assert status == 1 and not result["ok"] and result["log"]["problems"] == []
    assert [d["status"] for d in result["deals"][:n]] == ["ok"] * (n - 1) + ["failed"]

    # the forger copies the deal's log entry as well: still not the log's
    claimed = {**again["deals"][n - 1]["shuffle"], "log": Entry.make(
        2 * n, "T", n, again["deals"][n - 1]["shuffle"]["commitment"], 1, "ab" * 32
    ).to_json()}
    again["deals"][n - 1]["shuffle"] = claimed
    path.write_text(json.dumps(again))
    status, out, _ = run(capsys, "verify", str(path), "--log", str(db))
    assert status == 1 and "shuffle.log is not entry" in out

    # a record of a table the log never saw
    moved = json.loads(json.dumps(record).replace('"table": "T"', '"table": "U"'))
    path.write_text(json.dumps(moved))
    status, out, _ = run(capsys, "verify", str(path), "--log", str(db))
    assert status == 1 and "the commitment log has no entry for this deal" in out


def test_a_tampered_chain_is_found(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = verifiable_record(5)
    db = logged(tmp_path, record, extra=3)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    assert run(capsys, "verify", str(path), "--log", str(db))[0] == 0
    with sqlite3.connect(db) as conn:
        (seq, table, deal, commit, at, prev, old) = conn.execute(
            "SELECT seq, table_id, deal, commitment, at, prev, hash FROM commitment_log "
            "WHERE table_id = 'other' AND deal = 1").fetchone()
        conn.execute("UPDATE commitment_log SET commitment = ? WHERE seq = ?",
                     ("dd" * 32, seq))
    status, out, _ = run(capsys, "verify", str(path), "--log", str(db))
    assert status == 1 and f"entry {seq}: its hash is not the hash of its fields" in out
    assert "the whole hash chain is NOT sound" in out
    with sqlite3.connect(db) as conn:  # the hash made again: the next entry's prev differs
        conn.execute("UPDATE commitment_log SET hash = ? WHERE seq = ?",
                     (entry_hash(seq, table, deal, "dd" * 32, at, prev), seq))
    status, out, _ = run(capsys, "verify", str(path), "--log", str(db))
    assert status == 1 and f"entry {seq + 1}: prev is not the hash of entry {seq}" in out
    with sqlite3.connect(db) as conn:  # the entry put back, then removed
        conn.execute("UPDATE commitment_log SET commitment = ?, hash = ? WHERE seq = ?",
                     (commit, old, seq))
        conn.execute("DELETE FROM commitment_log WHERE seq = ?", (seq,))
    status, out, _ = run(capsys, "verify", str(path), "--log", str(db))
    assert status == 1 and f"entry {seq + 1} follows entry {seq - 1}: entries are missing" in out


def test_log_sources_that_do_not_answer(capsys: pytest.CaptureFixture[str],
                                        tmp_path: Path) -> None:
    record = verifiable_record(3)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    status, _, err = run(capsys, "verify", str(path), "--log", str(tmp_path / "none.db"))
    assert status == 2 and "there is no database at" in err
    (tmp_path / "empty.db").write_bytes(b"")
    status, _, err = run(capsys, "verify", str(path), "--log", str(tmp_path / "empty.db"))
    assert status == 2 and "cannot read the commitment log" in err
    status, _, err = run(capsys, "verify", str(path), "--log", "http://127.0.0.1:1")
    assert status == 2 and "cannot read http://127.0.0.1:1/tables/T/commitments" in err
    for deal in record["deals"]:
        del deal["shuffle"]
    path.write_text(json.dumps(record))
    status, _, err = run(capsys, "verify", str(path), "--lenient", "--log", str(tmp_path))
    assert status == 1 and "no deal of the record carries a shuffle" in err


def test_entries_and_chains() -> None:
    a = Entry.make(1, "t", 1, "ab" * 32, 5, GENESIS)
    b = Entry.make(2, "t", 2, "cd" * 32, 6, a.hash)
    assert check_chain([a, b]) == [] and Entry.from_json(b.to_json()) == b
    assert check_chain([b], prev=a) == []
    assert check_chain([Entry.make(1, "t", 1, "ab" * 32, 5, "11" * 32)]) == [
        "entry 1 does not start the chain (prev is not zero)"]
    for bad in ({**b.to_json(), "seq": 0}, {**b.to_json(), "hash": "AB" * 32},
                {**b.to_json(), "table": ""}, {**b.to_json(), "at": True}, [b.to_json()]):
        with pytest.raises(LogError):
            Entry.from_json(bad)


def test_a_rewritten_last_entry_differs_from_the_head(capsys: pytest.CaptureFixture[str],
                                                      tmp_path: Path) -> None:
    record = verifiable_record(3)
    db = logged(tmp_path, record, extra=0)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    with sqlite3.connect(db) as conn:  # the last deal logged again, its hash made again
        seq, deal, at, prev = conn.execute(
            "SELECT seq, deal, at, prev FROM commitment_log ORDER BY seq DESC").fetchone()
        conn.execute("UPDATE commitment_log SET commitment = ?, hash = ? WHERE seq = ?",
                     ("dd" * 32, entry_hash(seq, "T", deal, "dd" * 32, at, prev), seq))
    status, out, _ = run(capsys, "verify", str(path), "--log", str(db))
    assert status == 1 and f"the chain's head (entry {seq}, " in out
    assert f"Deal {deal} failed: the commitment is not the one in the log" in out


def test_which_deals_predate_the_log() -> None:
    """``before_chain``: the deals of a table before its first logged deal, before the
    first event that carries an entry, stored before the chain's first entry."""
    commits = [f"{n:02x}" * 32 for n in range(1, 6)]
    stored = [StoredDeal(n, commits[n - 1], False, 1000 * n) for n in range(1, 6)]
    every = {n: commits[n - 1] for n in range(1, 6)}
    assert before_chain(stored, [], None) == every  # no chain yet
    assert before_chain(stored, [], 10_000) == every  # a chain begun after them
    third = Entry.make(1, "T", 3, commits[2], 10_000, GENESIS)
    assert before_chain(stored, [third], 10_000) == {1: commits[0], 2: commits[1]}
    carried = [replace(s, logged=s.deal == 2) for s in stored]  # deal 2's event: an entry
    assert before_chain(carried, [], None) == {1: commits[0]}
    assert before_chain(stored, [], 3000) == {1: commits[0], 2: commits[1]}  # 3 is later
    unproved = [replace(s, commitment=None) if s.deal == 1 else s for s in stored]
    assert before_chain(unproved, [], None) == {n: every[n] for n in range(2, 6)}


def test_a_deal_without_its_entry_passes_only_as_one_from_before_the_log() -> None:
    record = verifiable_record(3)
    n = len(record["deals"])
    commits = {("T", d): record["deals"][d - 1]["shuffle"]["commitment"]
               for d in range(1, n + 1)}
    found = check_record_deals(record, [], commits)
    assert all(f == DealLog((), BEFORE_CHAIN_NOTE) for f in found.values()), found
    assert [f.problems for f in check_record_deals(record, []).values()] == [
        ("the commitment log has no entry for this deal",)] * n
    other = {**commits, ("T", 1): "ee" * 32}  # the stored event's commitment differs
    assert check_record_deals(record, [], other)[1].problems == (
        "dealt before the commitment log, but the commitment is not the one in the "
        f"table's stored event log ({'ee' * 8}…)",)
    first = Entry.make(1, "T", 1, commits[("T", 1)], 5, GENESIS)  # deal 1 logged: deal 2
    found = check_record_deals(record, [first], commits)  # cannot predate the log
    assert found[1] == DealLog() and found[2].problems == (
        "the commitment log has no entry for this deal",)
    claimed = json.loads(json.dumps(record))  # the record says deal 1 was logged
    claimed["deals"][0]["shuffle"]["log"] = first.to_json()
    assert check_record_deals(claimed, [], commits)[1].problems == (
        "the commitment log has no entry for this deal",)
