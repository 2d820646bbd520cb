"""Numbers sent as text are read from ASCII digits only, within bounds."""

from __future__ import annotations

import pytest

from polignac.server.base.inputs import ascii_int


@pytest.mark.parametrize("text", ["", None, "²", "١", "٣", "1²", " 1", "+1", "-1", "1.0", "1e3",
                                  "9" * 19, "0x1"])
def test_anything_but_ascii_digits_is_refused(text: str | None) -> None:
    assert ascii_int(text) is None


def test_bounds_are_inclusive() -> None:
    assert ascii_int("0") == 0
    assert ascii_int("3", lo=1, hi=3) == 3
    assert ascii_int("0", lo=1) is None
    assert ascii_int("4", hi=3) is None
    assert ascii_int("007") == 7
