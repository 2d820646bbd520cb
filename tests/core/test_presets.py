"""Every preset's parameters against its page, docs/rules/<preset>.md (one block each)."""

from __future__ import annotations

import pytest

from polignac.core import PRESETS, Rules, get_rules, preset_names

RULEBOOK_ORDER = [
    "polignac", "polignac-queens", "polignac-rounds", "polignac-threshold", "polignac-fr",
    "polignac-threshold-general", "polignac-fr-generale", "quatre-valets", "two-knaves",
    "polignac-party", "slobberhannes", "eichelobern", "grasobern", "obern", "knaves",
    "bassadewitz", "bassadewitz-points", "pollack", "black-lady", "black-maria",
]
JACKS = {"JS": 2, "J": 1}


def points(rules: Rules) -> dict[str, int]:
    """Points per card code, only the cards that score."""
    from polignac.core import CODES

    return {CODES[c]: v for c, v in enumerate(rules.point_table()) if v}


def test_registry() -> None:
    assert set(preset_names()) == set(RULEBOOK_ORDER) and len(PRESETS) == 20
    assert preset_names()[0] == "polignac"
    for name, rules in PRESETS.items():
        assert rules.preset == name
        assert get_rules(name) is rules
        rules.validate()
        assert rules.default_players in rules.players
        assert rules.contract_points == 5


def _polignac_common(r: Rules) -> None:
    assert r.game == "polignac" and r.scoring == "penalty"
    assert r.pack == 32 and r.trumps == "none"
    assert r.trick_points == r.first_trick_points == r.last_trick_points == 0
    assert r.all_three_points is None
    assert not r.partnerships and not r.announcements


def test_polignac() -> None:
    r = get_rules("polignac")
    _polignac_common(r)
    assert r.players == (3, 4, 5, 6) and r.default_players == 4
    assert r.removals == "black-sevens-unless-4"
    assert r.rank_order == "KQJAT987"
    assert r.direction == "clockwise" and set(r.packets) == {2, 3}
    assert r.declaration == "capot"
    assert r.match_end == "threshold-loser" and r.threshold == 20
    assert dict(r.card_points) == JACKS
    assert points(r) == {"JC": 1, "JD": 1, "JH": 1, "JS": 2}
    assert r.suits == "french"
    assert get_rules("polignac", {"threshold": 10}).threshold == 10


def test_polignac_queens() -> None:
    r = get_rules("polignac-queens")
    _polignac_common(r)
    assert r.players == (3, 4, 5, 6) and r.removals == "black-sevens-unless-4"
    assert r.rank_order == "AKQJT987"
    assert r.direction == "clockwise" and r.packets == PRESETS["polignac"].packets
    assert r.declaration == "capot"
    assert r.match_end == "threshold-loser" and r.threshold == 20
    assert points(r) == {"QC": 1, "QD": 1, "QH": 1, "QS": 2}


def test_polignac_rounds() -> None:
    r = get_rules("polignac-rounds")
    _polignac_common(r)
    assert r.players == (4, 5, 6)
    assert r.removed_cards(4) == 0 and r.removed_cards(5) == r.removed_cards(6) != 0
    assert r.rank_order == "AKQJT987"
    assert r.direction == "clockwise" and r.packets == (1,)
    assert r.declaration == "general"
    assert r.match_end == "fixed-deals" and r.deals is None and r.num_deals(5) == 10
    assert points(r) == {"JC": 1, "JD": 1, "JH": 1, "JS": 2}


def test_polignac_threshold() -> None:
    r = get_rules("polignac-threshold")
    _polignac_common(r)
    assert r.players == (3, 4, 5, 6) and r.removals == "black-sevens-unless-4"
    assert r.rank_order == "KQJAT987"
    assert r.direction == "counter-clockwise" and r.packets == (3, 2, 3)
    assert r.declaration == "capot"
    assert r.match_end == "threshold-lowest-wins" and r.threshold == 20
    assert points(r) == {"JC": 1, "JD": 1, "JH": 1, "JS": 2}


def test_polignac_fr() -> None:
    r = get_rules("polignac-fr")
    _polignac_common(r)
    assert r.players == (3, 4, 5, 6, 7, 8) and r.removals == "red-sevens-fr"
    assert r.rank_order == "KQJAT987"
    assert r.direction == "counter-clockwise" and r.packets == (2,)
    assert r.declaration == "chelem" and not r.has_declaration_round
    assert r.match_end == "threshold-loser" and r.threshold == 20
    assert get_rules("polignac-fr", {"threshold": 50}).threshold == 50
    assert points(r) == {"JC": 1, "JD": 1, "JH": 1, "JS": 2}


def test_polignac_threshold_general() -> None:
    r = get_rules("polignac-threshold-general")
    base = get_rules("polignac-threshold")
    assert r.declaration == "general-bonus" and r.has_declaration_round
    assert r.overrides_from(base) == {"declaration": "general-bonus"}


def test_polignac_fr_generale() -> None:
    r = get_rules("polignac-fr-generale")
    base = get_rules("polignac-fr")
    assert r.declaration == "generale" and r.has_declaration_round
    assert r.overrides_from(base) == {"declaration": "generale"}


def test_quatre_valets() -> None:
    r = get_rules("quatre-valets")
    _polignac_common(r)
    assert r.overrides_from(get_rules("polignac")) == {"card_points": {"J": 1}}
    assert points(r) == {"JC": 1, "JD": 1, "JH": 1, "JS": 1}


def test_two_knaves() -> None:
    r = get_rules("two-knaves")
    _polignac_common(r)
    assert r.players == (3, 4)
    assert r.rank_order == "KQJAT987" and r.declaration == "capot"
    assert r.match_end == "threshold-loser" and r.threshold == 20
    assert points(r) == {"JD": 1, "JS": 2}


