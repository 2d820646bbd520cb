"""Golden specs: Bassadewitz (hand-checked; see build.py)."""

from __future__ import annotations

from typing import Any

from specs_polignac import P4, S4, rot
from specs_slobber import SLAM

SPECS: dict[str, dict[str, Any]] = {}

# Dealer 0, eldest Bob. Each suit splits into {A,K,9,8} (15) and {T,Q,J,7} (15);
# every player wins two 15-point tricks: 30 each.
EQUAL = ["1: AH KH 9H 8H >1", "1: KS 9S 8S AS >0", "0: KC 9C 8C AC >3",
         "3: KD 9D 8D AD >2", "2: TH QH JH 7H >2", "2: 7D TD QD JD >3",
         "3: 7C TC QC JC >0", "0: 7S TS QS JS >1"]
# Dealer 0: Bob wins tricks 1-7 with his spades (every point card, 120) and loses
# the last (7D) to Dee's 8D, a trick worth 0.
OVERLOAD = ["1: AS AH 7S AC >1", "1: TS TH AD TC >1", "1: KS KH TD KC >1",
            "1: QS QH KD QC >1", "1: JS JH QD JC >1", "1: 9S 9H JD 9C >1",
            "1: 8S 8H 9D 8C >1", "1: 7D 7H 8D 7C >3"]
# Dealer 0: Cyd wins trick 1 (0 points), Dee trick 2 (0) and the five diamond
# tricks, Bob the last (AS with AC, AH); Ann wins nothing.
NORMAL = ["1: 7D 9D 8D 7C >2", "2: 7H 9H 8C 8S >3", "3: AD 9C 9S 8H >3",
          "3: TD JC JS JH >3", "3: KD QC QS QH >3", "3: QD KC KS KH >3",
          "3: JD TC TS TH >3", "3: 7S AC AS AH >1"]

SPECS["bassadewitz-redeals"] = {
    "preset": "bassadewitz",
    "rules": {"deals": 4},
    "players": P4,
    "why": (
        "A 11, T 10, K 4, Q 3, J 2 (rank A T K Q J 9 8 7); dealer stakes 12; fewest card "
        "points gets 5, then 4, then 3. Deal 1 (dealer Ann, stake -12): each suit falls in "
        "two 15-point tricks and each player wins two: 30 each, all equal: redeal, the pool "
        "stays: [-12,0,0,0]. Deal 2 (Ann deals again, no stake): eldest Bob holds all spades "
        "and wins every trick: each other pays him 4: [-4,12,-4,-4], redeal. Deal 3 (Ann "
        "again, no stake): Bob wins 7 tricks with every point card (120) but loses 7D to "
        "Dee's 8D: 100 or more without every trick: he pays 4 to each: [4,-12,4,4], redeal. "
        "Deal 4 (Ann again, no stake; the pool is paid out): card points Ann 0 (no trick), "
        "Bob 33 (AS AC AH), Cyd 0 (one trick 7D 9D 8D 7C worth nothing), Dee 87 (11+16+13+"
        "15+32): Ann and Cyd tie on 0; Cyd is nearer eldest but took a trick, so Ann (no "
        "trick) is first: Ann 5, Cyd 4, Bob 3, Dee 0 = [5,3,4,0]. Deals 5-7 (dealers Bob, "
        "Cyd, Dee, each staking 12): the same deal moved one seat on each time: [0,-7,3,4], "
        "[4,0,-7,3], [3,4,0,-7]. Redeals do not count: 4 counted deals end the match. "
        "Totals Ann -12-4+4+5+0+4+3 = 0, Bob 0+12-12+3-7+0+4 = 0, Cyd 0-4+4+4+3-7+0 = 0, "
        "Dee 0-4+4+0+4+3-7 = 0: everyone ties for most chips and shares the win."
    ),
    "deals": [
        {"dealer": 0, "seats": S4, "tricks": EQUAL},
        {"dealer": 0, "seats": S4, "tricks": SLAM},
        {"dealer": 0, "seats": S4, "tricks": OVERLOAD},
        {"dealer": 0, "seats": S4, "tricks": NORMAL},
        {"dealer": 1, "seats": S4, "tricks": rot(NORMAL, 1)},
        {"dealer": 2, "seats": S4, "tricks": rot(NORMAL, 2)},
        {"dealer": 3, "seats": S4, "tricks": rot(NORMAL, 3)},
    ],
    "expected": {
        "deals": [{"scores": [-12, 0, 0, 0], "redeal": True},
                  {"scores": [-4, 12, -4, -4], "redeal": True},
                  {"scores": [4, -12, 4, 4], "redeal": True},
                  {"scores": [5, 3, 4, 0], "card_points": [0, 33, 0, 87]},
                  {"scores": [0, -7, 3, 4]}, {"scores": [4, 0, -7, 3]},
                  {"scores": [3, 4, 0, -7]}],
        "totals": [0, 0, 0, 0], "finished": True, "winners": [0, 1, 2, 3], "losers": [],
    },
}

SPECS["bassadewitz-points"] = {
    "preset": "bassadewitz-points",
    "rules": {"deals": 4},
    "players": P4,
    "why": (
        "Ace 5, T 10, K 4, Q 3, J 2 (96 in all) and +1 per trick. Deal 1 (dealer Ann, stake "
        "-12): Bob wins 7 tricks holding every point card: 96 + 7 = 103, 100 or more without "
        "every trick: he pays 4 to each: Ann -12+4 = -8, Bob -12, Cyd 4, Dee 4; redeal. Deal "
        "2 (Ann again, no stake): Ann 0 (no trick), Cyd 0+1 = 1, Bob AS+AC+AH 15+1 = 16, Dee "
        "5+16+13+15+32 = 81 + 6 tricks = 87: Ann 5, Cyd 4, Bob 3: [5,3,4,0]. Deals 3-5 "
        "(dealers Bob, Cyd, Dee, staking 12) move the same deal one seat on: [0,-7,3,4], "
        "[4,0,-7,3], [3,4,0,-7]. Totals Ann -8+5+0+4+3 = 4, Bob -12+3-7+0+4 = -12, Cyd "
        "4+4+3-7+0 = 4, Dee 4+0+4+3-7 = 4: Ann, Cyd and Dee share the most chips."
    ),
    "deals": [
        {"dealer": 0, "seats": S4, "tricks": OVERLOAD},
        {"dealer": 0, "seats": S4, "tricks": NORMAL},
        {"dealer": 1, "seats": S4, "tricks": rot(NORMAL, 1)},
        {"dealer": 2, "seats": S4, "tricks": rot(NORMAL, 2)},
        {"dealer": 3, "seats": S4, "tricks": rot(NORMAL, 3)},
    ],
    "expected": {
        "deals": [{"scores": [-8, -12, 4, 4], "redeal": True},
                  {"scores": [5, 3, 4, 0], "card_points": [0, 16, 1, 87]},
                  {"scores": [0, -7, 3, 4]}, {"scores": [4, 0, -7, 3]},
                  {"scores": [3, 4, 0, -7]}],
        "totals": [4, -12, 4, 4], "finished": True, "winners": [0, 2, 3], "losers": [1],
    },
}
