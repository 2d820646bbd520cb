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


def rot(tricks: list[str], k: int, n: int = 4) -> list[str]:
    """Rotate a trick list by ``k`` players (same hands, moved ``k`` seats on)."""
    out = []
    for line in tricks:
        head, _, body = line.partition(":")
        tokens = body.split()
        tokens = [f">{(int(t[1:]) + k) % n}" if t.startswith(">") else t for t in tokens]
        out.append(f"{(int(head) + k) % n}: " + " ".join(tokens))
    return out


# Dealer 0, eldest 1 leads; seat 2 holds the K and Q of every suit and wins all 8
# tricks (K and Q are the top two in K Q J A T 9 8 7); seat 1 holds J, A of each
# suit, seat 3 T, 9, seat 0 8, 7.
PB = ["1: AS KS TS 8S >2", "2: QS 9S 7S JS >2", "2: KH TH 8H AH >2",
      "2: QH 9H 7H JH >2", "2: KD TD 8D AD >2", "2: QD 9D 7D JD >2",
      "2: KC TC 8C AC >2", "2: QC 9C 7C JC >2"]
# Dealer 1, eldest 2 leads; seat 3 wins tricks 1-7 (taking JS, JH, JD) and loses
# the last to seat 2's JC (J above A).
PC = ["2: AS KS TS 8S >3", "3: QS 9S 7S JS >3", "3: KH TH 8H AH >3",
      "3: QH 9H 7H JH >3", "3: KD TD 8D AD >3", "3: QD 9D 7D JD >3",
      "3: KC TC 8C QC >3", "3: AC 9C 7C JC >2"]
# Dealer 2, eldest 3 leads JH; seat 1 wins every trick and takes all four Jacks.
PD = ["3: JH TH KH 8H >1", "1: KS 7C 9D 8S >1", "1: QS 8C TD 7S >1",
      "1: JS 9C AD KC >1", "1: AS TC JD QC >1", "1: TS 8D QD JC >1",
      "1: 9S 7D KD AC >1", "1: QH 7H AH 9H >1"]
# Dealer 0, eldest 1: every trick is four cards of one suit; under K Q J A T 9 8 7:
# Bob takes JD (and QS), Dee QD, Cyd JC (and QH), Ann QC, JS, JH.
PN = ["1: KD JD TD 8D >1", "1: AD 7D QD 9D >3", "3: JC TC 8C KC >2",
      "2: 9C 7C QC AC >0", "0: KS JS TS 8S >0", "0: KH TH JH 8H >0",
      "0: 7S QS AS 9S >1", "1: 7H QH AH 9H >2"]
# Three players, dealer 1, eldest 2 holds seven spades and the red and black Kings:
# wins all ten tricks (30 cards, no 7C 7S).
P3SLAM = ["2: KS JH JD >2", "2: QS JC QD >2", "2: JS QH AD >2", "2: AS AH TD >2",
          "2: TS TH 9D >2", "2: 9S 9H 8D >2", "2: 8S 8H 7D >2", "2: KH 7H TC >2",
          "2: KD QC 9C >2", "2: KC AC 8C >2"]

SPECS["polignac-threshold-general"] = {
    "preset": "polignac-threshold-general",
    "rules": {"threshold": 10},
    "players": P4,
    "why": (
        "general-bonus: success = declarer -5, each opponent +5; failure = declarer +5 and "
        "Jacks as usual; threshold 10, lowest total wins. Deal 1 (dealer 0): eldest Bob "
        "declares general, holds all spades and leads them from 7S up; nobody can follow: "
        "general made, [5,-5,5,5]. Deal 2 (dealer 1): Cyd passes, Dee declares general, wins "
        "tricks 1-7 (JS, JH, JD) but Cyd's JC beats her AC at trick 8 (J above A): Dee +5 + "
        "2+1+1 = 9, Cyd 1: [0,0,1,9]. Totals [5,-5,6,14]: Dee reached 10, Bob's -5 is the "
        "lowest: Bob wins alone."
    ),
    "deals": [
        {"dealer": 0, "seats": S4, "pre": ["general"], "tricks": [
            "1: 7S 7H 7D 7C >1", "1: 8S 8H 8D 8C >1", "1: 9S 9H 9D 9C >1",
            "1: TS TH TD TC >1", "1: AS AH AD AC >1", "1: JS JH JD JC >1",
            "1: QS QH QD QC >1", "1: KS KH KD KC >1"]},
        {"dealer": 1, "seats": S4, "pre": ["pass", "general"], "tricks": PC},
    ],
    "expected": {
        "deals": [{"scores": [5, -5, 5, 5]}, {"scores": [0, 0, 1, 9]}],
        "totals": [5, -5, 6, 14], "finished": True, "winners": [1], "losers": [0, 2, 3],
    },
}

