"""The Hearts family (core/hearts.py, core/hearts_deal.py): passing, leads, the moon,
views, records and the score pad, on hand-made deals."""

from __future__ import annotations

import random

import pytest

from polignac.core import (
    CODES,
    Deal,
    IllegalActionError,
    Match,
    NotYourTurnError,
    RecordError,
    RulesError,
    get_rules,
    replay,
    to_record,
)
from polignac.core.cards import parse_card
from polignac.core.hearts import pass_direction, pass_offset
from polignac.core.hearts_deal import HeartsDeal
from polignac.core.scorepad import ScorePad

RANKS = "23456789TJQKA"


def _suit(letter: str) -> list[str]:
    return [r + letter for r in RANKS]


# One full suit each: player 0 clubs, 1 diamonds, 2 hearts, 3 spades.
SUITS = [_suit("C"), _suit("D"), _suit("H"), _suit("S")]


def _deal(dealer: int = 3, preset: str = "black-lady",
          hands: list[list[str]] | None = None, **rules: object) -> HeartsDeal:
    r = get_rules(preset, rules) if rules else get_rules(preset)
    deal = Deal.from_hands(r, [[parse_card(c) for c in h] for h in hands or SUITS], dealer)
    assert isinstance(deal, HeartsDeal)
    return deal


def _play(deal: Deal, *codes: str) -> Deal:
    for code in codes:
        deal = deal.apply(parse_card(code))
    return deal


def test_rotation_follows_the_dealer() -> None:
    r = get_rules("black-lady")
    assert [pass_direction(r, d) for d in range(5)] == ["left", "right", "across", "none",
                                                        "left"]
    assert [pass_offset(d, 4) for d in ("left", "right", "across", "none")] == [1, 3, 2, 0]
    assert pass_direction(get_rules("black-maria"), 2) == "right"
    assert [_deal(dealer=d).pass_direction for d in range(4)] == ["left", "right", "across",
                                                                  "none"]


def test_passing_phase_then_the_two_of_clubs_leads() -> None:
    deal = _deal(dealer=0)  # passes left; eldest is player 1
    assert deal.phase_name == "pass" and deal.to_act == 1
    assert deal.legal_actions() == [parse_card(c) for c in SUITS[1]]
    deal = _play(deal, "AD", "KD", "QD")  # player 1 passes three diamonds to player 2
    assert deal.to_act == 2 and deal.phase_name == "pass"
    deal = _play(deal, "AH", "KH", "QH", "AS", "KS", "QS", "AC", "KC", "QC")
    assert deal.phase_name == "play"
    assert [CODES[c] for c in _bits(deal.hands[2])][:3] == ["QD", "KD", "AD"]
    assert deal.received(2) == sum(1 << parse_card(c) for c in ("AD", "KD", "QD"))
    assert deal.to_act == 0 and deal.legal_actions() == [parse_card("2C")]
    assert deal.initial_hands == _deal(dealer=0).initial_hands  # as dealt
    assert deal.play_hands[2] & (1 << parse_card("AD"))


