"""bots/wire.py: a seat's view as JSON and back, for bot workers on other machines."""

from __future__ import annotations

import json
import random

import pytest

from polignac.bots.base import SeatView
from polignac.bots.registry import make_bot
from polignac.bots.runner import choose_action
from polignac.bots.wire import WireError, view_from_wire, view_to_wire
from polignac.core import PRESETS, Match, get_rules


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_view_of_a_deal_comes_back_equal(preset: str) -> None:
    """Every seat's view at every moment of a deal (medium plays) of each preset, with
    house rules on one, survives JSON text unchanged."""
    rules = get_rules(preset)
    if preset == "polignac":
        rules = get_rules(preset, {"threshold": 30})
    rng = random.Random(len(preset))
    match = Match.new(rules, rules.default_players, 0).deal_random(rng)
    bot, views = make_bot("medium"), 0
    while match.current is not None and not match.current.done:
        deal = match.current
        for player in range(deal.num_players):
            view = SeatView.of(deal, player, match)
            back = view_from_wire(json.loads(json.dumps(view_to_wire(view))))
            assert back == view
            views += 1
        match = match.apply(choose_action(bot, match, rng))
    assert views > 10


def test_bad_data_names_the_field() -> None:
    rules = get_rules("polignac")
    match = Match.new(rules, 4, 0).deal_random(random.Random(1))
    assert match.current is not None
    good = view_to_wire(SeatView.of(match.current, 0, match))
    cases = [
        ({**good, "hand": "12"}, "hand"),
        ({**good, "legal": [1, "x"]}, "legal"),
        ({**good, "legal": list(range(5000))}, "legal"),
        ({k: v for k, v in good.items() if k != "seats"}, "seats"),
        ({**good, "rules": {"preset": "nope"}}, "rules"),
        ({**good, "rules": {"preset": "polignac", "rules": {"threshold": 10**9}}}, "rules"),
        ({**good, "tricks": [[0, [1, 2]]]}, "tricks"),
        ({**good, "contract": 3}, "contract"),
        ({**good, "announcements": [[0, 1]]}, "announcements"),
        ({**good, "turn_up": True}, "turn_up"),
        ({**good, "family_state": "x"}, "family_state"),
        ({**good, "family_state": [1, "x"]}, "family_state"),
    ]
    for data, field in cases:
        with pytest.raises(WireError, match=field):
            view_from_wire(data)
    with pytest.raises(WireError, match="object"):
        view_from_wire([good])


def test_the_deal_s_family_state_travels() -> None:
    """A deal's family state (Deal.family_state: Pollack's partie before it, whether the
    Bassadewitz dealer put up the pool) comes back as it was; a view from an older
    peer, without it, reads as none (the family's default)."""
    from polignac.core import Deal

    for preset, state in (("pollack", (17, 4)), ("bassadewitz", False), ("polignac", None)):
        rules = get_rules(preset)
        deal = Deal.shuffled(rules, 4, 0, random.Random(3), family_state=state)
        view = SeatView.of(deal, 1)
        assert view.family_state == deal.family_state == state
        back = view_from_wire(json.loads(json.dumps(view_to_wire(view))))
        assert back == view and back.family_state == state
        old = {k: v for k, v in view_to_wire(view).items() if k != "family_state"}
        assert view_from_wire(old).family_state is None
    partie = SeatView.of(Deal.shuffled(get_rules("pollack"), 4, 0, random.Random(3),
                                       family_state=(17, 4)), 0)
    assert partie.family_state == (17, 4) and partie.side_totals == (17, 4)
