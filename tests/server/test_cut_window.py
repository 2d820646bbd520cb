"""``cut_window.py:CutWindow``: the commitment before a deal, the cuts taken against
it, and the deal made from the committed seed and those cuts."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from polignac.core import shuffle
from polignac.server import ServerConfig
from polignac.server.base.clock import ManualClock
from polignac.server.base.errors import ProtocolError

from .table_support import bot, frames_of, person, stored_table
from .waiting import until, until_done


def test_cuts_are_taken_against_the_published_commitment(config: ServerConfig) -> None:
    async def run() -> None:
        async with stored_table(config, [person(0), person(1), bot(2), bot(3)]) as table:
            cuts = table.cuts
            queue: asyncio.Queue = asyncio.Queue()  # type: ignore[type-arg]
            table.subscribe(None, queue)
            pending = cuts.open(30)
            assert cuts.open(30) is pending  # one window per deal
            frame = frames_of(queue)[-1]
            assert frame == cuts.frame(pending) and frame["deal"] == 1
            assert frame["commitment"] == shuffle.commitment(pending.seed, table.id, 1)
            assert cuts.open_frame() == frame
            assert cuts.cutters() == {0, 1}
            for deal, value, commitment, rule in (
                    (2, "ab", None, "cut-closed"), (True, "ab", None, "bad-field"),
                    (1, "zz", None, "bad-field"), (1, "ab", "0" * 64, "stale-commitment"),
                    (1, "ab", 5, "bad-field")):
                with pytest.raises(ProtocolError) as exc:
                    cuts.cut(0, deal, value, commitment)
                assert exc.value.rule == rule
            cuts.cut(0, 1, "ab", pending.commitment)
            with pytest.raises(ProtocolError) as exc:
                cuts.cut(0, 1, "cd")
            assert exc.value.rule == "cut-taken"
            assert not pending.all_cut.is_set()
            cuts.cut(1, 1, "cd")
            assert pending.all_cut.is_set()
            await table.deal()
            assert cuts.pending is None and cuts.open_frame() is None
            proof = table.events[-1].data["shuffle"]  # type: ignore[index]
            assert proof["commitment"] == pending.commitment
            assert proof["cuts"][:2] == ["ab", "cd"]
            with pytest.raises(ProtocolError) as exc:
                cuts.cut(0, 1, "ab")
            assert exc.value.rule == "cut-closed"
    asyncio.run(run())


def test_the_first_deal_waits_until_everyone_has_cut(config: ServerConfig) -> None:
    async def run() -> None:
        clock = ManualClock()
        windowed = replace(config, cut_window=30.0, clock=clock)
        async with stored_table(windowed, [person(0), bot(1), bot(2), bot(3)]) as table:
            waiting = asyncio.create_task(table.cuts.wait())
            await until(lambda: table.cuts.pending is not None, what="the cut window")
            await clock.advance(29.5)
            assert not waiting.done()  # the window is 30 s: it waits for the cut
            table.cuts.cut(0, 1, "01")
            await until_done(waiting, what="the wait to end with the cut")
    asyncio.run(run())


def test_no_window_for_the_guided_deal_and_a_fresh_seed_without_one(
        config: ServerConfig) -> None:
    async def run() -> None:
        async with stored_table(replace(config, cut_window=30.0),
                                [person(0), bot(1), bot(2), bot(3)],
                                options={"guide": "polignac-4p"}) as table:
            await table.cuts.wait()  # returns at once: nothing to cut
            assert table.cuts.pending is None
        async with stored_table(config, [person(0), bot(1), bot(2), bot(3)],
                                table_id="table2") as table:
            pending, cuts = table.cuts.close(1)
            assert cuts == [None] * 4 and not pending.open
    asyncio.run(run())
