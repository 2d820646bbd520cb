"""The game families in use: the one table the shared core asks about them.

The families' list (:mod:`polignac.core.families`) is above the shared core:
each family's module builds its presets from :class:`~polignac.core.rules.Rules`
and its deals from :class:`~polignac.core.deal.Deal`.  So the dependency goes
the other way: the list installs its :class:`Registry` here when it is imported
(and :func:`polignac.core.families.extended` adds one for a while), and the
shared core (``Rules.family``, ``Rules.scorer``, ``Rules.kind``, the rules'
checks, the announcements' action names) reads :func:`current`; no core module
imports the families' list.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .errors import RulesError

if TYPE_CHECKING:  # pragma: no cover
    from .family import Family
    from .rules import ScoreKind


class Registry:
    """The tables read from a list of families: checked once, then only read.

    Raises (on construction):
        ValueError: a game or a scoring belongs to two families, or an
            announcement's name is given twice.
    """

    __slots__ = ("announcements", "by_game", "by_scoring", "families", "games", "kinds",
                 "scorings")

    def __init__(self, families: Sequence[Family]) -> None:
        by_game: dict[str, Family] = {}
        by_scoring: dict[str, Family] = {}
        kinds: dict[str, ScoreKind] = {}
        for family in families:
            for value, table, what in (
                    *((g, by_game, "game") for g in family.games),
                    *((k.name, by_scoring, "scoring") for k in family.scorings)):
                other = table.get(value)
                if other is not None and other is not family:
                    raise ValueError(f"{what} {value!r} already belongs to family {other.name!r}")
                table[value] = family
            kinds.update((k.name, k) for k in family.scorings)
        self.families = tuple(dict.fromkeys(families))
        names = tuple(a for f in self.families for a in f.announcements)
        if len(set(names)) != len(names):
            raise ValueError(f"announcements {list(names)}: each once")
        self.by_game = by_game
        self.by_scoring = by_scoring
        self.kinds = kinds
        self.games = tuple(by_game)
        self.scorings = tuple(by_scoring)
        self.announcements = names

    def family_of(self, game: str) -> Family:
        """The family whose games include ``game``.

        Raises:
            RulesError: no family has ``game``.
        """
        family = self.by_game.get(game)
        if family is None:
            raise RulesError(f"game {game!r} has no family; known: {', '.join(self.games)}")
        return family

    def scorer_of(self, scoring: str) -> Family:
        """The family that brings ``scoring``.

        Raises:
            RulesError: no family brings ``scoring``.
        """
        family = self.by_scoring.get(scoring)
        if family is None:
            raise RulesError(f"scoring {scoring!r} has no family; "
                             f"known: {', '.join(self.scorings)}")
        return family


_IN_USE: list[Registry] = []
"""The registries installed, the one in use last (see :func:`install`)."""


def current() -> Registry:
    """The registry in use.

    Raises:
        RulesError: none is installed (polignac.core.families was never imported;
            importing any module of polignac.core imports it).
    """
    if not _IN_USE:
        raise RulesError("no game families installed: import polignac.core.families")
    return _IN_USE[-1]


def install(registry: Registry) -> None:
    """Use ``registry`` from now on, until :func:`uninstall` takes it back (the
    families' list installs its own once; ``families.extended`` one for a while)."""
    _IN_USE.append(registry)


def uninstall(registry: Registry) -> None:
    """Stop using ``registry`` (installed by :func:`install`); the one before is used again.

    Raises:
        ValueError: ``registry`` is not installed.
    """
    _IN_USE.remove(registry)
