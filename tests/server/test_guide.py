"""The guided first deal: its moments always happen, and ``POST /api/learn`` serves it."""

from __future__ import annotations

import random

import pytest
from starlette.testclient import TestClient

from polignac.bots.registry import make_bot
from polignac.bots.runner import choose_action
from polignac.core import CODES, Match, action_name, replay
from polignac.server.tables.guide import (
    GUIDE_IDS,
    MOMENTS,
    GuideError,
    guide_of,
    load_guide,
    trick_moments,
    turn_moments,
)

from .helpers import hello, play_until


def _play(guide_id: str, rng: random.Random) -> tuple[list[str], Match]:
    """Play the guide's deal: its bots (seeded as at the table) and the newcomer at
    random; return the moments in the order they first happened, and the match."""
    guide = load_guide(guide_id)
    match = guide.deal(guide.new_match())
    bots = {s: make_bot(guide.bot_level) for s in range(guide.players) if s != guide.you}
    bot_rng = random.Random(guide.bot_seed)
    seen: list[str] = []

    def note(found: set[str]) -> None:
        seen.extend(sorted(m for m in found if m not in seen))

    while match.current is not None:
        seat = match.to_act()
        assert seat is not None
        if seat == guide.you:
            note(turn_moments(match.view(seat)))
            action = rng.choice(match.legal_actions())
        else:
            action = choose_action(bots[seat], match, bot_rng)
        tricks = len(match.current.past)
        match = match.apply(action, seat)
        deal = match.current if match.current is not None else match.results[-1].deal
        if len(deal.past) > tricks:
            note(trick_moments([CODES[c] for c in deal.past[-1].cards]))
    return seen, match


@pytest.mark.parametrize("guide_id", GUIDE_IDS)
def test_every_moment_happens_whatever_the_newcomer_plays(guide_id: str) -> None:
    passes = capots = 0
    for run in range(300):
        seen, match = _play(guide_id, random.Random(run))
        assert set(seen) == set(MOMENTS), (run, seen)
        assert seen[0] == "capot"  # the declaration comes before any card
        assert match.finished and len(match.results) == 1  # a match of one deal
        contract = match.results[0].deal.view(None)["contract"]
        capots += contract == "capot"
        passes += contract is None
    assert passes > 100 and capots > 100  # both answers to the capot prompt were played


def test_unknown_guides_are_refused() -> None:
    for bad in ("nope", "../records/polignac-4p-seed1", ""):
        with pytest.raises(GuideError, match="no guide named"):
            load_guide(bad)


def test_moment_conditions() -> None:
    def view(hand: list[str], trick: list[str], legal: list[str], phase: str = "play"
             ) -> dict[str, object]:
        return {"deal": {"phase": phase, "hand": hand, "legal": legal,
                         "trick": {"leader": 1, "cards": trick}}}

    assert turn_moments(view(["7H"], [], ["pass", "capot"], "declare")) == {"capot"}
    assert turn_moments(view(["7H", "8C"], ["9H"], ["7H"])) == {"follow"}
    assert turn_moments(view(["7H"], ["9H"], ["7H"])) == set()  # nothing else to play
    assert turn_moments(view(["JC", "8C"], ["9H", "JH"], ["JC", "8C"])) == \
        {"void-jack", "jack-in-trick"}
    assert turn_moments(view(["7H", "8C"], ["9H"], [])) == set()  # not our turn
    assert trick_moments(["9H", "JH", "7H", "8H"]) == {"jack-taken"}
    assert trick_moments(["9S", "JS", "7H", "8H"]) == {"polignac"}
    assert trick_moments(["9S", "TS", "7H", "8H"]) == set()


def test_learn_starts_a_guided_table(client: TestClient) -> None:
    r = client.post("/api/learn", json={"name": "Ada"})
    assert r.status_code == 200, r.text
    url = r.json()["url"]
    assert r.json()["guide"] == "polignac-4p"
    assert client.get("/api/tables").json()["tables"] == []  # private: not in the lobby
    guide = load_guide("polignac-4p")
    with client.websocket_connect(url + "/ws") as ws:
        state = hello(ws)
        assert state["you"] == guide.you
        assert state["table"]["guide"] is True and state["table"]["guide_id"] == guide.id
        assert state["table"]["overrides"] == {"threshold": 1}
        assert state["view"]["deal"]["hand"] == list(guide.hands[guide.you])
        assert state["view"]["dealer"] == guide.dealer
        assert state["view"]["names"][guide.you] == "Ada"
        _seq, final = play_until(ws, state, random.Random(3), lambda v: v["finished"])
    assert len(final["deals"]) == 1 and final["winners"] and final["losers"]
    record = client.get(url + "/record.json").json()
    assert [list(h) for h in record["deals"][0]["hands"]] == [list(h) for h in guide.hands]
    assert replay(record).totals == tuple(final["totals"])
    # The table's bots are the guide's: the same bots, seeded alike, choose every
    # bot action of the record (the newcomer's actions are replayed as played).
    match, bot, rng = guide.deal(guide.new_match()), make_bot(guide.bot_level), \
        random.Random(guide.bot_seed)
    for text in record["deals"][0]["actions"]:
        if match.to_act() != guide.you:
            assert action_name(choose_action(bot, match, rng)) == text
        match = match.apply_text(text)


def test_learn_refuses_foreign_origins_and_bad_bodies(client: TestClient) -> None:
    r = client.post("/api/learn", headers={"origin": "https://evil.example"})
    assert r.status_code == 403 and r.json()["rule"] == "bad-origin"
    r = client.post("/api/learn", content=b"[1]", headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["rule"] == "bad-json"
    r = client.post("/api/learn", content=b"{", headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["rule"] == "bad-json"
    r = client.post("/api/learn", content=b"x" * 20000,
                    headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["rule"] == "too-large"
    tables = client.app.state.hub.tables  # type: ignore[attr-defined]
    assert not tables  # nothing was created
    assert client.post("/api/learn").status_code == 200  # no body at all is fine
    assert len(tables) == 1


def test_other_tables_are_not_guided(client: TestClient) -> None:
    url = client.post("/api/play-now").json()["url"]
    with client.websocket_connect(url + "/ws") as ws:
        table = hello(ws)["table"]
    assert table["guide"] is False and table["guide_id"] is None


def test_guide_of_table_options() -> None:
    assert guide_of({}) is None
    assert guide_of({"guide": "polignac-4p"}) == load_guide("polignac-4p")
    assert guide_of({"guide": "gone"}) is None  # an ordinary table then
