"""Rule-based bots: ``random``, ``easy`` and ``medium`` (see docs/bots.md)."""

from __future__ import annotations

import random

from ..core.actions import Action
from .base import SeatView


class RandomBot:
    """Plays uniformly at random among the legal actions."""

    name = "random"

    def act(self, view: SeatView, rng: random.Random) -> Action:
        """Return a uniformly random legal action.

        Raises:
            ValueError: there is no legal action (it is not the viewer's turn).
        """
        if not view.legal:
            raise ValueError("no legal action: it is not this bot's turn")
        return view.legal[rng.randrange(len(view.legal))]
