"""The game families' registry (core/families.py): every preset resolves to its
family, the family's flags agree with the rules, and a new family can be registered."""

from __future__ import annotations

import dataclasses
import random

import pytest

from polignac.core import Deal, RulesError, get_rules
from polignac.core import families as fam
from polignac.core.hearts_deal import HeartsDeal
from polignac.core.presets import PRESETS
from polignac.core.rules import GAMES

EXPECTED = {
    "polignac": "trick-avoidance", "slobberhannes": "trick-avoidance", "knaves": "knaves",
    "bassadewitz": "bassadewitz", "pollack": "pollack", "hearts": "hearts",
}


def test_every_game_has_one_family() -> None:
    assert {g: fam.family_of(dataclasses.replace(get_rules("polignac"), game=g)).name
            for g in GAMES} == EXPECTED
    names = [f.name for f in fam.families()]
    assert len(names) == len(set(names)) == 5


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_preset_family_agrees_with_rules(preset: str) -> None:
    rules = get_rules(preset)
    family = rules.family
    assert family is fam.family_of(rules)
    assert rules.game in family.games
    assert family.name == EXPECTED[rules.game]
    # What a rule set may do, its family allows.
    assert family.calls or not rules.has_calls
    assert family.passing or rules.passing == "none"
    assert family.declaration_round or not rules.has_declaration_round
    # The family's flags hold for its presets.
    assert family.calls == rules.has_calls
    assert family.passing == (rules.game == "hearts") == (family.deal_class is HeartsDeal)
    assert family.exact_solver == (family.deal_class is Deal)
    n = rules.default_players
    deal = Deal.shuffled(rules, n, 0, random.Random(1))
    assert type(deal) is family.deal_class
    if rules.kind.chips:
        assert family.score is fam.score_chips
    elif rules.kind.sides:
        assert family.score is fam.score_pollack
    else:
        assert family.score is fam.score_tricks


def test_unknown_game_is_refused() -> None:
    rules = dataclasses.replace(get_rules("polignac"), game="skat")
    with pytest.raises(RulesError, match="game 'skat' has no family"):
        fam.family_of(rules)


def test_a_game_belongs_to_one_family(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fam, "_BY_GAME", dict(fam._BY_GAME))
    clash = dataclasses.replace(fam.KNAVES, name="other", games=("newgame", "knaves"))
    with pytest.raises(ValueError, match="'knaves' already belongs to family 'knaves'"):
        fam.register(clash)
    assert "newgame" not in fam._BY_GAME


def test_a_new_family_can_be_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fam, "_BY_GAME", dict(fam._BY_GAME))
    base = get_rules("polignac")
    started: list[tuple[int, ...]] = []

    def start(tables: fam._Tables, hands: tuple[int, ...], dealer: int) -> Deal:
        started.append(tuple(h.bit_count() for h in hands))
        return Deal.from_hands(base, hands, dealer)

    new = fam.register(dataclasses.replace(
        fam.TRICK_AVOIDANCE, name="test-family", games=("test-game",), start=start))
    rules = dataclasses.replace(base, game="test-game")
    assert rules.family is new and new in fam.families()
    deal = Deal.shuffled(rules, 4, 0, random.Random(3))
    assert started == [(8, 8, 8, 8)]
    assert deal.legal_actions()
