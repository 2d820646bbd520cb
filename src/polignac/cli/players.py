"""Players for the terminal: a function that, given the match and a seat, returns an action.

Bot levels plug in here: anything with the :data:`Player` signature can take a
seat; :func:`from_bot` adapts a :class:`polignac.bots.Bot`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..core import Action, Match

if TYPE_CHECKING:
    from ..bots import Bot

Player = Callable[[Match, int], Action]
"""Chooses the action of ``seat`` (the seat to act) in ``match``."""


def random_player(rng: random.Random) -> Player:
    """A player that picks uniformly among the legal actions."""

    def act(match: Match, seat: int) -> Action:
        return rng.choice(match.legal_actions())

    return act


def from_bot(bot: Bot, rng: random.Random) -> Player:
    """A player that asks ``bot`` with the seat's view only."""
    from ..bots import SeatView

    def act(match: Match, seat: int) -> Action:
        deal = match.current
        if deal is None:
            raise ValueError("no deal in progress")
        view = SeatView.of(deal, match.current_seats.index(seat), match)
        return bot.act(view, rng)

    return act


PLAYERS: dict[str, Callable[[random.Random], Player]] = {"random": random_player}
"""Opponent kinds by name (``--opponents``)."""
