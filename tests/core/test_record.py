"""Game records: write, replay, summarise; malformed records are named."""

from __future__ import annotations

import copy
import json
import random

import pytest

from polignac.core import FORMAT, Match, RecordError, get_rules, replay, summary, to_record

from .reference import play_to_end


def random_match(preset: str, n: int, seed: int, overrides: dict[str, object] | None = None
                 ) -> Match:
    m = Match.new(get_rules(preset, overrides), n, first_dealer=seed % n,
                  names=[f"P{i}" for i in range(n)])
    m = play_to_end(m, random.Random(seed))
    return m


def test_record_shape() -> None:
    m = random_match("polignac", 4, 1, {"threshold": 10})
    rec = to_record(m)
    assert rec["format"] == FORMAT == "polignac-record/1"
    assert rec["preset"] == "polignac" and rec["rules"] == {"threshold": 10}
    assert rec["players"] == ["P0", "P1", "P2", "P3"] and rec["first_dealer"] == 1
    assert len(rec["deals"]) == len(m.results)
    first = rec["deals"][0]
    assert set(first) == {"dealer", "seats", "hands", "turn_up", "actions"}
    assert all(len(h) == 8 for h in first["hands"])
    assert first["actions"][:4] == ["pass"] * 4 or "capot" in first["actions"][:4]


@pytest.mark.parametrize(("preset", "n", "overrides"),
                         [("polignac-threshold", 4, {"threshold": 1}), ("knaves", 3, {}),
                          ("pollack", 4, {}), ("bassadewitz", 4, {}),
                          ("polignac-fr-generale", 7, {})])
def test_replay_reproduces_the_match(preset: str, n: int, overrides: dict[str, object]) -> None:
    m = random_match(preset, n, 7, overrides)
    rec = json.loads(json.dumps(to_record(m)))
    again = replay(rec)
    assert summary(again) == summary(m)
    assert to_record(again) == to_record(m)
    assert again.finished and again.winners == m.winners and again.losers == m.losers
    json.dumps(summary(m))


def test_summary_reports_tiebreaks_and_parties() -> None:
    m = random_match("polignac-threshold", 4, 7, {"threshold": 1})
    s = summary(m)
    assert [d.get("tiebreak", False) for d in s["deals"]] == [r.tiebreak for r in m.results]
    counted = [d["scores"] for d in s["deals"] if not d.get("tiebreak")]
    assert s["totals"] == [sum(col) for col in zip(*counted, strict=True)]
    p = summary(random_match("pollack", 4, 3))
    assert len(p["parties"]) == 6


def _bad(mutate: str) -> dict[str, object]:
    rec = to_record(random_match("polignac", 4, 2))
    rec = copy.deepcopy(rec)
    deal = rec["deals"][0]
    if mutate == "format":
        rec["format"] = "other/9"
    elif mutate == "preset":
        rec["preset"] = "whist"
    elif mutate == "dealer":
        deal["dealer"] = (deal["dealer"] + 1) % 4
    elif mutate == "hand":
        deal["hands"][0][0] = "XX"
    elif mutate == "action":
        deal["actions"][6] = "QQ"
    elif mutate == "illegal":
        deal["actions"][5] = deal["actions"][4]  # the same card twice
    elif mutate == "extra-deal":
        rec["deals"].append(rec["deals"][-1])
    return rec


@pytest.mark.parametrize(("mutate", "deal", "action"),
                         [("format", None, None), ("preset", None, None), ("dealer", 1, None),
                          ("hand", 1, None), ("action", 1, 7), ("illegal", 1, 6)])
def test_bad_records_are_named(mutate: str, deal: int | None, action: int | None) -> None:
    with pytest.raises(RecordError) as info:
        replay(_bad(mutate))
    assert info.value.deal == deal and info.value.action == action
    assert str(info.value)


def test_illegal_record_action_names_the_rule() -> None:
    with pytest.raises(RecordError) as info:
        replay(_bad("illegal"))
    assert "deal 1, action 6" in str(info.value) and "[rule:" in str(info.value)


def test_record_after_the_end_is_rejected() -> None:
    with pytest.raises(RecordError, match="already over"):
        replay(_bad("extra-deal"))


def test_record_must_be_an_object() -> None:
    with pytest.raises(RecordError):
        replay([])  # type: ignore[arg-type]
    with pytest.raises(RecordError, match="players"):
        replay({"format": FORMAT, "preset": "polignac"})


@pytest.mark.parametrize(("change", "words"), [
    (lambda r: r["deals"][0].__setitem__("seats", 3), "deal 1: seats are 3"),
    (lambda r: r["deals"][0].__setitem__("seats", {"a": 1}), "deal 1: seats are"),
    (lambda r: r.__setitem__("rules", {"players": "2-10000000"}), "from 2 to 13"),
    (lambda r: r.__setitem__("rules", {"threshold": 10 ** 100}), "a number of about 101"),
    (lambda r: r.__setitem__("deals", r["deals"] * 2000), "at most 1000"),
    (lambda r: r.__setitem__("players", ["P"] * 100), "at most 13 play"),
    (lambda r: r["deals"][0]["actions"].insert(0, "J" * 10 ** 6), "at most 40 characters"),
    (lambda r: r["deals"][0]["hands"][0].insert(0, "J" * 10 ** 6), "not a card"),
    (lambda r: r.__setitem__("format", "f" * 10 ** 6), "(1000000 characters)"),
])
def test_record_bounds_give_short_messages(change: object, words: str) -> None:
    record = to_record(random_match("polignac", 4, 3, {"threshold": 10}))
    change(record)  # type: ignore[operator]
    with pytest.raises(RecordError) as info:
        replay(record)
    assert words in str(info.value) and len(str(info.value)) < 300, str(info.value)[:300]
