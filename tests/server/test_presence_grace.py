"""``presence.py:Presence``: connections per seat, the grace period, the stand-in bot,
the pause when nobody is left."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from polignac.server import ServerConfig
from polignac.server.base.clock import ManualClock

from .table_support import bot, frames_of, person, stored_table


def test_a_connection_ends_the_grace_and_the_last_one_to_leave_starts_it(
        config: ServerConfig) -> None:
    async def run() -> None:
        slow = replace(config, grace_seconds=60)
        async with stored_table(slow, [person(0), person(1), bot(2), bot(3)]) as table:
            presence = table.presence
            presence.grace_all()
            assert set(presence.grace_until) == {0, 1}  # nobody is here yet
            queue: asyncio.Queue = asyncio.Queue()  # type: ignore[type-arg]
            table.subscribe(None, queue)  # a spectator sees what everyone sees
            a = table.subscribe(0, asyncio.Queue())
            b = table.subscribe(0, asyncio.Queue())
            assert presence.connections[0] == 2 and 0 not in presence.grace_until
            seats = presence.seats()
            assert seats[0]["connected"] and not seats[1]["connected"]
            assert seats[2]["connected"] and seats[2]["bot_playing"]  # a bot is always here
            table.unsubscribe(a)
            assert 0 not in presence.grace_until  # one connection is left
            table.unsubscribe(b)
            assert presence.grace_until[0] > 0 and presence.seats()[0]["grace_until"]
            last = frames_of(queue)[-1]
            assert last["type"] == "presence" and not last["seats"][0]["connected"]
    asyncio.run(run())


def test_after_the_grace_a_stand_in_plays_while_someone_else_is_here(
        config: ServerConfig) -> None:
    async def run() -> None:
        clock = ManualClock()
        quick = replace(config, grace_seconds=30, standin_level="random", clock=clock)
        async with stored_table(quick, [person(0), person(1), bot(2), bot(3)]) as table:
            table.subscribe(0, asyncio.Queue())  # seat 0 is here, seat 1 never comes
            table.presence.start_grace(1)
            assert table.presence.grace_until[1] == clock.time() + 30
            await clock.advance(29.5)
            assert 1 not in table.presence.standing_in  # still within the grace
            await clock.advance(0.5)
            assert 1 in table.presence.standing_in  # at the grace's end, at once
            assert table.presence.seats()[1]["bot_playing"]
            assert table.bot_driver.bot_for(1) is table.presence.standins[1]
            assert not table.paused
            table.subscribe(1, asyncio.Queue())  # the person is back: no stand-in
            assert 1 not in table.presence.standing_in
            assert table.bot_driver.bot_for(1) is None
    asyncio.run(run())


def test_when_nobody_is_left_the_table_pauses_instead_of_standing_in(
        config: ServerConfig) -> None:
    async def run() -> None:
        clock = ManualClock()
        quick = replace(config, grace_seconds=30, close_seconds=60, clock=clock)
        async with stored_table(quick, [person(0), bot(1), bot(2), bot(3)]) as table:
            table.unsubscribe(table.subscribe(0, asyncio.Queue()))
            await clock.advance(29.5)
            assert not table.paused
            await clock.advance(0.5)
            assert table.paused
            assert not table.presence.standing_in and table.presence.frame()["paused"]
    asyncio.run(run())


def test_no_grace_for_an_unclaimed_seat_or_a_finished_match(config: ServerConfig) -> None:
    async def run() -> None:
        async with stored_table(config, [person(0), person(1, token_hash=None), bot(2),
                                         bot(3)]) as table:
            table.presence.start_grace(1)
            table.presence.start_grace(2)
            assert not table.presence.grace_until
            assert table.presence.seats()[1]["open"]
    asyncio.run(run())
