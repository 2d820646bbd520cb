"""One deal: dealing, the declaration round, play, calls and hand-built scores."""

from __future__ import annotations

import json
import random

import pytest

from polignac.core import (
    CAPOT,
    CLAIM,
    GENERAL,
    GENERALE,
    PASS,
    Deal,
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
    RulesError,
    cards_of,
    get_rules,
    parse_action,
)

from .reference import card, cards

# Four players, dealer 0, eldest 1; each holds one whole suit, so the leader wins
# every trick: player 1 (eldest, all clubs) takes all eight.
SLAM = ["7S 8S 9S TS JS QS KS AS", "7C 8C 9C TC JC QC KC AC",
        "7H 8H 9H TH JH QH KH AH", "7D 8D 9D TD JD QD KD AD"]
# Played lowest-card-first, player 2 wins tricks 1-7 (JD, JC, JH) and player 1
# the last (with JS): Jacks 0, 2, 3, 0.
SPLIT = ["7S 8S 9S TS QS KS AS JD", "7C 8H 9H TH JH QH KH AH",
         "8C 9C TC JC QC KC AC 7H", "7D 8D 9D TD QD KD AD JS"]


def hands(spec: list[str]) -> list[list[int]]:
    return [cards(h) for h in spec]


def play_out(deal: Deal, calls: str = "") -> Deal:
    """Apply ``calls`` (record words), then play the lowest legal card until the end."""
    for word in calls.split():
        deal = deal.apply_text(word)
    while not deal.done:
        deal = deal.apply(min(a for a in deal.legal_actions() if a < 52))
    return deal


def scores(preset: str, spec: list[str], calls: str = "") -> list[int]:
    deal = Deal.from_hands(get_rules(preset), hands(spec), dealer=0)
    return list(play_out(deal, calls).score().scores)


# -------------------------------------------------------------------- dealing


def test_from_pack_deals_packets_from_the_player_after_the_dealer() -> None:
    rules = get_rules("polignac")  # packets 2, 3, 3 for 8 cards
    order = cards_of(rules.pack_mask(4))
    deal = Deal.from_pack(rules, order, 4, dealer=2)
    got = [cards_of(h) for h in deal.initial_hands]
    sizes = rules.packets
    assert sum(sizes) == 8
    pos = 0
    expected: list[list[int]] = [[], [], [], []]
    for size in sizes:
        for p in (3, 0, 1, 2):  # eldest (3) first, the dealer (2) last
            expected[p] += order[pos:pos + size]
            pos += size
    assert got == [sorted(h) for h in expected]
    assert deal.eldest == 3 and deal.to_act == 3


def test_from_pack_cuts_the_last_packet_to_fit() -> None:
    rules = get_rules("polignac-threshold")  # packets 3-2-3, 3 players get 10 cards
    order = cards_of(rules.pack_mask(3))
    deal = Deal.from_pack(rules, order, 3, dealer=0)
    # rounds of 3, 2, 3 then a packet of 2 (3 cut to fit): eldest gets 0-2, 9-10, 15-17, 24-25
    eldest = [order[i] for i in (0, 1, 2, 9, 10, 15, 16, 17, 24, 25)]
    assert cards_of(deal.initial_hands[1]) == sorted(eldest)
    assert cards_of(deal.initial_hands[0]) == sorted(order[i] for i in (6, 7, 8, 13, 14, 21,
                                                                          22, 23, 28, 29))


def test_from_pack_one_at_a_time_and_turn_up() -> None:
    rules = get_rules("knaves")
    order = list(range(52))
    deal = Deal.from_pack(rules, order, 3, dealer=1)
    assert cards_of(deal.initial_hands[2]) == list(range(0, 51, 3))  # eldest first
    assert cards_of(deal.initial_hands[0]) == list(range(1, 51, 3))
    assert cards_of(deal.initial_hands[1]) == list(range(2, 51, 3))
    assert deal.turn_up == 51 and deal.trump == 3


