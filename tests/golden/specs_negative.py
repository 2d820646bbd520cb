"""Negative golden specs: an illegal action inside a record (see build.py)."""

from __future__ import annotations

from typing import Any

from specs_polignac import P4, PASS4, PN, S4
from specs_pollack import HANDS

SPECS: dict[str, dict[str, Any]] = {}

SPECS["negative-must-follow-suit"] = {
    "preset": "polignac",
    "players": P4,
    "why": (
        "Deal 1 (dealer Ann): four passes (actions 1-4), Bob leads KD (action 5); Cyd holds "
        "JD and 7D but plays TS (action 6): she must follow suit."
    ),
    "deals": [{"dealer": 0, "seats": S4, "tricks": PN, "actions": PASS4 + ["KD", "TS"]}],
    "expected": {"error": {"deal": 1, "action": 6,
                           "contains": ["'TS'", "must follow suit", "must-follow-suit"]}},
}

SPECS["negative-false-announcement"] = {
    "preset": "pollack",
    "players": P4,
    "why": (
        "Deal 1 (dealer Ann): forehand Bob holds TS TH TD TC 9S 9H AS AH, only two Aces, and "
        "announces four Aces as his first action: a false announcement."
    ),
    "deals": [{"dealer": 0, "seats": S4, "rest": HANDS, "actions": ["announce:four-aces"]}],
    "expected": {"error": {"deal": 1, "action": 1,
                           "contains": ["announce:four-aces", "false announcement",
                                        "false-announcement"]}},
}

SPECS["negative-announcement-too-early"] = {
    "preset": "pollack",
    "players": P4,
    "why": (
        "Deal 1 (dealer Ann): forehand Bob leads TS (action 1); Cyd, whose side has not won "
        "a trick, announces (action 2): only forehand before the first lead, others after "
        "their side has won a trick."
    ),
    "deals": [{"dealer": 0, "seats": S4, "rest": HANDS,
               "actions": ["TS", "announce:three-nines"]}],
    "expected": {"error": {"deal": 1, "action": 2,
                           "contains": ["announce:three-nines", "announcement-too-early"]}},
}
