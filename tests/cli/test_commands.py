"""Every subcommand through ``main(argv)``, its output and its errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from polignac.cli.main import main
from polignac.core import PRESETS
from polignac.i18n import preset_summary


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_presets_table(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "presets")
    assert status == 0 and not err
    for name in PRESETS:
        assert f"\n{name} " in out
    # the rules pages' summary (the i18n catalogs), one text for both
    assert preset_summary("polignac", "en") in out and preset_summary("polignac", "en")
    status, out, _ = run(capsys, "presets", "--lang", "fr")
    assert status == 0 and preset_summary("polignac", "fr") in out
    assert preset_summary("polignac", "fr") != preset_summary("polignac", "en")


def test_no_command_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, )
    assert status == 0 and "play-random" in out


def test_rules_with_house_rules(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out, _ = run(capsys, "rules", "polignac")
    assert status == 0 and "threshold 20" in out and "(interpretation)" in out
    status, out, _ = run(capsys, "rules", "polignac", "--rule", "threshold=10")
    assert status == 0 and "threshold 10" in out
    rules_file = tmp_path / "house.json"
    rules_file.write_text('{"threshold": 15, "card_points": {"JS": 3, "J": 1}}')
    status, out, _ = run(capsys, "rules", "polignac", "--rules-file", str(rules_file),
                         "--rule", "threshold=12", "--players", "4")
    assert status == 0 and "threshold 12" in out and "3 points" in out
    assert "With 3 players" not in out


def test_rules_params(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "rules", "knaves", "--params")
    assert status == 0
    assert "threshold = 20" in out and "trumps = turn-up" in out
    assert "card_points = JS:-1,JC:-2,JD:-3,JH:-4" in out
    # only the game's parameter group (core/rules.py:parameters_for)
    assert "declaration =" not in out and "moon =" not in out and "pool =" not in out
    status, out, _ = run(capsys, "rules", "black-maria", "--params")
    assert status == 0 and "moon = " in out and "pass_count = 3" in out
    assert "contract_points =" not in out and "declaration =" not in out
    assert "parties =" not in out
    status, out, _ = run(capsys, "rules", "pollack", "--params")
    assert "parties = 6" in out and "declaration =" not in out and "passing =" not in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["rules", "nosuch"], "unknown preset 'nosuch'"),
        (["rules", "polignac", "--rule", "threshold=abc"], "parameter threshold"),
        (["rules", "polignac", "--rule", "colour=red"], "unknown rule parameter 'colour'"),
        (["rules", "polignac", "--rule", "threshold"], "write NAME=VALUE"),
        (["rules", "polignac", "--players", "9"], "players: 9 may not play"),
        (["rules", "black-maria", "--rule", "contract_points=7"],
         "contract_points does not apply to 'black-maria' (game 'hearts'"),
        (["rules", "polignac", "--rules-file", "/nonexistent/house.json"], "no such file"),
        (["rules"], "required: PRESET"),
        (["frobnicate"], "invalid choice"),
        (["play-random", "--preset", "knaves", "--players", "4"], "players: 4"),
        (["play", "--seat", "7"], "seats are 0 to 3"),
        (["replay"], "give a record FILE"),
        (["replay", "/nonexistent/record.json"], "no such file"),
    ],
)
def test_errors_are_one_line(capsys: pytest.CaptureFixture[str], argv: list[str],
                             message: str) -> None:
    status, _out, err = run(capsys, *argv)
    assert status == 2
    assert message in err
    assert err.count("\n") == 1 and err.startswith("polignac")


def test_play_random_and_replay(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    status, out, _ = run(capsys, "play-random", "--preset", "polignac", "--players", "4",
                         "--seed", "1", "--out", str(path))
    assert status == 0 and "Wrote" in out
    record = json.loads(path.read_text())
    assert record["format"] == "polignac-record/1" and record["preset"] == "polignac"
    # the same seed makes the same match
    status, out, _ = run(capsys, "play-random", "--players", "4", "--seed", "1")
    assert json.loads(out) == record

    status, out, _ = run(capsys, "replay", str(path), "--json")
    assert status == 0
    data = json.loads(out)
    assert data["finished"] is True and data["winners"] and data["losers"]
    assert len(data["totals"]) == 4
    assert all(len(d["scores"]) == 4 for d in data["deals"])
    assert [sum(col) for col in zip(*(d["scores"] for d in data["deals"]), strict=True)] \
        == data["totals"]

    status, out, _ = run(capsys, "replay", str(path))
    assert status == 0
    assert "total" in out and "Winners:" in out and "Losers:" in out


def test_play_random_pollack_prints_parties(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:
    path = tmp_path / "pollack.json"
    assert run(capsys, "play-random", "--preset", "pollack", "--seed", "3",
               "--out", str(path))[0] == 0
    status, out, _ = run(capsys, "replay", str(path), "--json")
    data = json.loads(out)
    assert status == 0 and len(data["parties"]) == 6
    assert all(side in ([0, 2], [1, 3]) for side in data["parties"])
    assert "Parties won by" in run(capsys, "replay", str(path))[1]


def test_play_random_with_house_rule(capsys: pytest.CaptureFixture[str],
                                     tmp_path: Path) -> None:
    path = tmp_path / "short.json"
    assert run(capsys, "play-random", "--rule", "threshold=5", "--seed", "2",
               "--out", str(path))[0] == 0
    assert json.loads(path.read_text())["rules"] == {"threshold": 5}
    data = json.loads(run(capsys, "replay", str(path), "--json")[1])
    assert max(data["totals"]) >= 5


def test_replay_example(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "replay", "--example")
    assert status == 0 and "Preset polignac, 4 players." in out and "Winners:" in out
    data = json.loads(run(capsys, "replay", "--example", "--json")[1])
    assert data["finished"] is True


def test_replay_illegal_action(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out, _ = run(capsys, "play-random", "--seed", "1")
    record = json.loads(out)
    actions = record["deals"][1]["actions"]
    first_card = next(i for i, a in enumerate(actions) if a not in ("pass", "capot"))
    actions[first_card + 1] = actions[first_card]  # the same card again
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    status, _, err = run(capsys, "replay", str(path))
    assert status == 1
    assert f"deal 2, action {first_card + 2} ('{actions[first_card]}')" in err
    assert "rule:" in err and err.count("\n") == 1


def test_replay_invalid_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{")
    status, _, err = run(capsys, "replay", str(path))
    assert status == 2 and "not valid JSON" in err


def test_python_m_polignac() -> None:
    done = subprocess.run([sys.executable, "-m", "polignac", "rules", "nosuch"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2
    assert done.stderr.strip().startswith("polignac: unknown preset 'nosuch'")
    assert "Traceback" not in done.stderr
    done = subprocess.run([sys.executable, "-m", "polignac", "presets"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0 and "pollack" in done.stdout