def test_same_pack_order_same_hands() -> None:
    rules = get_rules("pollack")
    order = cards_of(rules.pack_mask(4))
    random.Random(5).shuffle(order)
    a = Deal.from_pack(rules, order, 4, dealer=3)
    b = Deal.from_pack(rules, order, 4, dealer=3)
    assert a == b and a.initial_hands == b.initial_hands
    shuffled = Deal.shuffled(rules, 4, 3, random.Random(9))
    assert shuffled == Deal.shuffled(rules, 4, 3, random.Random(9))


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"hands": hands(SLAM)[:3]}, "hand 0"),
        ({"hands": [*hands(SLAM)[:3], cards("7D 8D 9D TD JD QD KD 7S")]}, "repeats"),
        ({"hands": [*hands(SLAM)[:3], cards("7D 8D 9D TD JD QD KD 2D")]}, "not in this pack"),
        ({"hands": hands(SLAM), "dealer": 4}, "dealer"),
        ({"hands": hands(SLAM), "turn_up": 0}, "turn_up"),
    ],
)
def test_from_hands_rejects_bad_deals(kwargs: dict[str, object], words: str) -> None:
    with pytest.raises(RulesError, match=words):
        Deal.from_hands(get_rules("polignac"), **kwargs)  # type: ignore[arg-type]


def test_from_pack_rejects_a_wrong_pack() -> None:
    rules = get_rules("polignac")
    with pytest.raises(RulesError, match="pack order"):
        Deal.from_pack(rules, list(range(32)), 4)
    with pytest.raises(RulesError, match="turn_up"):
        Deal.from_hands(get_rules("knaves"), [list(range(i, 51, 3)) for i in range(3)])


# ----------------------------------------------------------- declaration round


def test_declaration_round_and_who_leads() -> None:
    rules = get_rules("polignac")
    deal = Deal.from_hands(rules, hands(SLAM), dealer=0)
    assert deal.phase_name == "declare" and deal.legal_actions() == [PASS, CAPOT]
    after = deal.apply(PASS).apply(PASS).apply(PASS).apply(PASS)
    assert after.phase_name == "play" and after.to_act == 1 and after.declarer == -1
    capot = deal.apply(PASS).apply(CAPOT)
    assert capot.phase_name == "play" and capot.declarer == 2 and capot.contract == "capot"
    assert capot.to_act == 1, "the capot declarer does not lead; eldest does"
    gen = Deal.from_hands(get_rules("polignac-fr-generale"), hands(SLAM), dealer=0)
    assert gen.legal_actions() == [PASS, GENERALE]
    gen = gen.apply(PASS).apply(PASS).apply(GENERALE)
    assert gen.to_act == 3 and gen.leader == 3, "the declarer of a générale leads"
    assert gen.contract == "generale"
    for name in ("polignac-rounds", "polignac-threshold-general"):
        d = Deal.from_hands(get_rules(name), hands(SLAM), dealer=0)
        assert d.legal_actions() == [PASS, GENERAL]
    for name in ("polignac-fr", "slobberhannes", "bassadewitz", "pollack"):
        d = Deal.from_hands(get_rules(name), hands(SLAM), dealer=0)
        assert d.phase_name == "play" and PASS not in d.legal_actions()


def test_playing_a_card_during_the_declaration_round() -> None:
    deal = Deal.from_hands(get_rules("polignac"), hands(SLAM), dealer=0)
    with pytest.raises(IllegalActionError) as info:
        deal.apply(card("7C"))
    assert info.value.rule == "declaration-round"
    assert "7C" in str(info.value)


