"""``core/timecontrol.py``: the time controls' bounds and the seats' clocks."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from polignac.core.timecontrol import DAY, Clocks, TimeControl, TimeControlError


def test_parse_each_kind_and_back() -> None:
    for data in ({"kind": "realtime", "base": 180, "increment": 2},
                 {"kind": "move", "seconds": 30}, {"kind": "days", "days": 3}):
        control = TimeControl.parse(data)
        assert control is not None and control.to_json() == data
        assert TimeControl.parse(control.to_json()) == control
    assert TimeControl.parse(None) is None
    assert TimeControl.parse({"kind": "none"}) is None
    assert TimeControl.parse({"kind": "days", "days": 3}).correspondence  # type: ignore[union-attr]
    assert TimeControl.parse({"kind": "realtime", "base": 180, "increment": 2}
                             ).label() == "3+2"  # type: ignore[union-attr]


@pytest.mark.parametrize("data, words", [
    ("3+2", "an object"),
    ({"kind": "blitz"}, "kind must be one of"),
    ({"kind": "realtime", "base": 10, "increment": 2}, "base must be from 30"),
    ({"kind": "realtime", "base": 180}, "increment must be a number"),
    ({"kind": "realtime", "base": 180, "increment": 2, "x": 1}, "takes no x"),
    ({"kind": "realtime", "base": True, "increment": 2}, "base must be a number"),
    ({"kind": "realtime", "base": float("nan"), "increment": 2}, "base must be a number"),
    ({"kind": "move", "seconds": 1}, "seconds must be from 5"),
    ({"kind": "days", "days": 4}, "days must be one of 1, 2, 3, 5, 7"),
])
def test_bad_time_controls_are_refused_with_the_reason(data: object, words: str) -> None:
    with pytest.raises(TimeControlError, match=words) as info:
        TimeControl.parse(data)
    assert info.value.rule == "bad-time-control"


def test_realtime_clock_runs_for_the_seat_to_move_and_adds_the_increment() -> None:
    clocks = Clocks.new(TimeControl("realtime", base=180, increment=2), 4)
    clocks = clocks.start(1, now=1000.0)
    assert clocks.deadline() == 1180.0 and clocks.left(1, 1010.0) == 170.0
    clocks = clocks.stop(1010.0, moved=True)
    assert clocks.running is None and clocks.remaining[1] == 172.0
    clocks = clocks.start(2, 1010.0).start(1, 1013.0)  # seat 2's move took 3 s, no move
    assert clocks.remaining[2] == 177.0 and clocks.deadline() == 1013.0 + 172.0


def test_a_fixed_time_a_move_starts_full_each_move() -> None:
    clocks = Clocks.new(TimeControl("move", per_move=30), 3).start(0, 0.0).stop(25.0, True)
    assert clocks.remaining[0] == 5.0
    assert clocks.start(0, 25.0).deadline() == 55.0


def test_a_flagged_seat_never_runs_until_it_is_back() -> None:
    clocks = Clocks.new(TimeControl("days", per_move=3 * DAY), 4).start(2, 0.0)
    clocks = clocks.flag(2, 3 * DAY)
    assert clocks.running is None and clocks.flagged == {2} and clocks.remaining[2] == 0
    assert clocks.start(2, 3 * DAY).running is None
    back = clocks.unflag(2)
    assert back.flagged == frozenset() and back.remaining[2] == 3 * DAY
    assert back.start(2, 10.0).deadline() == 10.0 + 3 * DAY


@given(st.lists(st.tuples(st.integers(0, 3), st.floats(0, 50), st.booleans()), max_size=40))
def test_time_left_never_grows_but_by_increments(moves: list[tuple[int, float, bool]]) -> None:
    """Whatever the order of starts and stops, a seat's time left never goes below zero
    and grows only by the increment of a move it made."""
    control = TimeControl("realtime", base=60, increment=1)
    clocks, now = Clocks.new(control, 4), 0.0
    for seat, spent, moved in moves:
        clocks = clocks.start(seat, now)
        before = clocks.remaining[seat]
        now += spent
        clocks = clocks.stop(now, moved)
        after = clocks.remaining[seat]
        assert 0 <= after <= before + (control.increment if moved else 0)
        expected = max(0.0, before - spent) + (control.increment if moved and after > 0
                                               and before > spent else 0)
        assert after == pytest.approx(expected, abs=1e-9)
