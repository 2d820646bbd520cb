"""Find players under abuse (issue 32, item 1) and people seated at once (issue 31,
item 5), on a ManualClock with the test running the matchmaker's rounds itself:
limits count what a client holds (live requests, per address and per network), a
request nobody polls is never matched, a group whose people are not there makes no
table, Find players tables count against ``max_tables`` only once someone sits, two
people present are seated without waiting for the bots' timer, and the hub's rate
limits run on the injected clock."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from starlette.testclient import TestClient

from polignac.server import ServerConfig, create_app
from polignac.server.base.clock import ManualClock
from polignac.server.jobs.botmoves import PoolBackend

COUNTDOWN, STALE = 5.0, 20.0


class Lobby:
    """A server on a ManualClock whose matchmaker rounds the test runs itself (its own
    loop is stopped), and browsers from chosen client addresses."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.app: Any = client.app
        self.hub = self.app.state.hub
        self.clock: ManualClock = self.hub.clock
        client.portal.call(self.app.state.matchmaker.stop)  # type: ignore[union-attr]

    def browser(self, address: str = "198.51.100.1") -> TestClient:
        """A new browser (its own cookies) from ``address``, on the app's event loop."""
        other = TestClient(self.app, base_url="http://testserver", client=(address, 50000))
        other.portal = self.client.portal
        return other

    def round(self) -> None:
        """One matchmaker round."""
        self.client.portal.call(self.app.state.matchmaker.tick)  # type: ignore[union-attr]

    def advance(self, seconds: float) -> None:
        """Move the server's clock."""
        self.client.portal.call(self.clock.advance, seconds)  # type: ignore[union-attr]


def ask(browser: TestClient, **body: Any) -> Any:
    """``POST /api/seeks`` for a four-player Polignac (the response)."""
    return browser.post("/api/seeks", json={"preset": "polignac", "players": 4, **body})


def mine(browser: TestClient) -> Any:
    """The lobby's poll: this browser's own request (None: none)."""
    return browser.get("/api/seeks").json()["mine"]


@pytest.fixture
def lobby(config: ServerConfig, bot_backend: PoolBackend) -> Iterator[Lobby]:
    clock = ManualClock()
    limited = replace(config, clock=clock, seek_countdown=COUNTDOWN, seek_stale=STALE,
                      max_tables=3)
    with TestClient(create_app(limited, bot_backend), base_url="http://testserver") as c:
        yield Lobby(c)


def seat_at_once(lobby: Lobby, people: list[TestClient]) -> list[str]:
    """Poll, round, through one countdown, as present people do: each one's table url.

    Raises:
        AssertionError: someone is not seated then.
    """
    for p in people:
        mine(p)
    lobby.round()  # their polls are written, the group formed
    assert all(mine(p)["state"] == "countdown" for p in people)
    lobby.advance(COUNTDOWN)
    lobby.round()  # present during the countdown: claimed and seated
    states = [mine(p) for p in people]
    assert all(s is not None and s["state"] == "seated" for s in states), states
    return [s["url"] for s in states]


def test_a_thousand_abandoned_requests_do_not_keep_a_real_player_out(lobby: Lobby) -> None:
    # 250 addresses in 50 networks, 4 fresh browsers each: 1,000 requests, never polled
    taken = 0
    for net in range(50):
        for host in range(5):
            spammer = lobby.browser(f"10.0.{net}.{host + 1}")
            for _ in range(4):
                spammer.cookies.clear()  # a fresh identity for each request
                r = ask(spammer, bots_after=30)
                assert r.status_code == 200, r.text
                taken += 1
    assert taken == 1000
    for _ in range(3):
        lobby.advance(1.0)
        lobby.round()  # nobody holds them: never matched, no table
    assert lobby.hub.tables == {}
    # the server holds its most live requests: a real player's pushes one unheld out
    ann, bob = lobby.browser("203.0.113.5"), lobby.browser("198.18.7.9")
    assert ask(ann, bots_after=30).status_code == 200
    assert ask(bob, bots_after=30).status_code == 200
    url_ann, url_bob = seat_at_once(lobby, [ann, bob])
    assert url_ann == url_bob and list(lobby.hub.tables) == [url_ann.split("/")[-1]]
    # the abandoned ones lapse once stale, and leave no row behind
    lobby.advance(STALE + 1)
    lobby.round()
    assert lobby.client.get("/api/seeks").json()["seeks"] == []


@pytest.mark.parametrize("network, other", [
    ("192.0.2.{}", "192.0.3.1"), ("2001:db8:0:7::{}", "2001:db8:0:8::1")])
def test_live_requests_are_capped_per_address_and_per_network(
        lobby: Lobby, network: str, other: str) -> None:
    config = lobby.hub.config
    assert (config.seek_per_address, config.seek_per_network) == (5, 20)
    one = lobby.browser(network.format(1))
    for _ in range(5):
        one.cookies.clear()
        assert ask(one).status_code == 200
    one.cookies.clear()
    r = ask(one)
    assert r.status_code == 429 and r.json()["rule"] == "too-many-seeks", r.text
    assert "your address" in r.json()["error"]
    for host in range(2, 5):  # three more addresses of the network: 20 in all
        b = lobby.browser(network.format(host))
        for _ in range(5):
            b.cookies.clear()
            assert ask(b).status_code == 200
    r = ask(lobby.browser(network.format(9)))
    assert r.status_code == 429 and "your network" in r.json()["error"], r.text
    assert ask(lobby.browser(other)).status_code == 200  # another network
    # requests whose page stopped asking count no more
    lobby.advance(STALE + 0.5)
    assert ask(lobby.browser(network.format(9))).status_code == 200


