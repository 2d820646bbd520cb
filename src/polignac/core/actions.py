"""Actions as small ints, and their text form used in game records.

``0``-``51`` play that card; the rest are calls:

====================  =====================================================
text                  meaning
====================  =====================================================
``pass``              decline to declare a contract (declaration round)
``capot``             declare capot
``general``           declare general (general and general-bonus presets)
``generale``          declare la générale
``claim``             Pollack: claim "out" (the side has 21)
``announce:...``      Pollack announcement: three-tens, three-nines,
                      three-aces, four-tens, four-nines, four-aces,
                      pollack-C, pollack-D, pollack-H, pollack-S
====================  =====================================================
"""

from __future__ import annotations

from typing import Final

from .cards import CODES, parse_card
from .errors import CardParseError, IllegalActionError

Action = int

PASS: Final = 52
CAPOT: Final = 53
GENERAL: Final = 54
GENERALE: Final = 55
CLAIM: Final = 56
ANNOUNCE_BASE: Final = 57
ANNOUNCEMENTS: Final[tuple[str, ...]] = (
    "three-tens",
    "three-nines",
    "three-aces",
    "four-tens",
    "four-nines",
    "four-aces",
    "pollack-C",
    "pollack-D",
    "pollack-H",
    "pollack-S",
)
NUM_ACTIONS: Final = ANNOUNCE_BASE + len(ANNOUNCEMENTS)

CONTRACT_WORDS: Final = {CAPOT: "capot", GENERAL: "general", GENERALE: "generale"}
_NAMES: Final[tuple[str, ...]] = (
    CODES
    + ("pass", "capot", "general", "generale", "claim")
    + tuple("announce:" + a for a in ANNOUNCEMENTS)
)
_BY_NAME: Final[dict[str, Action]] = {name: i for i, name in enumerate(_NAMES)}
_BY_LOWER: Final[dict[str, Action]] = {name.lower(): i for i, name in enumerate(_NAMES)}
_BY_LOWER["générale"] = GENERALE


def action_name(action: Action) -> str:
    """Return the record text of ``action`` (``JS``, ``pass``, ``announce:pollack-S``).

    Raises:
        IllegalActionError: ``action`` is not an action number.
    """
    if 0 <= action < NUM_ACTIONS:
        return _NAMES[action]
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
    try:
        return parse_card(text)
    except CardParseError:
        pass
    raise IllegalActionError(
        f"unknown action {text!r}: expected a card (JS, 10h, J♠), pass, capot, "
        "general, generale, claim or announce:<three-tens|three-nines|three-aces|"
        "four-tens|four-nines|four-aces|pollack-C|-D|-H|-S>",
        rule="unknown-action",
        action=text,
    )


def is_card(action: Action) -> bool:
    """True when ``action`` plays a card."""
    return 0 <= action < 52


def is_announcement(action: Action) -> bool:
    """True when ``action`` is a Pollack announcement."""
    return ANNOUNCE_BASE <= action < NUM_ACTIONS
