"""Hard, expert and oracle bots: legal and reproducible in random states of every preset."""

from __future__ import annotations

import math
import random

import pytest

from polignac.bots.base import SeatView
from polignac.bots.hard import ExpertBot, HardBot, OracleBot, halving_schedule, temper
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
    for infer in ("medium", "none"):  # sequential halving over weighted deals
        expert = ExpertBot(work=900, rollouts=3, worlds=12, infer=infer)
        first = expert.act(view, random.Random(4))
        assert first in view.legal
        assert ExpertBot(work=900, rollouts=3, worlds=12, infer=infer).act(
            view, random.Random(4)) == first


def test_hard_options_checked() -> None:
    with pytest.raises(ValueError, match="model"):
        HardBot(model="maxn")
    with pytest.raises(ValueError, match="ess"):
        ExpertBot(ess=1.5)
    assert HardBot(model="paranoid").model == "paranoid"


def test_halving_schedule_spends_the_budget_on_the_best_cards() -> None:
    # first round: every card on at least `first` deals; then the better half
    assert halving_schedule(8, 258, 160, 16) == [(8, 16), (4, 32), (2, 65)]
    assert halving_schedule(2, 300, 160, 16) == [(2, 150)]
    assert halving_schedule(4, 4000, 160, 16) == [(4, 160), (2, 160)]  # capped
    assert halving_schedule(17, 272, 160, 16)[-1] == (2, 16)  # no more than hard's count
    for k, budget in [(3, 500), (5, 300), (6, 150), (1, 100)]:
        rounds = halving_schedule(k, budget, 1000, 16)
        spent = sum(a * (w - (rounds[i - 1][1] if i else 0)) for i, (a, w) in enumerate(rounds))
        assert rounds[0][0] == k and rounds[-1][0] == min(k, 2)
        assert spent <= max(budget, 16 * k)
    with pytest.raises(ValueError):
        halving_schedule(0, 10, 10)


def test_temper_keeps_the_effective_sample_size() -> None:
    assert temper([0.0, 0.0, 0.0], 0.5) == 1.0
    assert temper([0.0, -0.1, -math.inf], 0.5) == 1.0  # the impossible deal is left out
    logw = [0.0] + [-30.0] * 99  # one deal would take all the weight
    tau = temper(logw, 0.5)
    e = [math.exp(tau * w) for w in logw]
    assert 0.0 < tau < 1.0
    assert sum(e) ** 2 / sum(x * x for x in e) == pytest.approx(50, rel=1e-3)
