"""Bot moves in worker processes (server/jobs/botmoves.py): the same moves as in-process,
a killed worker's move computed again identically, the time limit's fallback, other
tables served while a bot thinks, and the levels Play now offers."""

from __future__ import annotations

import asyncio
import logging
import os
import random
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from tests.server.conftest import FAST
from tests.server.helpers import hello, play_now, play_until
from tests.server.waiting import until, wait_until

from polignac.bots.base import SeatView
from polignac.bots.registry import make_bot
from polignac.bots.runner import choose_action, move_for, move_seed
from polignac.core import Match, action_name, get_rules, parse_action
from polignac.server import ServerConfig, create_app
from polignac.server.jobs.botmoves import BotJob, PoolBackend, fallback_chain
from polignac.server.tables.tables import replay_events

SLOW = "hard:rollouts=100000"
"""A deliberately slow level: 100,000 playouts for each card (minutes a move)."""


def _trick_view(seed: int) -> tuple[SeatView, Match]:
    """A view in trick play with at least four legal cards and six in hand (medium
    plays every seat up to it), and its match."""
    rng = random.Random(seed)
    medium = make_bot("medium")
    match = Match.new(get_rules("polignac"), 4, 0).deal_random(rng)
    while True:
        deal = match.current
        assert deal is not None, "no such moment in this deal"
        view = SeatView.of(deal, deal.to_act, match)
        if view.phase == 1 and len(view.legal) >= 4 and view.hand.bit_count() >= 6:
            return view, match
        match = match.apply(choose_action(medium, match, rng))


def test_fallback_chain_goes_to_cheaper_levels() -> None:
    assert fallback_chain("expert") == ["expert", "medium", "easy"]
    assert fallback_chain("hard:rollouts=3") == ["hard:rollouts=3", "medium", "easy"]
    assert fallback_chain("medium") == ["medium", "easy"]
    assert fallback_chain("easy") == ["easy"]
    assert fallback_chain("random") == ["random"]


def test_move_seed_depends_on_table_deal_and_index() -> None:
    seeds = {move_seed(t, d, i) for t in (1, 2) for d in (1, 2) for i in (0, 5)}
    assert len(seeds) == 8
    view, _ = _trick_view(3)
    assert move_for("hard", view, move_seed(9, 1, 4)) == move_for("hard", view,
                                                                    move_seed(9, 1, 4))


def test_move_for_refuses_oracle_and_a_view_without_a_turn() -> None:
    view, _ = _trick_view(4)
    with pytest.raises(ValueError, match="sees every hand"):
        move_for("oracle", view, "s")
    other = SeatView.of(_trick_view(4)[1].current, (view.player + 1) % 4)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not its turn"):
        move_for("easy", other, "s")


def test_a_hard_table_plays_the_moves_computed_in_process(client: TestClient) -> None:
    """Same game, same seeds: every bot action of a Play-now table at level hard (computed
    in the pool) is the action the bot chooses in this process for the same move seed."""
    url = play_now(client, level="hard")
    with client.websocket_connect(url + "/ws") as ws:
        state = hello(ws)
        assert {s["level"] for s in state["table"]["seats"] if s["kind"] == "bot"} == {"hard"}
        play_until(ws, state, random.Random(5), lambda v: len(v.get("deals") or []) >= 1)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    table = hub.tables[url.rsplit("/", 1)[1]]
    match = replay_events(table.preset, table.overrides, 4, table.match.first_dealer,
                          list(table.match.names), table.events[:1])
    bot, bots_played = make_bot("hard"), 0
    for index, ev in enumerate(table.events[1:]):
        if match.current is None:  # the first deal is over
            break
        assert ev.kind == "act" and ev.seat == match.to_act()
        if table.seats[ev.seat].kind == "bot":
            rng = random.Random(move_seed(table.bot_seed, 1, index))
            assert action_name(choose_action(bot, match, rng)) == ev.action, index
            bots_played += 1
        match = match.apply(parse_action(ev.action), ev.seat)
    assert match.current is None and bots_played >= 3 * 8
    health = client.get("/health").json()["bot_workers"]
    assert health["moves"] >= bots_played and health["fallbacks"] == 0


