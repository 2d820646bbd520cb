"""Actions as small ints, and their text form used in game records.

``0``-``51`` play that card; the rest are calls:

====================  =====================================================
text                  meaning
====================  =====================================================
``pass``              decline to declare a contract (declaration round)
``capot``             declare capot
``general``           declare general (general and general-bonus presets)
``generale``          declare la générale
``claim``             claim "out": the side has reached the partie's target
``announce:<name>``   make announcement ``<name>`` (the names are the game
                      families': ``Family.announcements``)
====================  =====================================================

The numbers are shared by every family and never change (records, OpenSpiel's
action ids and stored games depend on them): the announcements' numbers
``ANNOUNCE_BASE`` onwards are named, in the order of the families' list, by the
families that have announcements (:data:`polignac.core.families.ANNOUNCEMENTS`;
this module reads them from the families' registry, :mod:`polignac.core.registry`,
when it meets an announcement).
"""

from __future__ import annotations

from typing import Final

from .cards import CODES, parse_card
from .errors import CardParseError, IllegalActionError
from .registry import current

Action = int

PASS: Final = 52
CAPOT: Final = 53
GENERAL: Final = 54
GENERALE: Final = 55
CLAIM: Final = 56
ANNOUNCE_BASE: Final = 57
NUM_ANNOUNCEMENTS: Final = 10
"""The action numbers kept for announcements: ``ANNOUNCE_BASE`` to ``NUM_ACTIONS - 1``."""
NUM_ACTIONS: Final = ANNOUNCE_BASE + NUM_ANNOUNCEMENTS

CONTRACT_WORDS: Final = {CAPOT: "capot", GENERAL: "general", GENERALE: "generale"}
_NAMES: Final[tuple[str, ...]] = (*CODES, "pass", "capot", "general", "generale", "claim")
_BY_NAME: Final[dict[str, Action]] = {name: i for i, name in enumerate(_NAMES)}
_BY_LOWER: Final[dict[str, Action]] = {name.lower(): i for i, name in enumerate(_NAMES)}
_BY_LOWER["générale"] = GENERALE


def _announcements() -> tuple[str, ...]:
    """The announcements' names in use, by number from ``ANNOUNCE_BASE`` (the families'
    registry, :func:`polignac.core.registry.current`: read when an announcement is
    met, never for a card)."""
    return current().announcements


def action_name(action: Action) -> str:
    """Return the record text of ``action`` (``JS``, ``pass``, ``claim``, ``announce:<name>``).

    Raises:
        IllegalActionError: ``action`` is not an action number.
    """
    if 0 <= action < ANNOUNCE_BASE:
        return _NAMES[action]
    names = _announcements()
    if 0 <= action - ANNOUNCE_BASE < len(names):
        return "announce:" + names[action - ANNOUNCE_BASE]
    raise IllegalActionError(f"no such action number: {action}", rule="unknown-action")


def parse_action(text: str) -> Action:
    """Read an action from its record text; cards are read leniently (``10h``).

    Raises:
        IllegalActionError: the text is neither a card nor a known call; the
            message names it and lists the calls.
    """
    action = _BY_NAME.get(text)
    if action is not None:
        return action
    action = _BY_LOWER.get(text.strip().lower())
    if action is not None:
        return action
    names = _announcements()
    word = text.strip()
    if word[:9].lower() == "announce:":
        lower = word[9:].lower()
        for i, name in enumerate(names):
            if name.lower() == lower:
                return ANNOUNCE_BASE + i
    try:
        return parse_card(text)
    except CardParseError:
        pass
    raise IllegalActionError(
        f"unknown action {text!r}: expected a card (JS, 10h, J♠), pass, capot, "
        f"general, generale, claim or announce:<{'|'.join(names)}>",
        rule="unknown-action",
        action=text,
    )


def is_card(action: Action) -> bool:
    """True when ``action`` plays a card."""
    return 0 <= action < 52


def is_announcement(action: Action) -> bool:
    """True when ``action`` is an announcement (a number kept for them)."""
    return ANNOUNCE_BASE <= action < NUM_ACTIONS
