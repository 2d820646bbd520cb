"""Deal.points_taken: each player's running points in a deal, checked against the
deal's final score (the one home of scoring) in every preset."""

from __future__ import annotations

import random

import pytest

from polignac.core import Deal, get_rules

from .reference import PRESET_NAMES, every_preset

# The score lines a trick game counts from the tricks alone (no contract, moon, all three).
TRICK_REASONS = {"card", "tricks", "first-trick", "last-trick"}


def _play(preset: str, seed: int) -> tuple[Deal, list[tuple[int, ...]]]:
    """A random deal of ``preset`` played out, and the running points after each action."""
    rules = get_rules(preset)
    rng = random.Random(seed)
    deal = rules.family.deal_class.shuffled(rules, rules.default_players, 0, rng)
    seen = [deal.points_taken()]
    while not deal.done:
        deal = deal.apply(rng.choice(deal.legal_actions()))
        seen.append(deal.points_taken())
    return deal, seen


@every_preset
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_points_taken_at_the_end_agree_with_the_score(preset: str) -> None:
    checked = 0
    for seed in range(12):
        deal, seen = _play(preset, seed)
        n = deal.num_players
        assert seen[0] == (0,) * n
        got = deal.points_taken()
        assert len(got) == n
        score = deal.score()
        kind = deal.rules.kind
        if kind.sides:  # Pollack: the side's card points with the last trick's, undivided
            for line in score.lines:
                if line.reason == "card-points":
                    assert line.side is not None
                    want = dict(line.params).get("n", line.points * deal.rules.point_divisor)
                    assert [got[p] for p in range(n) if p & 1 == line.side] == [want] * 2
                    checked += 1
            assert all(got[p] == got[p ^ 2] for p in range(n))
        elif kind.chips:  # Bassadewitz: the card (and trick) points the chips come from
            assert got == score.card_points
            checked += 1
        else:
            for p in range(n):
                mine = [x for x in score.lines if x.player == p]
                if all(x.reason in TRICK_REASONS for x in score.lines):
                    assert got[p] == sum(x.points for x in mine) == score.scores[p]
                    checked += 1
                else:  # contracts, the moon, all three: the running count stays the raw one
                    assert got[p] == sum(x.points for x in mine if x.reason in TRICK_REASONS) \
                        or any(x.reason not in TRICK_REASONS for x in mine)
    assert checked > 0


@pytest.mark.parametrize("preset", ["black-lady", "polignac", "knaves", "slobberhannes",
                                    "bassadewitz"])
def test_points_taken_move_only_to_the_taker_of_a_trick(preset: str) -> None:
    rules = get_rules(preset)
    rng = random.Random(3)
    deal = rules.family.deal_class.shuffled(rules, rules.default_players, 0, rng)
    moved = 0
    while not deal.done:
        before, past = deal.points_taken(), len(deal.past)
        deal = deal.apply(rng.choice(deal.legal_actions()))
        after = deal.points_taken()
        changed = [p for p in range(deal.num_players) if after[p] != before[p]]
        if len(deal.past) == past:
            assert not changed  # a card on the table, a pass, a call: nobody took anything
        elif changed:
            assert changed == [deal.past[-1].winner]
            moved += 1
    assert moved > 0


def test_points_taken_is_in_every_view_and_the_same_for_all() -> None:
    deal, _ = _play("black-lady", 5)
    rules = get_rules("black-lady")
    rng = random.Random(7)
    d = rules.family.deal_class.shuffled(rules, 4, 0, rng)
    for _ in range(4 * 5 + 12):  # passing, then five tricks
        d = d.apply(rng.choice(d.legal_actions()))
    want = list(d.points_taken())
    assert sum(want) > 0 or all(v == 0 for v in want)
    views = [d.view(None)] + [d.view(p) for p in range(4)]
    assert all(v["points_taken"] == want for v in views)
    assert deal.view(None)["points_taken"] == list(deal.points_taken())
