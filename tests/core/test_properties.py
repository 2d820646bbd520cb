"""Property tests: random legal games of every preset and every allowed player count.

Each test draws a seed (Hypothesis) for every (preset, player count) of the
rule book, plays random legal actions, and checks the engine against the
independent reference in :mod:`reference`.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polignac.core import (
    CLAIM,
    NUM_ACTIONS,
    PRESETS,
    Deal,
    IllegalActionError,
    Match,
    get_rules,
    replay,
    summary,
    to_record,
)
from polignac.core.pollack import parties_of

from .reference import (
    ALL_GAMES,
    BASSA,
    CARD_VALUES,
    CONTRACTS,
    SLOBBER,
    RefDeal,
    bits,
    choose,
    every_preset,
    expected_error,
    leaked_cards,
    play_match,
    ref_trick_winner,
    rules_of,
)

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
GAME_IDS = [f"{p}-{n}" for p, n in ALL_GAMES]


def _new_deal(preset: str, n: int, rng: random.Random) -> Deal:
    rules = rules_of(preset)
    partie = (rng.randrange(22), rng.randrange(22)) if preset == "pollack" else (0, 0)
    pool_in = rng.random() < 0.7
    state = partie if preset == "pollack" else pool_in if rules.kind.chips else None
    return Deal.shuffled(rules, n, rng.randrange(n), rng, family_state=state)


def _snapshot(deal: Deal) -> tuple[Any, ...]:
    return (deal.key(), deal.hands, deal.phase, deal.to_act, deal.trick, deal.leader,
            deal.taken, deal.tricks, deal.past, deal.declarer, deal.history,
            deal.announcements, deal.claim, tuple(deal.legal_actions()))


def _check_conservation(deal: Deal) -> None:
    dealt = 0
    for h in deal.initial_hands:
        dealt |= h
    parts = list(deal.hands) + list(deal.taken) + [sum(1 << c for c in deal.trick)]
    if deal.phase_name == "pass":  # the Hearts family: chosen cards, not yet received
        parts += list(getattr(deal, "passed"))  # noqa: B009 - only HeartsDeal has it
    union = 0
    for part in parts:
        assert union & part == 0, "a card is in two places"
        union |= part
    assert union == dealt
    assert len(deal.trick) == len(set(deal.trick))
    if deal.turn_up is not None:
        assert not dealt >> deal.turn_up & 1, "the turn-up belongs to nobody"
    assert sum(deal.tricks) == len(deal.past)
    for p in range(deal.num_players):
        assert deal.tricks[p] == sum(1 for t in deal.past if t.winner == p)


def _check_deal_sum(ref: RefDeal, scores: tuple[int, ...]) -> None:
    """The deal's penalties add up as the rule book says (docs/rules/common.md#scoring)."""
    preset, n = ref.preset, ref.n
    total = sum(scores)
    if preset in CONTRACTS:
        in_pack = sum(CARD_VALUES[preset].values())
        rule = CONTRACTS[preset][0]
        slam = next((p for p in range(n) if ref.tricks_of(p) == len(ref.tricks)), None)
        d = ref.declarer
        if d is not None and slam == d:
            assert total == 5 * (n - 1) - (5 if rule == "general-bonus" else 0)
        elif d is not None and rule == "generale":
            own = sum(CARD_VALUES[preset].get(c, 0) for c in map(_code, ref.taken[d]))
            assert total == 5 + in_pack - own
        elif d is not None:
            assert total == 5 + in_pack
        elif rule == "chelem" and slam is not None:
            assert total == 5 * (n - 1)
        else:
            assert total == in_pack
    elif preset in SLOBBER:
        all_three = ref.tricks[0][2] == ref.tricks[-1][2] and max(scores) == 4
        assert total == (4 if all_three else 3)
    elif preset in ("black-lady", "black-maria"):
        in_pack = sum(v for c, v in CARD_VALUES[preset].items()
                      if any(_code(x) == c for t in ref.taken for x in t))
        assert total in (in_pack, in_pack * (n - 1))
    elif preset == "knaves":
        assert total == 17 - 10
    elif preset == "pollack":
        anns = sum(3 if a.startswith(("three", "pollack")) else 4 for _p, a in ref.ann_log)
        if ref.claim is None:
            assert scores[0] + scores[1] == 11 + anns


def _code(c: int) -> str:
    from polignac.core import CODES

    return CODES[c]