def test_a_killed_workers_move_is_computed_again_identically() -> None:
    view, _ = _trick_view(11)
    job = BotJob("hard:rollouts=60", view, move_seed(7, 1, len(view.history)), "t")
    expected = move_for(job.spec, job.view, job.seed)  # in this process
    expert = BotJob("expert", view, job.seed, "t")
    pid_killed = [0]
    expert_here = move_for("expert", view, job.seed)

    async def run() -> tuple[Any, int, int, Any]:
        backend = PoolBackend.local(1, move_seconds=120.0)
        try:
            pid = pid_killed[0] = await backend.pool.run(os.getpid)
            task = asyncio.create_task(backend.choose(job))
            await until(lambda: any(  # the worker has started the move
                j.running is not None and j.running.running()
                for j in backend.pool._running), what="the move in the worker")
            os.kill(pid, signal.SIGKILL)
            action = await task
            again = await backend.pool.run(os.getpid)
            return action, backend.recomputed, again, await backend.choose(expert)
        finally:
            await backend.stop()

    action, recomputed, new_pid, expert_there = asyncio.run(run())
    assert recomputed == 1  # the worker died during the move
    assert action == expected
    assert new_pid not in (0, pid_killed[0])  # a new worker took its place
    assert expert_there == expert_here


def test_a_move_past_its_time_limit_falls_back_to_medium(
        caplog: pytest.LogCaptureFixture) -> None:
    view, _ = _trick_view(12)
    job = BotJob(SLOW, view, move_seed(3, 1, len(view.history)), "t1")

    async def run() -> tuple[Any, dict[str, Any]]:
        backend = PoolBackend.local(1, move_seconds=0.5)
        try:
            return await backend.choose(job), backend.stats()
        finally:
            await backend.stop()

    with caplog.at_level(logging.WARNING, logger="polignac.server"):
        action, stats = asyncio.run(run())
    assert action == move_for("medium", view, job.seed)
    assert stats["timeouts"] == 1 and stats["fallbacks"] == 1 and stats["inline"] == 0
    assert any("falling back" in r.getMessage() and "t1" in r.getMessage()
               for r in caplog.records)


@pytest.fixture
def slow_client(tmp_path: Path) -> Iterator[TestClient]:
    """An app that offers the slow level, with a pool of two bot workers of its own."""
    config = ServerConfig(data_dir=tmp_path / "data", bot_levels=("easy", SLOW),
                          bot_move_seconds=600.0, **FAST)  # type: ignore[arg-type]
    backend = PoolBackend.local(2, move_seconds=600.0)
    with TestClient(create_app(config, backend), base_url="http://testserver") as c:
        c.backend = backend  # type: ignore[attr-defined]
        yield c
    asyncio.run(backend.stop())


def test_other_tables_are_served_while_a_bot_thinks(slow_client: TestClient) -> None:
    """While table A's slow bot thinks (its move in a worker), table B's person plays a
    whole deal with easy bots: every acknowledgement of B comes before A's bot moves."""
    client = slow_client
    backend: PoolBackend = client.backend  # type: ignore[attr-defined]
    hub = client.app.state.hub  # type: ignore[attr-defined]
    url_a = play_now(client, level=SLOW)
    table_a = hub.tables[url_a.rsplit("/", 1)[1]]
    with client.websocket_connect(url_a + "/ws") as ws_a:
        state = hello(ws_a)

        def bot_thinks(view: dict[str, Any]) -> bool:  # a bot's turn in trick play
            deal = view.get("deal") or {}
            return bool(deal) and deal.get("phase") == "play" and not deal.get("legal")

        play_until(ws_a, state, random.Random(1), bot_thinks)

        def slow_move_in_flight() -> bool:
            # A move is in a worker, and it is this state's (a move's job is counted
            # until before its action is applied): a bot with two cards or more and
            # more than three in hand, so the slow level's playouts run.
            match = table_a.match
            deal = match.current
            return (backend.pool.pending == 1 and deal is not None and deal.phase == 1
                    and table_a.seats[match.to_act()].kind == "bot"
                    and len(deal.legal_actions()) >= 2
                    and deal.hands[deal.to_act].bit_count() > 3)

        wait_until(slow_move_in_flight, what="a slow move in a worker", interval=0.02)
        assert slow_move_in_flight()
        seq_a = table_a.seq
        url_b = play_now(client, level="easy")
        with client.websocket_connect(url_b + "/ws") as ws_b:
            acks: list[int] = []
            frames: list[dict[str, Any]] = []
            play_until(ws_b, hello(ws_b), random.Random(2),
                       lambda v: len(v.get("deals") or []) >= 1, frames)
            acks = [f["seq"] for f in frames if f.get("type") == "event"
                    and f["event"].get("seat") == 0 and f["event"].get("kind") == "act"]
        assert len(acks) >= 8  # B's person played the deal's eight cards, acknowledged
        # A's bot still thinks (B's bots may have a move in the other worker now)
        assert table_a.seq == seq_a and backend.pool.pending >= 1
        assert backend.moves >= 1 + 3 * 8


