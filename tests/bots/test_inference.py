"""Sampling consistent deals and scoring them under a play model (``polignac.bots.inference``)."""

from __future__ import annotations

import math
import random

import pytest

from polignac.bots.base import SeatView
from polignac.bots.hard import ExpertBot
from polignac.bots.inference import (
    announced_needs,
    policy_log_likelihood,
    replay_from_start,
    sample_hands,
    voids,
)
from polignac.bots.simple import MediumBot
from polignac.core import Deal, get_rules


def medium_game(preset: str, seed: int, cards_left: int) -> Deal:
    """A deal played by ``medium`` in every seat until the mover has ``cards_left`` cards."""
    rules = get_rules(preset)
    n = rules.default_players
    rng = random.Random(seed)
    deal = Deal.shuffled(rules, n, dealer=seed % n, rng=rng)
    bot = MediumBot()
    while not deal.done and not (deal.phase_name == "play"
                                 and deal.hands[deal.to_act].bit_count() == cards_left):
        deal = deal.apply(bot.act(SeatView.of(deal, deal.to_act), rng))
    return deal


@pytest.mark.parametrize("preset", ["polignac", "knaves", "pollack", "bassadewitz"])
def test_samples_respect_hand_sizes_voids_and_replay(preset: str) -> None:
    deal = medium_game(preset, 3, 4)
    view = SeatView.of(deal, deal.to_act)
    void = voids(view)
    rng = random.Random(1)
    for _ in range(20):
        hands = sample_hands(view, rng)
        assert hands[view.player] == view.hand
        assert [h.bit_count() for h in hands] == list(view.hand_sizes)
        for q, h in enumerate(hands):
            if q != view.player:
                assert all(not (void[q] >> (c // 13) & 1) for c in range(52) if h >> c & 1)
        start = replay_from_start(view, hands)
        assert start is not None
        assert start.hands[view.player] & view.hand == view.hand


def test_true_deal_is_most_likely_under_its_own_policy() -> None:
    """Seen from one seat, the real hands explain medium's plays perfectly; most samples do not."""
    deal = medium_game("polignac", 7, 3)
    view = SeatView.of(deal, deal.to_act)
    decisions = 0
    d = replay_from_start(view, deal.hands)
    assert d is not None
    for a in view.history:
        if d.to_act != view.player and len(d.legal_actions()) >= 2:
            decisions += 1
        d = d.apply(a)
    truth = policy_log_likelihood(view, deal.hands, MediumBot(), eps=0.1)
    assert truth == pytest.approx(decisions * math.log(0.9))
    rng = random.Random(2)
    others = [policy_log_likelihood(view, sample_hands(view, rng), MediumBot(), eps=0.1)
              for _ in range(30)]
    assert max(others) <= truth + 1e-9
    worst = min(others)
    assert worst < truth  # some sample contradicts a play
    # the early stop: a sample scored with a floor stays below the floor
    rng = random.Random(2)
    for _ in range(30):
        hands = sample_hands(view, rng)
        full = policy_log_likelihood(view, hands, MediumBot(), eps=0.1)
        cut = policy_log_likelihood(view, hands, MediumBot(), eps=0.1, floor=truth - 1)
        assert cut == pytest.approx(full) if full >= truth - 1 else cut < truth - 1


def test_expert_options_are_checked() -> None:
    with pytest.raises(ValueError, match="infer"):
        ExpertBot(infer="psychic")
    with pytest.raises(ValueError, match="eps"):
        ExpertBot(eps=0.0)


@pytest.mark.parametrize("infer", ["medium", "heuristic"])
def test_expert_inference_legal_and_reproducible(infer: str) -> None:
    deal = medium_game("polignac", 11, 5)
    view = SeatView.of(deal, deal.to_act)
    first = ExpertBot(infer=infer, work=300, rollouts=3).act(view, random.Random(4))
    assert first in view.legal
    again = ExpertBot(infer=infer, work=300, rollouts=3).act(view, random.Random(4))
    assert again == first


def test_samples_keep_announced_cards() -> None:
    """Pollack: a player who announced keeps its combination's unplayed cards in every sample."""
    checked = 0
    for seed in range(60):
        deal = medium_game("pollack", seed, 5)
        if deal.done:
            continue
        view = SeatView.of(deal, deal.to_act)
        others = [(p, name) for p, name in view.announcements if p != view.player]
        if not others:
            continue
        rng = random.Random(seed)
        for _ in range(10):
            hands = sample_hands(view, rng)
            world = replay_from_start(view, hands)
            assert world is not None
            for a in view.history:  # every announcement must be legal in the sampled world
                world = world.apply(a)
            for p, cards, k in announced_needs(view):
                assert (hands[p] & cards).bit_count() >= k
        checked += 1
    assert checked >= 5