@every_preset
@pytest.mark.parametrize(("preset", "n"), ALL_GAMES, ids=GAME_IDS)
@settings(max_examples=4, deadline=None)
@given(seed=SEEDS)
def test_random_deal_agrees_with_reference(preset: str, n: int, seed: int) -> None:
    rng = random.Random(seed)
    deal = _new_deal(preset, n, rng)
    ref = RefDeal.of(deal)
    rules = deal.rules
    assert sorted(len(h) for h in ref.hands) == [rules.hand_size(n)] * n
    while not deal.done:
        assert deal.phase_name == ref.phase
        assert deal.to_act == ref.to_act
        legal = deal.legal_actions()
        assert legal == ref.legal(), f"legal actions differ after {deal.history}"
        _check_conservation(deal)
        if deal.trick:
            assert deal.trick_winner_so_far() == ref_trick_winner(
                preset, ref.leader, ref.trick, ref.trump, n)
        action = choose(rng, deal, legal)
        before = len(ref.tricks)
        deal = deal.apply(action)
        ref.apply(action)
        if len(ref.tricks) > before:
            trick = deal.past[-1]
            leader, cards, winner = ref.tricks[-1]
            assert (trick.leader, list(trick.cards), trick.winner) == (leader, cards, winner)
    assert ref.done
    assert deal.legal_actions() == []
    _check_conservation(deal)
    if deal.claim is None:
        assert all(h == 0 for h in deal.hands)
    assert deal.claim == ref.claim
    score = deal.score()
    expected, redeal = ref.scores()
    assert list(score.scores) == expected, score.lines
    assert score.redeal == redeal
    if preset in BASSA:
        pool_change = (12 if ref.pool_in else 0) - (0 if redeal else 12)
        assert sum(score.scores) + pool_change == 0, "chips are conserved with the pool"
    _check_deal_sum(ref, score.scores)


@every_preset
@pytest.mark.parametrize(("preset", "n"), ALL_GAMES, ids=GAME_IDS)
@settings(max_examples=2, deadline=None)
@given(seed=SEEDS)
def test_views_never_show_other_hands(preset: str, n: int, seed: int) -> None:
    rng = random.Random(seed)
    deal = _new_deal(preset, n, rng)
    while True:
        for p in [*range(n), None]:
            hidden = _hidden(deal, p)
            view = deal.view(p)
            assert not leaked_cards(view, hidden), f"player {p} sees {leaked_cards(view, hidden)}"
            if p is not None:
                assert view["hand"] == [_code(c) for c in bits(deal.hands[p])]
        if deal.done:
            break
        deal = deal.apply(choose(rng, deal, deal.legal_actions()))


def _hidden(deal: Deal, p: int | None) -> set[int]:
    """The cards ``p`` (None: a spectator) may not see: the other hands; in the Hearts
    family also the others' chosen passes, but not the cards ``p`` passed itself."""
    n = deal.num_players
    hidden = {c for q in range(n) if q != p for c in bits(deal.hands[q])}
    passed = getattr(deal, "passed", None)
    if passed is not None:
        if deal.phase_name == "pass":
            hidden |= {c for q in range(n) if q != p for c in bits(passed[q])}
        if p is not None:
            hidden -= set(bits(passed[p]))
    return hidden


def _illegal_candidates(deal: Deal, rng: random.Random) -> list[tuple[int, int | None]]:
    legal = set(deal.legal_actions())
    out: list[tuple[int, int | None]] = [
        (a, None) for a in range(NUM_ACTIONS) if a not in legal
    ]
    out += [(-1, None), (NUM_ACTIONS, None), (1000, None)]
    n = deal.num_players
    for a in legal:
        other = (deal.to_act + rng.randrange(1, n)) % n
        out.append((a, other))
    if not legal:  # a finished deal: everything is over, with or without a player
        out += [(a, rng.randrange(n)) for a in range(NUM_ACTIONS)]
    rng.shuffle(out)
    return out[:10]


