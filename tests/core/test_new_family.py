"""A new game family from one module: the module below, written by this test and
imported, is all it takes (with its catalog keys and rule-book pages, which a real
family adds). It joins the families' list for a while (``families.extended``), and
is then played, scored, solved, shown in the rules text and in the parameter group
the house-rule form reads (docs/architecture.md#change-family)."""

from __future__ import annotations

import importlib.util
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from polignac.core import Deal, Match, RulesError, get_rules, replay, rules_text, to_record
from polignac.core.families import FAMILIES, extended, families

MODULE = '''
"""Black Knave: a trick-avoidance game whose one penalty card is the Jack of clubs."""
from polignac.core.avoidance import TrickAvoidanceFamily
from polignac.core.rules import Rules, ScoreKind

PRESET = Rules(preset="black-knave", game="black-knave", scoring="black-knave",
               players=(3, 4), default_players=4, card_points={"JC": 5},
               declaration="none", threshold=15)


class BlackKnaveFamily(TrickAvoidanceFamily):
    """The Jack of clubs costs 5 points to the player who takes it."""

    name = "black-knave"
    games = ("black-knave",)
    parameters = ("all_three_points",)
    scorings = (ScoreKind("black-knave", penalty=True, taker_gains=False, chips=False,
                          sides=False, match_ends=("threshold-loser",)),)
    declaration_round = False
    score_unit = "knave points per deal"
    presets = (PRESET,)
    revoke_penalties = {}


FAMILY = BlackKnaveFamily()
'''


@pytest.fixture
def module(tmp_path: Path) -> Iterator[ModuleType]:
    """The family's one module, imported from a file of its own; its family joins the list."""
    path = tmp_path / "black_knave.py"
    path.write_text(MODULE, "utf-8")
    spec = importlib.util.spec_from_file_location("black_knave", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["black_knave"] = mod
    try:
        spec.loader.exec_module(mod)
        with extended(mod.FAMILY):
            yield mod
    finally:
        del sys.modules["black_knave"]


def test_a_new_family_plays_scores_and_ends_a_match(module: ModuleType) -> None:
    rules = get_rules("black-knave")
    assert rules is module.PRESET and rules.family is module.FAMILY is rules.scorer
    assert rules.kind.penalty and families()[-1] is module.FAMILY
    rng = random.Random(5)
    match = Match.new(rules, 4, 0, ["Ann", "Bob", "Cy", "Di"])
    while not match.finished:
        match = match.deal_random(rng) if match.needs_deal else \
            match.apply(rng.choice(match.legal_actions()))
    for result in match.results:  # the Jack of clubs, 5 to its taker, nothing else
        taker = result.deal.point_takers()["JC"]
        assert result.score.scores == tuple(5 if p == taker else 0 for p in range(4))
        assert [line.detail for line in result.score.lines] == ["JC"]
    assert max(match.totals) >= 15 and match.losers == (match.totals.index(max(match.totals)),)
    # its records replay (get_rules finds its preset)
    again = replay(to_record(match))
    assert again.totals == match.totals
    # its penalty card, and a house rule of its group
    house = rules.with_overrides({"card_points": {"JC": 7}, "all_three_points": 9})
    assert house.point_table()[module.PRESET.point_cards().bit_length() - 1] == 7


def test_a_new_family_is_solved(module: ModuleType) -> None:
    from polignac.bots.solver import solve

    rules = get_rules("black-knave")
    rng = random.Random(2)
    deal = Deal.shuffled(rules, 4, 0, rng)
    while deal.hands[deal.to_act].bit_count() > 2:
        deal = deal.apply(rng.choice(deal.legal_actions()))
    values = solve(deal)  # the exact solver, for the player to act
    me = deal.to_act
    for card, got in values.items():  # two cards left: check it by playing every line out
        after = deal.apply(card)
        assert got == _best(after, me)


def _best(deal: Deal, me: int) -> int:
    """The solver's model by brute force: ``me`` takes its best, the others play
    against ``me`` (its result is minus its penalty)."""
    from polignac.bots.solver import final_result

    if deal.done:
        return final_result(deal, me)
    outcomes = [_best(deal.apply(a), me) for a in deal.legal_actions()]
    return max(outcomes) if deal.to_act == me else min(outcomes)


def test_a_new_family_in_the_rules_text_and_the_form(module: ModuleType) -> None:
    from polignac.core.rules import SHARED_PARAMETERS
    from polignac.i18n.rulebook import rules_markdown

    rules = get_rules("black-knave")
    titles = [s.title.key for s in rules_text(rules).sections]
    assert "rules.section.scoring" in titles and "rules.section.declarations" in titles
    text = rules_markdown(rules, None, "en", level=2)
    assert "JC" in text or "Jack of clubs" in text
    # the house-rule form's group: the shared parameters and its own, in form order
    names = rules.parameter_names()
    assert set(names) == {*SHARED_PARAMETERS, "all_three_points"}
    with pytest.raises(RulesError, match="declaration does not apply to 'black-knave'"):
        rules.with_overrides({"declaration": "capot"})


def test_after_the_block_the_list_is_the_fixed_one() -> None:
    assert families() == FAMILIES
    with pytest.raises(RulesError, match="unknown preset 'black-knave'"):
        get_rules("black-knave")
