"""``core/visibility.py``: what each seat may see of an event and of a refused action."""

from __future__ import annotations

import random

import pytest

from polignac.core import IllegalActionError, Match, action_name, get_rules, parse_action
from polignac.core.cards import CODES, cards_of
from polignac.core.visibility import act_event, seat_error, seen_by


def _match(preset: str, seed: int = 1) -> Match:
    rules = get_rules(preset, {})
    n = rules.default_players
    return Match.new(rules, n, 0, [f"P{i}" for i in range(n)]).deal_random(random.Random(seed))


def _refused(match: Match, text: str, seat: int | None) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as exc:
        match.apply(parse_action(text), seat)
    return exc.value


def test_a_card_in_another_hand_is_refused_without_saying_whose() -> None:
    m = _match("polignac")
    while m.current is not None and any(a >= 52 for a in m.legal_actions()):
        m = m.apply(m.legal_actions()[-1], m.to_act())  # through the declaration round
    seat = m.to_act()
    assert seat is not None and m.current is not None
    other = (m.current.to_act + 1) % len(m.current_seats)
    card = CODES[cards_of(m.current.hands[other])[0]]
    exc = _refused(m, card, seat)
    assert "another player" in str(exc)  # the core's own words say where it is
    refused = seat_error(exc)
    assert refused.rule == "card-not-in-hand" and refused.action == card
    assert (refused.seat, refused.to_act) == (seat, seat)
    assert refused.message == f"card not in hand: you do not hold {card}"


def test_not_your_turn_names_the_seat_to_act_in_the_tables_numbering() -> None:
    m = _match("polignac")
    seat = m.to_act()
    assert seat is not None
    wrong = (seat + 1) % m.num_players
    exc = _refused(m, action_name(m.legal_actions()[0]), wrong)
    refused = seat_error(exc)
    assert refused.rule == "not-your-turn"
    assert (refused.seat, refused.to_act) == (wrong, seat)
    assert refused.message == f"not your turn: seat {seat} is to act"


def test_a_rule_it_does_not_know_gets_a_plain_message_and_public_ones_pass() -> None:
    odd = seat_error(IllegalActionError("player 2 holds AS and KS", rule="new-rule",
                                        action="QS"), seat=3)
    assert odd.message == "QS is not allowed now (new-rule)" and odd.seat == 3
    over = seat_error(IllegalActionError("the match is over", rule="match-over"))
    assert over.message == "the match is over"


def test_a_passed_card_shows_to_its_passer_only_and_a_deal_its_own_hand() -> None:
    m = _match("black-lady")
    assert m.current is not None and m.current.phase_name == "pass"
    seat = m.to_act()
    assert seat is not None
    action = action_name(m.legal_actions()[0])
    after = m.apply(parse_action(action), seat)
    event = act_event(m, after, seat, action)
    assert event == {"kind": "act", "seat": seat, "action": action, "passing": True}
    assert seen_by(event, seat)["action"] == action
    others = [s for s in range(m.num_players) if s != seat] + [None]
    assert all(seen_by(event, s)["action"] == "hidden" for s in others)
    deal = {"kind": "deal", "dealer": 0, "seats": [0, 1, 2, 3],
            "hands": [["AS"], ["KS"], ["QS"], ["JS"]], "turn_up": None}
    assert seen_by(deal, 2)["hand"] == ["QS"] and "hands" not in seen_by(deal, 2)
    assert seen_by(deal, None)["hand"] is None
    assert "hands" in deal  # the event itself is unchanged


def test_the_event_that_completes_a_trick_and_a_deal_says_so() -> None:
    m = _match("polignac", seed=3)
    rng = random.Random(5)
    tricks = 0
    while m.current is not None:
        seat = m.to_act()
        before = m
        action = action_name(rng.choice(m.legal_actions()))
        m = m.apply(parse_action(action), seat)
        event = act_event(before, m, seat, action)
        assert "passing" not in event
        if "trick" in event:
            tricks += 1
            assert event["trick"]["seats"][-1] == seat
            assert action in event["trick"]["cards"]
    assert tricks > 0 and event["deal_over"] and len(event["scores"]) == m.num_players