@every_preset
@pytest.mark.parametrize(("preset", "n"), ALL_GAMES, ids=GAME_IDS)
@settings(max_examples=2, deadline=None)
@given(seed=SEEDS)
def test_illegal_actions_are_rejected_and_change_nothing(preset: str, n: int,
                                                         seed: int) -> None:
    rng = random.Random(seed)
    deal = _new_deal(preset, n, rng)
    ref = RefDeal.of(deal)
    while True:
        if rng.random() < 0.4 or deal.done or deal.phase_name == "declare":
            before = _snapshot(deal)
            for action, player in _illegal_candidates(deal, rng):
                kind, rule = expected_error(ref, action, player)
                with pytest.raises(IllegalActionError) as info:
                    deal.apply(action, player)
                assert type(info.value) is kind, (action, player, info.value)
                assert info.value.rule == rule, (action, player, str(info.value))
                assert str(info.value)
                assert _snapshot(deal) == before
        if deal.done:
            break
        action = choose(rng, deal, deal.legal_actions())
        deal = deal.apply(action, deal.to_act)
        ref.apply(action)


# ------------------------------------------------------------------ matches

MATCH_GAMES = [*ALL_GAMES, ("polignac-threshold", 4, {"threshold": 1}),
               ("polignac-threshold", 5, {"threshold": 2}),
               ("pollack", 4, {"partie_target": 8}),
               ("bassadewitz", 4, {"deals": 4})]
MATCH_CASES = [(g[0], g[1], g[2] if len(g) > 2 else {}) for g in MATCH_GAMES]  # type: ignore[misc]
MATCH_IDS = [f"{p}-{n}{'-' + ','.join(o) if o else ''}" for p, n, o in MATCH_CASES]


def _expected_end(m: Match) -> None:
    """Replay the results independently and check dealers, seats, totals and the end."""
    rules, n = m.rules, m.num_players
    totals = [0] * n
    dealer = m.first_dealer
    tied: tuple[int, ...] = ()
    finished = False
    winners: tuple[int, ...] = ()
    losers: tuple[int, ...] = ()
    counted = 0
    pool = 0
    partie = [0, 0]
    parties: list[int] = []
    thr = rules.threshold
    for r in m.results:
        assert not finished, "no deal after the end of the match"
        seats = tied or tuple(range(n))
        assert r.dealer == dealer, "dealer rotation"
        assert r.seats == seats
        assert r.tiebreak == bool(tied)
        assert r.deal.dealer == seats.index(dealer)
        ref = RefDeal.of(r.deal)
        for a in r.deal.history:
            ref.apply(a)
        assert ref.done
        scores, redeal = ref.scores()
        assert list(r.score.scores) == scores
        per_seat = [0] * n
        for i, seat in enumerate(seats):
            per_seat[seat] = scores[i]
        assert list(r.scores) == per_seat
        if rules.match_end == "chips":
            assert (r.deal.family_state is not False) == (pool == 0)
            pool = 0 if not redeal else 12
        if tied:
            # a tie-break deal: scores are not added to the totals
            low = min(per_seat[s] for s in tied)
            fewest = tuple(s for s in tied if per_seat[s] == low)
            if len(fewest) == 1:
                finished, winners = True, fewest
                losers = tuple(s for s in range(n) if s != fewest[0])
            tied = fewest if len(fewest) > 1 else ()
        elif rules.match_end == "parties":
            partie = [partie[0] + scores[0], partie[1] + scores[1]]
            winner = None
            if ref.claim is not None:
                side = ref.claim[0] % 2
                winner = side if ref.claim[1] else 1 - side
            elif max(partie) >= rules.partie_target:
                if min(partie) >= rules.partie_target and partie[0] == partie[1]:
                    winner = ref.tricks[-1][2] % 2
                else:
                    winner = 0 if partie[0] > partie[1] else 1
            assert r.family_result.partie_winner == winner
            if winner is not None:
                parties.append(winner)
                partie = [0, 0]
                if len(parties) == rules.parties:
                    finished = True
                    a, b = parties.count(0), parties.count(1)
                    if a != b:
                        side = 0 if a > b else 1
                        winners = tuple(s for s in range(n) if s % 2 == side)
                        losers = tuple(s for s in range(n) if s % 2 != side)
            totals = [partie[s % 2] for s in range(n)]
        else:
            totals = [t + s for t, s in zip(totals, per_seat, strict=True)]
            counted += 0 if redeal else 1
            end = rules.match_end
            if end in ("fixed-deals", "chips"):
                if counted == rules.num_deals(n):
                    best = min(totals) if rules.scoring == "penalty" else max(totals)
                    finished = True
                    winners = tuple(s for s in range(n) if totals[s] == best)
                    losers = tuple(s for s in range(n) if totals[s] != best)
            elif thr is not None and max(totals) >= thr:
                if end == "threshold-loser":
                    finished = True
                    losers = tuple(s for s in range(n) if totals[s] == max(totals))
                    winners = tuple(s for s in range(n) if s not in losers)
                elif end == "first-to-target":
                    finished = True
                    winners = tuple(s for s in range(n) if totals[s] == max(totals))
                    losers = tuple(s for s in range(n) if s not in winners)
                else:
                    low = tuple(s for s in range(n) if totals[s] == min(totals))
                    if len(low) == 1:
                        finished, winners = True, low
                        losers = tuple(s for s in range(n) if s != low[0])
                    else:
                        tied = low
        # the next dealer
        if tied:
            dealer = next(s for k in range(1, n + 1) if (s := (r.dealer + k) % n) in tied)
        elif redeal and not r.tiebreak:
            dealer = r.dealer
        else:
            dealer = (r.dealer + 1) % n
    assert m.finished == finished
    assert list(m.totals) == totals
    assert m.tied == tied
    assert set(m.winners) == set(winners)
    assert set(m.losers) == set(losers)
    assert not set(m.winners) & set(m.losers)
    if rules.match_end == "chips":
        assert sum(m.totals) + pool == 0, "chips are conserved with the pool"
        assert m.family_state.waiting == (pool == 12)
    if rules.match_end == "parties":
        assert list(parties_of(m.standing).parties_won) == parties


