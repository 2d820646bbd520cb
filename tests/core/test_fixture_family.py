"""A new family is one module (tests/core/fixture_family.py: Red Queen, the Queen of
hearts costs 5) and one registration: no list of the code or of the tests names it.
Registered here only (``families.extended``), it deals, plays, scores and ends a
match, replays from its record, and passes every property that runs "over every
preset" (the tests marked ``reference.every_preset``, found here, not listed)."""

from __future__ import annotations

import importlib
import inspect
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from polignac.core import Match, get_rules, replay, to_record
from polignac.core.families import extended, families

from .fixture_family import FAMILY, PRESET

HERE = Path(__file__).parent


@pytest.fixture
def joined() -> Iterator[None]:
    """The fixture family in use, for one test."""
    with extended(FAMILY):
        yield


def test_it_is_in_use_only_when_a_test_registers_it() -> None:
    assert FAMILY not in families()
    with pytest.raises(Exception, match="unknown preset 'red-queen'"):
        get_rules("red-queen")
    with extended(FAMILY):
        assert families()[-1] is FAMILY and get_rules("red-queen") is PRESET
    assert FAMILY not in families()


def test_a_whole_match_deals_plays_and_scores(joined: None) -> None:
    rules = get_rules("red-queen")
    assert rules.family is FAMILY and rules.scorer.name == "trick-avoidance"
    rng = random.Random(7)
    match = Match.new(rules, 4, 0, ["Ann", "Bob", "Cy", "Di"])
    while not match.finished:
        match = match.deal_random(rng) if match.needs_deal else \
            match.apply(rng.choice(match.legal_actions()))
    for result in match.results:  # the Queen of hearts, 5 to its taker, nothing else
        taker = result.deal.point_takers()["QH"]
        assert result.score.scores == tuple(5 if p == taker else 0 for p in range(4))
    assert max(match.totals) >= 20 and match.losers == (match.totals.index(max(match.totals)),)
    assert replay(to_record(match)).totals == match.totals


def _properties() -> list[tuple[str, Callable[..., Any], tuple[str, ...]]]:
    """Every test of tests/core marked as a property over every preset
    (``reference.every_preset``), with its parametrized names."""
    found = []
    for path in sorted(HERE.glob("test_*.py")):
        if path.stem == "test_fixture_family":
            continue
        module = importlib.import_module(f"{__package__}.{path.stem}")
        for name, fn in inspect.getmembers(module, inspect.isfunction):
            for mark in getattr(fn, "pytestmark", []):
                if mark.name != "parametrize":
                    continue
                names = mark.args[0]
                names = tuple(n.strip() for n in names.split(",")) \
                    if isinstance(names, str) else tuple(names)
                if getattr(fn, "over_every_preset", False):
                    found.append((f"{path.stem}::{name}", fn, names))
    return found


def test_the_properties_over_every_preset_are_found() -> None:
    names = {name for name, _fn, _args in _properties()}
    assert "test_properties::test_random_deal_agrees_with_reference" in names
    assert "test_tricks::test_the_deal_plays_by_these_rules" in names
    assert len(names) >= 9


@pytest.mark.parametrize("prop", [p[0] for p in _properties()])
def test_every_property_over_every_preset_holds_for_it(prop: str, joined: None) -> None:
    _name, fn, names = next(p for p in _properties() if p[0] == prop)
    for n in PRESET.players:
        args = {"preset": PRESET.preset, "n": n, "overrides": {}}
        fn(**{k: args[k] for k in names})
        if "n" not in names:
            break
