"""Replay every golden record and compare with its hand-checked ``expected``.

Each ``records/<name>.json`` is a ``polignac-record/1`` record plus
``expected`` (worked out by hand from the rule book, docs/rules/, see its ``why``).  A record
whose ``expected`` has an ``error`` must fail to replay with a RecordError at
that deal and action, whose message names the action and the rule.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from polignac.core.errors import RecordError
from polignac.core.record import replay, summary

RECORDS = Path(__file__).resolve().parent / "records"
NAMES = sorted(p.stem for p in RECORDS.glob("*.json"))
_DEAL_KEYS = ("scores", "tiebreak", "redeal", "claim", "partie_winner", "card_points")


def _load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((RECORDS / f"{name}.json").read_text())
    return data


def test_every_preset_has_a_golden_record() -> None:
    from polignac.core.presets import preset_names

    covered = {_load(name)["preset"] for name in NAMES if "error" not in _load(name)["expected"]}
    assert set(preset_names()) <= covered


@pytest.mark.parametrize("name", NAMES)
def test_golden(name: str) -> None:
    data = _load(name)
    expected = data["expected"]
    assert data["why"], "every golden record explains its hand-check"
    if "error" in expected:
        err = expected["error"]
        with pytest.raises(RecordError) as info:
            replay(data)
        message = str(info.value)
        assert info.value.deal == err["deal"]
        assert info.value.action == err["action"]
        assert f"deal {err['deal']}" in message
        assert f"action {err['action']}" in message
        for fragment in err["contains"]:
            assert fragment in message, (fragment, message)
        return
    got = summary(replay(data))
    assert len(got["deals"]) == len(expected["deals"]), got["deals"]
    for i, (want, have) in enumerate(zip(expected["deals"], got["deals"], strict=True), 1):
        for key in _DEAL_KEYS:
            if key in want:
                assert have.get(key, False) == want[key], (f"deal {i}", key, have)
            elif key in ("tiebreak", "redeal"):
                assert not have.get(key, False), (f"deal {i}", key, have)
    for key in ("totals", "finished", "winners", "losers", "parties"):
        if key in expected:
            assert got[key] == expected[key], (key, got[key], expected[key])
