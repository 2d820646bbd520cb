"""``polignac rules PRESET --lang``: the same rules text as the web page, in three languages."""

from __future__ import annotations

import pytest

from polignac.cli.main import main
from polignac.core import PRESETS, get_rules
from polignac.i18n import describe_rules


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize(("lang", "phrases"), [
    ("en", ["Players and pack", 'Jack of spades (JS, "Polignac"): 2 points',
            "(interpretation)"]),
    ("fr", ["Joueurs et jeu de cartes", "Valet de pique (JS,", "(interprétation)",
            "Partie en 20"]),
    ("de", ["Spieler und Karten", "Pik-Bube (JS, „Polignac“): 2 Punkte", "(Auslegung)",
            "Partie bis 20"]),
])
def test_rules_in_each_language(capsys: pytest.CaptureFixture[str], lang: str,
                                phrases: list[str]) -> None:
    status, out, err = run(capsys, "rules", "polignac", "--lang", lang)
    assert status == 0 and not err
    text = " ".join(out.replace("\u00a0", " ").split())
    for phrase in phrases:
        assert phrase in text, phrase
    assert out == describe_rules(get_rules("polignac"), lang=lang)


def test_house_rules_and_players_in_french(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "rules", "polignac", "--lang", "fr", "--players", "3",
                         "--rule", "threshold=10")
    text = " ".join(out.replace("\u00a0", " ").split())
    assert status == 0
    assert "Partie en 10" in text and "À 3 joueurs : on retire 7C 7S" in text
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
    for text in texts.values():
        assert preset in text and "{" not in text