@every_preset
@pytest.mark.parametrize(("preset", "n", "overrides"), MATCH_CASES, ids=MATCH_IDS)
@settings(max_examples=2, deadline=None)
@given(seed=SEEDS)
def test_random_match_invariants(preset: str, n: int, overrides: dict[str, Any],
                                 seed: int) -> None:
    rng = random.Random(seed)
    rules = get_rules(preset, overrides)
    match = Match.new(rules, n, first_dealer=rng.randrange(n))
    last = match
    for step, last in enumerate(play_match(match, rng)):
        if step % 11 == 0 and last.current is not None:
            deal = last.current
            for seat in [*range(n), None]:
                player = (last.current_seats.index(seat)
                          if seat is not None and seat in last.current_seats else None)
                hidden = _hidden(deal, player)
                assert not leaked_cards(last.view(seat), hidden)
    assert last.finished
    _expected_end(last)


@every_preset
@pytest.mark.parametrize(("preset", "n"), ALL_GAMES, ids=GAME_IDS)
@settings(max_examples=2, deadline=None)
@given(seed=SEEDS, stop=st.floats(min_value=0.0, max_value=1.0))
def test_record_round_trip(preset: str, n: int, seed: int, stop: float) -> None:
    rng = random.Random(seed)
    match = Match.new(rules_of(preset), n, first_dealer=rng.randrange(n))
    states = list(play_match(match, rng))
    match = states[int(stop * (len(states) - 1))]
    record = to_record(match)
    text = json.dumps(record)
    again = replay(json.loads(text))
    assert to_record(again) == record
    assert summary(again) == summary(match)
    json.dumps(summary(match))
    assert again.totals == match.totals
    assert (again.finished, again.winners, again.losers) == (
        match.finished, match.winners, match.losers)
    assert again.current == match.current
    assert [r.deal for r in again.results] == [r.deal for r in match.results]
    assert [r.scores for r in again.results] == [r.scores for r in match.results]
    for seat in [*range(n), None]:
        assert again.view(seat) == match.view(seat)
    # a replayed match goes on exactly like the original
    if match.current is not None and not match.finished:
        legal = match.legal_actions()
        assert again.legal_actions() == legal
        a = legal[0] if legal[0] != CLAIM else legal[-1]
        assert to_record(again.apply(a)) == to_record(match.apply(a))


def test_every_preset_and_count_is_covered() -> None:
    assert {p for p, _n in ALL_GAMES} == set(PRESETS)
    assert len(ALL_GAMES) == sum(len(r.players) for r in PRESETS.values())
    assert set(PRESETS) == set(CARD_VALUES)


def test_the_leak_scanner_finds_a_planted_card() -> None:
    deal = Deal.shuffled(PRESETS["polignac"], 4, 0, random.Random(0))
    hidden = set(bits(deal.hands[2]))
    planted = _code(min(hidden))
    assert not leaked_cards(deal.view(1), hidden)
    assert leaked_cards({"note": f"player 2 holds {planted}."}, hidden) == {planted}
    assert leaked_cards({planted.lower(): 1}, hidden) == {planted}
    assert leaked_cards({"mask": deal.hands[2]}, hidden)
