"""Rule parameters: overrides, validation, removals, derived tables.

The parameters: docs/rules/common.md#parameters.
"""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from tests.core.reference import CONTRACTS

from polignac.core import PARAMETERS, PASS, PRESETS, Deal, RulesError, get_rules, parameter_docs
from polignac.core.actions import CONTRACT_WORDS
from polignac.core.cards import CardSet
from polignac.core.rules import BOUNDS, MAX_ITEMS, parameter_bounds, show


def removed(preset: str, n: int) -> str:
    return str(CardSet(get_rules(preset).removed_cards(n)))


@pytest.mark.parametrize(
    ("preset", "n", "cards", "hand"),
    [
        ("polignac", 3, "7C 7S", 10), ("polignac", 4, "", 8), ("polignac", 5, "7C 7S", 6),
        ("polignac", 6, "7C 7S", 5),
        ("polignac-rounds", 4, "", 8), ("polignac-rounds", 5, "7C 7S", 6),
        ("polignac-rounds", 6, "7C 7S", 5),
        ("polignac-fr", 3, "7D 7H", 10), ("polignac-fr", 4, "", 8),
        ("polignac-fr", 5, "7D 7H", 6), ("polignac-fr", 6, "7D 7H", 5),
        ("polignac-fr", 7, "7C 7D 7H 7S", 4), ("polignac-fr", 8, "", 4),
        ("polignac-party", 3, "2C", 17), ("polignac-party", 4, "", 13),
        ("polignac-party", 5, "2C 2S", 10), ("polignac-party", 6, "2C 2D 2H 2S", 8),
        ("polignac-party", 7, "2C 2D 2S", 7), ("polignac-party", 8, "2C 2D 2H 2S", 6),
        ("polignac-party", 9, "2C 3C 2D 3D 2H 2S 3S", 5), ("polignac-party", 10, "2C 2S", 5),
        ("slobberhannes", 3, "7C 7S", 10), ("slobberhannes", 4, "", 8),
        ("knaves", 3, "", 17), ("bassadewitz", 4, "", 8), ("pollack", 4, "", 8),
    ],
)
def test_removals_per_player_count(preset: str, n: int, cards: str, hand: int) -> None:
    assert removed(preset, n) == cards
    assert get_rules(preset).hand_size(n) == hand


def test_tiebreak_counts_use_the_removal_rule() -> None:
    # docs/rules/common.md#tie-break-deals: tie-break deals apply the removals to that
    # many players, even two.
    rules = get_rules("polignac-threshold")
    assert removed("polignac-threshold", 2) == "7C 7S"
    assert rules.hand_size(2) == 15
    rules.check_player_count(2, allow_any=True)


def test_strength_follows_rank_order() -> None:
    s = get_rules("polignac").strength()
    # K Q J A T 9 8 7: ranks 11 > 10 > 9 > 12 > 8 > 7 > 6 > 5
    assert s[11] > s[10] > s[9] > s[12] > s[8] > s[7] > s[6] > s[5]
    p = get_rules("pollack").strength()
    assert p[8] > p[7] > p[12] > p[11] > p[10] > p[9] > p[6] > p[5]


def test_point_table_card_code_beats_rank() -> None:
    table = get_rules("polignac").point_table()
    assert [table[c] for c in (9, 22, 35, 48)] == [1, 1, 1, 2]
    assert sum(table) == 5


# ------------------------------------------------------------------ overrides


def test_text_overrides_are_read() -> None:
    r = get_rules("polignac", {"threshold": "10", "players": "3-5", "packets": "3-2-3",
                               "card_points": "JS:2,10h:1", "direction": "counter-clockwise"})
    assert r.threshold == 10
    assert r.players == (3, 4, 5)
    assert r.packets == (3, 2, 3)
    assert dict(r.card_points) == {"JS": 2, "TH": 1}
    assert r.direction == "counter-clockwise"
    assert get_rules("polignac-rounds", {"deals": "none"}).deals is None
    assert get_rules("polignac-rounds", {"deals": 12}).num_deals(4) == 12
    assert get_rules("polignac-rounds").num_deals(5) == 10
    assert get_rules("pollack", {"partnerships": "yes"}).partnerships is True
    assert get_rules("polignac", {"players": "[3, 4]"}).players == (3, 4)
    assert get_rules("polignac", {"card_points": '{"J": 1}'}).card_points == {"J": 1}


