"""Golden specs: Black Lady and Black Maria (hand-checked; see build.py)."""

from __future__ import annotations

from typing import Any

from specs_polignac import P4, S4

SPECS: dict[str, dict[str, Any]] = {}

# Every trick but the last is one suit, so its winner is its highest card.
# Dealer 0 passes left. After passing, Ann holds 2C and leads it; the Queen of
# spades falls on trick 7 (Ann's, 13 points) and breaks hearts; hearts then go
# 2H-5H to Bob, 6H-9H to Ann, TH-KH to Dee, and Dee's AH wins the last trick
# (Ann AC, Bob AD, Cyd AS cannot follow).
LADY = ["0: 2C 3C 4C 5C >3", "3: 6C 7C 8C 9C >2", "2: TC JC QC KC >1",
        "1: 2D 3D 4D 5D >0", "0: 6D 7D 8D 9D >3", "3: TD JD QD KD >2",
        "2: 2S 3S QS 4S >0", "0: 5S 6S 7S 8S >3", "3: 9S TS JS KS >2",
        "2: 2H 3H 4H 5H >1", "1: 6H 7H 8H 9H >0", "0: TH JH QH KH >3",
        "3: AH AC AD AS >3"]

SPECS["black-lady"] = {
    "preset": "black-lady",
    "rules": {"threshold": 17},
    "players": P4,
    "why": (
        "Hearts 1 each, QS 13; dealer 0 passes left (eldest Bob passes first: KS AS QH to "
        "Cyd; Cyd AH KH TD to Dee; Dee QS AC 2C to Ann; Ann AD QD JH to Bob). Ann then "
        "holds 2C and leads it. Ann takes QS (trick 7) and 6H-9H: 17; Bob 2H-5H: 4; Dee "
        "TH-KH and AH: 5; Cyd 0 (26 in all). Threshold 17 (house rule): Ann reaches it, "
        "the match ends and the lowest, Cyd, wins."
    ),
    "deals": [{"dealer": 0, "seats": S4, "tricks": LADY,
               "passes": {"offset": 1, "cards": ["AD QD JH", "KS AS QH", "AH KH TD",
                                                 "QS AC 2C"]}}],
    "expected": {
        "deals": [{"scores": [17, 4, 0, 5]}],
        "totals": [17, 4, 0, 5], "finished": True, "winners": [2], "losers": [0, 1, 3],
    },
}

# Ann holds the Ace, King and Queen of every suit and the Jack of hearts: Bob's 2C
# leads, Ann's AC wins it, and she wins every trick after it (the QS on trick 9
# breaks hearts before she leads them): she takes every penalty card.
MOON = ["1: 2C 3C 4C AC >0", "0: KC 5C 6C 7C >0", "0: QC 8C 9C TC >0",
        "0: AD 2D 3D 4D >0", "0: KD 5D 6D 7D >0", "0: QD 8D 9D TD >0",
        "0: AS 2S 3S 4S >0", "0: KS 5S 6S 7S >0", "0: QS 8S 9S TS >0",
        "0: AH 2H 3H 4H >0", "0: KH 5H 6H 7H >0", "0: QH 8H 9H TH >0",
        "0: JH JC JD JS >0"]

SPECS["black-lady-moon"] = {
    "preset": "black-lady",
    "rules": {"threshold": 26},
    "players": P4,
    "first_dealer": 3,
    "why": (
        "Dealer 3 keeps the cards (the fourth of the rotation: no pass). Bob holds 2C and "
        "leads it; Ann wins all 13 tricks, so every heart and QS: she shoots the moon and "
        "scores 0, each other player 26. Threshold 26 (house rule): the match ends, Ann "
        "wins alone."
    ),
    "deals": [{"dealer": 3, "seats": S4, "tricks": MOON}],
    "expected": {
        "deals": [{"scores": [0, 26, 26, 26]}],
        "totals": [0, 26, 26, 26], "finished": True, "winners": [0], "losers": [1, 2, 3],
    },
}

# Three players: 2C is out of the pack, 17 cards each; 3C leads. One suit a trick but
# the last: KS takes QS on trick 12 (Ann: 23), which breaks hearts; Cyd's AH wins the
# last trick with Bob's AS (7) on it.
MARIA = ["0: 3C 4C 5C >2", "2: 6C 7C 8C >1", "1: 9C TC JC >0", "0: QC KC AC >2",
         "2: 2D 3D 4D >1", "1: 5D 6D 7D >0", "0: 8D 9D TD >2", "2: JD QD KD >1",
         "1: 2S 3S 4S >0", "0: 5S 6S 7S >2", "2: 8S 9S TS >1", "1: JS QS KS >0",
         "0: 2H 3H 4H >2", "2: 5H 6H 7H >1", "1: 8H 9H TH >0", "0: JH QH KH >2",
         "2: AH AD AS >2"]

SPECS["black-maria"] = {
    "preset": "black-maria",
    "rules": {"threshold": 26},
    "players": P4[:3],
    "first_dealer": 2,
    "why": (
        "Three players: 2C removed. QS 13, KS 10, AS 7, hearts 1 each (43 a deal). Passing "
        "to the right (two seats on with three players) every deal; dealer 2, eldest Ann "
        "passes first: Ann QS AH AC to Cyd, Bob KS AD JH to Ann, Cyd AS KC QH to Bob. Ann, "
        "holding 3C, leads it. Ann takes QS and KS (trick 12) and 8H-TH: 26; Bob 5H-7H: 3; "
        "Cyd 2H-4H (trick 13), JH-KH (trick 16) and AH with AS (trick 17): 14. Threshold "
        "26 (house rule): Ann reaches it; Bob, lowest, wins."
    ),
    "deals": [{"dealer": 2, "seats": [0, 1, 2], "tricks": MARIA,
               "passes": {"offset": 2, "cards": ["QS AH AC", "KS AD JH", "AS KC QH"]}}],
    "expected": {
        "deals": [{"scores": [26, 3, 14]}],
        "totals": [26, 3, 14], "finished": True, "winners": [1], "losers": [0, 2],
    },
}