@pytest.mark.parametrize(
    ("preset", "word", "rule"),
    [("polignac", "general", "wrong-contract"), ("polignac", "generale", "wrong-contract"),
     ("polignac-fr", "pass", "not-in-this-game"), ("polignac-fr", "capot", "not-in-this-game"),
     ("slobberhannes", "capot", "not-in-this-game"), ("polignac", "claim", "not-in-this-game"),
     ("polignac", "announce:three-tens", "not-in-this-game"),
     ("knaves", "claim", "not-in-this-game")],
)
def test_words_that_do_not_belong(preset: str, word: str, rule: str) -> None:
    rules = get_rules(preset)
    n = rules.default_players
    deal = Deal.shuffled(rules, n, 0, random.Random(1))
    with pytest.raises(IllegalActionError) as info:
        deal.apply(parse_action(word))
    assert info.value.rule == rule
    assert word.split(":")[0] in str(info.value)


def test_declaration_after_the_first_card() -> None:
    deal = Deal.from_hands(get_rules("polignac"), hands(SLAM), dealer=0)
    deal = deal.apply_text("pass").apply_text("pass").apply_text("pass").apply_text("pass")
    for word in ("pass", "capot"):
        with pytest.raises(IllegalActionError) as info:
            deal.apply_text(word)
        assert info.value.rule == "declaration-out-of-time"


# ---------------------------------------------------------------------- play


def test_follow_suit_turn_and_immutability() -> None:
    start = Deal.from_hands(get_rules("polignac"), hands(SPLIT), dealer=0)
    start = start.apply(PASS).apply(PASS).apply(PASS).apply(PASS)
    led = start.apply_text("7C")
    assert start.history == (PASS,) * 4 and start.to_act == 1, "apply does not mutate"
    assert led.to_act == 2 and led.trick == (card("7C"),)
    assert led.legal_actions() == cards("8C 9C TC JC QC KC AC")
    with pytest.raises(IllegalActionError) as info:
        led.apply_text("7H")
    assert info.value.rule == "must-follow-suit" and "7H" in str(info.value)
    with pytest.raises(IllegalActionError) as info:
        led.apply_text("AS")
    assert info.value.rule == "card-not-in-hand"
    assert "player 0" not in str(info.value), "the error does not say who holds the card"
    with pytest.raises(NotYourTurnError) as turn:
        led.apply(card("8C"), player=3)
    assert turn.value.rule == "not-your-turn"
    assert led.apply(card("8C"), player=2).trick_winner_so_far() == 2


def test_finished_deal_rejects_everything() -> None:
    deal = play_out(Deal.from_hands(get_rules("polignac"), hands(SPLIT), dealer=0),
                    "pass pass pass pass")
    assert deal.done and deal.legal_actions() == []
    for action in (0, PASS, CLAIM, 99):
        with pytest.raises(GameOverError) as info:
            deal.apply(action)
        assert info.value.rule == "deal-over"
    with pytest.raises(GameOverError):
        deal.apply(0, player=3)


def test_unfinished_deal_has_no_score() -> None:
    deal = Deal.from_hands(get_rules("polignac"), hands(SPLIT), dealer=0)
    with pytest.raises(IllegalActionError) as info:
        deal.score()
    assert info.value.rule == "deal-not-over"


# ------------------------------------------------------------- Polignac scores


def test_ordinary_deal_scores_the_jacks() -> None:
    assert scores("polignac", SPLIT, "pass pass pass pass") == [0, 2, 3, 0]
    assert scores("polignac", SLAM, "pass pass pass pass") == [0, 5, 0, 0]
    assert scores("quatre-valets", SPLIT, "pass pass pass pass") == [0, 1, 3, 0]
    assert scores("two-knaves", SPLIT, "pass pass pass pass") == [0, 2, 1, 0]
    assert scores("polignac-queens", SLAM, "pass pass pass pass") == [0, 5, 0, 0]
    assert scores("obern", SPLIT, "pass pass pass pass") == [0, 0, 4, 0]


def test_capot() -> None:
    assert scores("polignac", SLAM, "capot") == [5, 0, 5, 5]
    assert scores("polignac", SPLIT, "capot") == [0, 7, 3, 0]
    # capot declared by player 2 while player 1 takes every trick: 2 failed,
    # 1's slam is an ordinary deal for him (docs/rules/common.md#declarations)
    assert scores("polignac", SLAM, "pass capot") == [0, 5, 5, 0]
    deal = play_out(Deal.from_hands(get_rules("polignac"), hands(SLAM), dealer=0), "capot")
    assert {line.reason for line in deal.score().lines} == {"capot-made", "opponent-capot"}


