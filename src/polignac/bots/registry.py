"""Bots by name: ``make_bot("hard:samples=30")``.

A spec is ``level`` or ``level:key=value,key=value``; values are read as
int, then float, then ``true``/``false``, else kept as text, and passed to
the bot's factory as keyword options.  A key the factory does not take, or a
value of another type than its annotation (an int is a number too), is refused
before the bot is built (a factory taking ``**options`` judges them itself).

>>> make_bot("random").name
'random'
"""

from __future__ import annotations

import importlib
import inspect
import types
from collections.abc import Callable
from typing import Any, Final, Union, get_args, get_origin

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


def _accepted(factory: BotFactory) -> dict[str, Any] | None:
    """The keyword options ``factory`` takes, each with its annotation
    (``inspect.Parameter.empty`` when none), or None when it takes any
    (``**options``) or has no signature to read."""
    try:
        try:
            sig = inspect.signature(factory, eval_str=True)
        except Exception:  # an annotation that does not evaluate: the text is kept
            sig = inspect.signature(factory)
    except (TypeError, ValueError):
        return None
    params = sig.parameters.values()
    if any(p.kind is p.VAR_KEYWORD for p in params):
        return None
    return {p.name: p.annotation for p in params
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}


_TYPE_WORDS: Final[dict[Any, str]] = {
    int: "an integer", float: "a number", bool: "true or false", str: "text",
}


def _fits(value: Any, hint: Any) -> bool | None:
    """Whether a parsed spec value fits the annotation ``hint`` (None: a hint
    this check does not judge, left to the factory)."""
    if get_origin(hint) in (Union, types.UnionType):
        verdicts = [_fits(value, h) for h in get_args(hint) if h is not type(None)]
        return True if True in verdicts else None if None in verdicts else False
    if hint is bool or hint is str:
        return isinstance(value, hint)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    return None


def _describe(hint: Any) -> str:
    if get_origin(hint) in (Union, types.UnionType):
        return " or ".join(_describe(h) for h in get_args(hint) if h is not type(None))
    return _TYPE_WORDS.get(hint, str(hint))


def _check_options(spec: str, level: str, factory: BotFactory, options: dict[str, Any]) -> None:
    accepted = _accepted(factory)
    if accepted is None:
        return
    unknown = [key for key in options if key not in accepted]
    if unknown:
        takes = (f"it accepts: {', '.join(sorted(accepted))}" if accepted
                 else "it takes no options")
        raise UnknownBotError(
            f"bot spec {spec!r}: unknown option{'s' if len(unknown) > 1 else ''} "
            f"{', '.join(map(repr, unknown))} for {level!r}; {takes}")
    for key, value in options.items():
        hint = accepted[key]
        if _fits(value, hint) is False:
            raise UnknownBotError(
                f"bot spec {spec!r}: option {key!r} of {level!r} takes {_describe(hint)}, "
                f"got {value!r}")


def make_bot(spec: str) -> Bot:
    """Build the bot named by ``spec`` (``medium``, ``hard:samples=30``).

    Raises:
        UnknownBotError: (a :class:`RulesError`, so a ValueError) the level is
            unknown (the message lists the known ones), its module is missing,
            an option is malformed, the bot takes no option of that key (the
            message lists those it takes), a value is of the wrong type, or the
            bot rejects a value.
    """
    level, options = parse_spec(spec)
    factory = _factory(level)
    _check_options(spec, level, factory, options)
    try:
        return factory(**options)
    except (TypeError, ValueError) as exc:
        if isinstance(exc, UnknownBotError):
            raise
        raise UnknownBotError(f"bot spec {spec!r}: bad option for {level!r} ({exc})") from exc
