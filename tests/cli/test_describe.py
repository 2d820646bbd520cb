"""describe_rules: every preset in words, following the rule values."""

from __future__ import annotations

import pytest

from polignac.core import PRESETS, RulesError, get_rules
from polignac.core.describe import card, msg
from polignac.i18n import describe_rules, preset_name, render


def words(*args: object, **kwargs: object) -> str:
    """describe_rules with its line wrapping undone."""
    return " ".join(describe_rules(*args, **kwargs).split())  # type: ignore[arg-type]


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_is_described(preset: str) -> None:
    rules = PRESETS[preset]
    text = words(rules)
    assert text.startswith(f"{preset_name(preset, 'en')}: the complete rules")
    for section in ("The game in 30 seconds", "Tips", "Players and pack", "Dealing and play",
                    "Scoring", "Declarations", "Match end", "Notes"):
        assert f"{section} {'-' * len(section)}" in text
    assert "(interpretation)" in text
    assert "highest first: " + ", ".join(
        render(msg(f"rank.{'german' if rules.german else 'french'}.{r}"), "en")
        for r in rules.rank_order) + "." in text
    for n in rules.players:
        assert f"With {n} players" in text
    grouped = rules.game == "hearts"  # the Hearts family: "every heart: 1 point"
    if grouped:
        assert "every heart: 1 point" in text
    for key in rules.card_points:
        if len(key) == 2 and not (grouped and key[1] == "H"):
            assert render(card(key, rules.german), "en") in text, key
            assert f"({key}" not in text and f" {key} " not in text, key  # no card codes
    if rules.threshold is not None:
        assert f"{rules.threshold} or more" in text


def test_polignac_text() -> None:
    text = words(get_rules("polignac"))
    assert 'Jack of spades (the "Polignac"): 2 points' in text
    assert "every other Jack: 1 point" in text
    assert "Partners sit opposite" not in text
    assert ("Example: seat 1 leads the Queen of clubs. Seat 2 plays the King of clubs. Seat 3 "
            "has no clubs and throws the Jack of spades. Seat 4 plays the Seven of clubs. The "
            "King of clubs is the highest card of the suit led, so seat 2 wins the trick. Its "
            "cards count 2 points against seat 2.") in text
    assert "5 card points in all per deal" in text
    assert ("With 3 players: remove Seven of clubs, Seven of spades; 30 cards, 10 cards each."
            in text)
    assert "With 4 players: no cards are removed; 32 cards, 8 cards each." in text
    assert "packets of 2, 3, 3 (interpretation)" in text
    assert "declare capot" in text
    assert "the declarer scores 0, each opponent 5" in text
    assert "highest total loses" in text


@pytest.mark.parametrize(
    ("preset", "phrases"),
    [
        ("polignac-threshold", ["One of our sources lists the ranks", "tie-break deals",
                                "not added to the totals (interpretation)"]),
        ("polignac-threshold-general", ["the declarer scores -5, each opponent 5"]),
        ("polignac-fr", ["Chelem (automatic", "the one with the highest total loses alone"]),
        ("polignac-fr-generale", ["The declarer of a générale leads the first trick",
                                  "his own penalty cards do not count"]),
        ("polignac-party", ["C, S, D, H (interpretation)"]),
        ("slobberhannes", ["Queen of clubs: 1 point", "scores 4 instead of the sum",
                           "(interpretation)"]),
        ("eichelobern", ["Ober of Acorns", "German-suited pack"]),
        ("knaves", ["turned face up", "Jack of hearts -4", "ties share the win "
                    "(interpretation)"]),
        ("bassadewitz", ["12 chips into a pool", "120 card points", "redeal"]),
        ("pollack", ["seats 1 and 3 play against seats 2 and 4",
                     "to the side of seats 2 and 4",
                     "Partie: the first side to 21", "A wrong claim loses the partie "
                     "(interpretation)", "added after the division (interpretation)"]),
        ("polignac-rounds", ["general", "8 with 4"]),
    ],
)
def test_preset_specifics(preset: str, phrases: list[str]) -> None:
    text = words(get_rules(preset))
    for phrase in phrases:
        assert phrase in text, phrase


def test_overrides_change_the_text() -> None:
    base = words(get_rules("polignac"))
    house = words(get_rules("polignac", {
        "threshold": 10, "card_points": "JS:3,J:1", "contract_points": 7,
        "direction": "counter-clockwise"}))
    assert "threshold 20" in base and "threshold 10" in house
    assert "Jack of spades (the \"Polignac\"): 3 points" in house
    assert "each opponent 7" in house
    assert "counter-clockwise" in house
    assert describe_rules(get_rules("polignac", {"declaration": "none"})).count("capot") == 0


def test_players_limits_the_pack_and_is_checked() -> None:
    text = words(get_rules("polignac"), players=5)
    assert "With 5 players" in text and "With 4 players" not in text
    with pytest.raises(RulesError, match="players: 9"):
        describe_rules(get_rules("polignac"), players=9)
