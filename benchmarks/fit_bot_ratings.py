"""Fit the fixed ratings of the bot levels (``server/players/ratings.py:BOT_RATINGS``) from the
project's duplicate tournaments in ``benchmarks/results``.

Each result gives, on the same hand sets, the mean difference ``d`` in penalty
points a deal between two levels and the spread ``s`` of that paired difference.
Over a match of ``D`` deals the weaker level's total exceeds the stronger's with
probability about ``P = Phi(d * sqrt(D) / s)`` (normal approximation of a sum of
``D`` paired deals).  In openskill's Plackett-Luce model, the chance that one
player finishes above another is ``1 / (1 + exp(-delta / c))`` with
``c = sqrt(sum over the match's players of (sigma^2 + beta^2))``; so the levels'
``mu`` differ by ``delta = c * logit(P)``.  ``D`` is the mean number of deals of a
``polignac`` match (to 20 points) between ``medium`` bots, simulated here.
``medium`` is anchored at openskill's starting ``mu`` (25): a new account starts
level with it.  ``expert`` has not been measured stronger than ``hard``
(docs/bots.md), so it gets ``hard``'s rating.

    PYTHONPATH=src .venv/bin/python benchmarks/fit_bot_ratings.py
"""

from __future__ import annotations

import json
import math
import random
import statistics
from pathlib import Path

from polignac.bots.registry import make_bot
from polignac.bots.runner import play_match
from polignac.core import get_rules

RESULTS = Path(__file__).parent / "results"
PAIRS = (  # (stronger, weaker, result file): the stronger level sits in seat 0
    ("easy", "random", "polignac-easy.json"),
    ("medium", "easy", "polignac-medium.json"),
    ("hard", "medium", "polignac-hard-16.json"),
)
BETA = 25 / 6
BOT_SIGMA = 1.0
PLAYERS = 4


def paired(name: str) -> tuple[float, float]:
    """The mean and spread of the per-deal paired difference in a result file."""
    data = json.loads((RESULTS / name).read_text())
    diff = data["bots"][1]["diff_vs_first"]
    return float(diff["mean"]), float(diff["sd"])


def match_length(matches: int = 200, seed: int = 1) -> float:
    """The mean number of deals of a ``polignac`` match between four ``medium`` bots."""
    rules = get_rules("polignac", {})
    rng = random.Random(seed)
    bots = [make_bot("medium") for _ in range(PLAYERS)]
    return statistics.fmean(len(play_match(rules, PLAYERS, bots, rng).results)
                            for _ in range(matches))


def fit() -> dict[str, float]:
    """Each level's ``mu`` (``medium`` at 25)."""
    deals = match_length()
    c = math.sqrt(PLAYERS * (BOT_SIGMA ** 2 + BETA ** 2))
    gaps = {}
    for strong, weak, name in PAIRS:
        d, s = paired(name)
        p = statistics.NormalDist().cdf(d * math.sqrt(deals) / s)
        p = min(p, 0.999)
        gaps[(strong, weak)] = c * math.log(p / (1 - p))
        print(f"{strong} over {weak}: {d:+.3f} a deal (sd {s:.3f}), match of {deals:.1f} "
              f"deals: P = {p:.3f}, mu gap {gaps[(strong, weak)]:.2f}")
    mu = {"medium": 25.0}
    mu["easy"] = mu["medium"] - gaps[("medium", "easy")]
    mu["random"] = mu["easy"] - gaps[("easy", "random")]
    mu["hard"] = mu["medium"] + gaps[("hard", "medium")]
    mu["expert"] = mu["hard"]
    return {k: round(v, 2) for k, v in mu.items()}


if __name__ == "__main__":
    print(json.dumps(fit(), indent=1))