@pytest.mark.parametrize(
    ("overrides", "named"),
    [
        ({"colour": "red"}, "colour"),
        ({"preset": "knaves"}, "preset"),
        ({"threshold": 0}, "threshold"),
        ({"threshold": "-3"}, "threshold"),
        ({"threshold": "ten"}, "threshold"),
        ({"threshold": None}, "threshold"),
        ({"players": "x"}, "players"),
        ({"players": "1-6"}, "players"),
        ({"removals": "none"}, "pack"),          # 32 cards do not divide among 3, 5, 6
        ({"players": "3-7"}, "7 players"),
        ({"pack": 40}, "pack"),
        ({"rank_order": "AKQJT98"}, "rank_order"),
        ({"direction": "up"}, "direction"),
        ({"declaration": "slam"}, "declaration"),
        ({"match_end": "never"}, "match_end"),
        ({"card_points": "XS:2"}, "card_points"),
        ({"card_points": "JS:two"}, "card_points"),
        ({"packets": "0"}, "packets"),
        ({"deals": 0}, "deals"),
        ({"partnerships": "maybe"}, "partnerships"),
        ({"default_players": 7}, "default_players"),
        ({"scoring": "chips"}, "declaration"),
    ],
)
def test_bad_overrides_name_the_parameter(overrides: dict[str, object], named: str) -> None:
    with pytest.raises(RulesError) as info:
        get_rules("polignac", overrides)
    assert named in str(info.value)


def test_unknown_parameter_lists_the_parameters() -> None:
    with pytest.raises(RulesError) as info:
        get_rules("polignac", {"thresold": 10})
    assert "'thresold'" in str(info.value) and "threshold" in str(info.value)


def test_unknown_preset_lists_presets() -> None:
    with pytest.raises(RulesError) as info:
        get_rules("whist")
    assert "'whist'" in str(info.value) and "polignac-fr" in str(info.value)


def test_player_count_not_allowed_is_named() -> None:
    with pytest.raises(RulesError) as info:
        get_rules("knaves").check_player_count(4)
    assert "players" in str(info.value) and "4" in str(info.value)
    with pytest.raises(RulesError, match="players"):
        get_rules("pollack", {"players": "3-4"})


def test_overrides_do_not_touch_the_preset() -> None:
    before = PRESETS["polignac"]
    after = get_rules("polignac", {"threshold": 10})
    assert PRESETS["polignac"] is before and before.threshold == 20
    assert after.overrides_from(before) == {"threshold": 10}
    assert get_rules("polignac", after.overrides_from(before)) == after


def test_to_dict_is_json_and_complete() -> None:
    for rules in PRESETS.values():
        data = json.loads(json.dumps(rules.to_dict()))
        assert set(data) == set(PARAMETERS)
        assert get_rules(rules.preset, rules.overrides_from(PRESETS["polignac"])
                         if rules.preset == "polignac" else {}) == rules


def test_every_parameter_is_documented() -> None:
    docs = parameter_docs()
    assert set(docs) == set(PARAMETERS)
    assert all(docs.values())


def test_overriding_players_moves_the_default_count_into_the_allowed_ones() -> None:
    from polignac.core import get_rules

    assert get_rules("polignac", {"players": "5-6"}).default_players == 5
    assert get_rules("polignac", {"players": "3"}).default_players == 3
    assert get_rules("polignac", {"players": "3-6"}).default_players == 4


# ------------------------------------------------------------------ bounds


