"""``seat_requests.py:SeatRequests``: asking for a bot's seat, the creator's answer,
the hand-over at a deal boundary, and the bounds (per browser, per address, per
table, the cool-down after a refusal, the server-wide rate)."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest
from starlette.testclient import TestClient

from polignac.server import ServerConfig, create_app
from polignac.server.base.errors import ProtocolError

from .table_support import bot, person, stored_table


def _rule(exc: pytest.ExceptionInfo[ProtocolError]) -> str:
    return exc.value.rule


def test_a_request_waits_then_an_approval_between_deals_hands_the_seat_over(
        config: ServerConfig) -> None:
    async def run() -> None:
        async with stored_table(config, [person(0), bot(1), bot(2), bot(3)]) as table:
            requests = table.requests
            await requests.request(1, "Bea", "tok-bea", "bea", "10.0.0.1")
            assert requests.asked_by("bea") == 1 and requests.waiting() == 1
            assert table.presence.seats()[1]["take_pending"]
            with pytest.raises(ProtocolError) as exc:
                await requests.request(2, "Bea", "tok-bea2", "bea", "10.0.0.1")
            assert _rule(exc) == "already-asked"
            with pytest.raises(ProtocolError) as exc:
                await requests.request(1, "Cy", "tok-cy", "cy", "10.0.0.2")
            assert _rule(exc) == "take-pending"
            with pytest.raises(ProtocolError) as exc:
                await requests.request(0, "Cy", "tok-cy", "cy", "10.0.0.2")
            assert _rule(exc) == "not-a-bot"
            assert await requests.answer(1, True)  # no deal yet: at once
            row = table.seats[1]
            assert (row.kind, row.name, row.token_hash, row.holder_hash) == \
                ("human", "Bea", "tok-bea", "bea")
            assert 1 not in table.bot_driver.bots and table.match.names[1] == "Bea"
            assert requests.holder_seat("bea") == 1 and requests.asked_by("bea") is None
            stored = await asyncio.to_thread(table.writer.store.load_one, table.id)
            assert stored is not None and stored.seats[1].token_hash == "tok-bea"
    asyncio.run(run())


def test_a_refused_browser_cools_down_and_one_address_holds_few_requests(
        config: ServerConfig) -> None:
    async def run() -> None:
        bounded = replace(config, take_per_address=1, max_take_requests=2,
                          take_cooldown_seconds=60)
        async with stored_table(bounded, [person(0), bot(1), bot(2), bot(3)]) as table:
            requests = table.requests
            await requests.request(1, "Eve", "t1", "eve-1", "10.0.0.9")
            with pytest.raises(ProtocolError) as exc:  # a fresh identity, same address
                await requests.request(2, "Eve", "t2", "eve-2", "10.0.0.9")
            assert _rule(exc) == "too-many-requests"
            await requests.request(2, "Bea", "t3", "bea", "10.0.0.1")
            with pytest.raises(ProtocolError) as exc:  # the table's limit
                await requests.request(3, "Cy", "t4", "cy", "10.0.0.2")
            assert _rule(exc) == "too-many-requests"
            assert not await requests.answer(1, False)
            assert table.seats[1].take_hash is None and table.seats[1].kind == "bot"
            assert requests.cooldown_left("eve-1") > 50
            with pytest.raises(ProtocolError) as exc:  # refused: not again at once
                await requests.request(1, "Eve", "t5", "eve-1", "10.0.0.9")
            assert _rule(exc) == "take-cooldown"
            await requests.request(1, "Eve", "t6", "eve-3", "10.0.0.9")  # the address is free
            with pytest.raises(ProtocolError) as exc:
                await requests.answer(3, True)
            assert _rule(exc) == "no-request"
    asyncio.run(run())


def test_an_approval_during_a_deal_waits_for_the_boundary(config: ServerConfig) -> None:
    async def run() -> None:
        async with stored_table(config, [person(0), bot(1), bot(2), bot(3)]) as table:
            await table.deal()
            assert table.match.current is not None
            await table.requests.request(2, "Cy", "tok-cy", "cy", "10.0.0.2")
            assert not await table.requests.answer(2, True)
            assert table.seats[2].kind == "bot" and table.seats[2].take_approved
            assert table.presence.seats()[2]["take_approved"]
            table.match = replace(table.match, current=None)  # as at a deal's end
            await table.requests.grant()
            assert table.seats[2].kind == "human" and table.seats[2].name == "Cy"
    asyncio.run(run())


def test_start_now_fills_the_open_seats_with_bots(config: ServerConfig) -> None:
    async def run() -> None:
        async with stored_table(config, [person(0), person(1, token_hash=None), bot(2),
                                         bot(3)]) as table:
            assert table.waiting_for_people()
            await table.requests.start_now("easy")
            assert table.seats[1].kind == "bot" and table.seats[1].bot_level == "easy"
            assert 1 in table.bot_driver.bots and not table.waiting_for_people()
            with pytest.raises(ProtocolError) as exc:
                await table.requests.start_now("easy")
            assert _rule(exc) == "not-waiting"
    asyncio.run(run())


def _public_table(client: TestClient) -> str:
    r = client.post("/api/tables", json={"preset": "polignac", "name": "Ann",
                                          "seats": [{"kind": "you"}] + [{"kind": "bot"}] * 3})
    assert r.status_code == 200, r.text
    url: str = r.json()["url"]
    return url


def _browser(client: TestClient, address: str) -> TestClient:
    """Another browser from ``address`` on ``client``'s app and event loop."""
    other = TestClient(client.app, base_url=str(client.base_url), client=(address, 1))
    other.portal = client.portal
    return other


def test_the_routes_answer_the_cool_down_and_the_rate_with_429(config: ServerConfig) -> None:
    limited = replace(config, take_burst=2, take_per_minute=1, take_cooldown_seconds=60,
                      deal_delay=60)
    with TestClient(create_app(limited)) as client:
        url = _public_table(client)
        bea = _browser(client, "10.0.0.1")
        bea.get(url)  # the page gives the browser its identity
        assert bea.post(f"{url}/seats/1/take", json={"name": "Bea"}).status_code == 202
        assert client.post(f"{url}/seats/1/refuse").status_code == 200
        again = bea.post(f"{url}/seats/1/take", json={"name": "Bea"})
        assert again.status_code == 429 and again.json()["rule"] == "take-cooldown"
        assert int(again.headers["retry-after"]) > 50
        # fresh browsers from one address: the server-wide rate per address
        answers = []
        for _ in range(3):
            eve = _browser(client, "10.0.0.9")
            eve.get(url)
            answers.append(eve.post(f"{url}/seats/2/take", json={"name": "Eve"}))
        assert answers[-1].status_code == 429 and answers[-1].json()["rule"] == "take-rate"
