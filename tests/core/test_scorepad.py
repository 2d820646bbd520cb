"""The score pad: hand-checked deals per game family, and the engine as the oracle."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polignac.core import CLAIM, DealResult, Match, get_rules
from polignac.core.cards import CODES
from polignac.core.pollack import parties_of
from polignac.core.scorepad import (
    ScorePad,
    ScorePadError,
    point_cards_in_play,
)

NAMES4 = ["Ann", "Bob", "Cy", "Di"]
JACKS = {"JS": 0, "JC": 1, "JD": 1, "JH": 2}


def pad(preset: str, names: list[str] | None = None, **overrides: Any) -> ScorePad:
    return ScorePad.new(get_rules(preset, overrides), names or NAMES4)


def error(p: ScorePad, entry: dict[str, Any]) -> ScorePadError:
    with pytest.raises(ScorePadError) as info:
        p.add(entry)
    return info.value


# ------------------------------------------------------------- Polignac family


def test_polignac_jacks_and_dealer_rotation() -> None:
    p = pad("polignac", threshold=10)
    p = p.add({"taken": JACKS})
    assert p.totals == (2, 2, 1, 0)
    assert p.next_dealer == 1
    p = p.add({"taken": {"JS": 3, "JC": 3, "JD": 3, "JH": 3}})
    assert p.totals == (2, 2, 1, 5)
    assert p.next_dealer == 2
    assert not p.finished


def test_polignac_threshold_loser() -> None:
    p = pad("polignac", threshold=10)
    for _ in range(2):
        p = p.add({"taken": {"JS": 1, "JC": 1, "JD": 1, "JH": 1}})
    assert p.totals == (0, 10, 0, 0)
    assert p.finished and p.losers == (1,) and p.winners == (0, 2, 3)
    assert error(p, {"taken": JACKS}).field == "entry"


def test_capot_made_and_failed() -> None:
    p = pad("polignac")
    made = p.add({"taken": {"JS": 2, "JC": 2, "JD": 2, "JH": 2},
                  "contract": {"declarer": 2, "made": True}})
    assert made.totals == (5, 5, 0, 5)
    failed = p.add({"taken": JACKS, "contract": {"declarer": 1, "made": False}})
    assert failed.totals == (2, 7, 1, 0)  # +5 and the Jacks as usual


def test_general_bonus_and_generale() -> None:
    p = pad("polignac-threshold-general")
    assert p.add({"taken": dict.fromkeys(JACKS, 0),
                  "contract": {"declarer": 0, "made": True}}).totals == (-5, 5, 5, 5)
    g = pad("polignac-fr-generale")
    # a failed générale: the declarer scores 5 whatever Jacks he took
    assert g.add({"taken": JACKS, "contract": {"declarer": 1, "made": False}}
                 ).totals == (2, 5, 1, 0)


def test_automatic_chelem_from_slam_or_tricks() -> None:
    p = pad("polignac-fr")
    assert p.add({"taken": dict.fromkeys(JACKS, 3), "slam": 3}).totals == (5, 5, 5, 0)
    assert p.add({"taken": dict.fromkeys(JACKS, 3),
                  "tricks": [0, 0, 0, 8]}).totals == (5, 5, 5, 0)
    assert p.add({"taken": dict.fromkeys(JACKS, 3)}).totals == (0, 0, 0, 5)
    assert error(p, {"taken": JACKS, "slam": 3}).field == "taken.JC"


def test_revoke_penalties_by_preset() -> None:
    assert pad("polignac-rounds").add({"taken": JACKS, "revokes": [3]}).totals == (2, 2, 1, 3)
    assert pad("polignac-threshold").add({"taken": JACKS, "revokes": [3]}).totals == (2, 2, 1, 5)
    e = error(pad("polignac"), {"taken": JACKS, "revokes": [3]})
    assert e.field == "revokes" and "revoke_penalty" in str(e)
    house = ScorePad.new(get_rules("polignac"), NAMES4, revoke_penalty=2)
    assert house.add({"taken": JACKS, "revokes": [3, 3]}).totals == (2, 2, 1, 4)


def test_misdeal_and_exposed_cards() -> None:
    p = pad("polignac-threshold").add({"misdeal": True})
    assert p.totals == (0, 0, 0, 0) and p.next_dealer == 0
    p = p.add({"taken": JACKS, "exposed": [{"player": 1, "cards": "AH"}]})
    assert p.totals == (2, 2, 1, 0) and p.next_dealer == 1
    assert p.deals[1].entry.exposed == ((1, "AH"),)


def test_validation_names_the_field() -> None:
    p = pad("polignac")
    assert error(p, {"taken": {"JS": 0, "JC": 1, "JD": 1}}).field == "taken.JH"
    assert error(p, {"taken": {**JACKS, "QS": 1}}).field == "taken.QS"
    assert error(p, {"taken": {**JACKS, "JS": 7}}).field == "taken.JS"
    assert error(p, {"taken": {**JACKS, "XX": 1}}).field == "taken.XX"
    assert error(p, {"taken": JACKS, "tricks": [1, 1, 1, 1]}).field == "tricks"
    assert error(p, {"taken": JACKS, "tricks": [0, 1, 7, 0]}).field == "taken.JS"
    assert error(p, {"taken": JACKS, "card_points": [1]}).field == "card_points"
    assert error(p, {"taken": JACKS, "bogus": 1}).field == "bogus"
    assert error(p, {"taken": JACKS, "contract": {"declarer": 0, "made": True}}
                 ).field == "taken.JC"
    assert error(pad("slobberhannes"), {"taken": {"QC": 0}}).field == "first_trick"


def test_threshold_lowest_wins_tiebreak_among_tied_only() -> None:
    p = pad("polignac-threshold", threshold=5)
    # Ann 5 (the threshold), Bob 0, Cy 0, Di 0: Bob, Cy and Di tie for lowest.
    p = p.add({"taken": dict.fromkeys(JACKS, 0)})
    assert not p.finished and p.tied == (1, 2, 3)
    assert p.next_deal() == (1, (1, 2, 3))
    form = p.form()
    assert form["tiebreak"] and form["seats"] == [1, 2, 3]
    assert error(p, {"taken": dict.fromkeys(JACKS, 0)}).field == "taken.JC"
    # Bob 3, Cy 2, Di 0: Di alone has the fewest and wins.
    p = p.add({"taken": {"JS": 1, "JC": 2, "JD": 2, "JH": 1}})
    assert p.finished and p.winners == (3,) and p.losers == (0, 1, 2)
    assert p.totals == (5, 0, 0, 0)  # tie-break penalties do not count


def test_tiebreak_narrows_to_those_tied_for_fewest() -> None:
    p = pad("polignac-threshold", threshold=5).add({"taken": dict.fromkeys(JACKS, 0)})
    p = p.add({"taken": {"JS": 1, "JC": 1, "JD": 1, "JH": 1}})  # Cy and Di still tie
    assert p.tied == (2, 3) and p.next_deal() == (2, (2, 3))
    assert p.form()["point_cards"] == ["JC", "JD", "JH", "JS"]
    p = p.add({"taken": {"JS": 2, "JC": 3, "JD": 3, "JH": 3}})
    assert p.finished and p.winners == (2,)


def test_fixed_deals() -> None:
    p = pad("polignac-rounds", deals=2)
    p = p.add({"taken": JACKS, "contract": {"declarer": 3, "made": False}})
    p = p.add({"misdeal": True})
    assert not p.finished
    p = p.add({"taken": {"JS": 3, "JC": 2, "JD": 2, "JH": 2}})
    assert p.totals == (2, 2, 4, 7)
    assert p.finished and p.winners == (0, 1)


# ------------------------------------------------------------- Slobberhannes


def test_slobberhannes_all_three() -> None:
    p = pad("slobberhannes")
    p = p.add({"taken": {"QC": 2}, "first_trick": 0, "last_trick": 1})
    assert p.totals == (1, 1, 1, 0)
    p = p.add({"taken": {"QC": 3}, "first_trick": 3, "last_trick": 3})
    assert p.totals == (1, 1, 1, 4)


# ------------------------------------------------------------------ Knaves


def test_knaves_tricks_jacks_and_turn_up() -> None:
    p = pad("knaves", ["A", "B", "C"])
    p = p.add({"taken": {"JS": 0, "JC": 1, "JD": 2, "JH": None}, "tricks": [8, 5, 4]})
    assert p.totals == (7, 3, 1)
    assert error(p, {"taken": {"JS": None, "JC": None, "JD": 2, "JH": 2},
                     "tricks": [8, 5, 4]}).field == "taken.JS"
    assert error(p, {"taken": {"JS": 0, "JC": 1, "JD": 2, "JH": 2}}).field == "tricks"
    p = p.add({"taken": {"JS": 1, "JC": 1, "JD": 2, "JH": 2}, "tricks": [15, 1, 1]})
    assert p.totals == (22, 1, -5)
    assert p.finished and p.winners == (0,)


# -------------------------------------------------------------- Bassadewitz


def test_bassadewitz_pool_sweep_overload() -> None:
    p = pad("bassadewitz")
    p = p.add({"card_points": [40, 0, 30, 50], "tricks": [3, 1, 2, 2]})
    # fewest: Bob 0 (5), Cy 30 (4), Ann 40 (3); Ann also paid the stake 12.
    assert p.totals == (-9, 5, 4, 0)
    # no trick beats a trick without points: Cy no trick, Di one trick 0 points
    q = pad("bassadewitz").add({"card_points": [60, 60, 0, 0], "tricks": [4, 3, 0, 1]})
    assert q.totals == (-12, 3, 5, 4)  # Ann and Bob tie: Bob, the eldest, is placed first
    # sweep: redeal by the same dealer, no new stake
    s = pad("bassadewitz").add({"card_points": [0, 120, 0, 0], "tricks": [0, 8, 0, 0]})
    assert s.totals == (-16, 12, -4, -4) and s.family_state.waiting and s.next_dealer == 0
    s = s.add({"card_points": [10, 100, 10, 0], "tricks": [1, 5, 1, 1]})
    assert s.totals == (-12, 0, 0, 0) and s.next_dealer == 0
    s = s.add({"card_points": [30, 30, 30, 30], "tricks": [2, 2, 2, 2]})
    assert s.family_state.waiting and s.counted_deals == 0
    assert error(s, {"card_points": [30, 30, 30, 20], "tricks": [2, 2, 2, 2]}
                 ).field == "card_points"
    assert error(s, {"card_points": [30, 30, 30, 30], "tricks": [2, 2, 4, 0]}
                 ).field == "card_points[3]"


def test_bassadewitz_match_end() -> None:
    p = pad("bassadewitz", deals=4)
    for _ in range(4):
        p = p.add({"card_points": [40, 0, 30, 50], "tricks": [3, 1, 2, 2]})
    # each deals once (-12); per deal Ann +3, Bob +5, Cy +4, Di 0
    assert p.finished and p.totals == (0, 8, 4, -12) and p.winners == (1,)


# ------------------------------------------------------------------ Pollack


def test_pollack_deal_claim_and_parties() -> None:
    p = pad("pollack", parties=1)
    p = p.add({"card_points": [20, 12], "last_trick": 0,
               "announcements": [{"player": 1, "announcement": "three-aces"}]})
    assert p.totals == (7, 7, 7, 7)  # 23 // 3 = 7; 12 // 3 + 3 = 7
    assert parties_of(p.standing).partie == (7, 7)
    assert error(p, {"card_points": [20, 12]}).field == "last_trick"
    assert error(p, {"card_points": [20, 10], "last_trick": 1}).field == "card_points"
    two = [{"player": 0, "announcement": "three-tens"},
           {"player": 2, "announcement": "four-tens"}]
    assert error(p, {"card_points": [20, 12], "last_trick": 0, "announcements": two}
                 ).field == "announcements[1]"
    for first, again, what in (("three-tens", "four-tens", "rank"),
                               ("pollack-H", "pollack-H", "pollack")):
        twice = [{"player": 3, "announcement": first}, {"player": 3, "announcement": again}]
        err = error(p, {"card_points": [20, 12], "last_trick": 0, "announcements": twice})
        assert err.field == "announcements[1]" and f"already announced that {what}" in str(err)
    # a wrong claim loses the partie
    w = p.add({"card_points": [6, 3], "claim": 0})
    assert w.finished and w.winners == (1, 3)
    # a correct claim: 7 + 4 + 30 // 3 = 21
    c = p.add({"card_points": [30, 0], "claim": 2,
               "announcements": [{"player": 0, "announcement": "four-nines"}]})
    assert c.finished and c.winners == (0, 2) and parties_of(c.standing).parties_won == (0,)


# ------------------------------------------------------------ serializing


def test_json_round_trip_and_undo() -> None:
    p = pad("polignac", threshold=10).add({"taken": JACKS}).add({"misdeal": True})
    q = ScorePad.from_json(p.to_json())
    assert q == p
    assert p.undo().undo() == pad("polignac", threshold=10)
    data = p.to_dict()
    assert data["overrides"] == {"threshold": 10}
    assert data["next"]["dealer"] == 1
    data["entries"][0]["taken"]["JS"] = 9
    with pytest.raises(ScorePadError) as info:
        ScorePad.from_dict(data)
    assert info.value.field == "entries[0].taken.JS"


def test_setup_errors() -> None:
    with pytest.raises(ScorePadError) as info:
        ScorePad.new(get_rules("polignac"), ["A", "B"])
    assert info.value.field == "names"
    with pytest.raises(ScorePadError) as info:
        ScorePad.from_dict({"preset": "nope", "names": NAMES4})
    assert info.value.field == "preset"
    with pytest.raises(ScorePadError) as info:
        ScorePad.from_dict({"preset": "polignac", "names": NAMES4, "overrides": {"x": 1}})
    assert info.value.field == "overrides"


# ------------------------------------------------------- the engine as oracle


def facts(match: Match, r: DealResult) -> dict[str, Any]:
    """What players at a real table would write down about a played deal."""
    d, seats, rules = r.deal, r.seats, match.rules
    k = len(seats)
    if rules.scoring == "pollack":
        sides = [d.card_points(0) + d.card_points(2), d.card_points(1) + d.card_points(3)]
        out: dict[str, Any] = {"card_points": sides, "announcements": [
            {"player": p, "announcement": a} for p, a in d.announcements]}
        if d.claim is not None:
            out["claim"] = d.claim[0]
        else:
            out["last_trick"] = d.past[-1].winner & 1
        return out
    tricks = [0] * match.num_players
    for i, s in enumerate(seats):
        tricks[s] = d.tricks[i]
    if rules.scoring == "chips":
        cps = [0] * match.num_players
        for i, s in enumerate(seats):
            cps[s] = d.card_points(i)
        return {"card_points": cps, "tricks": tricks}
    taken: dict[str, int | None] = {}
    for code in point_cards_in_play(rules, k):
        c = CODES.index(code)
        owner = [i for i in range(k) if d.taken[i] >> c & 1]
        taken[code] = seats[owner[0]] if owner else None
    out = {"taken": taken, "tricks": tricks,
           "first_trick": seats[d.past[0].winner], "last_trick": seats[d.past[-1].winner]}
    if d.declarer >= 0:
        out["contract"] = {"declarer": seats[d.declarer],
                           "made": d.tricks[d.declarer] == len(d.past)}
    return out


CASES = [
    ("polignac", 4, {}), ("polignac", 3, {"threshold": 10}), ("polignac-queens", 5, {}),
    ("polignac-rounds", 4, {}), ("polignac-threshold", 4, {"threshold": 10}),
    ("polignac-threshold", 3, {"threshold": 6}),
    ("polignac-threshold-general", 6, {"threshold": 10}), ("polignac-fr", 7, {}),
    ("polignac-fr-generale", 4, {}), ("two-knaves", 3, {}), ("polignac-party", 10, {}),
    ("slobberhannes", 4, {}), ("grasobern", 3, {}), ("obern", 4, {}), ("knaves", 3, {}),
    ("bassadewitz", 4, {"deals": 4}), ("bassadewitz-points", 4, {"deals": 4}),
    ("pollack", 4, {"parties": 2}),
]


def _pick(match: Match, rng: random.Random) -> int:
    legal = match.legal_actions()
    if CLAIM in legal and rng.random() > 0.15 and len(legal) > 1:
        legal = [a for a in legal if a != CLAIM]
    return rng.choice(legal)


@pytest.mark.parametrize(("preset", "n", "overrides"), CASES, ids=[c[0] + str(c[1]) for c in CASES])
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_pad_agrees_with_engine(preset: str, n: int, overrides: dict[str, Any],
                                seed: int) -> None:
    rules = get_rules(preset, overrides)
    rng = random.Random(seed)
    first = rng.randrange(n)
    match = Match.new(rules, n, first_dealer=first)
    p = ScorePad.new(rules, [f"P{i}" for i in range(n)], first_dealer=first)
    done = 0
    while not match.finished:
        if match.needs_deal:
            assert p.next_deal() == match.next_deal()
            match = match.deal_random(rng)
            continue
        match = match.apply(_pick(match, rng))
        if len(match.results) > done:
            r = match.results[-1]
            done += 1
            p = p.add(facts(match, r))
            got = p.deals[-1]
            assert got.scores == r.scores
            assert got.redeal == r.score.redeal and got.tiebreak == r.tiebreak
            if rules.scoring != "pollack":
                assert [(x.player, x.points, x.reason, x.detail) for x in got.lines] == [
                    (r.seats[x.player], x.points, x.reason, x.detail) for x in r.score.lines]
            assert p.totals == match.totals
            assert p.tied == match.tied and p.family_state == match.family_state
    assert p.finished
    assert (p.winners, p.losers, p.family_state) == (match.winners, match.losers,
                                                     match.family_state)
    if rules.scoring == "pollack":
        for d in p.deals:  # a side's lines add up to its score (no revokes entered here)
            for side in (0, 1):
                assert sum(x.points for x in d.lines if x.side == side) == d.scores[side]
    assert ScorePad.from_json(p.to_json()) == p