def test_general_and_general_bonus() -> None:
    assert scores("polignac-rounds", SLAM, "general") == [5, 0, 5, 5]
    assert scores("polignac-rounds", SPLIT, "general") == [0, 7, 3, 0]
    assert scores("polignac-threshold-general", SLAM, "general") == [5, -5, 5, 5]
    assert scores("polignac-threshold-general", SPLIT, "general") == [0, 7, 3, 0]


def test_chelem_is_automatic() -> None:
    assert scores("polignac-fr", SLAM) == [5, 0, 5, 5]
    assert scores("polignac-fr", SPLIT) == [0, 2, 3, 0]


def test_generale() -> None:
    assert scores("polignac-fr-generale", SLAM, "generale") == [5, 0, 5, 5]
    # an unannounced slam is an ordinary deal
    assert scores("polignac-fr-generale", SLAM, "pass pass pass pass") == [0, 5, 0, 0]
    # failure: 5 whatever Jacks the declarer took (his JS does not count)
    assert scores("polignac-fr-generale", SPLIT, "generale") == [0, 5, 3, 0]


def test_slobberhannes_scores() -> None:
    assert scores("slobberhannes", SLAM) == [0, 4, 0, 0], "all three score 4"
    # player 2 takes the first trick and QC, player 1 the last
    assert scores("slobberhannes", SPLIT) == [0, 1, 2, 0]
    assert scores("grasobern", SPLIT) == [0, 1, 2, 0]
    assert sum(scores("eichelobern", SPLIT)) == 3


# ------------------------------------------------------------------- Knaves


def knaves_deal() -> Deal:
    p0 = [c for c in range(13) if c != card("AC")][:12] + cards("7D 8D 9D TD JD")
    p1 = [card("AC"), *cards("QD KD AD"), *range(39, 52)]
    p2 = [*cards("3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"), *cards("2D 3D 4D 5D 6D")]
    return Deal.from_hands(get_rules("knaves"), [p0, p1, p2], dealer=0, turn_up=card("2H"))


def test_knaves_trump_wins_the_trick() -> None:
    deal = knaves_deal()
    assert deal.trump == 2 and deal.turn_up == card("2H")
    deal = deal.apply_text("AC")
    assert deal.legal_actions() == sorted(deal.hands[2] and cards_of(deal.hands[2]))
    deal = deal.apply_text("3H")
    assert deal.trick_winner_so_far() == 2
    deal = deal.apply_text("KC")
    assert deal.past[0].winner == 2, "a trump beats the Ace of the suit led"


def test_knaves_score_is_tricks_minus_jacks() -> None:
    deal = play_out(knaves_deal())
    values = {card("JS"): -1, card("JC"): -2, card("JD"): -3, card("JH"): -4}
    for p in range(3):
        jacks = sum(v for c, v in values.items() if deal.taken[p] >> c & 1)
        assert deal.score().scores[p] == deal.tricks[p] + jacks
    assert sum(deal.score().scores) == 17 - 10
    assert not any(h >> card("2H") & 1 for h in deal.taken), "the turn-up belongs to nobody"


# --------------------------------------------------------------- Bassadewitz

# Eight tricks (leader first): p3 takes 7C 8C 9C 7D (0 points), p0 takes no trick,
# p1 takes 62 points, p2 58.
BASSA_TRICKS = "7C 8C 9C 7D  8D 9D AD TD  AH TH KH QH  JH 9H 8H 7H  7S AS 8S 9S " \
               "TS KS QS JS  AC TC KD QC  JC JD QD KC"
