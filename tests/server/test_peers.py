"""peers.py: who is alive (heartbeats), the lobby's list gathered from every
process, the bus's round trip of ``/ready``; several :class:`Peers` on one
``memory://`` bus in one event loop, each on its own channel as in a cluster."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import Any

import pytest

from polignac.server.cluster.bus import Bus
from polignac.server.cluster.peers import ALIVE, EVERYONE, Peers, channel_of, process_id

from .waiting import until

pytest.importorskip("broadcaster")


async def _peer(bus: Bus, name: str, lister: Callable[[], list[dict[str, Any]]],
                jobs: set[asyncio.Task[None]]) -> Peers:
    """A process's peers on ``bus``, its messages dispatched as cluster.py does."""
    async def publish(channel: str, obj: dict[str, Any]) -> None:
        await bus.publish(channel, json.dumps(obj))

    peers = Peers(name, channel_of(name), 2.0, publish, lambda beat: bus.publish(ALIVE, beat))
    peers.lister = lister

    def on_message(text: str) -> None:
        msg = json.loads(text)
        if msg["t"] in ("list", "ping"):
            job = peers.answer_list(msg) if msg["t"] == "list" else peers.answer_ping(msg)
            task = asyncio.get_running_loop().create_task(job)
            jobs.add(task)
            task.add_done_callback(jobs.discard)
        else:
            peers.deliver(msg)

    await bus.subscribe(peers.channel, on_message)
    await bus.subscribe(EVERYONE, on_message)
    await bus.subscribe(ALIVE, peers.on_alive)
    return peers


def test_process_ids_are_new_at_each_start_and_channels_fixed() -> None:
    a, b = process_id("web 1/x"), process_id("web 1/x")
    assert a != b and a.startswith("web1x-")
    assert channel_of(a) == channel_of(a) != channel_of(b)
    assert channel_of(a).startswith("polignac_") and channel_of(a).isidentifier()


def test_alive_by_heartbeat_and_for_a_lease_after_start() -> None:
    async def main() -> None:
        peers = Peers("me", channel_of("me"), 2.0, _never, _never_text)
        assert peers.alive("me") and peers.alive("never-heard")  # just started
        peers.started_at = time.monotonic() - 3.0
        assert peers.alive("me") and not peers.alive("never-heard")
        peers.on_alive(json.dumps({"p": "other"}))
        assert peers.alive("other")
        for bad in ("not json", "[]", '{"q": 1}', '{"p": 3}', json.dumps({"p": "x" * 200})):
            peers.on_alive(bad)  # ignored
        assert set(peers.seen) == {"other"}
        peers.seen["other"] = time.monotonic() - 2.5
        assert not peers.alive("other")
        peers.seen["old"] = time.monotonic() - 601
        peers.forget_silent()
        assert set(peers.seen) == {"other"}

    asyncio.run(main())


def test_the_lobby_list_gathers_every_live_process_each_table_once() -> None:
    async def main() -> None:
        bus = Bus("memory://")
        await bus.connect()
        jobs: set[asyncio.Task[None]] = set()
        try:
            a = await _peer(bus, "a", list, jobs)
            b = await _peer(bus, "b", lambda: [{"id": "t1", "by": "b"},
                                               {"id": "t2", "by": "b"}], jobs)
            c = await _peer(bus, "c", lambda: [{"id": "t2", "by": "c"}, {"nid": 1}], jobs)
            for p in (a, b, c):
                await bus.publish(ALIVE, json.dumps({"p": p.id}))
            await until(lambda: set(a.seen) == {"a", "b", "c"}, what="a to see every peer")
            got = await a.gather([{"id": "t1", "by": "a"}], wait=30.0)
            by_id = {e["id"]: e["by"] for e in got}
            assert len(got) == len(by_id) == 2  # each table once, nothing malformed
            assert by_id["t1"] == "a"  # one's own entry first
            assert by_id["t2"] in ("b", "c")
            assert await a.ready()
            assert not a.deliver({"t": "pong", "r": "nobody-asked"})  # too late
        finally:
            await bus.close()

    asyncio.run(main())


def test_not_ready_without_a_bus() -> None:
    async def main() -> None:
        bus = Bus("memory://")  # never connected: publish raises RuntimeError

        async def publish(channel: str, obj: dict[str, Any]) -> None:
            await bus.publish(channel, json.dumps(obj))

        peers = Peers("me", channel_of("me"), 2.0, publish, _never_text)
        assert not await peers.ready()
        assert await peers.gather([{"id": "t"}]) == [{"id": "t"}]  # its own, at least

    asyncio.run(main())


async def _never(channel: str, obj: dict[str, Any]) -> None:
    raise AssertionError("nothing is published here")


async def _never_text(text: str) -> None:
    raise AssertionError("nothing is published here")
