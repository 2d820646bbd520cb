"""The OpenSpiel ISMCTS seat adapter."""

from __future__ import annotations

import random

import pytest

import polignac.research.ismcts  # noqa: F401  (registers openspiel-ismcts)
from polignac.bots.base import SeatView
from polignac.bots.registry import bot_names, make_bot
from polignac.core.deal import Deal
from polignac.core.presets import get_rules
from polignac.research.ismcts import OpenSpielISMCTSBot, state_from_view


def test_registered() -> None:
    assert "openspiel-ismcts" in bot_names()
    bot = make_bot("openspiel-ismcts:sims=20,uct_c=1.0")
    assert isinstance(bot, OpenSpielISMCTSBot) and bot.sims == 20


@pytest.mark.parametrize("preset", ["polignac", "knaves", "pollack", "polignac-fr-generale"])
def test_plays_a_whole_deal_legally(preset: str) -> None:
    rules = get_rules(preset)
    deal = Deal.shuffled(rules, rules.default_players, 0, random.Random(4))
    bot = make_bot("openspiel-ismcts:sims=10")
    rng = random.Random(1)
    while not deal.done:
        view = SeatView.of(deal, deal.to_act)
        action = bot.act(view, rng)
        assert action in view.legal
        deal = deal.apply(action)


def test_state_from_view_is_in_the_viewers_information_set() -> None:
    rules = get_rules("slobberhannes")
    deal = Deal.shuffled(rules, 4, 2, random.Random(9))
    rng = random.Random(0)
    for _ in range(13):
        deal = deal.apply(rng.choice(deal.legal_actions()))
    p = deal.to_act
    view = SeatView.of(deal, p)
    for seed in range(5):
        state = state_from_view(view, random.Random(seed))
        assert state.deal is not None
        assert state.deal.history == deal.history
        assert state.deal.hands[p] == deal.hands[p]
        assert state.deal.legal_actions() == deal.legal_actions()


def test_same_seed_same_action() -> None:
    rules = get_rules("polignac")
    deal = Deal.shuffled(rules, 4, 0, random.Random(2))
    deal = deal.apply_text("pass")
    view = SeatView.of(deal, deal.to_act)
    bot = make_bot("openspiel-ismcts:sims=30")
    assert bot.act(view, random.Random(5)) == bot.act(view, random.Random(5))


def test_bad_options() -> None:
    with pytest.raises(ValueError):
        make_bot("openspiel-ismcts:sims=0")
