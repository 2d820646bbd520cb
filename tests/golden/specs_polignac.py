"""Golden specs for the Polignac family (hand-checked; see build.py)."""

from __future__ import annotations

from typing import Any

P4 = ["Ann", "Bob", "Cyd", "Dee"]
S4 = [0, 1, 2, 3]
PASS4 = ["pass"] * 4

SPECS: dict[str, dict[str, Any]] = {}

SPECS["polignac-capot"] = {
    "preset": "polignac",
    "rules": {"threshold": 15},
    "players": P4,
    "why": (
        "Rank K Q J A T 9 8 7, JS 2, other Jacks 1, capot, threshold 15 (first to reach it "
        "loses). Deal 1 (dealer 0, eldest 1 leads): Bob passes, Cyd declares capot holding "
        "the K and Q of every suit; she wins trick 1 with KS and then leads K, Q of each suit, "
        "each the best card left: all 8 tricks, capot made: Cyd 0, each other +5 = "
        "[5,5,0,5]. Deal 2 (dealer 1, eldest 2): Cyd passes, Dee declares capot, wins the "
        "first 7 tricks (taking JS, JH, JD) but leads AC at trick 8 and Cyd's JC beats it "
        "(J above A): capot failed, Dee +5 plus her Jacks 2+1+1 = 9, Cyd 1 for JC = "
        "[0,0,1,9]; totals [5,5,1,14], nobody at 15. Deal 3 (dealer 2): eldest Dee declares "
        "capot at once, but Bob wins every trick (KH on Dee's JH lead, then six spades, then "
        "QH): Dee failed, +5 with no Jack; Bob's slam is an ordinary deal for him: all four "
        "Jacks = 5 (RULES 8). Scores [0,5,0,5]. Totals [5,10,1,19]: Dee alone reached 15 and "
        "has the highest total: she loses, the other three win."
    ),
    "deals": [
        {"dealer": 0, "seats": S4, "pre": ["pass", "capot"], "tricks": [
            "1: AS KS TS 8S >2", "2: QS 9S 7S JS >2", "2: KH TH 8H AH >2",
            "2: QH 9H 7H JH >2", "2: KD TD 8D AD >2", "2: QD 9D 7D JD >2",
            "2: KC TC 8C AC >2", "2: QC 9C 7C JC >2"]},
        {"dealer": 1, "seats": S4, "pre": ["pass", "capot"], "tricks": [
            "2: AS KS TS 8S >3", "3: QS 9S 7S JS >3", "3: KH TH 8H AH >3",
            "3: QH 9H 7H JH >3", "3: KD TD 8D AD >3", "3: QD 9D 7D JD >3",
            "3: KC TC 8C QC >3", "3: AC 9C 7C JC >2"]},
        {"dealer": 2, "seats": S4, "pre": ["capot"], "tricks": [
            "3: JH TH KH 8H >1", "1: KS 7C 9D 8S >1", "1: QS 8C TD 7S >1",
            "1: JS 9C AD KC >1", "1: AS TC JD QC >1", "1: TS 8D QD JC >1",
            "1: 9S 7D KD AC >1", "1: QH 7H AH 9H >1"]},
    ],
    "expected": {
        "deals": [{"scores": [5, 5, 0, 5]}, {"scores": [0, 0, 1, 9]},
                  {"scores": [0, 5, 0, 5]}],
        "totals": [5, 10, 1, 19], "finished": True, "winners": [0, 1, 2], "losers": [3],
    },
}

SPECS["polignac-rounds-general"] = {
    "preset": "polignac-rounds",
    "rules": {"deals": 2},
    "players": P4,
    "why": (
        "Rank A K Q J T 9 8 7, general (scores as capot), a fixed 2 deals, lowest total wins. "
        "Deal 1 (dealer 0): eldest Bob declares general at once, holds all eight hearts and "
        "leads them; nobody can follow: 8 tricks, general made: Bob 0, others +5 = "
        "[5,0,5,5]. Deal 2 (dealer 1): Cyd passes, Dee declares general; she wins tricks 1-7 "
        "(taking her own JS, Bob's discarded JC and Ann's discarded JD) but leads 7D at trick "
        "8 and Ann's TD wins it, Cyd discarding JH on it: general failed, Dee +5 + JS 2 + JC 1 "
        "+ JD 1 = 9, Ann 1 (JH) = [1,0,0,9]. Totals [6,0,5,14] after the 2 agreed deals: Bob "
        "has the lowest total and wins alone."
    ),
    "deals": [
        {"dealer": 0, "seats": S4, "pre": ["general"], "tricks": [
            "1: AH 7S 7D 7C >1", "1: KH 8S 8D 8C >1", "1: QH 9S 9D 9C >1",
            "1: JH TS TD TC >1", "1: TH JS JD JC >1", "1: 9H QS QD QC >1",
            "1: 8H KS KD KC >1", "1: 7H AS AD AC >1"]},
        {"dealer": 1, "seats": S4, "pre": ["pass", "general"], "tricks": [
            "2: 7H AH 8S AC >3", "3: AS 7S KC AD >3", "3: KS 9S QC KD >3",
            "3: QS TS JC QD >3", "3: JS JD TC 8H >3", "3: KH 8D 9C 9H >3",
            "3: QH 9D 8C TH >3", "3: 7D TD 7C JH >0"]},
    ],
    "expected": {
        "deals": [{"scores": [5, 0, 5, 5]}, {"scores": [1, 0, 0, 9]}],
        "totals": [6, 0, 5, 14], "finished": True, "winners": [1], "losers": [0, 2, 3],
    },
}

