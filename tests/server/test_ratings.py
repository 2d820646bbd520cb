"""Ratings (docs/server.md, "Ratings"): places from a finished match, openskill updates,
bots' fixed ratings, and the live ratings equal to ``polignac ratings rebuild``
after many rated matches and restarts, on SQLite and PostgreSQL."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select
from starlette.testclient import TestClient

from polignac.bots.registry import make_bot
from polignac.bots.runner import play_match
from polignac.cli.main import main
from polignac.core import get_rules
from polignac.server import ServerConfig, create_app
from polignac.server.jobs.botmoves import PoolBackend
from polignac.server.players.ratings import BOT_RATINGS, START, Rating, rate, rebuild, stored
from polignac.server.players.results import seat_stats
from polignac.server.store.schema import history_t, match_results_t

from .helpers import hello, play_until
from .test_accounts import finish_table, post, signup, wait_for


def test_places_share_ties_and_follow_winners() -> None:
    rules = get_rules("polignac", {"threshold": 5})
    for seed in range(5):
        m = play_match(rules, 4, [make_bot("easy") for _ in range(4)], random.Random(seed))
        where = m.places()
        assert min(where) == 1
        assert {s for s in range(4) if where[s] == 1} <= set(m.standing.winners) or \
            not m.standing.winners
        for a in range(4):
            for b in range(4):
                if m.standing.totals[a] < m.standing.totals[b] and \
                        (a in m.standing.winners) == (b in m.standing.winners):
                    assert where[a] < where[b]
                if m.standing.totals[a] == m.standing.totals[b] and \
                        (a in m.standing.winners) == (b in m.standing.winners):
                    assert where[a] == where[b]
        stats = seat_stats(m)
        assert sum(s["jacks"] for s in stats) == sum(
            1 for r in m.results for line in r.score.lines
            if line.reason == "card" and line.detail.startswith("J"))
        assert all(s["deals"] == len(m.results) for s in stats)


def test_pollack_sides_share_places_and_updates() -> None:
    rules = get_rules("pollack", {})
    m = play_match(rules, 4, [make_bot("easy") for _ in range(4)], random.Random(3))
    where = m.places()
    assert where[0] == where[2] and where[1] == where[3] and where[0] != where[1]
    stats = seat_stats(m)
    assert stats[0]["parties_won"] == stats[2]["parties_won"]
    assert stats[0]["parties_won"] + stats[1]["parties_won"] == len(m.family_sheet()["parties_won"])
    new = rate([(START, where[s]) for s in range(4)], rules.sides)
    assert new[0] == new[2] and new[1] == new[3]
    winner = 0 if where[0] == 1 else 1
    assert new[winner].mu > START.mu > new[1 - winner].mu


def test_rate_ties_and_bots() -> None:
    tied = rate([(START, 1), (START, 1), (START, 3), (START, 3)], [])
    assert tied[0] == tied[1] and tied[2] == tied[3] and tied[0].mu > tied[2].mu
    assert all(r.matches == 1 for r in tied)
    # beating hard bots is worth more than beating easy ones
    hard = Rating(BOT_RATINGS["hard"], 1.0)
    easy = Rating(BOT_RATINGS["easy"], 1.0)
    vs_hard = rate([(START, 1), (hard, 2), (hard, 2), (hard, 2)], [])[0]
    vs_easy = rate([(START, 1), (easy, 2), (easy, 2), (easy, 2)], [])[0]
    assert vs_hard.mu > vs_easy.mu > START.mu


def _app(config: ServerConfig, backend: PoolBackend) -> TestClient:
    return TestClient(create_app(config, backend), base_url="http://testserver")


@pytest.mark.parametrize("restarts", [3])
def test_live_ratings_equal_rebuild_after_restarts(backend_config: ServerConfig,
                                                   bot_backend: PoolBackend,
                                                   restarts: int, tmp_path: Path) -> None:
    played: list[str] = []
    for round_ in range(restarts):
        with _app(backend_config, bot_backend) as client:
            if round_ == 0:
                signup(client, "rater")
            else:
                assert post(client, "/api/account/signin", {
                    "username": "rater", "password": "correct horse battery"}
                    ).status_code == 200
            for k in range(4):
                rated = k != 3  # one casual match a round
                played.append(finish_table(client, rated=rated, seed=100 * round_ + k))
            wait_for(lambda c=client: len(c.get("/api/players/rater").json()["games"])
                     == len(played))
    engine = None
    with _app(backend_config, bot_backend) as client:
        data = client.get("/api/players/rater").json()
        pool = data["ratings"]["trick-avoidance"]
        assert pool["matches"] == 3 * restarts
        assert len(pool["history"]) == 3 * restarts
        assert [h["seq"] for h in pool["history"]] == list(range(1, 3 * restarts + 1))
        board = client.get("/api/leaderboard").json()["players"]
        assert [p["username"] for p in board] == ["rater"]
        assert board[0]["rating"] == pool["rating"]
        engine = client.app.state.hub.store.engine
        with engine.connect() as conn:
            live = stored(conn)
            rated_count = conn.execute(select(func.count()).select_from(match_results_t).where(
                match_results_t.c.rating_seq.is_not(None))).scalar_one()
            history = conn.execute(select(func.count()).select_from(history_t)).scalar_one()
        assert rated_count == history == 3 * restarts
        count, diff = rebuild(engine, write=False)
        assert count == 1 and diff == []
        assert live[(1, "trick-avoidance")].matches == 3 * restarts
    # the command line agrees
    url = backend_config.url()
    assert main(["ratings", "rebuild", "--database-url", url, "--check"]) == 0


def test_rebuild_finds_and_repairs_a_wrong_rating(config: ServerConfig,
                                                  bot_backend: PoolBackend) -> None:
    with _app(config, bot_backend) as client:
        signup(client, "mallory")
        finish_table(client, rated=True)
        wait_for(lambda: client.get("/api/players/mallory").json()["ratings"])
        engine = client.app.state.hub.store.engine
        with engine.begin() as conn:
            conn.exec_driver_sql("UPDATE ratings SET mu = mu + 1")
        url = config.url()
        assert main(["ratings", "rebuild", "--database-url", url, "--check"]) == 1
        assert main(["ratings", "rebuild", "--database-url", url]) == 0
        assert main(["ratings", "rebuild", "--database-url", url, "--check"]) == 0


def test_rated_tables_refuse_hints(client: TestClient) -> None:
    r = post(client, "/api/tables", {"seats": [{"kind": "you"}] + [{"kind": "bot"}] * 3,
                                     "rated": True, "hints": True})
    assert r.status_code == 400 and r.json()["rule"] == "bad-field"
    r = post(client, "/api/tables", {"seats": [{"kind": "you"}] + [{"kind": "bot"}] * 3,
                                     "rated": "yes"})
    assert r.status_code == 400
    r = post(client, "/api/tables", {"seats": [{"kind": "you"}] + [{"kind": "bot"}] * 3,
                                     "rated": True})
    assert r.status_code == 200 and r.json()["rated"] is True and r.json()["hints"] is False
    r = post(client, "/api/play-now", {})
    with client.websocket_connect(f"{r.json()['url']}/ws") as ws:
        ws.send_json({"type": "hello", "last_seq": 0})
        state = ws.receive_json()
    assert state["table"]["rated"] is False  # Play now is casual unless asked


def test_a_rated_match_ends_with_each_place_and_rating_change(client: TestClient) -> None:
    """The table's end says each rated person's place and rating before and after, from
    the same places and ratings the profile then shows."""
    signup(client, "ender")
    r = post(client, "/api/tables", {
        "preset": "polignac", "seats": [{"kind": "you"}] + [{"kind": "bot", "level": "easy"}] * 3,
        "overrides": {"threshold": 1}, "rated": True})
    assert r.status_code == 200, r.text
    frames: list[dict[str, object]] = []
    with client.websocket_connect(f"/tables/{r.json()['id']}/ws") as ws:
        first = hello(ws)
        assert first["table"]["rated"] is True and first["ratings"] is None
        play_until(ws, first, random.Random(5), lambda v: v["finished"], frames)
        ratings = next((f for f in frames if f["type"] == "ratings"), None)
        if ratings is None:  # it follows the last event
            ratings = ws.receive_json()
        assert ratings["type"] == "ratings"
        (mine,) = ratings["seats"]  # type: ignore[index]
        assert mine["seat"] == 0 and mine["before"] == START.shown()
        profile = wait_for(lambda: client.get("/api/players/ender").json()["games"])
        assert profile[0]["place"] == mine["place"]
        pool = client.get("/api/players/ender").json()["ratings"]["trick-avoidance"]
        assert pool["rating"] == mine["after"]["rating"]
        assert mine["before"]["rating"] != mine["after"]["rating"]
        again = hello(ws, 0)  # a late page gets it in the state
        assert again["ratings"]["seats"] == ratings["seats"]


def test_the_end_of_a_rated_match_is_told_again_after_a_restart(
        config: ServerConfig, bot_backend: PoolBackend) -> None:
    """A finished rated table loaded again (a restart) gives the same ``ratings`` in its
    state: two matches, so that the second's "before" is the first's "after"."""
    body = {"preset": "polignac", "seats": [{"kind": "you"}] + [
        {"kind": "bot", "level": "easy"}] * 3, "overrides": {"threshold": 1}, "rated": True}
    told = []
    with TestClient(create_app(config, bot_backend), base_url="http://testserver") as client:
        signup(client, "again")
        for seed in (5, 6):
            table_id = post(client, "/api/tables", body).json()["id"]
            with client.websocket_connect(f"/tables/{table_id}/ws") as ws:
                play_until(ws, hello(ws), random.Random(seed), lambda v: v["finished"])
                state = wait_for(lambda t=table_id: _ratings_of(client, t))
            told.append((table_id, state))
        cookies = dict(client.cookies)
    assert told[1][1]["seats"][0]["before"] == told[0][1]["seats"][0]["after"]
    with TestClient(create_app(config, bot_backend), base_url="http://testserver") as client:
        client.cookies.update(cookies)
        for table_id, state in told:
            assert _ratings_of(client, table_id) == state


def _ratings_of(client: TestClient, table_id: str) -> Any:
    with client.websocket_connect(f"/tables/{table_id}/ws") as ws:
        return hello(ws)["ratings"]