def _bits(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


def test_pass_errors_name_the_rule_and_change_nothing() -> None:
    deal = _play(_deal(dealer=0), "AD")
    for action, player, rule, kind in (
        (parse_card("AD"), None, "pass-not-in-hand", IllegalActionError),
        (parse_card("2C"), None, "pass-not-in-hand", IllegalActionError),
        (52, None, "pass-a-card", IllegalActionError),
        (500, None, "unknown-action", IllegalActionError),
        (parse_card("KD"), 2, "not-your-turn", NotYourTurnError),
    ):
        with pytest.raises(kind) as info:
            deal.apply(action, player)
        assert info.value.rule == rule
    assert deal.history == (parse_card("AD"),)


def test_first_trick_is_clean_and_hearts_wait_until_broken() -> None:
    hands = [
        ["2C", "3C", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD"],
        ["4C", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QS", "2D"],
        ["5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC", "QH", "KH", "AH"],
        ["3D", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "KS", "AS"],
    ]
    deal = _deal(dealer=3, hands=hands)  # no pass; player 0 holds 2C
    assert deal.phase_name == "play" and deal.to_act == 0
    with pytest.raises(IllegalActionError) as info:
        deal.apply(parse_card("3C"))
    assert info.value.rule == "first-lead"
    deal = _play(deal, "2C", "4C", "5C")
    # player 3 has no club and no penalty card: any card
    assert parse_card("3D") in deal.legal_actions()
    deal = _play(deal, "3D")  # player 2 wins with 5C and leads
    assert deal.to_act == 2
    legal = deal.legal_actions()
    assert all(c // 13 != 2 for c in legal), "hearts are not broken yet"
    with pytest.raises(IllegalActionError) as info:
        deal.apply(parse_card("AH"))
    assert info.value.rule == "hearts-not-broken"
    assert not deal.hearts_broken()


def test_no_penalty_discard_on_the_first_trick_unless_nothing_else() -> None:
    hands = [
        ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC"],
        ["2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD", "QD", "KD", "QS"],
        _suit("H"),
        ["AD", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "KS", "AS"],
    ]
    deal = _play(_deal(dealer=3, hands=hands), "2C")
    assert parse_card("QS") not in deal.legal_actions()
    with pytest.raises(IllegalActionError) as info:
        deal.apply(parse_card("QS"))
    assert info.value.rule == "penalty-on-first-trick"
    deal = _play(deal, "2D")
    assert deal.legal_actions() == [parse_card(c) for c in _suit("H")]  # only hearts


def test_moon_and_the_jack_of_diamonds_house_rule() -> None:
    # Player 0 holds every heart and the top spades: it takes every penalty card.
    hands = [
        ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "4H", "3H", "2H"],
        _suit("C"),
        _suit("D"),
        _suit("S"),
    ]
    rng = random.Random(1)
    for rules, expect in (({}, {0, 26}), ({"moon": False}, None)):
        deal: Deal = _deal(dealer=3, hands=hands, **rules)
        while not deal.done:
            deal = deal.apply(rng.choice(deal.legal_actions()))
        scores = deal.score().scores
        pts = [sum(13 if CODES[c] == "QS" else (1 if c // 13 == 2 else 0)
                   for c in _bits(deal.taken[p])) for p in range(4)]
        if expect is None or max(pts) < 26:
            assert list(scores) == pts
        else:
            shooter = pts.index(26)
            assert scores[shooter] == 0 and all(scores[p] == 26 for p in range(4)
                                                if p != shooter)
            assert any(line.reason == "moon" for line in deal.score().lines)


def test_views_hide_other_passes_and_show_received_cards() -> None:
    deal = _play(_deal(dealer=0), "AD", "KD", "QD", "AH")
    view2 = deal.view(2)
    assert view2["actions"] == ["hidden"] * 3 + ["AH"]
    assert view2["passing"] == {"direction": "left", "count": 3, "to": 3, "from": 1,
                                "given": ["AH"], "received": []}
    assert deal.view(1)["actions"] == ["AD", "KD", "QD", "hidden"]
    assert deal.view(None)["actions"] == ["hidden"] * 4
    deal = _play(deal, "KH", "QH", "AS", "KS", "QS", "AC", "KC", "QC")
    assert deal.view(2)["passing"]["received"] == ["QD", "KD", "AD"]


def test_a_match_record_replays_with_its_passes() -> None:
    rng = random.Random(7)
    m = Match.new(get_rules("black-lady"))
    for _ in range(400):
        if m.finished:
            break
        m = m.deal_random(rng) if m.needs_deal else m.apply(rng.choice(m.legal_actions()))
    record = to_record(m)
    again = replay(record)
    assert again.totals == m.totals
    assert len(record["deals"][0]["actions"]) == 52 + 12  # deal 1 passes left
    assert len(record["deals"][3]["actions"]) == 52  # deal 4 keeps
    bad = dict(record)
    bad["deals"] = [dict(record["deals"][0])]
    eldest_hand = record["deals"][0]["hands"][1]
    other = next(c for c in CODES if c not in eldest_hand)
    bad["deals"][0]["actions"] = [other] + record["deals"][0]["actions"][1:]
    with pytest.raises(RecordError, match=r"deal 1, action 1 .*\[rule: pass-not-in-hand\]"):
        replay(bad)


def test_the_match_ends_at_100_and_ties_share() -> None:
    from polignac.core.standing import Standing

    r = get_rules("black-lady")
    s, _ = Standing.start(4).after_deal(r, [90, 40, 40, 60])
    s, _ = s.after_deal(r, [10, 0, 0, 1])
    assert s.finished and s.winners == (1, 2) and not s.tied


def test_black_maria_three_players_without_the_two_of_clubs() -> None:
    deal = Deal.shuffled(get_rules("black-maria"), 3, 0, random.Random(2))
    assert deal.pass_direction == "right"  # type: ignore[attr-defined]
    while deal.phase_name == "pass":
        deal = deal.apply(deal.legal_actions()[0])
    assert deal.legal_actions() == [parse_card("3C")]


def test_hearts_rules_are_checked() -> None:
    with pytest.raises(RulesError, match="belongs to the Hearts family"):
        get_rules("polignac", {"break_hearts": True})
    with pytest.raises(RulesError, match="passing belongs"):
        get_rules("polignac", {"passing": "left"})
    with pytest.raises(RulesError, match="pass_count 4 must be smaller than the hand"):
        get_rules("black-lady", {"players": "13", "pass_count": 4})
    with pytest.raises(RulesError, match="passing"):
        get_rules("black-lady", {"passing": "sideways"})


def test_score_pad_scores_the_moon() -> None:
    pad = ScorePad.new(get_rules("black-lady"), ["A", "B", "C", "D"])
    taken = {c: 2 for c in ["QS", *_suit("H")]}
    pad = pad.add({"taken": taken})
    assert pad.totals == (26, 26, 0, 26)
    assert pad.form()["moon"] is True
    taken["2H"] = 0
    pad = pad.add({"taken": taken})
    assert pad.totals == (27, 26, 25, 26)


FAMILY_RULES = {"must-follow-suit", "first-lead", "penalty-on-first-trick", "hearts-not-broken"}


@pytest.mark.parametrize(("preset", "n", "rules"), [
    ("black-lady", 4, {}),
    ("black-maria", 3, {}),
    ("black-maria", 5, {}),
    ("black-lady", 4, {"queen_breaks": False, "passing": "across"}),
    ("black-lady", 4, {"first_lead": "eldest", "clean_first_trick": False}),
    ("black-lady", 4, {"break_hearts": False, "passing": "none"}),
])
def test_apply_takes_exactly_the_legal_cards(preset: str, n: int,
                                             rules: dict[str, object]) -> None:
    # apply checks the family's rules inline (its fast path); legal_card_mask is
    # checked against tricks.restricted_mask in test_tricks.py.  At every state of
    # random deals, each card of the hand is accepted iff it is legal, and a
    # refusal names a rule of trick play or of the family.
    r = get_rules(preset, rules) if rules else get_rules(preset)
    rng = random.Random(7)
    for dealer in [*range(n), *range(n)]:
        deal = Deal.shuffled(r, n, dealer, rng)
        assert isinstance(deal, HeartsDeal)
        while not deal.done:
            legal = deal.legal_card_mask()
            hand = deal.hands[deal.to_act]
            assert legal and legal & hand == legal
            for card in range(52):
                if not hand >> card & 1:
                    with pytest.raises(IllegalActionError) as info:
                        deal.apply(card)
                    assert info.value.rule in ("card-not-in-hand", "pass-not-in-hand")
                elif legal >> card & 1:
                    after = deal.apply(card)
                    assert isinstance(after, HeartsDeal)
                    assert after.history == deal.history + (card,)
                    assert not after.hands[deal.to_act] >> card & 1
                else:
                    with pytest.raises(IllegalActionError) as info:
                        deal.apply(card)
                    assert info.value.rule in FAMILY_RULES
            choices = deal.legal_actions()
            deal = deal.apply(choices[rng.randrange(len(choices))])


def test_a_deal_unpickled_in_a_fresh_process_plays_on() -> None:
    """A Hearts deal pickled here and loaded in a process that never planned one (a
    worker of a research pool, say) gives the same legal actions before and after a
    card: its plan fills the suit tables as it is unpickled."""
    import pickle
    import subprocess
    import sys

    for preset, n in (("black-lady", 4), ("black-maria", 3)):
        deal = Deal.shuffled(get_rules(preset), n, 0, random.Random(5))
        rng = random.Random(6)
        while deal.phase_name != "play" or len(deal.history) < deal.num_players * 3 + 2:
            deal = deal.apply(rng.choice(deal.legal_actions()))
        assert isinstance(deal, HeartsDeal)
        card = deal.legal_actions()[0]
        expected = (deal.legal_actions(), deal.apply(card).legal_actions())
        code = ("import pickle, sys; d = pickle.loads(sys.stdin.buffer.read()); "
                f"print(repr((d.legal_actions(), d.apply({card}).legal_actions())))")
        run = subprocess.run([sys.executable, "-c", code], input=pickle.dumps(deal),
                             capture_output=True, timeout=120, check=False)
        assert run.returncode == 0, run.stderr.decode()[-2000:]
        assert run.stdout.decode().strip() == repr(expected)
