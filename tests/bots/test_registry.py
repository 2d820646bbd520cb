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
    with pytest.raises(UnknownBotError, match="unknown option 'depth' for 'easy'; it takes no"):
        make_bot("easy:depth=3")
    with pytest.raises(UnknownBotError, match="threat"):
        make_bot("medium:threat=7")


# Every key each level takes, with a value of its type (the bots' own defaults
# or cheap ones): make_bot builds each bot with all of them at once.
ACCEPTED: dict[str, dict[str, str]] = {
    "random": {},
    "easy": {},
    "medium": {"threat": "0.5", "spec": "1"},
    "hard": {"samples": "2", "time": "0.5", "declare_samples": "1", "nodes": "1000",
             "tol": "0", "late": "2", "model": "paranoid", "roll": "4", "rollouts": "2"},
    "oracle": {"samples": "2", "time": "1", "declare_samples": "1", "nodes": "1000",
               "tol": "0.5", "late": "2", "model": "reply", "roll": "4", "rollouts": "2"},
    "expert": {"samples": "2", "time": "0.5", "declare_samples": "1", "beta": "2",
               "nodes": "1000", "rollouts": "2", "infer": "heuristic", "eps": "0.3",
               "ess": "1", "work": "300", "worlds": "8", "floor": "6.5", "tol": "0.25",
               "late": "2", "model": "paranoid", "roll": "4"},
}


@pytest.mark.parametrize("level", sorted(ACCEPTED))
def test_each_level_takes_its_options(level: str) -> None:
    options = ACCEPTED[level]
    spec = level + (":" + ",".join(f"{k}={v}" for k, v in options.items()) if options else "")
    bot = make_bot(spec)
    assert bot.name == level
    for key, text in options.items():
        assert getattr(bot, key) == parse_spec(f"{level}:{key}={text}")[1][key], key
    for key in options:  # one at a time too
        make_bot(f"{level}:{key}={options[key]}")


@pytest.mark.parametrize("level", sorted(ACCEPTED))
def test_an_unknown_option_names_the_key_and_lists_the_accepted(level: str) -> None:
    keys = sorted(ACCEPTED[level])
    takes = f"it accepts: {', '.join(keys)}$" if keys else "it takes no options$"
    with pytest.raises(UnknownBotError,
                       match=rf"'{level}:sampels=30'.*unknown option 'sampels' for '{level}'; "
                       + takes):
        make_bot(f"{level}:sampels=30")
    first = f"{keys[0]}=1," if keys else ""
    with pytest.raises(UnknownBotError, match=r"unknown options 'depth', 'fast' "):
        make_bot(f"{level}:{first}depth=2,fast=true")


def test_the_typo_of_the_issue_is_refused() -> None:
    with pytest.raises(UnknownBotError, match=r"'sampels'.*it accepts: .*\bsamples\b"):
        make_bot("hard:sampels=30")


@pytest.mark.parametrize(("spec", "message"), [
    ("hard:samples=many", "option 'samples' of 'hard' takes an integer, got 'many'"),
    ("hard:samples=1.5", "option 'samples' of 'hard' takes an integer, got 1.5"),
    ("hard:samples=true", "option 'samples' of 'hard' takes an integer, got True"),
    ("hard:samples=", "option 'samples' of 'hard' takes an integer, got ''"),
    ("hard:time=soon", "option 'time' of 'hard' takes a number, got 'soon'"),
    ("hard:model=2", "option 'model' of 'hard' takes text, got 2"),
    ("medium:threat=high", "option 'threat' of 'medium' takes a number, got 'high'"),
    ("expert:eps=no", "option 'eps' of 'expert' takes a number, got False"),
    ("hard:model=maxn", "bad option for 'hard' .*model must be 'reply' or 'paranoid'"),
    ("expert:infer=psychic", "bad option for 'expert' .*infer must be"),
    ("expert:ess=1.5", "bad option for 'expert' .*ess must lie between 0 and 1"),
    ("medium:spec=-1", "bad option for 'medium' .*spec must be in 0-1"),
])
def test_a_malformed_value_is_refused(spec: str, message: str) -> None:
    with pytest.raises(UnknownBotError, match=message):
        make_bot(spec)


def test_an_int_is_a_number() -> None:
    bot = make_bot("medium:threat=1,spec=0")
    assert isinstance(bot, MediumBot) and (bot.threat, bot.spec) == (1, 0)


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
    with pytest.raises(UnknownBotError, match=r"option 'pik' for 'always'; it accepts: pick$"):
        make_bot("always:pik=1")

    def any_options(**options: object) -> Always:  # takes any key: it judges them itself
        return Always(**options)  # type: ignore[arg-type]

    register_bot("any", any_options)
    assert make_bot("any:pick=1").pick == 1  # type: ignore[attr-defined]
    with pytest.raises(UnknownBotError, match=r"bad option for 'any' \(.*'pik'"):
        make_bot("any:pik=1")
    assert "always" in registry.bot_names()
    register_bot("lazy-random", "polignac.bots.simple:RandomBot")
    assert isinstance(make_bot("lazy-random"), RandomBot)
    with pytest.raises(UnknownBotError):
        register_bot("a:b", Always)