BASSA_HANDS = ["7D 9D QH 7H 9S QS KD QD", "7C AD AH JH 7S JS QC KC",
               "8C TD TH 9H AS TS AC JC", "9C 8D KH 8H 8S KS TC JD"]


def bassa_deal(preset: str = "bassadewitz", pool_in: bool = True) -> Deal:
    deal = Deal.from_hands(get_rules(preset), hands(BASSA_HANDS), dealer=0, family_state=pool_in)
    for code in BASSA_TRICKS.split():
        deal = deal.apply_text(code)
    assert deal.done
    return deal


def test_bassadewitz_no_trick_beats_tricks_worth_nothing() -> None:
    deal = bassa_deal()
    score = deal.score()
    assert [t.winner for t in deal.past] == [3, 1, 1, 1, 2, 2, 2, 1]
    assert score.card_points == (0, 62, 58, 0)
    # p0 (no trick) 5, p3 (a trick worth 0, though nearer the dealer's left) 4,
    # p2 (58) 3; the dealer p0 put up the 12 chips of the pool.
    assert score.scores == (-12 + 5, 0, 3, 4)
    assert not score.redeal
    no_stake = bassa_deal(pool_in=False).score()
    assert no_stake.scores == (5, 0, 3, 4) and sum(no_stake.scores) == 12


def test_bassadewitz_points_counts_tricks() -> None:
    score = bassa_deal("bassadewitz-points").score()
    assert score.card_points == (0, 54, 49, 1)
    assert score.scores == (-12 + 5, 0, 3, 4)


def test_bassadewitz_sweep_pays_and_redeals() -> None:
    deal = play_out(Deal.from_hands(get_rules("bassadewitz"), hands(SLAM), dealer=0))
    score = deal.score()
    assert score.redeal
    assert score.scores == (-12 - 4, 12, -4, -4)
    assert sum(score.scores) == -12, "the stake stays in the pool"
    again = play_out(Deal.from_hands(get_rules("bassadewitz"), hands(SLAM), dealer=0,
                                     family_state=False))
    assert again.score().scores == (-4, 12, -4, -4)


# ------------------------------------------------------------------- Pollack

# Dealer 3, forehand 0.  Player 0 holds three Tens and the club pollack.
POLLACK = ["TC TD TH 9C AC 7C 8C 7D", "9D 9H AD AH KC KD 8D 8H",
           "TS 9S AS KS QS JS 8S 7S", "QC JC QD JD KH QH JH 7H"]


def pollack_deal(partie: tuple[int, int] = (0, 0)) -> Deal:
    return Deal.from_hands(get_rules("pollack"), hands(POLLACK), dealer=3, family_state=partie)


def test_pollack_forehand_announces_before_the_first_lead() -> None:
    deal = pollack_deal()
    assert deal.to_act == 0
    calls = [a for a in deal.legal_actions() if a >= 52]
    assert [parse_action(w) for w in ("announce:three-tens", "announce:pollack-C")] == [
        a for a in calls if a != CLAIM]
    assert CLAIM in calls
    deal = deal.apply_text("announce:three-tens").apply_text("announce:pollack-C")
    assert deal.announcements == ((0, "three-tens"), (0, "pollack-C"))
    with pytest.raises(IllegalActionError) as info:
        deal.apply_text("announce:three-tens")
    assert info.value.rule == "announcement-repeated"
    with pytest.raises(IllegalActionError) as info:
        deal.apply_text("announce:four-tens")
    assert info.value.rule == "announcement-repeated"
    with pytest.raises(IllegalActionError) as info:
        deal.apply_text("announce:three-aces")
    assert info.value.rule == "false-announcement"
    deal = deal.apply_text("7C")
    with pytest.raises(IllegalActionError) as info:
        deal.apply_text("claim")
    assert info.value.rule == "claim-not-on-lead"
    # player 1 has not won a trick with its side yet
    with pytest.raises(IllegalActionError) as info:
        deal.apply_text("announce:three-tens")
    assert info.value.rule in ("announcement-too-early",)