def _out_of_bounds(name: str) -> list[object]:
    lo, hi = BOUNDS[name]
    if name in MAX_ITEMS:
        if name == "card_points":
            return [{"JS": lo - 1}, {"J": hi + 1}]
        return [[lo - 1], [hi + 1]]
    return [lo - 1, hi + 1]


@pytest.mark.parametrize("name", sorted(BOUNDS))
def test_every_bound_refuses_one_past_each_end(name: str) -> None:
    lo, hi = BOUNDS[name]
    for value in _out_of_bounds(name):
        with pytest.raises(RulesError) as info:
            get_rules("polignac", {name: value})
        message = str(info.value)
        assert name in message and f"from {lo} to {hi}" in message, message


def test_every_preset_is_within_the_bounds() -> None:
    for rules in PRESETS.values():
        rules.check_bounds()
        for name, (lo, hi) in BOUNDS.items():
            value = getattr(rules, name)
            items = (value.values() if isinstance(value, dict) else value
                     if isinstance(value, tuple) else [value])
            assert all(v is None or lo <= v <= hi for v in items), (rules.preset, name)


def test_the_ends_of_the_bounds_are_allowed() -> None:
    assert get_rules("polignac", {"threshold": BOUNDS["threshold"][1]}).threshold == 500
    assert get_rules("polignac", {"match_end": "fixed-deals", "deals": BOUNDS["deals"][1]}
                     ).deals == BOUNDS["deals"][1]
    assert get_rules("polignac", {"contract_points": 0}).contract_points == 0
    assert get_rules("polignac-party", {"players": "3-10"}).players == tuple(range(3, 11))


@pytest.mark.parametrize("players", ["2-10000000", "0-5", "3-99999999999", "-5-6"])
def test_a_huge_player_range_is_refused_before_it_is_built(players: str) -> None:
    with pytest.raises(RulesError) as info:
        get_rules("polignac", {"players": players})
    message = str(info.value)
    assert "players" in message and len(message) < 200, message


def test_huge_values_give_short_messages() -> None:
    cases: list[dict[str, object]] = [
        {"threshold": 10 ** 100}, {"deals": 10 ** 9}, {"threshold": "9" * 5000},
        {"game": "x" * 1_000_000}, {"players": list(range(100_000))},
        {"packets": [1] * 1000}, {"card_points": {f"K{i}": 1 for i in range(1000)}},
        {"x" * 100_000: 1}, {"pool_shares": "1," * 10_000},
    ]
    for overrides in cases:
        with pytest.raises(RulesError) as info:
            get_rules("polignac", overrides)
        assert len(str(info.value)) < 600, (next(iter(overrides))[:20], str(info.value)[:300])
    with pytest.raises(RulesError, match="threshold must be from 1 to 500, not a number of"):
        get_rules("polignac", {"threshold": 10 ** 100})
    with pytest.raises(RulesError, match="deals must be from 1 to 500, not 1000000000"):
        get_rules("polignac", {"match_end": "fixed-deals", "deals": 10 ** 9})


def test_direct_construction_is_bounded_by_validate() -> None:
    rules = dataclasses.replace(PRESETS["polignac"], players=tuple(range(2, 40)))
    with pytest.raises(RulesError, match="players: 38 items; at most 12"):
        rules.validate()
    with pytest.raises(RulesError, match="rank_order: text of 300 characters"):
        dataclasses.replace(PRESETS["polignac"], rank_order="K" * 300).validate()


def test_show_keeps_messages_short() -> None:
    assert show("abc") == "'abc'"
    assert show(10 ** 5000).startswith("a number of about 5001 digits")
    assert "(100000 characters)" in show("y" * 100_000)
    assert show(list(range(10 ** 5))) == "a list of 100000 items"
    assert len(show({"a": "b" * 500})) < 70