SPECS["polignac-threshold-tiebreaks"] = {
    "preset": "polignac-threshold",
    "rules": {"threshold": 5},
    "players": P4,
    "why": (
        "Threshold 5, lowest total wins, ties for lowest play tie-break deals among "
        "themselves (removals for that many players: black sevens out for 3 and for 2), "
        "tie-break scores not added, dealer = first tied player strictly after the previous "
        "dealer. Deal 1 (dealer Ann, all pass): Bob holds all spades and leads them up from "
        "7S; nobody can follow, he wins all 8 tricks and all Jacks (an unannounced slam is "
        "ordinary here): [0,5,0,0]. Bob reaches 5; Ann, Cyd, Dee tie for lowest (0). "
        "Deal 2: tie-break among seats 0,2,3, 30 cards (no 7C 7S); dealer = first tied after "
        "Ann = Cyd; eldest Dee; all pass; Dee leads her seven spades (Ann and Cyd void, "
        "discarding JH, JC, JD on them) then the K of hearts, diamonds, clubs: Dee takes all "
        "Jacks = 5, Ann 0, Cyd 0: some but not all tie for fewest, so the next tie-break is "
        "Ann against Cyd only. Deal 3: dealer = first tied after Cyd = Ann (Dee is out); "
        "eldest Cyd passes, Ann declares capot; Cyd leads 7 spades, then 7D which Ann's QD "
        "wins (capot failed), and Cyd wins the rest with KD, JD, JH, KC, JC, KH, QH: Ann +5 "
        "(no Jack), Cyd all Jacks 5: both 5, all the tie-break players tie, play another. "
        "Deal 4: dealer = first tied after Ann = Cyd; eldest Ann; both pass; Ann wins 7 spade "
        "tricks (JS = 2, Cyd discarding clubs and 7D), Cyd wins the 8 heart/club/diamond "
        "tricks with JH, JC, JD (3). Ann has fewer and wins. Totals stay [0,5,0,0]."
    ),
    "deals": [
        {"dealer": 0, "seats": S4, "pre": PASS4, "tricks": [
            "1: 7S 7H 7D 7C >1", "1: 8S 8H 8D 8C >1", "1: 9S 9H 9D 9C >1",
            "1: TS TH TD TC >1", "1: AS AH AD AC >1", "1: JS JH JD JC >1",
            "1: QS QH QD QC >1", "1: KS KH KD KC >1"]},
        {"dealer": 2, "seats": [0, 2, 3], "pre": ["pass"] * 3, "tricks": [
            "2: KS JH JD >2", "2: QS JC QD >2", "2: JS QH AD >2", "2: AS AH TD >2",
            "2: TS TH 9D >2", "2: 9S 9H 8D >2", "2: 8S 8H 7D >2", "2: KH 7H TC >2",
            "2: KD QC 9C >2", "2: KC AC 8C >2"]},
        {"dealer": 0, "seats": [0, 2], "pre": ["pass", "capot"], "tricks": [
            "1: KS 8C >1", "1: QS 9C >1", "1: JS TC >1", "1: AS 8D >1", "1: TS 9D >1",
            "1: 9S TD >1", "1: 8S 7H >1", "1: 7D QD >0", "0: AD KD >1", "1: JD 8H >1",
            "1: JH 9H >1", "1: KC QC >1", "1: JC AC >1", "1: KH TH >1", "1: QH AH >1"]},
        {"dealer": 2, "seats": [0, 2], "pre": ["pass", "pass"], "tricks": [
            "0: KS 8C >0", "0: QS 9C >0", "0: JS TC >0", "0: AS AC >0", "0: TS QC >0",
            "0: 9S KC >0", "0: 8S 7D >0", "0: 7H KH >1", "1: QH 8H >1", "1: JH 9H >1",
            "1: JC AH >1", "1: JD 9D >1", "1: KD TD >1", "1: QD AD >1", "1: 8D TH >1"]},
    ],
    "expected": {
        "deals": [{"scores": [0, 5, 0, 0]},
                  {"scores": [0, 0, 0, 5], "tiebreak": True},
                  {"scores": [5, 0, 5, 0], "tiebreak": True},
                  {"scores": [2, 0, 3, 0], "tiebreak": True}],
        "totals": [0, 5, 0, 0], "finished": True, "winners": [0], "losers": [1, 2, 3],
    },
}
