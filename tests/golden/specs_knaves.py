"""Golden specs: Knaves (hand-checked; see build.py)."""

from __future__ import annotations

from typing import Any

from specs_polignac import rot

SPECS: dict[str, dict[str, Any]] = {}

P3 = ["Ann", "Bob", "Cyd"]
# Dealer 0, eldest 1. Turn-up 2H: hearts are trumps. Ann: AH-3H and 6D-2D; Bob: all
# spades and AD KD QD JD; Cyd: all clubs and TD 9D 8D 7D.
KNAVES = [
    "1: AS 2C 3H >0",   # spade led, Ann trumps and wins
    "0: 2D AD 7D >1",
    "1: KS 3C 3D >1", "1: QS 4C 4D >1", "1: JS 5C 5D >1", "1: TS 6C 6D >1",
    "1: 9S 7C 4H >0",   # spade led, Ann trumps again
    "0: AH 8S 8C >0", "0: KH KD TD >0", "0: QH QD JC >0", "0: JH 7S 9C >0",
    "0: TH 6S TC >0", "0: 9H 5S 9D >0", "0: 8H 4S 8D >0", "0: 7H 3S QC >0",
    "0: 6H 2S KC >0", "0: 5H JD AC >0",
]
KNAVES_WHY = (
    "Hearts are trumps (turn-up 2H). Bob leads AS, Ann (void in spades) trumps with 3H "
    "and wins; she leads 2D, Bob's AD wins; Bob wins KS, QS, JS (his own JS -1), TS while "
    "Ann discards diamonds; on 9S Ann trumps with 4H, then leads her nine remaining trumps "
    "and wins them all, Cyd discarding JC under QH, Ann playing her own JH, Bob discarding "
    "JD under 5H. Ann: 12 tricks - JC 2 - JH 4 - JD 3 = 3; Bob: 5 tricks - JS 1 = 4; "
    "Cyd: no trick, 0 (3+4+0 = 17 tricks - 10 = 7)."
)

SPECS["knaves-several-over-target"] = {
    "preset": "knaves",
    "rules": {"threshold": 3},
    "players": P3,
    "why": (
        "Knaves: +1 per trick, JS -1, JC -2, JD -3, JH -4; target lowered to 3. " + KNAVES_WHY
        + " Ann (3) and Bob (4) both pass 3 in the same deal: the highest, Bob, wins alone."
    ),
    "deals": [{"dealer": 0, "seats": [0, 1, 2], "turn_up": "2H", "tricks": KNAVES}],
    "expected": {
        "deals": [{"scores": [3, 4, 0]}],
        "totals": [3, 4, 0], "finished": True, "winners": [1], "losers": [0, 2],
    },
}

SPECS["knaves-first-to-target"] = {
    "preset": "knaves",
    "rules": {"threshold": 7},
    "players": P3,
    "why": (
        "Target 7. Deal 1 (dealer 0): " + KNAVES_WHY + " [3,4,0], nobody at 7. Deal 2 "
        "(dealer 1, eldest Cyd): the same hands moved one seat on (Bob has the trumps, Cyd the "
        "spades, Ann the clubs), same play: Bob 3, Cyd 4, Ann 0. Totals [3,7,4]: Bob is the "
        "first to reach 7 and wins."
    ),
    "deals": [
        {"dealer": 0, "seats": [0, 1, 2], "turn_up": "2H", "tricks": KNAVES},
        {"dealer": 1, "seats": [0, 1, 2], "turn_up": "2H", "tricks": rot(KNAVES, 1, 3)},
    ],
    "expected": {
        "deals": [{"scores": [3, 4, 0]}, {"scores": [0, 3, 4]}],
        "totals": [3, 7, 4], "finished": True, "winners": [1], "losers": [0, 2],
    },
}