def test_parameter_bounds_cover_every_bound() -> None:
    words = parameter_bounds()
    for name, (lo, hi) in BOUNDS.items():
        assert f"from {lo} to {hi}" in words[name]
    assert words["players"].endswith(f"at most {MAX_ITEMS['players']} items")
    assert "200 characters" in words["game"]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_named_rule_values_agree_with_the_reference(preset: str) -> None:
    """The flags that stand for ``declaration`` and ``match_end`` words
    (``Rules.contract``, ``Rules.plays_parties``), against the reference
    implementation's own table of each preset's contract."""
    rules = get_rules(preset)
    rule, _word = CONTRACTS.get(preset, ("none", None))
    assert rules.contract.declarer_leads is (rule == "generale")
    assert rules.contract.bonus is (rule == "general-bonus")
    assert rules.contract.automatic is (rule == "chelem")
    assert rules.plays_parties is (preset == "pollack")  # docs/rules/pollack.md


@pytest.mark.parametrize("preset", ["polignac-fr-generale", "polignac-rounds", "polignac"])
def test_declarer_leads_says_who_leads_after_a_contract(preset: str) -> None:
    """A contract declared by the player after eldest: the engine gives the lead to the
    declarer exactly when ``Rules.contract.declarer_leads``."""
    rules = get_rules(preset)
    contract = CONTRACTS[preset][1]
    assert contract in CONTRACT_WORDS
    deal = Deal.shuffled(rules, 4, 0, random.Random(7))
    eldest = deal.to_act
    deal = deal.apply(PASS)
    declarer = deal.to_act
    deal = deal.apply(contract)
    while deal.phase_name == "declare":
        deal = deal.apply(PASS)
    assert deal.declarer == declarer != eldest
    assert deal.to_act == (declarer if rules.contract.declarer_leads else eldest)


# ------------------------------------------------------------ parameter groups


def test_every_parameter_is_shared_or_one_familys() -> None:
    from polignac.core.families import FAMILIES
    from polignac.core.rules import PARAMETERS, SHARED_PARAMETERS

    owners: dict[str, list[str]] = {}
    for family in FAMILIES:
        for name in family.parameters:
            owners.setdefault(name, []).append(family.name)
    assert {n: o for n, o in owners.items() if len(o) > 1} == {}
    assert set(owners).isdisjoint(SHARED_PARAMETERS)
    assert set(PARAMETERS) == {"preset", "game"} | set(SHARED_PARAMETERS) | set(owners)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_parameters_for_is_the_games_group(preset: str) -> None:
    from polignac.core.rules import PARAMETERS, SHARED_PARAMETERS, parameters_for

    rules = get_rules(preset)
    group = parameters_for(rules)
    names = [p.name for p in group]
    assert names == [n for n in PARAMETERS if n in names]  # the form's order
    assert set(names) == set(SHARED_PARAMETERS) | set(rules.family.parameters)
    assert group == parameters_for(rules.game) and tuple(names) == rules.parameter_names()
    assert all(p.doc for p in group) and all(p.shared == (p.name in SHARED_PARAMETERS)
                                             for p in group)
    # a parameter outside the group: refused when changed, a no-op is allowed
    for name in PARAMETERS:
        if name in names or name in ("preset", "game"):
            continue
        assert rules.with_overrides({name: getattr(rules, name)}) == rules


@pytest.mark.parametrize(("preset", "name", "value"), [
    ("black-maria", "contract_points", 7), ("black-lady", "all_three_points", 3),
    ("pollack", "contract_points", 2), ("knaves", "pool", 10),
    ("polignac", "partie_target", 30), ("bassadewitz", "parties", 2),
])
def test_a_parameter_of_another_family_is_refused(preset: str, name: str, value: int) -> None:
    rules = get_rules(preset)
    with pytest.raises(RulesError, match=f"{name} does not apply to '{preset}' "
                                         f"\\(game '{rules.game}', family "):
        rules.with_overrides({name: value})


def test_parameters_for_an_unknown_game() -> None:
    from polignac.core.rules import parameters_for

    with pytest.raises(RulesError, match="game 'skat' has no family"):
        parameters_for("skat")
