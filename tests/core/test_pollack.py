"""Pollack's family module: the announcement tables and the helpers the bots and research use."""

from __future__ import annotations

from polignac.core import PRESETS, mask_of, parse_action, parse_cards
from polignac.core.families import SCORE_KINDS, SCORINGS
from polignac.core.pollack import (
    ANNOUNCEMENT_NEEDS,
    FORCED_CARDS,
    RANK_SLOTS,
    SIDE_ANNOUNCE_MAX,
    SLOTS_PER_PLAYER,
    announcement_slot,
    best_announcement,
    may_announce,
    side_calls_points,
    unannounced_points,
)


def _hand(text: str) -> int:
    return mask_of(parse_cards(text))


def test_every_scoring_has_its_kind_and_only_partnerships_call() -> None:
    assert set(SCORE_KINDS) == set(SCORINGS)
    for rules in PRESETS.values():
        assert rules.kind.name == rules.scoring
        assert rules.kind.sides == rules.has_calls == rules.partnerships
        assert rules.kind.penalty == (rules.match_end.startswith("threshold")
                                      or (rules.match_end == "fixed-deals"
                                          and not rules.kind.taker_gains))


def test_forced_cards_are_the_announcements_that_need_every_card() -> None:
    assert sorted(FORCED_CARDS) == sorted(["four-tens", "four-nines", "four-aces",
                                           "pollack-C", "pollack-D", "pollack-H", "pollack-S"])
    assert FORCED_CARDS["pollack-S"] == _hand("TS 9S AS")
    assert ANNOUNCEMENT_NEEDS["three-tens"] == (FORCED_CARDS["four-tens"], 3)


def test_slots_one_per_rank_and_one_per_suit() -> None:
    assert SLOTS_PER_PLAYER == 7 and RANK_SLOTS == 3
    assert announcement_slot("three-aces") == announcement_slot("four-aces") < RANK_SLOTS
    assert announcement_slot("pollack-C") >= RANK_SLOTS


def test_helpers_for_the_bots() -> None:
    legal = [parse_action(t) for t in ("7C", "announce:three-tens", "announce:four-nines")]
    assert best_announcement(legal) == parse_action("announce:four-nines")
    assert best_announcement([parse_action("7C")]) is None
    hand = _hand("TC TD TH TS 9S AS 7C")
    assert unannounced_points(hand, frozenset()) == 4 + 3  # four Tens, the spade pollack
    assert unannounced_points(hand, frozenset({"three-tens"})) == 3
    assert side_calls_points([(0, "four-tens"), (1, "pollack-S"), (2, "three-aces")], 2) == 7


def test_side_announce_max_is_the_best_split_of_the_tens_nines_and_aces() -> None:
    cards = [c for c in range(52) if FORCED_CARDS["four-tens"] >> c & 1
             or FORCED_CARDS["four-nines"] >> c & 1 or FORCED_CARDS["four-aces"] >> c & 1]
    size = PRESETS["pollack"].hand_size(4)  # 8: nobody holds all twelve
    best = 0
    for split in range(1 << len(cards)):  # every way to give them to the two partners
        a = sum(1 << c for i, c in enumerate(cards) if split >> i & 1)
        b = sum(1 << c for i, c in enumerate(cards) if not split >> i & 1)
        if a.bit_count() <= size and b.bit_count() <= size:
            best = max(best, unannounced_points(a, frozenset())
                       + unannounced_points(b, frozenset()))
    assert best == SIDE_ANNOUNCE_MAX


def test_may_announce_once_the_side_has_won_a_trick_or_forehand_before_the_lead() -> None:
    assert may_announce(1, eldest=1, before_first_lead=True, won=0)
    assert not may_announce(3, eldest=1, before_first_lead=True, won=0)
    assert not may_announce(1, eldest=1, before_first_lead=False, won=0)
    assert may_announce(3, eldest=1, before_first_lead=False, won=0b10)  # side 1 has won
    assert not may_announce(2, eldest=1, before_first_lead=False, won=0b10)
