"""Heads of the commitment log kept elsewhere: ``polignac commitments head SOURCE``
prints ``SEQ:HASH``, and ``polignac verify --log SOURCE --head SEQ:HASH`` (or
``--heads FILE``) fails when the log no longer holds that very entry, even when the
server rewrote a deal and every later entry so that the chain alone is sound."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import Engine, update

from polignac.core.commitlog import GENESIS, Entry, check_chain
from polignac.server.store.commitments import read_chain
from polignac.server.store.db import make_engine
from polignac.server.store.schema import commitment_head_t, commitment_log_t

from .test_verify import run, verifiable_record
from .test_verify_log import logged


def rewrite(engine: Engine, seq: int, commitment: str) -> list[Entry]:
    """Rewrite entry ``seq`` of the chain with ``commitment`` and make every later
    entry and the head again, as a server hiding a re-forged deal would: the chain
    stays sound on its own.  The new chain."""
    chain = read_chain(engine)
    out = chain[:seq - 1]
    for e in chain[seq - 1:]:
        prev = out[-1].hash if out else GENESIS
        out.append(Entry.make(e.seq, e.table, e.deal,
                              commitment if e.seq == seq else e.commitment, e.at, prev))
    with engine.begin() as conn:
        for e in reversed(out[seq - 1:]):  # prev and hash are unique: the last first
            conn.execute(update(commitment_log_t).where(commitment_log_t.c.seq == e.seq)
                         .values(commitment=e.commitment, prev="f" * 63 + str(e.seq % 10),
                                 hash="e" * 63 + str(e.seq % 10)))
        for e in out[seq - 1:]:
            conn.execute(update(commitment_log_t).where(commitment_log_t.c.seq == e.seq)
                         .values(prev=e.prev, hash=e.hash))
        conn.execute(update(commitment_head_t).where(commitment_head_t.c.id == 1)
                     .values(hash=out[-1].hash))
    assert check_chain(read_chain(engine)) == []
    return out


def test_a_kept_head_finds_a_rewritten_chain(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:
    record = verifiable_record(4)
    db = logged(tmp_path, record, extra=2)
    status, out, _ = run(capsys, "commitments", "head", str(db))
    engine = make_engine(f"sqlite:///{db}")
    chain = read_chain(engine)
    assert status == 0 and out == f"{len(chain)}:{chain[-1].hash}\n"
    status, out, _ = run(capsys, "commitments", "head", str(tmp_path), "--json")
    assert json.loads(out) == {"seq": len(chain), "hash": chain[-1].hash,
                               "entry": chain[-1].to_json()}
    kept = [f"{e.seq}:{e.hash}" for e in (chain[1], chain[-1])]
    status, out, _ = run(capsys, "verify", "--log", str(db), "--head", kept[0],
                         "--head", kept[1].upper())
    assert status == 0 and "2 kept head(s) hold" in out
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    status, out, _ = run(capsys, "verify", str(path), "--log", str(db), "--head", kept[1])
    assert status == 0 and "the whole hash chain is sound" in out and "hold" in out

    rewrite(engine, 3, "dd" * 32)  # entry 3 and every later one made again: sound alone
    status, out, _ = run(capsys, "verify", "--log", str(db))
    assert status == 2  # no record and no head: nothing to check
    status, out, _ = run(capsys, "verify", "--log", str(db), "--head", kept[0])
    assert status == 0  # entry 2 is before the rewrite: it holds
    heads = tmp_path / "heads.txt"
    heads.write_text(f"# kept by a watcher\n\n{kept[0]}\n{kept[1]}\n")
    status, out, _ = run(capsys, "verify", "--log", str(db), "--heads", str(heads))
    assert status == 1 and "a kept head does NOT hold" in out
    assert f"entry {len(chain)} of the log is " in out and "the log was rewritten" in out
    status, out, _ = run(capsys, "verify", "--log", str(db), "--heads", str(heads), "--json")
    result = json.loads(out)
    assert not result["ok"] and [p["seq"] for p in result["log"]["problems"]] == [len(chain)]
    status, out, _ = run(capsys, "verify", "--log", str(db), "--head", f"99:{'ab' * 32}")
    assert status == 1 and f"the log has no entry 99 (its head is entry {len(chain)})" in out
    engine.dispose()


@pytest.mark.parametrize(("argv", "message"), [
    (["--head", "1:abc"], "--head: '1:abc' is not SEQ:HASH"),
    (["--head", "²:" + "ab" * 32], "is not SEQ:HASH"),
    (["--head=-1:" + "ab" * 32], "is not SEQ:HASH"),
    (["--head", "0:" + "ab" * 32, "--log", "."], "entry 0 is the empty chain"),
])
def test_kept_heads_that_are_malformed(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                       argv: list[str], message: str) -> None:
    db = logged(tmp_path, verifiable_record(2), extra=0)
    argv = [a if a != "." else str(db) for a in argv]
    if "--log" not in argv:
        argv += ["--log", str(db)]
    status, out, err = run(capsys, "verify", *argv)
    assert status in (1, 2) and message in out + err


def test_kept_heads_need_a_log_and_a_file_that_reads(capsys: pytest.CaptureFixture[str],
                                                    tmp_path: Path) -> None:
    status, _, err = run(capsys, "verify", "--head", "1:" + "ab" * 32)
    assert status == 2 and "--log SOURCE" in err
    status, _, err = run(capsys, "verify", "--log", str(tmp_path), "--heads",
                         str(tmp_path / "none.txt"))
    assert status == 2 and "--heads" in err
    bad = tmp_path / "heads.txt"
    bad.write_text("1:" + "ab" * 32 + "\nnot a head\n")
    status, _, err = run(capsys, "verify", "--log", str(tmp_path), "--heads", str(bad))
    assert status == 2 and f"--heads {bad}, line 2" in err
    status, _, err = run(capsys, "commitments", "head", str(tmp_path / "none.db"))
    assert status == 2 and "there is no database at" in err
    status, _, err = run(capsys, "commitments", "head", "http://127.0.0.1:1")
    assert status == 2 and "cannot read http://127.0.0.1:1/api/commitments" in err
