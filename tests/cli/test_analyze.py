"""``polignac analyze``: the text report, --json, --out (an annotated record that
``polignac replay`` and ``polignac verify`` still read), and the errors."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from polignac.cli.main import main
from polignac.core import Match, get_rules, to_record


def record(seed: int = 5) -> dict[str, object]:
    """A finished one-deal 6-player Polignac record (5 cards each: quick to solve)."""
    rng = random.Random(seed)
    m = Match.new(get_rules("polignac", {"threshold": 100}), 6, 0,
                  names=["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]).deal_random(rng)
    while m.current is not None:
        m = m.apply(rng.choice(m.legal_actions()))
    return to_record(m)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.fixture
def path(tmp_path: Path) -> Path:
    p = tmp_path / "r.json"
    p.write_text(json.dumps(record()))
    return p


def test_json_and_text_agree(capsys: pytest.CaptureFixture[str], path: Path) -> None:
    status, out, _ = run(capsys, "analyze", str(path), "--json", "--samples", "3", "--seed", "4")
    assert status == 0
    data = json.loads(out)
    assert data["players"] == ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
    (deal,) = data["deals"]
    assert deal["samples"] == 3 and deal["seed"] == 4 and deal["unit"] == "penalty"
    assert len(deal["actions"]) == len(record()["deals"][0]["actions"])  # type: ignore[index]
    assert data["totals"][0]["decisions"] == deal["players"][0]["decisions"]
    status, text, _ = run(capsys, "analyze", str(path), "--samples", "3", "--seed", "4")
    assert status == 0 and text.startswith("Values in penalty points")
    lines = text.splitlines()
    assert "Deal 1" in lines and "Match" in lines
    # one row per action analysed, with its mark
    rows = [e for e in deal["actions"] if "loss" in e]
    for i, e in enumerate(deal["actions"], start=1):
        if "loss" in e:
            row = next(x for x in lines if x.split()[:1] == [str(i)])
            assert row.split()[2] == e["action"]
            assert row.endswith(e.get("mark", row.split()[-1]))
    assert len(rows) == sum(r["decisions"] for r in deal["players"])


def test_out_writes_an_annotated_record_that_replays(capsys: pytest.CaptureFixture[str],
                                                     path: Path, tmp_path: Path) -> None:
    out = tmp_path / "annotated.json"
    status, text, _ = run(capsys, "analyze", str(path), "--samples", "2", "--out", str(out))
    assert status == 0 and f"Wrote the annotated record to {out}." in text
    annotated = json.loads(out.read_text())
    assert annotated["deals"][0]["analysis"]["version"] == "polignac-analysis/1"
    status, plain, _ = run(capsys, "replay", str(path), "--json")
    status2, again, _ = run(capsys, "replay", str(out), "--json")
    assert status == status2 == 0 and json.loads(plain) == json.loads(again)
    status, text, _ = run(capsys, "verify", str(out))  # no proofs: fails unless --lenient
    assert status == 1
    status, text, _ = run(capsys, "verify", str(out), "--lenient")
    assert status == 0 and "not verifiable" in text
    # the same settings give the same annotations (deterministic), with --jobs too
    again_path = tmp_path / "again.json"
    run(capsys, "analyze", str(out), "--samples", "2", "--jobs", "2", "--out", str(again_path))
    assert json.loads(again_path.read_text()) == annotated


@pytest.mark.parametrize("argv,message", [
    ([], "give a RECORD file, or --example"),
    (["x.json", "--example"], "not both"),
    (["x.json", "--samples", "0"], "--samples must be 1 to 1000"),
    (["x.json", "--jobs", "0"], "--jobs must be 1 to 64"),
    (["x.json", "--nodes", "0"], "--nodes must be at least 1"),
    (["missing.json"], "missing.json: no such file"),
])
def test_usage_errors(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    status, _, err = run(capsys, "analyze", *argv)
    assert status == 2 and message in err


def test_a_record_that_does_not_replay(capsys: pytest.CaptureFixture[str],
                                       tmp_path: Path) -> None:
    bad = record()
    bad["deals"][0]["actions"][0] = "JS" if bad["deals"][0]["actions"][0] != "JS" else "QS"  # type: ignore[index]
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(bad))
    status, _, err = run(capsys, "analyze", str(p))
    assert status == 1 and "deal 1, action 1" in err


def test_a_folder_of_records(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    for seed in (1, 2):
        (folder / f"g{seed}.json").write_text(json.dumps(record(seed)))
    (folder / "broken.json").write_text("{")
    (folder / "notes.txt").write_text("not a record")
    out = tmp_path / "annotated"
    status, text, err = run(capsys, "analyze", str(folder), "--samples", "2", "--out", str(out))
    assert status == 1  # one file was skipped
    assert "broken.json: not valid JSON" in err and "(skipped)" in err
    assert "g1.json: 1 deal\n" in text and "g2.json: 1 deal\n" in text
    assert "Analysed 2 records (1 skipped)" in text
    assert sorted(p.name for p in out.iterdir()) == ["g1.json", "g2.json"]
    status, one, _ = run(capsys, "analyze", str(folder / "g2.json"), "--samples", "2", "--json")
    (folder / "broken.json").unlink()
    status, data, _ = run(capsys, "analyze", str(folder), "--samples", "2", "--json",
                          "--jobs", "2")
    assert status == 0
    batch = json.loads(data)
    assert batch["errors"] == [] and [r["file"] for r in batch["records"]] == ["g1.json",
                                                                               "g2.json"]
    # each record's analysis is the one it gets alone, and the one written by --out
    alone = json.loads(one)
    assert {k: batch["records"][1][k] for k in alone} == alone
    annotated = json.loads((out / "g2.json").read_text())
    assert [d["analysis"] for d in annotated["deals"]] == alone["deals"]


@pytest.mark.parametrize("files,out,message", [
    ([], None, "no *.json record in this folder"),
    (["g.json"], "same", "the records are not overwritten"),
    (["g.json"], "file", "--out is a folder"),
])
def test_folder_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path, files: list[str],
                       out: str | None, message: str) -> None:
    for name in files:
        (tmp_path / name).write_text(json.dumps(record()))
    (tmp_path / "file").write_text("x")
    argv = ["analyze", str(tmp_path)]
    if out is not None:
        argv += ["--out", str(tmp_path) if out == "same" else str(tmp_path / out)]
    status, _, err = run(capsys, *argv)
    assert status == 2 and message in err
