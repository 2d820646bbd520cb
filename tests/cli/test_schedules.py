"""``polignac tournaments add|list|remove`` and ``polignac serve --schedule FILE``
(``cli/schedules.py``) on a temporary database: the output, the exit codes (2 and one
line for every refusal, never a traceback), the file's entries stored once across
restarts, and the example file of the docs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import select

from polignac.cli.main import main
from polignac.cli.schedules import read_file
from polignac.server.events import schedule_store
from polignac.server.store.db import make_engine, writing
from polignac.server.store.schema import tournament_schedules_t

ROOT = Path(__file__).resolve().parents[2]
ADD = ["tournaments", "add", "--name", "Friday Polignac", "--every", "friday", "--at",
       "20:00", "--tz", "Europe/Paris", "--length", "60", "--time-control", "3+2",
       "--rated", "--bots-after", "60"]


def stored(data: Path) -> list[str]:
    engine = make_engine(f"sqlite:///{data / 'polignac.db'}")
    try:
        with writing(engine) as conn:
            return [s.id for s in schedule_store.all_schedules(conn)]
    finally:
        engine.dispose()


def test_add_list_remove(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = ["--data", str(tmp_path)]
    assert main([*ADD, *data]) == 0
    out = capsys.readouterr().out
    assert out.startswith("added: friday-polignac  'Friday Polignac': polignac, tables of "
                          "4, 3+2, 60 min, rated, bots after 60 s; every friday 20:00 "
                          "Europe/Paris; next: Fri ")
    assert main([*ADD, *data, "--length", "90"]) == 0  # the same id replaces it
    assert capsys.readouterr().out.startswith("replaced: friday-polignac")
    assert main(["tournaments", "add", "--name", "Xmas", "--on", "2030-12-24", "--at",
                 "18:00", "--tz", "UTC", "--game", "black-lady", *data]) == 0
    capsys.readouterr()
    assert main(["tournaments", "list", *data]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == ["friday-polignac", "xmas"]
    assert "90 min" in lines[0] and "once on 2030-12-24 18:00 UTC" in lines[1]
    assert main(["tournaments", "remove", "xmas", *data]) == 0
    assert stored(tmp_path) == ["friday-polignac"]


@pytest.mark.parametrize(("change", "says"), [
    (["--every", "fortnight"], "[schedule-every]"),
    (["--tz", "Mars/Olympus"], "[schedule-tz]"),
    (["--at", "8pm"], "[schedule-at]"),
    (["--seats", "11"], "[bad-players]"),
    (["--game", "chess"], "[bad-preset]"),
    (["--length", "5"], "tournaments add --length: a length from 10 to 720 minutes "
                        "[tournament-length]"),
    (["--bots-after", "1"], "tournaments add --bots-after: left out (no bots) or 10 to 600"),
    (["--time-control", "fast"], "[bad-time-control]"),
    (["--on", "2030-01-01"], "not allowed with argument --every"),
    (["--seats", "four"], "invalid int value"),
])
def test_a_refused_add_is_one_line_and_exit_2(tmp_path: Path, change: list[str],
                                              says: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*ADD, *change, "--data", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert says in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "polignac.db").exists() or stored(tmp_path) == []


def test_removing_an_unknown_id_is_refused(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournaments", "remove", "nope", "--data", str(tmp_path)]) == 2
    assert capsys.readouterr().err.strip() == (
        "polignac: tournaments remove: no schedule 'nope' (see polignac tournaments list)")


def test_the_command_runs_as_a_process_without_a_traceback(tmp_path: Path) -> None:
    env = {"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"}
    bad = subprocess.run([sys.executable, "-m", "polignac", *ADD, "--tz", "Nowhere",
                          "--data", str(tmp_path)], capture_output=True, text=True,
                         env=env, timeout=120)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert bad.stderr.startswith("polignac: tournaments add --tz: no time zone named")
    good = subprocess.run([sys.executable, "-m", "polignac", "tournaments", "list",
                           "--data", str(tmp_path)], capture_output=True, text=True,
                          env=env, timeout=120)
    assert good.returncode == 0
    assert good.stdout.strip() == "no recurring arena (add one: polignac tournaments add)"


def test_the_example_file_reads(tmp_path: Path) -> None:
    found = read_file(ROOT / "examples" / "schedule.toml", 1_800_000_000.0)
    assert [(s.id, s.rule.describe()) for s in found] == [
        ("friday-polignac", "every friday 20:00 Europe/Paris"),
        ("black-lady-every-evening", "every day 21:30 Europe/Berlin"),
        ("christmas-eve-pollack", "once on 2026-12-24 18:00 Europe/Paris")]


def test_the_serve_schedule_file_is_upserted_at_each_start(tmp_path: Path) -> None:
    from polignac.cli.serve import _schedule
    from polignac.server import ServerConfig

    config = ServerConfig(data_dir=tmp_path)
    file = tmp_path / "club.toml"
    file.write_text('[[arena]]\nname = "A"\nevery = "monday"\nat = "19:00"\n'
                    'tz = "Europe/Paris"\n\n[[arena]]\nname = "B"\nevery = "daily"\n'
                    'at = "12:00"\ntz = "UTC"\n', encoding="utf-8")
    _schedule(config, file)
    _schedule(config, file)  # a restart
    assert stored(tmp_path) == ["a", "b"]
    file.write_text('[[arena]]\nname = "B"\nevery = "daily"\nat = "13:00"\ntz = "UTC"\n',
                    encoding="utf-8")
    _schedule(config, file)
    assert stored(tmp_path) == ["b"]
    engine = make_engine(config.url())
    with engine.connect() as conn:
        row = conn.execute(select(tournament_schedules_t.c.at)).one()
    engine.dispose()
    assert row.at == "13:00"


@pytest.mark.parametrize(("text", "says"), [
    ("[[arena]\n", "--schedule"),
    ('[[arena]]\nname = "A"\nevery = "monday"\nat = "19:00"\ntz = "UTC"\nseats = 2\n',
     "arena 1 (A): seats: an arena of polignac seats 3, 4, 5, 6 players [bad-players]"),
    ('[[arena]]\nname = "A"\nevery = "monday"\nat = "19:00"\ntz = "UTC"\n'
     '[[arena]]\nname = "A"\nevery = "friday"\nat = "19:00"\ntz = "UTC"\n',
     "arena 2: the id 'a' is already used above"),
    ('[club]\nname = "x"\n', "only [[arena]] tables"),
])
def test_a_bad_schedule_file_is_refused(tmp_path: Path, text: str, says: str,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    file = tmp_path / "club.toml"
    file.write_text(text, encoding="utf-8")
    assert main(["serve", "--schedule", str(file), "--data", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert says in err and len(err.strip().splitlines()) == 1, err
