"""``bot_driver.py:BotDriver``: what the driver has to do, which bot plays a seat, and
a table of bots driven to the end of its match (moves computed in threads)."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from polignac.server import ServerConfig

from .table_support import bot, person, stored_table
from .waiting import until


def test_the_driver_deals_and_plays_the_bots_turns_but_not_a_persons(
        config: ServerConfig) -> None:
    async def run() -> None:
        async with stored_table(config, [person(0), bot(1), bot(2), bot(3)],
                                first_dealer=3) as table:
            driver = table.bot_driver
            assert set(driver.bots) == {1, 2, 3} and driver.bot_for(0) is None
            assert driver.spec_for(1) == "random"
            assert driver.due() == "deal"
            table.paused = True
            assert driver.due() is None  # a paused table: nothing
            table.paused = False
            table.wake()
            await until(lambda: table.match.current is not None
                        and table.match.to_act() == 0,  # the person's turn: it waits
                        what="the person's turn")
            await until(lambda: table.driver is not None and table.driver.done(),
                        what="the driver to stop at the person's turn")
            assert driver.due() is None
            presence = table.presence  # a stand-in for the absent person: it plays on
            presence.standing_in.add(0)
            presence.standins[0] = driver.bots[1]
            assert driver.due() == "bot" and driver.spec_for(0) == config.standin_level
            seq = table.seq
            table.wake()
            await until(lambda: table.seq > seq, what="the stand-in's move")
    asyncio.run(run())


def test_a_table_of_bots_plays_its_match_to_the_end(config: ServerConfig) -> None:
    async def run() -> None:
        async with stored_table(replace(config, bot_delay=0.0), [bot(s) for s in range(4)],
                                overrides={"threshold": 1}) as table:
            table.wake()
            await until(lambda: table.match.finished, 120, what="the end of the match")
            assert table.status() == "finished" and table.bot_driver.due() is None
            kinds = [ev.kind for ev in table.events]
            assert kinds[0] == "deal" and kinds.count("deal") == len(table.match.results)
            stored = await asyncio.to_thread(table.writer.store.load_one, table.id)
            assert stored is not None and len(stored.events) == table.seq
    asyncio.run(run())