SPECS["polignac-fr-chelem-highest-loses"] = {
    "preset": "polignac-fr",
    "rules": {"threshold": 6},
    "players": P4,
    "why": (
        "Automatic chelem (no declaration round): whoever takes every trick scores 0 and "
        "each other player +5; threshold 6, highest total loses (RULES 4: after a chelem "
        "several may reach the threshold, the highest alone loses). Deal 1 (dealer 0, eldest "
        "Bob), every trick one suit: Bob's KD takes JD, Dee's QD the diamond Q trick, Cyd's "
        "KC takes JC, Ann's QC, then Ann's KS takes JS and KH takes JH, Bob's QS, Cyd's QH: "
        "Ann 2+1 = 3, Bob 1, Cyd 1, Dee 0. Deal 2 (dealer 1, eldest Cyd leads AS): Dee holds "
        "the K and Q of every suit and wins all 8 tricks: chelem, [5,5,5,0]. Totals "
        "[8,6,6,0]: Ann, Bob and Cyd all reach 6; Ann's 8 is the highest: she alone loses."
    ),
    "deals": [
        {"dealer": 0, "seats": S4, "tricks": PN},
        {"dealer": 1, "seats": S4, "tricks": rot(PB, 1)},
    ],
    "expected": {
        "deals": [{"scores": [3, 1, 1, 0]}, {"scores": [5, 5, 5, 0]}],
        "totals": [8, 6, 6, 0], "finished": True, "winners": [1, 2, 3], "losers": [0],
    },
}

SPECS["polignac-fr-chelem-tie-all-lose"] = {
    "preset": "polignac-fr",
    "rules": {"threshold": 5},
    "players": P4,
    "why": (
        "Automatic chelem, threshold 5. Deal 1 (dealer 0, eldest Bob leads AS): Cyd holds "
        "the K and Q of every suit, wins all 8 tricks (nobody declared anything: the chelem "
        "is automatic): Cyd 0, each other +5 = [5,5,0,5]. Ann, Bob and Dee reach 5 together "
        "and share the highest total: all three lose; Cyd wins."
    ),
    "deals": [{"dealer": 0, "seats": S4, "tricks": PB}],
    "expected": {
        "deals": [{"scores": [5, 5, 0, 5]}],
        "totals": [5, 5, 0, 5], "finished": True, "winners": [2], "losers": [0, 1, 3],
    },
}

