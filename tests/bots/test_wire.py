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
    ]
    for data, field in cases:
        with pytest.raises(WireError, match=field):
            view_from_wire(data)
    with pytest.raises(WireError, match="object"):
        view_from_wire([good])
