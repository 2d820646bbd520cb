"""Actions as ints and their record text."""

from __future__ import annotations

import pytest

from polignac.core import (
    ANNOUNCEMENTS,
    CAPOT,
    CLAIM,
    GENERAL,
    GENERALE,
    NUM_ACTIONS,
    PASS,
    IllegalActionError,
    action_name,
    is_announcement,
    is_card,
    parse_action,
)


def test_action_numbers() -> None:
    assert (PASS, CAPOT, GENERAL, GENERALE, CLAIM) == (52, 53, 54, 55, 56)
    assert NUM_ACTIONS == 67
    assert len(ANNOUNCEMENTS) == 10
    assert [action_name(57 + i) for i in range(10)] == [
        "announce:three-tens", "announce:three-nines", "announce:three-aces",
        "announce:four-tens", "announce:four-nines", "announce:four-aces",
        "announce:pollack-C", "announce:pollack-D", "announce:pollack-H",
        "announce:pollack-S",
    ]


def test_every_action_round_trips() -> None:
    names = [action_name(a) for a in range(NUM_ACTIONS)]
    assert len(set(names)) == NUM_ACTIONS
    for a, name in enumerate(names):
        assert parse_action(name) == a
        assert parse_action(name.upper()) == a
        assert parse_action(f"  {name.lower()} ") == a
    assert names[:3] == ["2C", "3C", "4C"]
    assert names[52:57] == ["pass", "capot", "general", "generale", "claim"]


@pytest.mark.parametrize(
    ("text", "action"),
    [("10h", 34), ("J♠", 48), ("PASS", PASS), ("Générale", GENERALE), ("générale", GENERALE),
     ("Capot", CAPOT), ("ANNOUNCE:POLLACK-s", 66)],
)
def test_lenient_action_text(text: str, action: int) -> None:
    assert parse_action(text) == action


@pytest.mark.parametrize("bad", ["", "fold", "announce:five-tens", "1H", "passs"])
def test_unknown_action_text_is_named(bad: str) -> None:
    with pytest.raises(IllegalActionError) as info:
        parse_action(bad)
    assert info.value.rule == "unknown-action"
    assert repr(bad) in str(info.value)
    assert info.value.action == bad


@pytest.mark.parametrize("bad", [-1, NUM_ACTIONS, 1000])
def test_action_name_rejects_unknown_numbers(bad: int) -> None:
    with pytest.raises(IllegalActionError) as info:
        action_name(bad)
    assert info.value.rule == "unknown-action"
    assert str(bad) in str(info.value)


def test_kinds() -> None:
    assert all(is_card(a) for a in range(52))
    assert not any(is_card(a) for a in (-1, 52, 66))
    assert [a for a in range(-1, 70) if is_announcement(a)] == list(range(57, 67))