def test_play_now_takes_a_level(client: TestClient) -> None:
    info = client.get("/api/presets").json()
    assert info["levels"] == ["easy", "medium", "hard"]  # expert: not shown (docs/bots.md)
    assert {"random", "expert"} <= set(info["all_levels"]) and info["play_now_level"] == "medium"
    for body, level in (({}, "medium"), ({"level": "expert"}, "expert"),
                        ({"level": "random"}, "random")):
        r = client.post("/api/play-now", json=body)
        assert r.status_code == 200, r.text
        seats = client.get(r.json()["url"] + "/record.json").json()
        table = client.app.state.hub.tables[r.json()["id"]]  # type: ignore[attr-defined]
        assert [s.bot_level for s in table.seats[1:]] == [level] * 3, seats
    for bad in ("oracle", "godlike", 3, None, "x" * 5000):
        r = client.post("/api/play-now", json={"level": bad})
        assert r.status_code == 400 and r.json()["rule"] == "bad-level", r.text


def test_serve_sizes_the_bot_pool() -> None:
    import argparse

    from polignac.cli.common import CliError
    from polignac.cli.serve import build_config, register

    def parse(argv: list[str]) -> ServerConfig:
        parser = argparse.ArgumentParser(prog="polignac")
        register(parser.add_subparsers(dest="command"), "run the web app")
        config = build_config(parser.parse_args(["serve", *argv]))
        assert isinstance(config, ServerConfig)
        return config

    default = parse([])
    assert default.bot_workers is None and default.bot_move_seconds == 5.0
    assert PoolBackend.local(default.bot_workers).pool.size == len(os.sched_getaffinity(0))
    config = parse(["--bot-workers", "3", "--bot-move-timeout", "2.5"])
    assert (config.bot_workers, config.bot_move_seconds) == (3, 2.5)
    for bad in (["--bot-workers", "0"], ["--bot-workers", "1000"],
                ["--bot-move-timeout", "0"], ["--bot-move-timeout", "nan"]):
        with pytest.raises(CliError, match="--bot-"):
            parse(bad)


def test_a_move_whose_worker_always_dies_is_tried_a_bounded_number_of_times() -> None:
    """A poison move (its worker dies each time, issue 32 item 7): computed again
    ``retries`` times at each level of its fallback chain, then ``easy`` plays it
    in-process; never an endless retry."""
    from polignac.server.jobs.workers import WorkerFailed

    view, _ = _trick_view(13)
    job = BotJob("hard", view, move_seed(5, 1, len(view.history)), "poison")
    tries: list[str] = []

    class DyingPool:
        async def run(self, fn: Any, spec: str, *args: Any, time_limit: float) -> Any:
            tries.append(spec)
            raise WorkerFailed("the worker died")

        def stats(self) -> dict[str, Any]:
            return {}

    backend = PoolBackend(DyingPool(), move_seconds=1.0, retries=2)  # type: ignore[arg-type]
    action = asyncio.run(backend.choose(job))
    assert action == move_for("easy", view, job.seed)
    assert tries == ["hard"] * 3 + ["medium"] * 3 + ["easy"] * 3
    stats = backend.stats()
    assert stats["recomputed"] == 9 and stats["fallbacks"] == 3 and stats["inline"] == 1
