"""The game families, in one fixed list (as python-chess lists its variants).

:data:`FAMILIES` holds one instance of each family's :class:`~polignac.core.family.Family`
subclass, in the rule book's order; everything the families bring is read
from it here, once, as constants: the values of ``game`` (:data:`GAMES`) and
``scoring`` (:data:`SCORINGS`, :data:`SCORE_KINDS`), the announcements' names
(:data:`ANNOUNCEMENTS`) and the look-ups :func:`family_of` (by ``game``) and
:func:`scorer_of` (by ``scoring``).  The shared core never imports this module:
it installs its :class:`~polignac.core.registry.Registry` in
:mod:`polignac.core.registry` when imported, and ``Rules.family``, ``Rules.scorer``,
``Rules.kind`` and the announcements' action names read it there.

Two look-ups, each done once per rule set by its callers (``Rules.family``,
``Rules.scorer``, kept in the deal's tables), never per action; they agree in
every preset but the Hearts family's, which scores as the trick-avoidance games do.

The families, each in its module:

- ``trick-avoidance`` (:mod:`polignac.core.avoidance`): the penalty games
  (Polignac and its variants, Slobberhannes, Eichelobern, Grasobern) and
  their declarations (capot, general, la générale, chelem);
- ``knaves`` (:mod:`polignac.core.knaves`): a turned-up trump, the taker gains;
- ``bassadewitz`` (:mod:`polignac.core.bassadewitz`): settled in chips;
- ``pollack`` (:mod:`polignac.core.pollack`): partnerships, announcements, a
  claim, parties;
- ``hearts`` (:mod:`polignac.core.hearts`, :mod:`polignac.core.hearts_deal`):
  passing, the first trick's restrictions, hearts breaking, the moon.

A new family: its module (a ``Family`` subclass) and one line in :data:`FAMILIES`;
see docs/architecture.md#change-family.  :func:`extended` adds families for a
while (a test's, a plug-in's) without touching this list.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

from .actions import NUM_ANNOUNCEMENTS
from .avoidance import TRICK_AVOIDANCE
from .bassadewitz import BASSADEWITZ
from .family import Family, StartDeal
from .hearts_deal import HEARTS
from .knaves import KNAVES
from .pollack import POLLACK
from .registry import Registry, current, install, uninstall
from .rules import Rules, ScoreKind

FAMILIES: Final[tuple[Family, ...]] = (
    TRICK_AVOIDANCE,
    KNAVES,
    BASSADEWITZ,
    POLLACK,
    HEARTS,
)
"""Every game family, in the rule book's order: the one list a new family joins."""


def _checked(registry: Registry) -> Registry:
    """``registry``, once its announcements are checked to fit the shared action numbers.

    Raises:
        ValueError: more announcements than :data:`~polignac.core.actions.NUM_ANNOUNCEMENTS`.
    """
    names = registry.announcements
    if len(names) > NUM_ANNOUNCEMENTS:
        raise ValueError(f"announcements {list(names)}: at most {NUM_ANNOUNCEMENTS}")
    return registry


_FIXED: Final = _checked(Registry(FAMILIES))
install(_FIXED)  # the shared core reads the families in use from core/registry.py

GAMES: Final[tuple[str, ...]] = _FIXED.games
"""The values of ``game``: each family's games, in the list's order."""
SCORINGS: Final[tuple[str, ...]] = _FIXED.scorings
"""The values of ``scoring``: each family's scorings, in the list's order."""
SCORE_KINDS: Final[dict[str, ScoreKind]] = dict(_FIXED.kinds)
"""Each ``scoring`` value's :class:`~polignac.core.rules.ScoreKind`, brought by its family."""
ANNOUNCEMENTS: Final[tuple[str, ...]] = _FIXED.announcements
"""The announcements' names, by action number from ``ANNOUNCE_BASE`` (records and
OpenSpiel's action ids depend on them: a family joins at the end of the list)."""


def registry() -> Registry:
    """The registry in use (the fixed list's, unless :func:`extended` is active)."""
    return current()


@contextmanager
def extended(*families: Family) -> Iterator[Registry]:
    """Use the fixed list with ``families`` added after it, inside a ``with`` block
    (a test's family, a plug-in's); the announcements of the fixed list keep their
    numbers.

    Raises:
        ValueError: as :class:`Registry` (a game or scoring taken, too many announcements).
    """
    reg = _checked(Registry((*current().families, *families)))
    install(reg)
    try:
        yield reg
    finally:
        uninstall(reg)


def families() -> tuple[Family, ...]:
    """Every family in use, once each, in the list's order."""
    return current().families


def family_of(rules: Rules) -> Family:
    """The family of ``rules`` (by its ``game``): a dictionary look-up, done once
    per rule set by its callers (``Rules.family``, the deal's tables).

    Raises:
        RulesError: no family has ``rules.game``.
    """
    return current().family_of(rules.game)


def scorer_of(rules: Rules) -> Family:
    """The family that brings the ``scoring`` of ``rules`` (``Rules.scorer``).

    Raises:
        RulesError: no family brings ``rules.scoring``.
    """
    return current().scorer_of(rules.scoring)


def score_kind(scoring: str) -> ScoreKind:
    """What the ``scoring`` value means (``Rules.kind``).

    Raises:
        KeyError: no family brings ``scoring``.
    """
    return current().kinds[scoring]


def announcement_names() -> tuple[str, ...]:
    """The announcements' names in use, by action number from ``ANNOUNCE_BASE``."""
    return current().announcements


__all__ = [
    "ANNOUNCEMENTS",
    "FAMILIES",
    "GAMES",
    "SCORE_KINDS",
    "SCORINGS",
    "Family",
    "Registry",
    "StartDeal",
    "announcement_names",
    "extended",
    "families",
    "family_of",
    "registry",
    "score_kind",
    "scorer_of",
]