SPECS["polignac-fr-generale"] = {
    "preset": "polignac-fr-generale",
    "rules": {"threshold": 15},
    "players": P4,
    "why": (
        "La générale: announced; the declarer leads the first trick; success = declarer 0, "
        "others +5; failure = declarer +5 whatever Jacks he took, others score their Jacks; "
        "an unannounced slam is an ordinary deal. Threshold 15, highest loses. Deal 1 "
        "(dealer 0): Bob passes, Cyd declares and leads KS herself (not eldest Bob); with "
        "K, Q of every suit she takes all 8 tricks: [5,5,0,5]. Deal 2 (dealer 1, all pass): "
        "eldest Cyd leads JH, Ann's KH wins and Ann wins every trick: no générale was "
        "announced, so it is an ordinary deal: Ann takes all Jacks = 5: [5,0,0,0]. Deal 3 "
        "(dealer 2): eldest Dee passes, Ann declares générale and leads KS; she wins tricks "
        "1-7 (JS, JH, JD among them) but Dee's JC beats her AC at trick 8 (J above A): Ann "
        "+5 only (her own Jacks do not count), Dee 1 (JC): [5,0,0,1]. Totals [15,5,0,6]: "
        "Ann reaches 15 and loses alone."
    ),
    "deals": [
        {"dealer": 0, "seats": S4, "pre": ["pass", "generale"],
         "tricks": ["2: KS TS 8S AS >2"] + PB[1:]},
        {"dealer": 1, "seats": S4, "pre": PASS4, "tricks": rot(PD, 3)},
        {"dealer": 2, "seats": S4, "pre": ["pass", "generale"],
         "tricks": ["0: KS TS 8S AS >0"] + rot(PC, 1)[1:]},
    ],
    "expected": {
        "deals": [{"scores": [5, 5, 0, 5]}, {"scores": [5, 0, 0, 0]},
                  {"scores": [5, 0, 0, 1]}],
        "totals": [15, 5, 0, 6], "finished": True, "winners": [1, 2, 3], "losers": [0],
    },
}

SPECS["quatre-valets"] = {
    "preset": "quatre-valets",
    "rules": {"threshold": 8},
    "players": P4,
    "why": (
        "Every Jack 1 point (JS too), capot, threshold 8, highest loses. Deal 1 (dealer 0, "
        "all pass, every trick one suit): Bob's KD takes JD, Cyd's KC takes JC, Ann's KS and "
        "KH take JS and JH: [2,1,1,0]. Deal 2 (dealer 1): Cyd passes, Dee declares capot, "
        "wins 7 tricks with JS, JH, JD, loses the last to Cyd's JC: Dee +5 + 3 = 8, Cyd 1: "
        "[0,0,1,8]. Totals [2,1,2,8]: Dee reaches 8 and loses alone."
    ),
    "deals": [
        {"dealer": 0, "seats": S4, "pre": PASS4, "tricks": PN},
        {"dealer": 1, "seats": S4, "pre": ["pass", "capot"], "tricks": PC},
    ],
    "expected": {
        "deals": [{"scores": [2, 1, 1, 0]}, {"scores": [0, 0, 1, 8]}],
        "totals": [2, 1, 2, 8], "finished": True, "winners": [0, 1, 2], "losers": [3],
    },
}

SPECS["two-knaves"] = {
    "preset": "two-knaves",
    "rules": {"threshold": 8},
    "players": ["Ann", "Bob", "Cyd"],
    "why": (
        "Three players: 7C and 7S removed, 10 cards each; only JS (2) and JD (1) score; "
        "capot; threshold 8. Deal 1 (dealer 0, all pass): eldest Bob holds seven spades and "
        "the Kings of hearts, diamonds and clubs and wins all 10 tricks (Ann and Cyd discard "
        "JH, JC, JD on his spades): no capot was declared, an ordinary deal: JS 2 + JD 1 = 3, "
        "JH and JC score nothing: [0,3,0]. Deal 2 (dealer 1): eldest Cyd declares capot with "
        "the same kind of hand and wins all 10 tricks: capot made, [5,5,0]. Totals [5,8,0]: "
        "Bob reaches 8 and loses alone."
    ),
    "deals": [
        {"dealer": 0, "seats": [0, 1, 2], "pre": ["pass"] * 3, "tricks": rot(P3SLAM, 2, 3)},
        {"dealer": 1, "seats": [0, 1, 2], "pre": ["capot"], "tricks": P3SLAM},
    ],
    "expected": {
        "deals": [{"scores": [0, 3, 0]}, {"scores": [5, 5, 0]}],
        "totals": [5, 8, 0], "finished": True, "winners": [0, 2], "losers": [1],
    },
}