def test_a_group_whose_people_are_not_there_makes_no_table(lobby: Lobby) -> None:
    people = [lobby.browser(f"203.0.113.{i}") for i in range(1, 5)]  # a full table
    for p in people:
        assert ask(p).status_code == 200
        mine(p)
    lobby.round()
    ann, others = people[0], people[1:]  # Ann's page went away after asking
    assert all(mine(p)["state"] == "countdown" for p in others)
    lobby.advance(COUNTDOWN)
    lobby.round()
    assert lobby.hub.tables == {}  # dissolved: no table made
    assert all(mine(p)["state"] == "waiting" for p in others) and mine(ann) is None


def test_find_players_tables_count_against_max_tables_once_someone_sits(
        lobby: Lobby) -> None:
    assert lobby.hub.config.max_tables == 3
    made = []
    for i in range(3):  # three pairs seated, none opens its table: not counted
        pair = [lobby.browser(f"203.0.{i}.1"), lobby.browser(f"198.18.{i}.1")]
        for p in pair:
            assert ask(p, bots_after=30).status_code == 200
        made.append((pair[0], seat_at_once(lobby, pair)[0]))
    assert len(lobby.hub.tables) == 3 and lobby.hub.counted() == 0
    creator = lobby.browser("192.0.2.50")
    assert creator.post("/api/play-now", json={"preset": "polignac"}).status_code == 200
    for browser, url in made[:2]:  # someone sits at two of them: they count now
        with browser.websocket_connect(url + "/ws") as ws:
            ws.send_json({"type": "hello", "last_seq": 0})
            assert ws.receive_json()["type"] == "state"
    assert lobby.hub.counted() == 3
    r = creator.post("/api/play-now", json={"preset": "polignac"})
    assert r.status_code == 429 and r.json()["rule"] == "too-many-tables"
    # the one nobody sat at leaves memory once stale (stored: a late comer loads it)
    lobby.advance(STALE + 1)
    lobby.round()
    assert lobby.hub.unsat == {} and len(lobby.hub.tables) == 3
    assert made[2][1].split("/")[-1] not in lobby.hub.tables


def test_two_people_present_are_seated_without_the_bots_timer(lobby: Lobby) -> None:
    ann, bob = lobby.browser("203.0.113.5"), lobby.browser("198.18.7.9")
    started = lobby.clock.monotonic()
    assert ask(ann, bots_after=120, name="Ann").status_code == 200
    assert ask(bob, bots_after=120, name="Bob").status_code == 200
    url, other = seat_at_once(lobby, [ann, bob])
    assert url == other and lobby.clock.monotonic() - started == COUNTDOWN
    with ann.websocket_connect(url + "/ws") as ws:
        ws.send_json({"type": "hello", "last_seq": 0})
        frame = ws.receive_json()
    kinds = sorted(s["kind"] for s in frame["table"]["seats"])
    assert kinds == ["bot", "bot", "human", "human"]


def test_one_person_is_seated_with_bots_after_the_wait(lobby: Lobby) -> None:
    ann, cy = lobby.browser("203.0.113.5"), lobby.browser("198.18.7.9")
    assert ask(ann, bots_after=30, level="easy").status_code == 200
    assert ask(cy).status_code == 200  # never bots: waits on
    for _ in range(3):  # Ann's page asks every few seconds: nobody comes
        mine(ann), mine(cy)
        lobby.round()
        lobby.advance(9.0)
        assert mine(ann)["state"] == "waiting"
    mine(ann), mine(cy)
    lobby.advance(3.0)  # 30 s: a group of one with three bots
    lobby.round()
    assert mine(ann)["state"] == "countdown"
    lobby.advance(COUNTDOWN)
    lobby.round()
    url = mine(ann)["url"]
    with ann.websocket_connect(url + "/ws") as ws:
        ws.send_json({"type": "hello", "last_seq": 0})
        frame = ws.receive_json()
    kinds = sorted((s["kind"], s["level"] or "") for s in frame["table"]["seats"])
    assert kinds == [("bot", "easy")] * 3 + [("human", "")]
    assert mine(cy)["state"] == "waiting"


def test_the_hubs_rate_limits_run_on_the_injected_clock(config: ServerConfig,
                                                        bot_backend: PoolBackend) -> None:
    clock = ManualClock()
    limited = replace(config, clock=clock, create_burst=2, create_per_minute=2.0)
    with TestClient(create_app(limited, bot_backend), base_url="http://testserver") as c:
        for _ in range(2):
            assert c.post("/api/play-now", json={"preset": "polignac"}).status_code == 200
        r = c.post("/api/play-now", json={"preset": "polignac"})
        assert r.status_code == 429, r.text
        c.portal.call(clock.advance, 30.0)  # one token a half-minute
        assert c.post("/api/play-now", json={"preset": "polignac"}).status_code == 200
