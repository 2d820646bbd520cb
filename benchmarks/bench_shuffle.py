"""The verifiable shuffle (``polignac-shuffle/1``) against the shuffle it replaced.

    .venv/bin/python benchmarks/bench_shuffle.py [--repeats N]

Times ``polignac.core.shuffle.deal_order`` (seed and four cuts, HMAC-SHA-256 in
counter mode, Fisher-Yates with rejection) and, in the same run, the server's
former shuffle (``secrets.SystemRandom().shuffle`` of the same pack), for the
32-card pack of 4-player Polignac and the 52-card pack of Knaves; prints the
microseconds per deal and the ratio (ours / reference).  The aim: about the
reference's cost, a fraction of a millisecond (it runs on the server's event
loop once a deal).
"""

from __future__ import annotations

import argparse
import secrets
import statistics
import time

from polignac.core import cards_of, get_rules
from polignac.core.shuffle import deal_order


def _time(fn: object, repeats: int) -> float:
    """Median microseconds of ``fn()`` over ``repeats`` rounds of 200 calls."""
    rounds = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(200):
            fn()  # type: ignore[operator]
        rounds.append((time.perf_counter() - start) / 200 * 1e6)
    return statistics.median(rounds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    system = secrets.SystemRandom()
    seed = secrets.token_bytes(32)
    cuts = [secrets.token_bytes(16) for _ in range(4)]
    print(f"{'pack':<22} {'ours us':>8} {'reference us':>13} {'ratio':>6}")
    for preset, n in (("polignac", 4), ("knaves", 3)):
        rules = get_rules(preset)
        pack = cards_of(rules.pack_mask(n))

        def ours(rules: object = rules, n: int = n) -> None:
            deal_order(rules, n, seed, "table-id", 7, cuts[:n])  # type: ignore[arg-type]

        def reference(pack: list[int] = pack) -> None:
            order = list(pack)
            system.shuffle(order)

        a, b = _time(ours, args.repeats), _time(reference, args.repeats)
        print(f"{preset + f' {n}p ({len(pack)} cards)':<22} {a:>8.1f} {b:>13.1f} {a / b:>6.2f}")


if __name__ == "__main__":
    main()
