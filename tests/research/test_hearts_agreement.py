"""Black Lady agrees with OpenSpiel's ``hearts``: the same deals, the same actions,
the same legal actions at every step and the same points (skipped without pyspiel)."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from polignac.research.hearts_agreement import (  # noqa: E402 - after the skip
    agreement,
    from_openspiel,
    openspiel_params,
    play_both,
    rules_for,
    to_openspiel,
)


def test_card_numbers_map_both_ways() -> None:
    assert sorted(to_openspiel(c) for c in range(52)) == list(range(52))
    assert all(from_openspiel(to_openspiel(c)) == c for c in range(52))
    assert to_openspiel(0) == 0 and to_openspiel(49) == 43  # 2C, and QS as hearts.h has it


def test_openspiel_defaults_are_what_the_preset_copies() -> None:
    params = pyspiel.load_game("hearts").get_parameters()
    assert params == {"pass_cards": True, "no_pts_on_first_trick": True,
                      "can_lead_any_club": False, "jd_bonus": False,
                      "avoid_all_tricks_bonus": False, "must_break_hearts": True,
                      "qs_breaks_hearts": True, "can_lead_hearts_instead_of_qs": False}


@pytest.mark.parametrize(("name", "deals"), [("defaults", 400), ("jd-bonus", 150)])
def test_random_deals_agree(name: str, deals: int) -> None:
    bad, first, actions = agreement(deals, seed=13, name=name)
    assert bad == 0, first
    assert actions >= deals * 52


@pytest.mark.parametrize("change", [
    {"clean_first_trick": False}, {"moon": False}, {"break_hearts": False},
    {"queen_breaks": False}, {"first_lead": "eldest"}, {"passing": "left"},
])
def test_a_changed_rule_is_caught(change: dict[str, object]) -> None:
    """The comparison can fail: each rule the preset copies, changed, disagrees."""
    game = pyspiel.load_game("hearts", dict(openspiel_params()))
    rules = rules_for().with_overrides(change)
    rng = random.Random(5)
    assert any(play_both(game, rules, rng)[0] for _ in range(400))