def test_pollack_announcement_needs_the_cards_in_hand() -> None:
    deal = pollack_deal().apply_text("7C")  # forehand leads without announcing
    deal = deal.apply_text("KC").apply_text("7S").apply_text("QC")  # player 1 wins
    assert deal.past[0].winner == 1 and deal.to_act == 1
    with pytest.raises(IllegalActionError) as info:
        deal.apply_text("announce:three-tens")
    assert info.value.rule == "false-announcement"
    # forehand's side (0) has not won a trick: its chance before the lead is gone
    assert all(a < 52 or a == CLAIM for a in deal.legal_actions())


def test_pollack_correct_claim_ends_the_deal() -> None:
    deal = pollack_deal(partie=(15, 3))
    deal = deal.apply_text("announce:three-tens").apply_text("announce:pollack-C")
    assert deal.side_total(0) == 21
    deal = deal.apply_text("claim")
    assert deal.done and deal.claim == (0, True)
    score = deal.score()
    assert score.scores == (6, 0, 6, 0)
    assert score.claim == (0, True)


def test_pollack_wrong_claim() -> None:
    deal = pollack_deal(partie=(14, 3)).apply_text("announce:three-tens").apply_text("claim")
    assert deal.claim == (0, False)
    assert deal.score().scores == (3, 0, 3, 0)


def test_pollack_played_out_is_worth_eleven() -> None:
    deal = play_out(pollack_deal().apply_text("announce:three-tens"))
    score = deal.score()
    assert score.scores[0] == score.scores[2] and score.scores[1] == score.scores[3]
    assert score.scores[0] + score.scores[1] == 11 + 3
    side0 = score.card_points[0] + score.card_points[2]
    last = 3 if deal.past[-1].winner % 2 == 0 else 0
    assert score.scores[0] == (side0 + last) // 3 + 3


# --------------------------------------------------------------------- views


def test_view_shows_own_hand_and_public_play() -> None:
    deal = Deal.from_hands(get_rules("polignac"), hands(SPLIT), dealer=0)
    deal = deal.apply(PASS).apply(PASS).apply(PASS).apply(PASS).apply_text("7C")
    view = deal.view(2)
    json.dumps(view)
    assert view["hand"] == sorted(SPLIT[2].split(), key=card)
    assert view["legal"] == ["8C", "9C", "TC", "JC", "QC", "KC", "AC"]
    assert view["trick"] == {"leader": 1, "cards": ["7C"]}
    assert view["hand_sizes"] == [8, 7, 8, 8]
    assert "legal" not in deal.view(3)
    spectator = deal.view(None)
    assert spectator["hand"] is None and "legal" not in spectator
    done = play_out(deal)
    assert done.view(0)["score"] == done.score().to_dict()


@pytest.mark.parametrize("preset", ["polignac", "knaves", "pollack", "polignac-party"])
def test_seeded_shuffle_deals_what_random_shuffle_would(preset: str) -> None:
    """Deal.shuffled's fast path makes the same draws as random.Random.shuffle."""
    import random

    from polignac.core import Deal, cards_of, get_rules

    rules = get_rules(preset)
    n = rules.default_players
    for seed in range(20):
        dealt = Deal.shuffled(rules, n, seed % n, random.Random(seed))
        order = cards_of(rules.pack_mask(n))
        rng = random.Random(seed)
        rng.shuffle(order)
        expected = Deal.from_pack(rules, order, n, seed % n)
        assert dealt.initial_hands == expected.initial_hands
        assert dealt.turn_up == expected.turn_up


def test_shuffled_with_a_system_random_deals_a_valid_pack() -> None:
    """Live deals use secrets.SystemRandom, which takes the rng.shuffle path."""
    import secrets

    from polignac.core import Deal, get_rules

    rules = get_rules("knaves")
    deal = Deal.shuffled(rules, 3, 0, secrets.SystemRandom())
    together = 0
    for hand in deal.initial_hands:
        assert hand.bit_count() == 17 and not together & hand
        together |= hand
    assert deal.turn_up is not None and not together >> deal.turn_up & 1


