"""Hard, expert and oracle bots: legal and reproducible in random states of every preset."""

from __future__ import annotations

import random

import pytest

from polignac.bots.base import SeatView
from polignac.bots.hard import ExpertBot, HardBot, OracleBot
from polignac.core import PRESETS, Deal, get_rules


def late_state(preset: str, rng: random.Random) -> Deal:
    """A random state of ``preset`` with about three cards left in each hand."""
    rules = get_rules(preset)
    n = rules.default_players
    deal = Deal.shuffled(rules, n, dealer=rng.randrange(n), rng=rng)
    stop = n * 3 + rng.randrange(n)
    while not deal.done and sum(h.bit_count() for h in deal.hands) > stop:
        legal = deal.legal_actions()
        cards = [a for a in legal if a < 52]
        deal = deal.apply(rng.choice(cards) if cards else rng.choice(legal))
    return deal


@pytest.mark.parametrize("preset", list(PRESETS))
def test_bots_play_legal_actions(preset: str) -> None:
    rng = random.Random(sum(map(ord, preset)))
    bots = [HardBot(samples=3), ExpertBot(samples=3)]
    oracle = OracleBot()
    for _ in range(3):
        deal = late_state(preset, rng)
        if deal.done:
            continue
        view = SeatView.of(deal, deal.to_act)
        for bot in bots:
            assert bot.act(view, random.Random(5)) in view.legal
        assert oracle.act_open(deal, deal.to_act, random.Random(5)) in view.legal


def test_declaration_round_and_reproducible() -> None:
    rng = random.Random(11)
    deal = Deal.shuffled(get_rules("polignac"), 4, dealer=0, rng=rng)
    view = SeatView.of(deal, deal.to_act)
    assert HardBot(samples=2).act(view, random.Random(1)) in view.legal
    deal = late_state("polignac", random.Random(4))
    view = SeatView.of(deal, deal.to_act)
    first = ExpertBot(samples=4).act(view, random.Random(9))
    assert all(ExpertBot(samples=4).act(view, random.Random(9)) == first for _ in range(3))
    assert all(HardBot(samples=4).act(view, random.Random(9))
               == HardBot(samples=4).act(view, random.Random(9)) for _ in range(2))


def test_node_budget_defaults_reproducible() -> None:
    """Default settings (node budget) early in a deal: legal and reproducible."""
    rng = random.Random(21)
    deal = Deal.shuffled(get_rules("polignac"), 4, dealer=0, rng=rng)
    for _ in range(5):
        deal = deal.apply(deal.legal_actions()[0])
    view = SeatView.of(deal, deal.to_act)
    first = HardBot().act(view, random.Random(3))
    assert first in view.legal
    assert all(HardBot().act(view, random.Random(3)) == first for _ in range(2))
    assert HardBot(nodes=1).act(view, random.Random(3)) in view.legal  # medium's card


@pytest.mark.parametrize("preset", ["polignac", "pollack", "knaves", "bassadewitz"])
def test_rollouts_legal_and_reproducible(preset: str) -> None:
    """Mid-deal decisions (medium playouts over sampled deals): legal and reproducible."""
    rng = random.Random(sum(map(ord, preset)) + 1)
    rules = get_rules(preset)
    n = rules.default_players
    deal = Deal.shuffled(rules, n, dealer=0, rng=rng)
    while not deal.done and (deal.phase_name != "play" or deal.hands[deal.to_act].bit_count() > 6
                             or len([a for a in deal.legal_actions() if a < 52]) < 2):
        deal = deal.apply(rng.choice(deal.legal_actions()))
    if deal.done:
        pytest.skip("the random deal ended early")
    view = SeatView.of(deal, deal.to_act)
    first = HardBot(rollouts=3).act(view, random.Random(4))
    assert first in view.legal
    assert HardBot(rollouts=3).act(view, random.Random(4)) == first
    assert HardBot(roll=0, late=0).act(view, random.Random(4)) in view.legal  # medium's card
    assert OracleBot().act_open(deal, deal.to_act, random.Random(4)) in view.legal


def test_hard_options_checked() -> None:
    with pytest.raises(ValueError, match="model"):
        HardBot(model="maxn")
    assert HardBot(model="paranoid").model == "paranoid"
