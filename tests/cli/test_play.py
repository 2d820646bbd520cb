"""``polignac play`` driven through stdin: whole deals, lenient input, EOF and Ctrl-C."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from polignac.cli.main import main
from polignac.cli.play import _read_action
from polignac.core import CAPOT, PASS, get_rules, parse_action, replay


def feed(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(text))


def test_a_whole_match_answering_the_first_legal_move(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    feed(monkeypatch, "1\n" * 400)
    path = tmp_path / "game.json"
    status = main(["play", "--seed", "3", "--rule", "threshold=6", "--out", str(path)])
    out = capsys.readouterr().out
    assert status == 0
    assert "Your hand:" in out and "Legal: 1)" in out
    assert "Deal 1 score:" in out and "Totals:" in out
    assert "Match over" in out and "Winners:" in out
    match = replay(json.loads(path.read_text()))
    assert match.finished and match.names[0] == "You"


def test_lenient_input_and_illegal_moves(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # seat 3 deals first with this seed, so seat 0 is eldest and declares first
    feed(monkeypatch, "help\nfoo\n99\ncapot!\nshow\nrules\npass\n")
    status = main(["play", "--seed", "5", "--players", "3", "--seat", "0"])
    out = capsys.readouterr().out
    assert status == 0
    assert "Type a card" in out  # help
    assert "Not understood: 'foo'" in out
    assert "99 is not in the list" in out
    assert "Polignac: the complete rules" in out  # rules (the heading names the game)
    assert "End of input. The match is abandoned." in out


def test_end_of_input_at_once_keeps_the_record(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    feed(monkeypatch, "")
    path = tmp_path / "partial.json"
    assert main(["play", "--preset", "knaves", "--seed", "1", "--out", str(path)]) == 0
    assert "End of input" in capsys.readouterr().out
    record = json.loads(path.read_text())
    assert record["preset"] == "knaves" and len(record["deals"]) == 1
    assert not replay(record).finished


def test_quit(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    feed(monkeypatch, "quit\n")
    assert main(["play", "--preset", "pollack", "--seed", "2"]) == 0
    assert "You left." in capsys.readouterr().out


def test_ctrl_c(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def interrupt(prompt: str = "") -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr("builtins.input", interrupt)
    assert main(["play", "--seed", "2"]) == 130
    assert "Interrupted." in capsys.readouterr().out


def test_an_illegal_card_names_the_rule(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # every card of the pack, one per line: most are refused with their rule
    cards = [c + s for s in "CDHS" for c in "789TJQKA"]
    feed(monkeypatch, "pass\n" + "\n".join(cards) + "\n")
    main(["play", "--seed", "8", "--preset", "polignac"])
    out = capsys.readouterr().out
    assert "[rule: card-not-in-hand]" in out or "[rule: must-follow-suit]" in out


def test_read_action() -> None:
    legal = [parse_action("JS"), parse_action("7H"), PASS]
    assert _read_action("2", legal) == parse_action("7H")
    assert _read_action("10h", legal) == parse_action("TH")
    assert _read_action("J♠", legal) == parse_action("JS")
    assert _read_action("js", legal) == parse_action("JS")
    assert _read_action("CAPOT", legal) == CAPOT
    assert _read_action("announce three-tens", legal) == parse_action("announce:three-tens")
    assert _read_action("pollack-s", legal) == parse_action("announce:pollack-S")


def test_hand_is_sorted_by_suit_in_rank_order() -> None:
    from polignac.cli.render import hand_text
    from polignac.core import mask_of, parse_cards

    hand = mask_of(parse_cards("AS JS KS 7H TC 8D"))
    assert hand_text(hand, get_rules("polignac")) == "♠ K J A   ♥ 7   ♣ 10   ♦ 8"
    assert hand_text(hand, get_rules("slobberhannes")) == "♠ A K J   ♥ 7   ♣ 10   ♦ 8"


@pytest.mark.parametrize("level", ["random", "easy", "medium"])
def test_opponent_levels_play_a_whole_match(
    level: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    feed(monkeypatch, "1\n" * 400)
    path = tmp_path / "game.json"
    status = main(["play", "--seed", "5", "--opponents", level, "--rule", "threshold=6",
                   "--out", str(path)])
    out = capsys.readouterr().out
    assert status == 0 and "Match over" in out
    match = replay(json.loads(path.read_text()))
    assert match.finished and match.names[1] == f"{level.capitalize()} 1"


@pytest.mark.parametrize("level", ["genius", "oracle"])
def test_unknown_or_cheating_opponents_are_refused(
    level: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    feed(monkeypatch, "")
    assert main(["play", "--opponents", level]) == 2
    assert f"--opponents {level}" in capsys.readouterr().err


def test_black_lady_passing_step_in_the_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    feed(monkeypatch, "1\n" * 2000)
    path = tmp_path / "hearts.json"
    status = main(["play", "--preset", "black-lady", "--seed", "3", "--rule", "threshold=30",
                   "--opponents", "easy", "--out", str(path)])
    out = capsys.readouterr().out
    assert status == 0
    assert "Deal 1, passing: your turn" in out
    assert "Pass 3 cards right to Easy 3, one at a time (card 1 of 3)" in out
    assert "Easy 2 chooses a card to pass" in out  # which card stays hidden
    assert "Everyone has passed. You received from Easy 1:" in out
    before_play = out.split("Everyone has passed")[0]
    assert " plays " not in before_play
    match = replay(json.loads(path.read_text()))
    assert match.finished and "Match over" in out
