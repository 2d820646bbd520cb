"""The rules core: cards, rules and presets, deals, matches, scoring, records.

Pure Python, no I/O, no dependencies.  Everything else in polignac (bots,
server, command line, research interfaces) is built on this public API.
"""

from .actions import (
    CAPOT,
    CLAIM,
    GENERAL,
    GENERALE,
    NUM_ACTIONS,
    PASS,
    Action,
    action_name,
    is_announcement,
    is_card,
    parse_action,
)
from .cards import (
    CODES,
    SUIT_MASKS,
    Card,
    CardSet,
    Mask,
    card_code,
    card_name,
    card_symbol,
    cards_of,
    mask_of,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)
from .deal import DECLARE as DECLARE_PHASE
from .deal import (
    DONE,
    PLAY,
    Deal,
    DealScore,
    ScoreLine,
    Trick,
)
from .describe import Msg, RulesText, rules_text
from .errors import (
    CardParseError,
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
    PolignacError,
    RecordError,
    RulesError,
)
from .families import ANNOUNCEMENTS
from .match import DealResult, Match
from .presets import PRESETS, get_rules, preset_names
from .record import FORMAT, replay, summary, to_record
from .rules import PARAMETERS, Rules, parameter_docs

__all__ = [
    "ANNOUNCEMENTS",
    "CAPOT",
    "CLAIM",
    "CODES",
    "DECLARE_PHASE",
    "DONE",
    "FORMAT",
    "GENERAL",
    "GENERALE",
    "NUM_ACTIONS",
    "PARAMETERS",
    "PASS",
    "PLAY",
    "PRESETS",
    "SUIT_MASKS",
    "Action",
    "Card",
    "CardParseError",
    "CardSet",
    "Deal",
    "DealResult",
    "DealScore",
    "GameOverError",
    "IllegalActionError",
    "Mask",
    "Match",
    "Msg",
    "NotYourTurnError",
    "PolignacError",
    "RecordError",
    "Rules",
    "RulesError",
    "RulesText",
    "ScoreLine",
    "Trick",
    "action_name",
    "card_code",
    "card_name",
    "card_symbol",
    "cards_of",
    "get_rules",
    "is_announcement",
    "is_card",
    "mask_of",
    "parameter_docs",
    "parse_action",
    "parse_card",
    "parse_cards",
    "preset_names",
    "rank_of",
    "replay",
    "rules_text",
    "suit_of",
    "summary",
    "to_record",
]
