"""What the people of a table may want to hear while away, after an event: the hub sends
it as Web Push (``tables.py:GameTable.on_notice``, ``players/push.py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..store.db import EventRow

if TYPE_CHECKING:
    from .tables import GameTable


def ignore(table: GameTable, kind: str, seats: list[int]) -> None:
    """The notice handler of a table outside a hub: nobody to tell."""


def after(table: GameTable, ev: EventRow, was: int | None) -> list[tuple[str, list[int]]]:
    """The notices ``ev`` gives, as (kind, seats): the first deal of a table with several
    people tells them it began (``started``); at a correspondence table, the person
    whose clock starts now hears that it is their move (``turn``; ``was``: whose clock
    ran before ``ev``)."""
    clocks = table.seat_clocks
    running = clocks.clocks.running if clocks.clocks else None
    control = clocks.control
    turn = running if control is not None and control.kind == "days" and \
        running is not None and running != was else None
    out: list[tuple[str, list[int]]] = []
    if ev.kind == "deal" and len(table.events) == 1:
        people = [s.seat for s in table.seats if s.kind == "human" and s.seat != turn]
        if len(people) + (turn is not None) > 1:
            out.append(("started", people))
    if turn is not None:
        out.append(("turn", [turn]))
    return out
