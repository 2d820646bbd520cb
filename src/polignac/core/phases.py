"""The phases of a deal (:attr:`Deal.phase <polignac.core.deal.Deal.phase>`) and their names."""

from __future__ import annotations

from typing import Final

DECLARE: Final = 0
PLAY: Final = 1
DONE: Final = 2
PASS_CARDS: Final = 3
"""The Hearts family's passing phase (core/hearts_deal.py)."""
PHASE_NAMES: Final = ("declare", "play", "done", "pass")