def test_polignac_party() -> None:
    r = get_rules("polignac-party")
    assert r.game == "polignac" and r.pack == 52
    assert r.players == tuple(range(3, 11)) and r.removals == "lowest-cards"
    assert r.rank_order == "KQJAT98765432"
    assert r.direction == "clockwise" and r.packets == (1,)
    assert r.declaration == "capot"
    assert r.match_end == "threshold-loser" and r.threshold == 20
    assert points(r) == {"JC": 1, "JD": 1, "JH": 1, "JS": 2}


@pytest.mark.parametrize(
    ("name", "suits", "card", "packets"),
    [("slobberhannes", "french", "QC", (1,)), ("eichelobern", "german", "QC", (4, 4)),
     ("grasobern", "german", "QS", (4, 4))],
)
def test_slobberhannes_family(name: str, suits: str, card: str,
                              packets: tuple[int, ...]) -> None:
    r = get_rules(name)
    assert r.game == "slobberhannes" and r.scoring == "penalty"
    assert r.players == (3, 4, 5, 6) and r.default_players == 4
    assert r.removals == "black-sevens-unless-4" and r.pack == 32
    assert r.rank_order == "AKQJT987" and r.trumps == "none" and r.direction == "clockwise"
    assert r.suits == suits and r.packets == packets
    assert points(r) == {card: 1}
    assert (r.first_trick_points, r.last_trick_points, r.all_three_points) == (1, 1, 4)
    assert r.declaration == "none" and not r.has_declaration_round
    assert r.match_end == "threshold-loser" and r.threshold == 10


def test_obern() -> None:
    r = get_rules("obern")
    _polignac_common(r)
    assert r.suits == "german"
    assert r.rank_order == "KQJAT987" and r.declaration == "capot"
    assert r.match_end == "threshold-loser" and r.threshold == 20
    assert points(r) == {"QC": 1, "QD": 1, "QH": 1, "QS": 1}


def test_knaves() -> None:
    r = get_rules("knaves")
    assert r.game == "knaves" and r.players == (3,) and r.default_players == 3
    assert r.pack == 52 and r.removals == "none" and r.rank_order == "AKQJT98765432"
    assert r.trumps == "turn-up" and r.hand_size(3) == 17
    assert r.scoring == "points" and r.trick_points == 1
    assert points(r) == {"JS": -1, "JC": -2, "JD": -3, "JH": -4}
    assert r.declaration == "none"
    assert r.match_end == "first-to-target" and r.threshold == 20


@pytest.mark.parametrize(("name", "ace", "per_trick"),
                         [("bassadewitz", 11, 0), ("bassadewitz-points", 5, 1)])
def test_bassadewitz(name: str, ace: int, per_trick: int) -> None:
    r = get_rules(name)
    assert r.game == "bassadewitz" and r.players == (4,) and r.pack == 32
    assert r.removals == "none" and r.rank_order == "ATKQJ987" and r.trumps == "none"
    assert r.direction == "clockwise"
    assert r.scoring == "chips" and r.declaration == "none"
    assert dict(r.card_points) == {"A": ace, "T": 10, "K": 4, "Q": 3, "J": 2}
    assert sum(r.point_table()) == 4 * (ace + 10 + 4 + 3 + 2)
    assert r.trick_points == per_trick
    assert (r.pool, r.pool_shares, r.sweep_chips, r.overload_points, r.overload_chips) == (
        12, (5, 4, 3), 4, 100, 4)
    assert r.match_end == "chips" and r.num_deals(4) == 8


def test_pollack() -> None:
    r = get_rules("pollack")
    assert r.game == "pollack" and r.players == (4,) and r.pack == 32
    assert r.removals == "none" and r.rank_order == "T9AKQJ87" and r.trumps == "none"
    assert r.direction == "clockwise" and r.packets == (3, 3, 2)
    assert points(r) == {f"{k}{s}": v for k, v in (("A", 3), ("K", 1), ("Q", 1), ("J", 1),
                                                  ("T", 1), ("9", 1)) for s in "CDHS"}
    assert r.last_trick_points == 3 and r.point_divisor == 3
    assert r.partnerships and r.announcements and r.scoring == "pollack"
    assert r.declaration == "none"
    assert r.match_end == "parties" and r.partie_target == 21 and r.parties == 6


def test_black_lady() -> None:
    r = get_rules("black-lady")
    assert r.game == "hearts" and r.scoring == "penalty" and r.pack == 52
    assert r.players == (4,) and r.removals == "none" and r.rank_order == "AKQJT98765432"
    assert points(r) == {"QS": 13, **{f"{k}H": 1 for k in "23456789TJQKA"}}
    assert (r.passing, r.pass_count, r.first_lead) == ("rotate", 3, "lowest-club")
    assert r.clean_first_trick and r.break_hearts and r.queen_breaks and r.moon
    assert (r.match_end, r.threshold) == ("threshold-lowest-shared", 100)


def test_black_maria() -> None:
    r = get_rules("black-maria")
    assert r.players == (3, 4, 5, 6, 7) and r.default_players == 3
    assert r.removals == "lowest-cards" and r.passing == "right"
    assert points(r) == {"QS": 13, "KS": 10, "AS": 7, **{f"{k}H": 1 for k in "23456789TJQKA"}}
    from polignac.core import CODES

    removed = {n: [CODES[c] for c in range(52) if r.removed_cards(n) >> c & 1]
               for n in r.players}
    assert removed == {3: ["2C"], 4: [], 5: ["2C", "2S"], 6: ["2C", "2D", "2H", "2S"],
                       7: ["2C", "2D", "2S"]}