SPECS["polignac-queens"] = {
    "preset": "polignac-queens",
    "rules": {"threshold": 2},
    "players": P4,
    "why": (
        "Ace-high (A K Q J T 9 8 7); the Queens score: QS 2, other Queens 1; Jacks nothing. "
        "Threshold 2. Deal 1 (dealer 0, all pass), every trick one suit: Bob's AH takes QH, "
        "Bob's KS wins a spade trick, Cyd's KH wins a heart trick, Cyd's AD takes QD, AC "
        "takes QC, Dee's KD and KC win, and Ann's AS takes QS at the last trick: Ann 2, Bob "
        "1, Cyd 2, Dee 0. Ann and Cyd reach 2 and share the highest total: both lose."
    ),
    "deals": [{"dealer": 0, "seats": S4, "pre": PASS4, "tricks": [
        "1: AH QH 9H 8H >1", "1: KS TS 7S JS >1", "1: JH KH TH 7H >2",
        "2: AD QD 9D 8D >2", "2: AC QC 9C 8C >2", "2: JD KD TD 7D >3",
        "3: KC TC 7C JC >3", "3: 8S AS QS 9S >0"]}],
    "expected": {
        "deals": [{"scores": [2, 1, 2, 0]}],
        "totals": [2, 1, 2, 0], "finished": True, "winners": [1, 3], "losers": [0, 2],
    },
}

SPECS["obern"] = {
    "preset": "obern",
    "rules": {"threshold": 6},
    "players": P4,
    "why": (
        "Polignac rules (K Q J A T 9 8 7, capot) on a German pack; the four Obers (Q) 1 each, "
        "Unters (J) nothing. Threshold 6. Deal 1 (dealer 0, all pass), every trick one suit: "
        "the Q-tricks {Q,A,9,7} are won by the Queen: Dee QD, Ann QC, Bob QS, Cyd QH: "
        "[1,1,1,1]. Deal 2 (dealer 1): eldest Cyd passes, Dee declares capot with the K and "
        "Q (Ober) of every suit and wins all 8 tricks: [5,5,5,0]. Totals [6,6,6,1]: Ann, Bob "
        "and Cyd reach 6 together: all three lose, Dee wins."
    ),
    "deals": [
        {"dealer": 0, "seats": S4, "pre": PASS4, "tricks": PN},
        {"dealer": 1, "seats": S4, "pre": ["pass", "capot"], "tricks": rot(PB, 1)},
    ],
    "expected": {
        "deals": [{"scores": [1, 1, 1, 1]}, {"scores": [5, 5, 5, 0]}],
        "totals": [6, 6, 6, 1], "finished": True, "winners": [3], "losers": [0, 1, 2],
    },
}

SPECS["polignac-party"] = {
    "preset": "polignac-party",
    "rules": {"threshold": 5},
    "players": ["Ann", "Bob", "Cyd", "Dee", "Eve"],
    "why": (
        "52-card pack, 5 players: 52 % 5 = 2, so the two lowest cards in the order C, S are "
        "removed (2C, 2S): 50 cards, 10 each. Rank K Q J A T 9 ... 2. Deal 1 (dealer 0): "
        "eldest Bob declares capot holding ten hearts from K to 5; trick 1 (KH) the others "
        "follow with 4H 3H 2H, Ann discards; then nobody else has hearts and each lead is the "
        "best heart left: Bob wins all 10 tricks: capot made, Bob 0, others +5. Threshold 5: "
        "Ann, Cyd, Dee and Eve share the highest total and lose; Bob wins."
    ),
    "deals": [{"dealer": 0, "seats": [0, 1, 2, 3, 4], "pre": ["capot"], "tricks": [
        "1: KH 4H 3H 2H 5S >1", "1: QH KS KD KC 4S >1", "1: JH QS QD QC 3S >1",
        "1: AH JS JD JC 5D >1", "1: TH AS AD AC 4D >1", "1: 9H TS TD TC 3D >1",
        "1: 8H 9S 9D 9C 2D >1", "1: 7H 8S 8D 8C 5C >1", "1: 6H 7S 7D 7C 4C >1",
        "1: 5H 6S 6D 6C 3C >1"]}],
    "expected": {
        "deals": [{"scores": [5, 0, 5, 5, 5]}],
        "totals": [5, 0, 5, 5, 5], "finished": True, "winners": [1], "losers": [0, 2, 3, 4],
    },
}
