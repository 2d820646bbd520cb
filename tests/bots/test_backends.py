"""Backends: serial, worker processes and a local Ray cluster give the same tournament and
the same analyses; results never depend on the order tasks finish in; Ray stays optional.

One local Ray cluster (2 CPUs) serves the whole module and is shut down after it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

import pytest
from tests.cli.test_analyze import record

import polignac
from polignac.bots.analysis import Settings, analyze_record, analyze_records
from polignac.bots.backends import (
    MissingExtraError,
    ProcessBackend,
    RayBackend,
    SerialBackend,
    make_backend,
)
from polignac.bots.tournament import TournamentConfig, run_tournament
from polignac.cli.main import main

T = TypeVar("T")
R = TypeVar("R")

CONFIG = TournamentConfig("polignac", ("easy", "random", "random", "random"), deals=4,
                          seed=11, matches=1)


def _plain(result: dict[str, Any]) -> dict[str, Any]:
    """The result without its timings (the only part that may differ between runs)."""
    result = json.loads(json.dumps(result))
    result.pop("elapsed_s")
    for b in result["bots"]:
        b.pop("ms_per_move")
    return result


class ReversedBackend:
    """Finishes the tasks in the reverse order."""

    def map(self, fn: Callable[[T], R], tasks: Sequence[T]) -> Iterator[R]:
        for task in reversed(tasks):
            yield fn(task)


@pytest.fixture(scope="module")
def process_result() -> dict[str, Any]:
    # Played before Ray starts in this process (no fork of a process with Ray's threads).
    return _plain(run_tournament(CONFIG, ProcessBackend(2)).to_dict())


@pytest.fixture(scope="module")
def ray_backend(process_result: dict[str, Any]) -> Iterator[RayBackend]:
    pytest.importorskip("ray")
    backend = RayBackend(num_cpus=2)
    backend.start()
    yield backend
    backend.close()
    assert not backend.ray.is_initialized()


def test_ray_tournament_equals_process_and_serial(process_result: dict[str, Any],
                                                  ray_backend: RayBackend) -> None:
    on_ray = _plain(run_tournament(CONFIG, ray_backend).to_dict())
    assert on_ray == process_result
    assert on_ray == _plain(run_tournament(CONFIG, SerialBackend()).to_dict())
    assert on_ray["bots"][0]["score"]["n"] == 4
    assert on_ray["bots"][0]["match_win_rate"]["n"] == 1


def test_ray_analyses_equal_serial(ray_backend: RayBackend) -> None:
    records = [record(1), record(2)]
    settings = Settings(samples=2, seed=3)
    on_ray = analyze_records(records, settings, ray_backend)
    assert on_ray == [analyze_record(r, settings) for r in records]
    assert [len(a) for a in on_ray] == [1, 1]


def test_ray_map_yields_every_result_and_raises_the_task_error(
        ray_backend: RayBackend) -> None:
    # a builtin: the workers cannot import this test module
    assert sorted(ray_backend.map(int, ["8", "2", "6", "4"])) == [2, 4, 6, 8]
    assert list(ray_backend.map(int, [])) == []
    with pytest.raises(ValueError, match="invalid literal"):
        list(ray_backend.map(int, ["2", "three", "4"]))


def test_cli_on_ray(ray_backend: RayBackend, process_result: dict[str, Any],
                    capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # The command uses this process's running connection and leaves it open.
    assert main(["tournament", "--preset", "polignac", "--bots", "easy,random,random,random",
                 "--deals", "4", "--matches", "1", "--seed", "11", "--backend", "ray",
                 "--json"]) == 0
    assert _plain(json.loads(capsys.readouterr().out)) == process_result
    assert ray_backend.ray.is_initialized()
    folder = tmp_path / "records"
    folder.mkdir()
    for seed in (4, 5):
        (folder / f"game{seed}.json").write_text(json.dumps(record(seed)))
    common = ["analyze", str(folder), "--samples", "2", "--json"]
    assert main([*common, "--backend", "ray", "--out", str(tmp_path / "out")]) == 0
    on_ray = json.loads(capsys.readouterr().out)
    assert main(common) == 0
    assert json.loads(capsys.readouterr().out) == on_ray
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["game4.json", "game5.json"]
    one = ["analyze", str(folder / "game5.json"), "--samples", "2", "--json"]
    assert main([*one, "--backend", "ray"]) == 0
    alone = json.loads(capsys.readouterr().out)
    assert alone["deals"] == on_ray["records"][1]["deals"]


@pytest.mark.slow
def test_cli_with_an_address(ray_backend: RayBackend, process_result: dict[str, Any]) -> None:
    """Another process connects to this module's cluster by its address (its code is
    shipped to the cluster as a runtime environment) and gets the same result."""
    address = ray_backend.ray.get_runtime_context().gcs_address
    src = str(Path(polignac.__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": src}
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from polignac.cli.main import main; "
         "sys.exit(main(sys.argv[1:]))", "tournament", "--preset", "polignac", "--bots",
         "easy,random,random,random", "--deals", "4", "--matches", "1", "--seed", "11",
         "--backend", "ray", "--address", address, "--json"],
        env=env, capture_output=True, text=True, timeout=240, check=False)
    assert done.returncode == 0, done.stderr
    assert _plain(json.loads(done.stdout)) == process_result


def test_results_do_not_depend_on_the_order_tasks_finish() -> None:
    config = TournamentConfig("knaves", ("medium", "easy", "random"), deals=5, seed=2,
                              matches=2)
    forward = _plain(run_tournament(config, SerialBackend()).to_dict())
    assert _plain(run_tournament(config, ReversedBackend()).to_dict()) == forward
    records = [record(6), record(7), record(8)]
    settings = Settings(samples=2)
    assert (analyze_records(records, settings, ReversedBackend())
            == analyze_records(records, settings))


def test_make_backend() -> None:
    assert isinstance(make_backend(1), SerialBackend)
    assert isinstance(make_backend(3, "serial"), SerialBackend)
    pool = make_backend(2)
    assert isinstance(pool, ProcessBackend) and pool.jobs == 2
    with pytest.raises(ValueError, match="unknown backend 'spark'"):
        make_backend(2, "spark")
    with pytest.raises(ValueError, match="jobs must be at least 1"):
        make_backend(0)
    with pytest.raises(ValueError, match="an address is for the ray backend"):
        make_backend(2, "process", "localhost:6379")
    with pytest.raises(ValueError, match="give num_cpus"):
        make_backend(2, "ray", "localhost:6379")


def test_ray_missing_names_the_extra(monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray raises ImportError
    with pytest.raises(MissingExtraError, match=r"polignac\[cluster\]"):
        make_backend(None, "ray")
    assert main(["tournament", "--bots", "easy,easy,easy,easy", "--deals", "1",
                 "--backend", "ray"]) == 2
    assert "pip install 'polignac[cluster]'" in capsys.readouterr().err


@pytest.mark.parametrize("argv,message", [
    (["--backend", "ray", "--address", "127.0.0.1:1"], "no Ray cluster answers at 127.0.0.1:1"),
    (["--backend", "ray", "--address", "head-node"], "is not a Ray address"),
    (["--address", "localhost:1"], "--address is for --backend ray"),
    (["--backend", "ray", "--address", "localhost:1", "--jobs", "2"], "--jobs is for a local"),
    (["--jobs", "0"], "--jobs must be at least 1"),
])
def test_cli_backend_usage_errors(capsys: pytest.CaptureFixture[str], argv: list[str],
                                  message: str) -> None:
    assert main(["tournament", "--bots", "easy,easy,easy,easy", "--deals", "1", *argv]) == 2
    assert message in capsys.readouterr().err
