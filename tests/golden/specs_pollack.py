"""Golden specs: Pollack (hand-checked; see build.py)."""

from __future__ import annotations

from typing import Any

from specs_polignac import P4, S4

SPECS: dict[str, dict[str, Any]] = {}

# Hands by seat (used whole: these deals end at once with a claim).
HANDS = [
    "KS QS JS 8S 7S KH QH JH",
    "TS TH TD TC 9S 9H AS AH",
    "8H 7H AD KD QD JD 9D 8D",
    "7D AC KC QC JC 9C 8C 7C",
]


def claim_deal(dealer: int, calls: list[str]) -> dict[str, Any]:
    """A deal that ends at once: forehand (dealer + 1) makes ``calls``."""
    return {"dealer": dealer, "seats": S4, "rest": HANDS, "post": calls}


SPECS["pollack-six-parties-draw"] = {
    "preset": "pollack",
    "players": P4,
    "why": (
        "Six parties make a game; a wrong claim loses the partie; a claim ends the deal at "
        "once with what was counted. Deal 1 (dealer Ann): forehand Bob, before the first "
        "lead, announces four Tens (4, not three), the spade pollack TS 9S AS (3) and the "
        "heart pollack TH 9H AH (3): his side has 10, then claims: 10 < 21, wrong: side "
        "Ann/Cyd wins partie 1; deal scores 0 for Ann/Cyd and 10 for Bob/Dee. Deals 2-6 "
        "(dealers Bob, Cyd, Dee, Ann, Bob): forehand (Cyd, Dee, Ann, Bob, Cyd) claims at "
        "once with 0: wrong each time, the other side wins the partie: winners Bob/Dee, "
        "Ann/Cyd, Bob/Dee, Ann/Cyd, Bob/Dee. Parties 3-3: the game is a draw, finished with "
        "no winners and no losers; partie scores restart at 0 after each partie."
    ),
    "deals": [
        claim_deal(0, ["announce:four-tens", "announce:pollack-S", "announce:pollack-H",
                       "claim"]),
        claim_deal(1, ["claim"]), claim_deal(2, ["claim"]), claim_deal(3, ["claim"]),
        claim_deal(0, ["claim"]), claim_deal(1, ["claim"]),
    ],
    "first_dealer": 0,
    "expected": {
        "deals": [
            {"scores": [0, 10, 0, 10], "claim": {"seat": 1, "correct": False},
             "partie_winner": [0, 2]},
            {"scores": [0, 0, 0, 0], "claim": {"seat": 2, "correct": False},
             "partie_winner": [1, 3]},
            {"scores": [0, 0, 0, 0], "claim": {"seat": 3, "correct": False},
             "partie_winner": [0, 2]},
            {"scores": [0, 0, 0, 0], "claim": {"seat": 0, "correct": False},
             "partie_winner": [1, 3]},
            {"scores": [0, 0, 0, 0], "claim": {"seat": 1, "correct": False},
             "partie_winner": [0, 2]},
            {"scores": [0, 0, 0, 0], "claim": {"seat": 2, "correct": False},
             "partie_winner": [1, 3]},
        ],
        "totals": [0, 0, 0, 0], "finished": True, "winners": [], "losers": [],
        "parties": [[0, 2], [1, 3], [0, 2], [1, 3], [0, 2], [1, 3]],
    },
}
