"""``polignac puzzles build``: the JSONL it writes (the same as the library's
puzzles), the summary, stdout mode, and one-line errors with status 2."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from polignac.bots.puzzles import THEMES, PuzzleSettings, find_puzzles
from polignac.bots.registry import make_bot
from polignac.bots.runner import play_match
from polignac.cli.main import main
from polignac.core import get_rules, to_record


def bot_record(seed: int) -> dict[str, Any]:
    """Four deals of 4-player Polignac between seeded random bots."""
    m = play_match(get_rules("polignac", {"threshold": 500}), 4,
                   [make_bot("random") for _ in range(4)], random.Random(seed), max_deals=4)
    return to_record(m)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folder = tmp_path_factory.mktemp("records")
    out = []
    for seed in (3, 7):
        p = folder / f"seed{seed}.json"
        p.write_text(json.dumps(bot_record(seed)))
        out.append(p)
    return out


def test_build_writes_the_puzzles_and_a_summary(capsys: pytest.CaptureFixture[str],
                                                records: list[Path], tmp_path: Path) -> None:
    target = tmp_path / "p.jsonl"
    status, out, err = run(capsys, "puzzles", "build", *map(str, records), "--out", str(target),
                           "--max-cards", "4")
    assert status == 0 and err == ""
    lines = target.read_text().splitlines()
    settings = PuzzleSettings(max_cards=4)
    expected = [p for r in records
                for p in find_puzzles(json.loads(r.read_text()), settings, r.name)[0]]
    assert [json.loads(line) for line in lines] == expected
    assert len(lines) == 6
    counts = [(t, sum(1 for p in expected if p["theme"] == t)) for t in THEMES]
    by_theme = ", ".join(f"{t} {n}" for t, n in counts if n)
    assert out.startswith("Read 2 records (8 deals); tried ")
    assert f"Found 6 puzzles; by theme: {by_theme}." in out
    assert "s a deal)." in out and f"Wrote the puzzles to {target}." in out
    # the same input gives the same file
    again = tmp_path / "q.jsonl"
    assert run(capsys, "puzzles", "build", *map(str, records), "--out", str(again),
               "--max-cards", "4")[0] == 0
    assert again.read_bytes() == target.read_bytes()


def test_without_out_the_puzzles_go_to_stdout_and_the_summary_to_stderr(
        capsys: pytest.CaptureFixture[str], records: list[Path]) -> None:
    status, out, err = run(capsys, "puzzles", "build", str(records[0]), "--max-cards", "4",
                           "--margin", "2")
    assert status == 0
    for line in out.splitlines():
        assert json.loads(line)["margin"] >= 2
    assert err.startswith("Read 1 record (4 deals); tried ")


@pytest.mark.parametrize(("argv", "message"), [
    (["puzzles"], "puzzles: say what to do"),
    (["puzzles", "build"], "the following arguments are required: RECORD"),
    (["puzzles", "build", "MISSING.json"], "MISSING.json: no such file"),
    (["puzzles", "build", "REC", "--margin", "0"], "--margin 0: choose from 1 to 1000"),
    (["puzzles", "build", "REC", "--max-cards", "14"], "--max-cards 14: choose from 1 to 13"),
    (["puzzles", "build", "REC", "--deals", "0"], "--deals 0: choose from 1 to 100000"),
    (["puzzles", "build", "REC", "--nodes", "x"], "invalid int value"),
    (["puzzles", "build", "NOTJSON"], "not valid JSON"),
    (["puzzles", "build", "LIST"], "not a game record (expected a JSON object)"),
    (["puzzles", "build", "BAD"], "not a game record that replays"),
    (["puzzles", "build", "REC", "--out", "NODIR/p.jsonl"], "cannot write"),
])
def test_bad_input_is_one_line_and_status_2(capsys: pytest.CaptureFixture[str],
                                            records: list[Path], tmp_path: Path,
                                            argv: list[str], message: str) -> None:
    files = {"REC": str(records[0]), "MISSING.json": str(tmp_path / "MISSING.json"),
             "NOTJSON": str(tmp_path / "n.json"), "LIST": str(tmp_path / "l.json"),
             "BAD": str(tmp_path / "b.json"), "NODIR/p.jsonl": str(tmp_path / "no" / "p.jsonl")}
    (tmp_path / "n.json").write_text("{not json")
    (tmp_path / "l.json").write_text("[]")
    bad = json.loads(records[0].read_text())
    bad["deals"][0]["actions"][5] = "AS" if bad["deals"][0]["actions"][5] != "AS" else "KS"
    (tmp_path / "b.json").write_text(json.dumps(bad))
    status, out, err = run(capsys, *[files.get(a, a) for a in argv])
    assert status == 2
    assert message in err and err.count("\n") == 1 and err.startswith("polignac")
    assert "Traceback" not in err and out == ""
    assert not (tmp_path / "no").exists()
