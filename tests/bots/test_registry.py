"""The bot registry: specs, options, errors, lazy levels."""

from __future__ import annotations

import random

import pytest

from polignac.bots import registry
from polignac.bots.base import SeatView
from polignac.bots.registry import (
    LEVELS,
    UnknownBotError,
    make_bot,
    parse_spec,
    register_bot,
)
from polignac.bots.simple import EasyBot, MediumBot, RandomBot
from polignac.core import PolignacError


def test_levels_in_strength_order() -> None:
    assert LEVELS[:3] == ("random", "easy", "medium")
    assert isinstance(make_bot("random"), RandomBot)
    assert isinstance(make_bot("easy"), EasyBot)
    assert isinstance(make_bot("medium"), MediumBot)


def test_options_are_parsed() -> None:
    assert parse_spec("hard:samples=30,temp=0.5,fast=true,mode=x") == (
        "hard", {"samples": 30, "temp": 0.5, "fast": True, "mode": "x"})
    bot = make_bot("medium:threat=0.5")
    assert isinstance(bot, MediumBot) and bot.threat == 0.5


def test_unknown_level_lists_known() -> None:
    with pytest.raises(UnknownBotError, match=r"unknown bot level 'nope'.*random, easy, medium"):
        make_bot("nope")
    assert issubclass(UnknownBotError, PolignacError)
    assert issubclass(UnknownBotError, ValueError)


def test_bad_options() -> None:
    with pytest.raises(UnknownBotError, match="not key=value"):
        make_bot("medium:threat")
    with pytest.raises(UnknownBotError, match="bad option for 'easy'"):
        make_bot("easy:depth=3")
    with pytest.raises(ValueError, match="threat"):
        make_bot("medium:threat=7")


def test_missing_module_names_level(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry._LAZY, "ghost", "polignac.bots.no_such_module:Ghost")
    with pytest.raises(UnknownBotError, match="bot level 'ghost' is not available"):
        make_bot("ghost")
    monkeypatch.setitem(registry._LAZY, "ghost2", "polignac.bots.simple:NoSuchBot")
    with pytest.raises(UnknownBotError, match=r"'ghost2'.*has no NoSuchBot"):
        make_bot("ghost2")


def test_register_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "_FACTORIES", dict(registry._FACTORIES))
    monkeypatch.setattr(registry, "_LAZY", dict(registry._LAZY))

    class Always:
        name = "always"

        def __init__(self, pick: int = 0) -> None:
            self.pick = pick

        def act(self, view: SeatView, rng: random.Random) -> int:
            return view.legal[self.pick]

    register_bot("always", Always)
    assert make_bot("always:pick=1").pick == 1  # type: ignore[attr-defined]
    assert "always" in registry.bot_names()
    register_bot("lazy-random", "polignac.bots.simple:RandomBot")
    assert isinstance(make_bot("lazy-random"), RandomBot)
    with pytest.raises(UnknownBotError):
        register_bot("a:b", Always)
