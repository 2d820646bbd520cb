"""``idle.py:Idle``: a paused table is closed after ``close_seconds``, a finished one
leaves after ``finished_keep_seconds``; a person's connection resumes a paused table."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from polignac.server import ServerConfig
from polignac.server.base.clock import ManualClock
from polignac.server.tables.tables import GameTable

from .table_support import bot, person, stored_table
from .waiting import until


def test_a_paused_table_asks_to_be_closed_and_tries_again_while_refused(
        config: ServerConfig) -> None:
    async def run() -> None:
        clock = ManualClock()
        async with stored_table(replace(config, close_seconds=60, clock=clock),
                                [person(0), bot(1), bot(2), bot(3)]) as table:
            asked: list[str] = []

            async def on_idle(t: GameTable, why: str) -> bool:
                asked.append(why)
                return len(asked) >= 3  # connections remained the first two times

            table.idle.on_idle = on_idle
            table.idle.pause()
            assert table.paused
            await clock.advance(59.5)
            assert asked == []
            await clock.advance(0.5)
            assert asked == ["closed"]  # refused: again after close_seconds
            await clock.advance(59.5)
            assert asked == ["closed"]
            await clock.advance(0.5)
            assert asked == ["closed"] * 2
            await clock.advance(60)
            assert asked == ["closed"] * 3  # closed: no more
            await clock.advance(600)
            assert asked == ["closed"] * 3
    asyncio.run(run())


def test_a_person_resumes_a_paused_and_closed_table(config: ServerConfig) -> None:
    async def run() -> None:
        async with stored_table(replace(config, close_seconds=60, grace_seconds=60),
                                [person(0), person(1), bot(2), bot(3)]) as table:
            table.idle.pause()
            table.idle.closed_at = 1.0
            task = table.idle.idle_task
            assert task is not None
            table.subscribe(0, asyncio.Queue())
            assert not table.paused and table.idle.closed_at is None
            await until(lambda: task.done())  # the close timer is cancelled
            assert 1 in table.presence.grace_until  # the absent person's grace again
            reopen = table.idle.reopen_task
            assert reopen is not None
            await reopen  # stored as open again
    asyncio.run(run())


def test_a_finished_table_is_unloaded_after_its_keep_time(config: ServerConfig) -> None:
    async def run() -> None:
        clock = ManualClock()
        async with stored_table(replace(config, finished_keep_seconds=60, clock=clock),
                                [bot(0), bot(1), bot(2), bot(3)],
                                overrides={"threshold": 1}) as table:
            asked: list[str] = []

            async def on_idle(t: GameTable, why: str) -> bool:
                asked.append(why)
                return True

            table.idle.on_idle = on_idle
            table.idle.settle()
            assert table.idle.idle_task is None  # playing: no timer
            table.wake()  # the bots play the match to its end (threshold 1: one deal)
            await until(lambda: table.match.finished and table.idle.idle_task is not None,
                        120, what="the end of the match")
            await clock.advance(59.5)
            assert asked == []  # kept a while
            await clock.advance(0.5)
            assert asked == ["finished"]
            assert table.match.finished
            table.idle.pause()
            assert not table.paused  # a finished table does not pause
    asyncio.run(run())
