"""Matches: dealer rotation, tie-breaks, redeals, Pollack parties and every match end."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random

import pytest

from polignac.core import (
    CAPOT,
    PASS,
    GameOverError,
    IllegalActionError,
    Match,
    NotYourTurnError,
    RulesError,
    get_rules,
)
from polignac.core.bassadewitz import POOL_PUT_UP, POOL_WAITING
from polignac.core.cards import cards_of
from polignac.core.pollack import parties_of

from .reference import PRESET_NAMES, cards, every_preset, play_to_end
from .test_deal import BASSA_HANDS, SLAM, SPLIT


def hands(spec: list[str]) -> list[list[int]]:
    return [cards(h) for h in spec]


def finish_deal(m: Match, calls: tuple[int, ...] = ()) -> Match:
    for a in calls:
        m = m.apply(a)
    while m.current is not None:
        m = m.apply(min(m.legal_actions()))
    return m


def test_new_match_checks_its_arguments() -> None:
    with pytest.raises(RulesError, match="players"):
        Match.new(get_rules("knaves"), 4)
    with pytest.raises(RulesError, match="first_dealer"):
        Match.new(get_rules("polignac"), 4, first_dealer=4)
    with pytest.raises(RulesError, match="names"):
        Match.new(get_rules("polignac"), 4, names=["a", "b"])
    with pytest.raises(RulesError, match="multiple of 4"):
        Match.new(get_rules("bassadewitz", {"deals": 6}), 4)
    m = Match.new(get_rules("polignac"))
    assert m.num_players == 4 and m.needs_deal and m.totals == (0, 0, 0, 0)


def test_actions_out_of_place() -> None:
    m = Match.new(get_rules("polignac"), 4, first_dealer=1)
    with pytest.raises(IllegalActionError) as info:
        m.apply(PASS)
    assert info.value.rule == "no-deal"
    m = m.start_deal(hands(SLAM))
    assert m.to_act() == 2
    with pytest.raises(NotYourTurnError) as turn:
        m.apply(PASS, seat=0)
    assert turn.value.rule == "not-your-turn"
    assert m.apply(PASS, seat=2).to_act() == 3
    with pytest.raises(IllegalActionError) as info:
        m.start_deal(hands(SLAM))
    assert info.value.rule == "deal-in-progress"


def test_dealer_rotates_in_play_order() -> None:
    m = Match.new(get_rules("polignac"), 4, first_dealer=2)
    dealers = []
    for _ in range(5):
        m = finish_deal(m.start_deal(hands(SPLIT)))
        dealers.append(m.results[-1].dealer)
    assert dealers == [2, 3, 0, 1, 2]
    assert sum(m.totals) == 25, "five penalty points per deal"


def test_threshold_loser_ties_at_the_top_all_lose() -> None:
    m = Match.new(get_rules("polignac", {"threshold": 5}), 4, first_dealer=0)
    m = finish_deal(m.start_deal(hands(SLAM)), (CAPOT,))  # capot made: 5 0 5 5
    assert m.finished and m.totals == (5, 0, 5, 5)
    assert m.losers == (0, 2, 3) and m.winners == (1,)
    assert m.places() == [2, 1, 2, 2]  # the losers tie on 5
    assert m.view(0)["places"] == [2, 1, 2, 2]
    with pytest.raises(GameOverError) as info:
        m.apply(PASS)
    assert info.value.rule == "match-over"
    with pytest.raises(GameOverError):
        m.deal_random(random.Random(1))


def test_threshold_lowest_wins_plays_tie_breaks() -> None:
    rules = get_rules("polignac-threshold", {"threshold": 3})
    m = Match.new(rules, 4, first_dealer=0)
    m = finish_deal(m.start_deal(hands(SPLIT)), (PASS,) * 4)  # 0 2 3 0
    assert not m.finished and m.tied == (0, 3) and m.totals == (0, 2, 3, 0)
    # the tie-break dealer is the first tied seat after the previous dealer (0)
    assert m.next_deal() == (3, (0, 3))
    rng = random.Random(3)
    dealers = [0]
    while not m.finished:
        dealer, seats = m.next_deal()
        assert seats == m.tied
        assert dealer == next(s for k in range(1, 5) if (s := (dealers[-1] + k) % 4) in seats)
        m = m.deal_random(rng)
        assert m.current is not None and m.current.num_players == len(seats)
        assert m.current.rules.hand_size(2) == 15
        m = finish_deal(m)
        dealers.append(dealer)
        assert m.results[-1].tiebreak
    assert m.totals == (0, 2, 3, 0), "tie-break penalties are not added"
    last = m.results[-1]
    assert m.winners in ((0,), (3,))
    w = m.winners[0]
    assert last.scores[w] < last.scores[3 - w]
    assert set(m.losers) == {0, 1, 2, 3} - {w}
    # the winner first, then by total: the other tied seat (0) before 2 and 3 points
    assert m.places()[w] == 1 and m.places()[3 - w] == 2 and m.places()[1:3] == [3, 4]


def test_fixed_deals_lowest_total_wins() -> None:
    m = Match.new(get_rules("polignac-rounds", {"deals": 2}), 4, first_dealer=0)
    m = finish_deal(m.start_deal(hands(SPLIT)), (PASS,) * 4)  # 0 2 3 0
    assert not m.finished
    m = finish_deal(m.start_deal(hands(SPLIT)), (PASS,) * 4)  # dealer 1: still 0 2 3 0
    assert m.finished and m.counted_deals == 2
    low = min(m.totals)
    assert m.winners == tuple(s for s in range(4) if m.totals[s] == low)
    assert set(m.losers) == set(range(4)) - set(m.winners)
    assert m.places() == [1, 3, 4, 1]


def test_match_on_has_no_places_in_its_view() -> None:
    m = Match.new(get_rules("polignac-rounds", {"deals": 2}), 4, first_dealer=0)
    assert "places" not in finish_deal(m.start_deal(hands(SPLIT)), (PASS,) * 4).view(None)


def test_bassadewitz_redeal_keeps_the_dealer_and_the_pool() -> None:
    m = Match.new(get_rules("bassadewitz", {"deals": 4}), 4, first_dealer=0)
    m = finish_deal(m.start_deal(hands(SLAM)))  # player 1 sweeps: redeal
    assert m.family_state == POOL_WAITING and m.totals == (-16, 12, -4, -4)
    assert m.next_deal()[0] == 0, "the same dealer deals again"
    m = m.start_deal(hands(BASSA_HANDS))
    assert m.current is not None and m.current.family_state is False  # no stake
    m = finish_deal(m)
    assert m.family_state == POOL_PUT_UP and m.counted_deals == 1 and len(m.results) == 2
    assert sum(m.totals) == 0
    assert m.next_deal()[0] == 1
    rng = random.Random(2)
    m = play_to_end(m, rng)
    assert m.finished and m.counted_deals == 4
    assert sum(m.totals) + (12 if m.family_state.waiting else 0) == 0
    top = max(m.totals)
    assert m.winners == tuple(s for s in range(4) if m.totals[s] == top)


def test_knaves_first_to_target() -> None:
    m = Match.new(get_rules("knaves"), 3, first_dealer=0)
    m = play_to_end(m, random.Random(4))
    assert max(m.totals) >= 20
    assert all(max(r.scores) >= 0 for r in m.results)
    assert m.winners == tuple(s for s in range(3) if m.totals[s] == max(m.totals))
    where = m.places()  # Knaves counts up: the higher total places first
    assert all(where[a] < where[b] for a in range(3) for b in range(3)
               if m.totals[a] > m.totals[b])


def test_pollack_six_parties_and_draws() -> None:
    draws = 0
    for seed in range(12):
        m = Match.new(get_rules("pollack", {"partie_target": 5}), 4, first_dealer=seed % 4)
        m = play_to_end(m, random.Random(seed))
        assert m.finished and len(parties_of(m.standing).parties_won) == 6
        won = list(parties_of(m.standing).parties_tally)
        if won[0] == won[1]:
            draws += 1
            assert m.winners == () and m.losers == (), "3-3 is a draw"
            assert m.places() == [1, 1, 1, 1]
        else:
            assert sorted(m.places()) == [1, 1, 3, 3] and m.places()[0] == m.places()[2]
            side = 0 if won[0] > won[1] else 1
            assert m.winners == (side, side + 2) and m.losers == (1 - side, 3 - side)
        assert sum(1 for r in m.results if r.family_result.partie_winner is not None) == 6
    assert draws, "some seed gives a 3-3 draw"


def test_pollack_score_sheet_in_the_view_and_summary() -> None:
    from polignac.core import summary

    for seed in range(6):
        rules = get_rules("pollack", {"partie_target": 11 + seed, "parties": 3})
        m = play_to_end(Match.new(rules, 4, first_dealer=seed % 4), random.Random(seed))
        assert rules.sides == ((0, 2), (1, 3))
        view, summ = m.view(None), summary(m)
        assert view["sides"] == summ["sides"] == [[0, 2], [1, 3]]
        running, partie, finals, game = [0, 0], 1, [], [0, 0]
        for r, v, d in zip(m.results, view["deals"], summ["deals"], strict=True):
            sides = [r.scores[0], r.scores[1]]
            assert r.scores == (sides[0], sides[1], sides[0], sides[1])
            running = [running[i] + sides[i] for i in (0, 1)]
            game = [game[i] + sides[i] for i in (0, 1)]
            for entry in (v, d):
                assert entry["partie"] == partie
                assert entry["side_scores"] == sides
                assert entry["partie_score"] == running
                assert entry["partie_won_by"] == r.family_result.partie_winner
                assert entry["game_points"] == game
            tally_now = [sum(1 for x in m.results[:r.number]
                             if x.family_result.partie_winner == side) for side in (0, 1)]
            assert d["parties_tally"] == v["parties_tally"] == tally_now
            # Each side's reason lines add up to what it scored in the deal; every
            # line names its side, and a player's call also its seat.
            for side in (0, 1):
                assert sum(x["points"] for x in d["reasons"] if x["side"] == side) == sides[side]
            for x in d["reasons"]:
                assert x["side"] in (0, 1)
                if x["reason"] == "card-points":
                    assert "seat" not in x
                else:
                    assert x["reason"] == "announce" and x["seat"] & 1 == x["side"]
            if r.family_result.partie_winner is not None:
                finals.append(running)
                running, partie = [0, 0], partie + 1
        tally = list(parties_of(m.standing).parties_tally)
        for out in (view, summ):
            assert out["partie_scores"] == finals and len(finals) == 3
            assert out["parties_tally"] == tally and sum(tally) == 3
            assert out["game_points"] == game
            assert out["partie"] == [0, 0]
        won = [s for s in (0, 1) if tally[s] == max(tally)]
        assert list(m.winners) == list(rules.sides[won[0]])


def test_pollack_sheet_while_a_partie_is_in_progress() -> None:
    m = Match.new(get_rules("pollack"), 4, first_dealer=1)
    rng = random.Random(3)
    m = m.deal_random(rng)
    assert m.view(0)["partie_scores"] == [] and m.view(0)["parties_tally"] == [0, 0]
    while m.current is not None:
        m = m.apply(rng.choice(m.legal_actions()))
    view = m.view(2)
    assert view["deals"][0]["partie"] == 1
    if m.results[0].family_result.partie_winner is None:
        assert view["partie"] == view["deals"][0]["partie_score"] == view["game_points"]
        assert view["totals"] == [view["partie"][s & 1] for s in range(4)]


def test_other_games_have_no_sides_or_sheet() -> None:
    m = play_to_end(Match.new(get_rules("polignac", {"threshold": 5}), 4), random.Random(2))
    view = m.view(None)
    assert get_rules("polignac").sides == ()
    assert "sides" not in view and "partie_scores" not in view
    assert "partie" not in view["deals"][0] and m.results[0].sheet() == {}


def test_view_of_a_seat_out_of_a_tie_break() -> None:
    rules = get_rules("polignac-threshold", {"threshold": 3})
    m = Match.new(rules, 4, first_dealer=0)
    m = finish_deal(m.start_deal(hands(SPLIT)), (PASS,) * 4)
    m = m.deal_random(random.Random(1))
    view = m.view(1)
    assert view["deal_seats"] == [0, 3] and view["deal"]["hand"] is None
    assert view["tied"] == [0, 3]
    assert m.view(3)["deal"]["hand"] is not None
    with pytest.raises(NotYourTurnError):
        m.apply(PASS, seat=1)


def test_view_between_deals_shows_the_finished_deal_but_no_hidden_card() -> None:
    import json
    import random

    from polignac.core import CODES, Match, cards_of, get_rules

    rng = random.Random(4)
    m = Match.new(get_rules("pollack")).deal_random(rng)
    hands = m.current.initial_hands if m.current else ()
    m = m.apply_text("claim")  # forehand claims at once: the deal ends with full hands
    assert m.current is None
    for seat in range(4):
        view = m.view(seat)
        last = view["last_deal"]
        assert last["phase"] == "done" and "score" in last
        assert last["hand"] == [CODES[c] for c in cards_of(hands[seat])]
        text = json.dumps({k: v for k, v in last.items() if k != "hand"})
        others = [CODES[c] for p, h in enumerate(hands) if p != seat for c in cards_of(h)]
        assert not any(f'"{code}"' in text for code in others)
    assert m.view(None)["last_deal"]["hand"] is None


def test_illegal_action_messages_name_match_seats_in_a_tie_break_deal() -> None:
    from polignac.core import IllegalActionError, Match, cards_of, get_rules

    rules = get_rules("polignac-threshold", {"threshold": 2})
    m = Match.new(rules, 4, first_dealer=3)
    suit = [[c for c in cards_of(rules.pack_mask(4)) if c // 13 == s] for s in range(4)]
    m = m.start_deal([suit[0], suit[1], suit[3], suit[2]])  # seat 0 takes every trick
    while m.current is not None:
        m = m.apply(m.legal_actions()[0])
    assert m.tied == (1, 2, 3)
    dealer, seats = m.next_deal()
    assert (dealer, seats) == (1, (1, 2, 3))
    m = m.deal_random(__import__("random").Random(2))
    assert m.to_act() == 2  # deal player 1 is seat 2
    try:
        m.apply_text("JS" if m.current and not m.current.hands[1] >> 48 & 1 else "7H")
    except IllegalActionError as exc:  # the fields name the seats, in the match's numbering
        from polignac.core.visibility import seat_error

        assert (exc.seat, exc.to_act) == (2, 2)
        assert "player" not in seat_error(exc).message
    else:  # pragma: no cover
        raise AssertionError("an illegal action was accepted")


@every_preset
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_deal_random_deals_as_a_shuffled_pack(preset: str) -> None:
    """Match.deal_random (Deal.shuffled's fast path) gives the deal that rng.shuffle of the
    pack in order, dealt by Deal.from_pack, gives, and leaves the rng in the same state."""
    rules = get_rules(preset)
    for n in rules.players:
        match = Match.new(rules, n, first_dealer=n % 2)
        play = random.Random(n)
        for seed in range(3):  # later deals too: a partie, a pool that stayed
            if match.finished:
                break
            rng, ref = random.Random(seed), random.Random(seed)
            dealt = match.deal_random(rng)
            order = cards_of(rules.pack_mask(len(dealt.current_seats)))
            ref.shuffle(order)
            assert dealt == match.deal_from_pack(order)
            assert rng.getrandbits(64) == ref.getrandbits(64)
            match = dealt
            while match.current is not None:
                match = match.apply(play.choice(match.legal_actions()))


@pytest.mark.parametrize("preset", ["polignac", "pollack", "bassadewitz", "black-lady"])
def test_a_match_is_a_frozen_dataclass_at_every_step(preset: str) -> None:
    """The match keeps its state in slots (core/match.py:_Slots): at every step it
    still refuses changes, compares, copies, pickles and replaces as a frozen dataclass,
    and ``finished``/``needs_deal`` say what the standing and the deal say."""
    rng = random.Random(11)
    m = Match.new(get_rules(preset), names=("A", "B", "C", "D")[:get_rules(preset).default_players])
    steps = 0
    while not m.finished and steps < 300:
        assert m.finished == m.standing.finished
        assert m.needs_deal == (m.current is None and not m.finished)
        if steps % 17 == 0:
            for name in ("current", "finished", "needs_deal", "results", "standing"):
                with pytest.raises(dataclasses.FrozenInstanceError):
                    setattr(m, name, None)
            again = pickle.loads(pickle.dumps(m))
            assert again == m and copy.copy(m) == m and copy.deepcopy(m) == m
            assert type(again) is Match and again.view(0) == m.view(0)
            renamed = dataclasses.replace(m, names=tuple(n + "!" for n in m.names))
            assert renamed.names != m.names and renamed.current is m.current
            assert renamed.results == m.results and renamed.needs_deal == m.needs_deal
            assert repr(renamed).startswith("Match(rules=")
        m = m.deal_random(rng) if m.needs_deal else m.apply(rng.choice(m.legal_actions()))
        steps += 1
    assert m.finished == m.standing.finished


@every_preset
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_views_of_every_seat_at_once_are_each_seats_own_view(preset: str) -> None:
    """``Match.views`` builds the public part once for every seat: each seat's view is
    still exactly its own (no hand, legal action or passed card of another seat), at
    every step of a match, between deals included."""
    import json

    rules = get_rules(preset)
    n = rules.default_players
    rng = random.Random(5)
    m = Match.new(rules, n)
    seats: list[int | None] = [None, *range(n)]
    for _ in range(120):
        if m.finished:
            break
        together = m.views(seats)
        assert list(together) == seats
        for seat in seats:
            alone = m.views([seat])[seat]
            assert json.dumps(together[seat]) == json.dumps(alone), (preset, seat)
            assert together[seat]["seat"] == seat
        m = m.deal_random(rng) if m.needs_deal else m.apply(rng.choice(m.legal_actions()))


@pytest.mark.parametrize("preset", ["polignac", "bassadewitz", "pollack", "polignac-fr"])
def test_every_standing_and_score_a_match_builds_is_its_dataclass(preset: str) -> None:
    """The standings and deal scores of a match's deals' ends are built with their
    ``__dict__`` set at once (core/standing.py:_standing, core/scoring.py:score_taken):
    each holds every field of its dataclass, in order, and equals, pickles and shows
    as the one its ``__init__`` builds from the same fields."""
    rules = get_rules(preset)
    rng = random.Random(3)
    m = Match.new(rules)
    built: list[object] = [m.standing]
    while not m.finished and len(m.results) < 12:
        m = m.deal_random(rng) if m.needs_deal else m.apply(rng.choice(m.legal_actions()))
        if m.needs_deal or m.finished:
            built += [m.standing, m.results[-1].score]
    for obj in built:
        names = [f.name for f in dataclasses.fields(obj)]  # type: ignore[arg-type]
        assert list(vars(obj)) == names
        again = type(obj)(**{name: getattr(obj, name) for name in names})
        assert again == obj and repr(again) == repr(obj)
        assert pickle.dumps(again) == pickle.dumps(obj)


@pytest.mark.parametrize("preset", ["polignac", "slobberhannes", "knaves"])
def test_the_card_lines_table_gives_the_lines_read_card_by_card(preset: str) -> None:
    """With few point cards a rule set's lines hold each player's card lines for
    every set of point cards (core/scoring.py:_Lines.card_rows): a deal's score from
    it is the score read off the cards one by one (the table left out)."""
    from polignac.core import scoring

    rules = get_rules(preset)
    n = rules.default_players
    lines = scoring._lines_of(rules, n)
    assert lines.card_rows is not None
    rng = random.Random(8)
    for _ in range(200):
        taken = [0] * n
        for c, _code in lines.codes:
            if rng.random() < 0.8:
                taken[rng.randrange(n)] |= 1 << c
        tricks = [rng.randrange(3) for _ in range(n)]
        args = (rules, n, taken, tricks, rng.randrange(n), rng.randrange(n), -1, -1, dict)
        with_table = scoring.score_taken(*args)
        lines.card_rows, table = None, lines.card_rows
        try:
            assert scoring.score_taken(*args) == with_table
        finally:
            lines.card_rows = table