def test_legal_actions_fill_the_suit_tables_of_an_unpickled_deal(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A deal unpickled in a process that never built its tables (a bot worker, a
    server process that took a table over) fills the cards-of-a-suit tables on its
    first legal_actions (plain dicts and tuples, filled once a process); the Hearts
    family's deal too, while passing and in play."""
    import pickle

    from polignac.core import deal as deal_module
    from polignac.core import deal_tables, hearts_deal

    for preset, n, phase in (("polignac", 4, "play"), ("knaves", 3, "play"),
                             ("pollack", 4, "play"), ("black-lady", 4, "pass"),
                             ("black-lady", 4, "play")):
        deal = Deal.shuffled(get_rules(preset), n, 0, random.Random(3))
        while deal.phase_name != phase:
            deal = deal.apply(deal.legal_actions()[0])
        expected = [deal.legal_actions()]
        deal = deal.apply(expected[0][0])
        expected.append(deal.legal_actions())  # following (or passing again)
        data = pickle.dumps(deal)
        suit_cards: dict[int, tuple[int, ...]] = {}  # one table, as a fresh process has
        monkeypatch.setattr(deal_module, "_SUIT_CARDS", suit_cards)  # read by legal_actions
        monkeypatch.setattr(deal_tables, "_SUIT_CARDS", suit_cards)  # filled there
        monkeypatch.setattr(deal_tables, "_FILLED_SUITS", set())
        for name in ("_CLUBS", "_DIAMONDS", "_HEARTS", "_SPADES"):
            monkeypatch.setattr(hearts_deal, name, ())
        monkeypatch.setattr(hearts_deal, "_FOLLOW", {})
        assert pickle.loads(data).legal_actions() == expected[1]
        if preset == "black-lady":
            assert hearts_deal._SPADES  # filled again
        # a lead: the per-suit tuples
        lead = pickle.loads(data)
        while lead.trick or lead.phase_name != "play":
            lead = lead.apply(lead.legal_actions()[-1])
        assert lead.legal_actions()
        assert deal_module._SUIT_CARDS  # filled again
        monkeypatch.undo()


_PLAY_OUT = """
import pickle, random, sys
deals = pickle.loads(sys.stdin.buffer.read())
rng = random.Random(5)
for deal in deals:
    while not deal.done:
        legal = [a for a in deal.legal_actions() if a != 52]  # never claim
        deal = deal.apply(legal[rng.randrange(len(legal))])
    print(deal.history, deal.score().scores)
"""


def test_an_unpickled_deal_plays_on_in_a_fresh_process() -> None:
    """A deal pickled mid-play (or mid-pass) and unpickled in a new process, which has
    built no table of any pack, plays to its end as it does here (a bot worker, a
    server process that took a table over)."""
    import contextlib
    import io
    import pickle
    import subprocess
    import sys

    deals = []
    for preset, n, steps in (("polignac", 4, 6), ("knaves", 3, 5), ("pollack", 4, 3),
                             ("black-lady", 4, 2), ("black-lady", 4, 20),
                             ("black-maria", 3, 1)):
        deal = Deal.shuffled(get_rules(preset), n, 1, random.Random(8))
        for _ in range(steps):
            legal = [a for a in deal.legal_actions() if a != CLAIM]
            deal = deal.apply(legal[-1])
        deals.append(deal)
    out = subprocess.run([sys.executable, "-c", _PLAY_OUT], input=pickle.dumps(deals),
                         capture_output=True, check=True, timeout=120).stdout.decode()
    buf = io.StringIO()  # the same play here, where the tables are built
    with contextlib.redirect_stdout(buf):
        code = _PLAY_OUT.replace("pickle.loads(sys.stdin.buffer.read())", "_deals")
        exec(code, {"_deals": pickle.loads(pickle.dumps(deals))})
    assert out == buf.getvalue()
    assert out.count("\n") == len(deals)
