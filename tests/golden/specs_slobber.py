"""Golden specs: Slobberhannes, Eichelobern, Grasobern (hand-checked; see build.py)."""

from __future__ import annotations

from typing import Any

from specs_polignac import P4, S4, rot

SPECS: dict[str, dict[str, Any]] = {}

# Dealer 0, eldest 1; Ace-high, every trick four cards of one suit. Winners: Bob
# (first trick, AH over QH), Bob, Cyd, Cyd (AD takes QD), Cyd (AC takes QC), Dee,
# Dee, Ann (last trick, AS takes QS).
QUEENS = ["1: AH QH 9H 8H >1", "1: KS TS 7S JS >1", "1: JH KH TH 7H >2",
          "2: AD QD 9D 8D >2", "2: AC QC 9C 8C >2", "2: JD KD TD 7D >3",
          "3: KC TC 7C JC >3", "3: 8S AS QS 9S >0"]
# Dealer 0, eldest 1 holds all spades and leads them; nobody can follow: eldest wins
# all 8 tricks (seat 2 holds hearts, 3 diamonds, 0 clubs).
SLAM = ["1: 7S 7H 7D 7C >1", "1: 8S 8H 8D 8C >1", "1: 9S 9H 9D 9C >1",
        "1: TS TH TD TC >1", "1: JS JH JD JC >1", "1: QS QH QD QC >1",
        "1: KS KH KD KC >1", "1: AS AH AD AC >1"]

SPECS["slobberhannes-all-three"] = {
    "preset": "slobberhannes",
    "rules": {"threshold": 4},
    "players": P4,
    "why": (
        "First trick 1, last trick 1, QC 1; all three = 4; A K Q J T 9 8 7; threshold 4. "
        "Deal 1 (dealer 0): Bob wins the first trick (AH), Cyd's AC takes QC at trick 5, "
        "Ann's AS wins the last: [1,1,1,0]. Deal 2 (dealer 1): eldest Cyd holds all spades "
        "and wins all 8 tricks; Bob discards QC on her QS: Cyd has first trick, last trick "
        "and QC: 4, not 3: [0,0,4,0]. Totals [1,1,5,0]: Cyd reaches 4 and loses alone."
    ),
    "deals": [
        {"dealer": 0, "seats": S4, "tricks": QUEENS},
        {"dealer": 1, "seats": S4, "tricks": rot(SLAM, 1)},
    ],
    "expected": {
        "deals": [{"scores": [1, 1, 1, 0]}, {"scores": [0, 0, 4, 0]}],
        "totals": [1, 1, 5, 0], "finished": True, "winners": [0, 1, 3], "losers": [2],
    },
}

SPECS["eichelobern"] = {
    "preset": "eichelobern",
    "rules": {"threshold": 4},
    "players": P4,
    "why": (
        "As Slobberhannes on a German pack: the bad card is the Ober of Acorns (QC). "
        "Threshold 4. Deal 1 (dealer 1, the Slobberhannes deal moved one seat on): Cyd wins "
        "the first trick, Dee's Sow of Acorns (AC) takes QC, Bob wins the last: [0,1,1,1]. "
        "Deal 2 (dealer 2): eldest Dee holds all Leaves (spades) and wins every trick, Cyd "
        "discarding QC on QS: first + last + QC = 4: [0,0,0,4]. Totals [0,1,1,5]: Dee "
        "loses."
    ),
    "first_dealer": 1,
    "deals": [
        {"dealer": 1, "seats": S4, "tricks": rot(QUEENS, 1)},
        {"dealer": 2, "seats": S4, "tricks": rot(SLAM, 2)},
    ],
    "expected": {
        "deals": [{"scores": [0, 1, 1, 1]}, {"scores": [0, 0, 0, 4]}],
        "totals": [0, 1, 1, 5], "finished": True, "winners": [0, 1, 2], "losers": [3],
    },
}

SPECS["grasobern"] = {
    "preset": "grasobern",
    "rules": {"threshold": 4},
    "players": P4,
    "why": (
        "The bad card is the Ober of Leaves (QS); QC scores nothing. Threshold 4. Deal 1 "
        "(dealer 0): Bob wins the first trick; Cyd takes QC (no points here); Ann's AS takes "
        "QS at the last trick: last trick + QS = 2 (not all three: she lacks the first): "
        "[2,1,0,0]. Deal 2 (dealer 1): eldest Cyd holds all spades, QS included, and wins "
        "every trick: first + last + her own QS = 4: [0,0,4,0]. Totals [2,1,4,0]: Cyd "
        "loses."
    ),
    "deals": [
        {"dealer": 0, "seats": S4, "tricks": QUEENS},
        {"dealer": 1, "seats": S4, "tricks": rot(SLAM, 1)},
    ],
    "expected": {
        "deals": [{"scores": [2, 1, 0, 0]}, {"scores": [0, 0, 4, 0]}],
        "totals": [2, 1, 4, 0], "finished": True, "winners": [0, 1, 3], "losers": [2],
    },
}
