"""A golden dump of the deal's end: seeded random matches of every preset and player
count, with everything a finished deal makes (score lines, scores, standings, family
results, sheets, views of every seat, records, summaries), hashed.

    PYTHONPATH=src .venv/bin/python benchmarks/profiling/golden_deal_end.py [--seeds 3]
    PYTHONPATH=src .venv/bin/python benchmarks/profiling/golden_deal_end.py --dump FILE

Run it on two trees (main and a branch) and compare the printed hashes (one per
preset and player count, then the total): a change to the end of a deal that keeps its
results must leave every hash as it was.  ``--dump`` writes the JSON lines themselves,
for a ``diff`` when a hash moves.  Not a test.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import pickle
import random
from typing import Any

from polignac.core import Deal, Match, get_rules, preset_names
from polignac.core.record import replay, summary, to_record

MAX_DEALS = 60
"""Deals played at most in one match (a match that has not ended by then stops)."""


def standing_facts(m: Match) -> dict[str, Any]:
    """The standing's every field, as text where it is not JSON."""
    st = m.standing
    return {"totals": st.totals, "counted": st.counted, "finished": st.finished,
            "winners": st.winners, "losers": st.losers, "tied": st.tied,
            "family_state": repr(st.family_state), "notes": st.notes,
            "needs_deal": m.needs_deal, "match_finished": m.finished}


def match_lines(preset: str, n: int, seed: int) -> list[str]:
    """The JSON lines of one seeded random match."""
    rules = get_rules(preset)
    rng = random.Random(seed)
    m = Match.new(rules, n, first_dealer=seed % n)
    out: list[str] = [json.dumps(standing_facts(m), default=repr)]
    deals = 0
    while not m.finished and deals < MAX_DEALS:
        if m.needs_deal:
            m = m.deal_random(rng)
            deals += 1
            continue
        before = len(m.results)
        m = m.apply(rng.choice(m.legal_actions()))
        if len(m.results) == before:
            continue
        r = m.results[-1]
        out.append(json.dumps({
            "number": r.number, "dealer": r.dealer, "seats": r.seats, "scores": r.scores,
            "tiebreak": r.tiebreak, "family_result": repr(r.family_result),
            "score": r.score.to_dict(), "score_repr": repr(r.score), "sheet": r.sheet(),
            "after": standing_facts(m) if r.after is m.standing else "after differs",
            "tricks": r.deal.tricks, "winners": r.deal.trick_winners,
            "takers": r.deal.point_takers(), "deal_score_again": r.deal.score().to_dict(),
            "standing": standing_facts(m), "places": m.places(),
        }, default=repr, sort_keys=True))
        seats: list[int | None] = [*range(n), None]
        out.append(json.dumps({str(k): v for k, v in m.views(seats).items()},
                              default=repr, sort_keys=True))
    record = to_record(m)
    out.append(json.dumps(record, sort_keys=True))
    out.append(json.dumps(summary(m), default=repr, sort_keys=True))
    again = replay(record)
    out.append(json.dumps(summary(again) == summary(m)))
    copied = pickle.loads(pickle.dumps(m))
    out.append(json.dumps([copied == m, copied.standing == m.standing]))
    return out


def lone_deal_lines(preset: str, n: int, seed: int) -> list[str]:
    """The JSON lines of seeded random deals played on their own (``Deal.shuffled``)."""
    rules = get_rules(preset)
    rng = random.Random(seed)
    out = []
    for i in range(4):
        deal = Deal.shuffled(rules, n, i % n, rng)
        while not deal.done:
            deal = deal.apply(rng.choice(deal.legal_actions()))
        out.append(json.dumps({"score": deal.score().to_dict(), "tricks": deal.tricks,
                               "takers": deal.point_takers()}, default=repr, sort_keys=True))
    return out


def main() -> None:
    """Print one hash per preset and player count, then the total."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--dump", default="")
    args = ap.parse_args()
    total = hashlib.sha256()
    dump = open(args.dump, "w", encoding="utf-8") if args.dump else None  # noqa: SIM115
    for preset in preset_names():
        for n in get_rules(preset).players:
            h = hashlib.sha256()
            for seed in range(args.seeds):
                for line in [*match_lines(preset, n, seed), *lone_deal_lines(preset, n, seed)]:
                    h.update(line.encode())
                    h.update(b"\n")
                    if dump is not None:
                        dump.write(f"{preset} {n} {seed} {line}\n")
            print(f"{preset:24} {n:2} {h.hexdigest()[:16]}")
            total.update(h.digest())
    if dump is not None:
        dump.close()
    print("total", total.hexdigest())


if __name__ == "__main__":
    main()
