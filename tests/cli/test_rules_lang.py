"""``polignac rules PRESET --lang``: the same rules text as the web page, in three languages."""

from __future__ import annotations

import re

import pytest

from polignac.cli.main import main
from polignac.core import PRESETS, get_rules
from polignac.i18n import describe_rules, preset_name


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize(("lang", "phrases"), [
    ("en", ["The game in 30 seconds", "Players and pack",
            'Jack of spades (the "Polignac"): 2 points', "(interpretation)",
            "Seat 1: Q♣ · Seat 2: K♣ · Seat 3: J♠ · Seat 4: 7♣",
            "highest first: King, Queen, Jack, Ace, Ten, Nine, Eight, Seven."]),
    ("fr", ["Le jeu en 30 secondes", "Joueurs et jeu de cartes",
            "Valet de pique (le « Polignac »)", "(interprétation)", "Partie en 20",
            "Place 1 : D♣ · Place 2 : R♣ · Place 3 : V♠ · Place 4 : 7♣",
            "on retire ces cartes : Sept de trèfle, Sept de pique ;"]),
    ("de", ["Das Spiel in 30 Sekunden", "Spieler und Karten",
            "Pik-Bube (der „Polignac“): 2 Punkte", "(Auslegung)", "Partie bis 20",
            "Platz 1: D♣ · Platz 2: K♣ · Platz 3: B♠ · Platz 4: 7♣",
            "die höchste zuerst: König, Dame, Bube, Ass, Zehn"]),
])
def test_rules_in_each_language(capsys: pytest.CaptureFixture[str], lang: str,
                                phrases: list[str]) -> None:
    status, out, err = run(capsys, "rules", "polignac", "--lang", lang)
    assert status == 0 and not err
    text = " ".join(out.replace("\u00a0", " ").split())
    for phrase in phrases:
        assert phrase in text, phrase
    assert out == describe_rules(get_rules("polignac"), lang=lang)
    # For players: no card codes, no ids, seats numbered from 1 as the table does
    assert not re.search(r"\b(JS|7C|7S|[AKQJT] [AKQJT] [AKQJT])\b", text)
    assert "preset" not in text.lower() and "variante «" not in text
    assert "0 and 2" not in text and "0 et 2" not in text and "0 und 2" not in text


def test_house_rules_and_players_in_french(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "rules", "polignac", "--lang", "fr", "--players", "3",
                         "--rule", "threshold=10")
    text = " ".join(out.replace("\u00a0", " ").split())
    assert status == 0
    assert "Partie en 10" in text
    assert "À 3 joueurs : on retire ces cartes : Sept de trèfle, Sept de pique" in text
    assert "À 4 joueurs" not in text


def test_default_is_english_and_unknown_language_is_refused(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "rules", "pollack")[1] == run(capsys, "rules", "pollack", "--lang", "en")[1]
    status, out, err = run(capsys, "rules", "pollack", "--lang", "es")
    assert status != 0 and not out
    assert "invalid choice: 'es'" in err and err.count("\n") == 1


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_differs_by_language(preset: str) -> None:
    texts = {lang: describe_rules(get_rules(preset), lang=lang) for lang in ("en", "fr", "de")}
    assert len(set(texts.values())) == 3
    for lang, text in texts.items():
        assert text.startswith(preset_name(preset, lang)) and "{" not in text
        assert "OpenSpiel" not in text.split("\n\n")[1]  # not in the 30 seconds
        # (a house rule's value, such as card_points JD:-10, is what the host types)
        for code in re.findall(r"\b[2-9TJQKA][CDHS]\b(?!:)", text):
            raise AssertionError(f"card code {code} in the {lang} rules of {preset}")
