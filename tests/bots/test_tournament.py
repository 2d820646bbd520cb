"""Duplicate tournaments, the runner, the statistics and the tournament command."""

from __future__ import annotations

import argparse
import json
import random
from dataclasses import replace
from pathlib import Path

import pytest

from polignac.bots.base import SeatView
from polignac.bots.runner import choose_action, play_match
from polignac.bots.stats import mean_ci, pool, t_quantile_975
from polignac.bots.tournament import (
    ProcessBackend,
    SerialBackend,
    TournamentConfig,
    iter_specs,
    run_tournament,
)
from polignac.cli.common import CliError
from polignac.cli.tournament import register
from polignac.core import PRESETS, Deal, IllegalActionError, Match, RulesError


def _cli(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers(), "help line")
    args = parser.parse_args(["tournament", *argv])
    status: int = args.run(args)
    return status


def test_json_shape(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    plot = tmp_path / "ci.png"
    assert _cli(["--preset", "slobberhannes", "--bots", "easy,random,random,random",
                 "--deals", "4", "--matches", "1", "--seed", "3", "--json",
                 "--plot", str(plot)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["preset"] == "slobberhannes" and data["players"] == 4
    assert data["seats"] == ["easy", "random", "random", "random"]
    assert data["lower_is_better"] is True and "penalty" in data["unit"]
    assert [b["bot"] for b in data["bots"]] == ["easy", "random"]
    easy, rnd = data["bots"]
    assert easy["entrants"] == 1 and rnd["entrants"] == 3
    assert set(easy["score"]) == {"mean", "ci95", "half_width", "n", "sd"}
    assert easy["score"]["n"] == 4 and easy["diff_vs_first"] is None
    assert rnd["diff_vs_first"]["n"] == 4
    assert 0 <= easy["match_win_rate"]["mean"] <= 1
    assert easy["moves"] > 0 and easy["ms_per_move"] > 0
    assert plot.stat().st_size > 1000


def test_table_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert _cli(["--preset", "knaves", "--bots", "medium,easy,random", "--deals", "2",
                 "--quiet"]) == 0
    assert "higher is better" in capsys.readouterr().out.replace("\n", " ")
    with pytest.raises(CliError, match="unknown bot level 'wizard'"):
        _cli(["--bots", "wizard,easy,easy,easy", "--deals", "1"])
    with pytest.raises(CliError, match="3 bots for 4 players"):
        _cli(["--bots", "easy,easy,easy", "--players", "4", "--deals", "1"])
    with pytest.raises(CliError, match="unknown preset"):
        _cli(["--preset", "bridge", "--bots", "easy,easy,easy,easy"])


def test_duplicate_is_fair_and_deterministic() -> None:
    cfg = TournamentConfig("polignac", ("easy",) * 4, deals=6, seed=9)
    a = run_tournament(cfg)
    # Same bots everywhere: every hand set's mean is the deal's 5 points / 4.
    assert a.bots[0].score is not None and a.bots[0].score.mean == pytest.approx(1.25)
    cfg = TournamentConfig("pollack", ("medium", "random", "medium", "random"), deals=3,
                           seed=2)
    one = run_tournament(cfg, SerialBackend()).to_dict()
    two = run_tournament(cfg, ProcessBackend(2)).to_dict()
    for d in (one, two):
        for b in d["bots"]:
            b.pop("ms_per_move")
        d.pop("elapsed_s")
    assert one == two
    assert one["lower_is_better"] is False and one["unit"].startswith("side points")


def test_specs_and_config_errors() -> None:
    assert list(iter_specs("hard:samples=3,depth=2,medium, easy")) == [
        "hard:samples=3,depth=2", "medium", "easy"]
    with pytest.raises(RulesError):
        TournamentConfig("knaves", ("easy",) * 4).resolve()


def test_stats() -> None:
    assert t_quantile_975(1) == pytest.approx(12.706)
    assert t_quantile_975(1000) == pytest.approx(1.962, abs=1e-3)
    assert t_quantile_975(22) == pytest.approx(2.074, abs=3e-3)
    ci = mean_ci([2.0, 2.0])
    assert (ci.mean, ci.half_width) == (2.0, 0.0)
    with pytest.raises(ValueError):
        mean_ci([])


def test_pool_equals_the_whole_sample() -> None:
    rng = random.Random(3)
    values = [rng.gauss(0.1, 0.7) for _ in range(57)]
    whole = mean_ci(values)
    pooled = pool([mean_ci(values[:20]), mean_ci(values[20:21]), mean_ci(values[21:])])
    assert pooled.n == whole.n
    assert (pooled.mean, pooled.sd, pooled.half_width) == pytest.approx(
        (whole.mean, whole.sd, whole.half_width))
    assert pool([mean_ci([4.0])]).half_width == float("inf")
    with pytest.raises(ValueError):
        pool([])


class _Cheat:
    name = "cheat"
    cheats = True

    def __init__(self) -> None:
        self.seen: list[int] = []

    def act(self, view: SeatView, rng: random.Random) -> int:
        raise AssertionError("a cheating bot is called through act_open")

    def act_open(self, deal: Deal, player: int, rng: random.Random) -> int:
        self.seen.append(sum(h.bit_count() for h in deal.hands))
        return deal.legal_actions()[0]


class _Illegal:
    name = "illegal"

    def act(self, view: SeatView, rng: random.Random) -> int:
        return 99


def test_runner_cheats_and_illegal() -> None:
    cheat = _Cheat()
    m = play_match(PRESETS["polignac"], 4, [cheat, cheat, cheat, cheat], random.Random(0),
                   max_deals=1)
    assert len(m.results) == 1 and cheat.seen[1] == 32  # saw every hand
    m = Match.new(PRESETS["polignac"], 4).deal_random(random.Random(0))
    with pytest.raises(IllegalActionError, match="bot 'illegal' chose illegal action 99"):
        choose_action(_Illegal(), m, random.Random(0))
    with pytest.raises(RulesError, match="3 bots for 4 players"):
        play_match(PRESETS["polignac"], 4, [cheat] * 3, random.Random(0))


def test_start_slices_one_run() -> None:
    """Hand sets 0-3 in one run equal runs of 0-1 and 2-3 (``start``), pooled exactly."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "combine_runs", Path(__file__).resolve().parents[2] / "benchmarks" / "combine_runs.py")
    assert spec is not None and spec.loader is not None
    combine_runs = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(combine_runs)
    base = TournamentConfig("polignac", ("medium", "easy", "easy", "easy"), deals=4, seed=8)
    whole = run_tournament(base).to_dict()
    parts = [run_tournament(replace(base, deals=2, start=k)).to_dict() for k in (0, 2)]
    joined = combine_runs.combine(parts)
    for a, b in zip(joined["bots"], whole["bots"], strict=True):
        assert a["score"]["mean"] == pytest.approx(b["score"]["mean"])
        assert a["score"]["half_width"] == pytest.approx(b["score"]["half_width"])
    assert joined["bots"][1]["diff_vs_first"]["mean"] == pytest.approx(
        whole["bots"][1]["diff_vs_first"]["mean"])
    with pytest.raises(ValueError, match="count twice"):
        combine_runs.combine([parts[0], run_tournament(replace(base, deals=2, start=1)).to_dict()])
    with pytest.raises(RulesError):
        run_tournament(replace(base, start=-1))
