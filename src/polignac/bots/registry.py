"""Bots by name: ``make_bot("hard:samples=30")``.

A spec is ``level`` or ``level:key=value,key=value``; values are read as
int, then float, then ``true``/``false``, else kept as text, and passed to
the bot's factory as keyword options.

>>> make_bot("random").name
'random'
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, Final

from ..core.errors import RulesError
from .base import Bot

BotFactory = Callable[..., Bot]

LEVELS: Final[tuple[str, ...]] = ("random", "easy", "medium", "hard", "expert")
"""Levels offered to players, weakest first (``oracle`` is evaluation-only)."""


class UnknownBotError(RulesError):
    """A bot spec names no registered level, or has a bad option."""


_FACTORIES: dict[str, BotFactory] = {}
_LAZY: dict[str, str] = {
    "random": "polignac.bots.simple:RandomBot",
    "easy": "polignac.bots.simple:EasyBot",
    "medium": "polignac.bots.simple:MediumBot",
    "hard": "polignac.bots.hard:HardBot",
    "expert": "polignac.bots.hard:ExpertBot",
    "oracle": "polignac.bots.hard:OracleBot",
}


def register_bot(name: str, factory: BotFactory | str) -> None:
    """Register ``factory`` (a callable, or ``"module:attr"`` imported on first use) as ``name``.

    A later registration of the same name replaces the earlier one.

    Raises:
        UnknownBotError: the name is empty or contains ``:``, ``,`` or ``=``.
    """
    if not name or any(ch in name for ch in ":,="):
        raise UnknownBotError(f"bad bot name {name!r}: must be non-empty, without ':', ',' or '='")
    _FACTORIES.pop(name, None)
    _LAZY.pop(name, None)
    if isinstance(factory, str):
        _LAZY[name] = factory
    else:
        _FACTORIES[name] = factory


def bot_names() -> list[str]:
    """Every registered name: the levels in strength order, then the others sorted."""
    names = set(_FACTORIES) | set(_LAZY)
    return [n for n in LEVELS if n in names] + sorted(names - set(LEVELS))


def _parse_value(text: str) -> Any:
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    return text


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``level:key=value,...`` into the level and its options.

    Raises:
        UnknownBotError: an option is not ``key=value``.
    """
    level, _, rest = spec.strip().partition(":")
    options: dict[str, Any] = {}
    for item in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise UnknownBotError(f"bot spec {spec!r}: option {item!r} is not key=value")
        options[key.strip()] = _parse_value(value.strip())
    return level.strip(), options


def _factory(level: str) -> BotFactory:
    factory = _FACTORIES.get(level)
    if factory is not None:
        return factory
    path = _LAZY.get(level)
    if path is None:
        raise UnknownBotError(
            f"unknown bot level {level!r}; known levels are: {', '.join(bot_names())}"
        )
    module_name, _, attr = path.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise UnknownBotError(
            f"bot level {level!r} is not available: cannot import {module_name} ({exc})"
        ) from exc
    found: BotFactory | None = getattr(module, attr, None)
    if found is None:
        raise UnknownBotError(
            f"bot level {level!r} is not available: {module_name} has no {attr}"
        )
    _FACTORIES[level] = found
    return found


def make_bot(spec: str) -> Bot:
    """Build the bot named by ``spec`` (``medium``, ``hard:samples=30``).

    Raises:
        UnknownBotError: (a :class:`RulesError`, so a ValueError) the level is
            unknown (the message lists the known ones), its module is missing,
            an option is malformed, or the bot rejects an option.
    """
    level, options = parse_spec(spec)
    factory = _factory(level)
    try:
        return factory(**options)
    except TypeError as exc:
        raise UnknownBotError(f"bot spec {spec!r}: bad option for {level!r} ({exc})") from exc
