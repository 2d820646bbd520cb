"""Plurals and grammatical forms: every message with a count, rendered with 0, 1, 2 and 5
in each language, takes the form CLDR's plural rules give (docs/i18n.md, "Plurals")."""

from __future__ import annotations

import re

import pytest

from polignac import i18n

COUNTS = (0, 1, 2, 5)
FORMS = {
    # CLDR: French counts 0 and 1 as singular, English and German only 1.
    "en": {0: "other", 1: "one", 2: "other", 5: "other"},
    "fr": {0: "one", 1: "one", 2: "other", 5: "other"},
    "de": {0: "other", 1: "one", 2: "other", 5: "other"},
}
PLACEHOLDER = re.compile(r"\{(\w+)\}")
NOUNS = re.compile(r"\{(\w+)\} (?:\w+ )?(cards|points|tricks|deals|chips|players|parties|"
                   r"penalties|seats|moves|actions|matches|games|tables|hints|codes|"
                   r"sessions|people|requests|minutes|seconds|samples)\b")
# Counts that are never 0 or 1, so the plural noun is always right; each with its reason.
NEVER_ONE = {
    "rules.withN.remove": "players (3 or more), cards in the pack and in a hand (5 or more)",
    "rules.withN.remove.turnUp": "as rules.withN.remove",
    "rules.withN.all": "as rules.withN.remove",
    "rules.withN.all.turnUp": "as rules.withN.remove",
    "rules.totalWith": "players: 3 or more",
    "rules.hearts.lowestWith": "players: 3 or more",
    "rulespage.players": "a range or list of player counts, 3 or more",
    "scorepad.entryTitle": "'deals' is the verb (Anna deals)",
    "scorepad.entryTitleTie": "'deals' is the verb (Anna deals)",
    "why.chips-overload.card-points": "an overload is 100 card points or more",
}
# (A count named other than n is written where no noun follows it: "parties 2–1",
# "{samples} at most"; or the caller also passes it as n, as the contract help does.)


def plural_keys() -> list[str]:
    return sorted(k[:-6] for k in i18n.catalog("en") if k.endswith(".other"))


def test_the_plural_rules_are_cldrs() -> None:
    for lang, forms in FORMS.items():
        assert {n: i18n.plural(lang, n) for n in COUNTS} == forms, lang
    assert i18n.plural("fr", 0.1) == "one" and i18n.plural("en", 0.1) == "other"
    assert i18n.plural("de", 1.5) == "other" and i18n.plural("fr", 1.5) == "one"


@pytest.mark.parametrize("lang", i18n.LANGS)
@pytest.mark.parametrize("key", plural_keys())
def test_every_count_message_takes_its_form(lang: str, key: str) -> None:
    table = i18n.catalog(lang)
    assert f"{key}.one" in table and f"{key}.other" in table, key
    for n in COUNTS:
        params = {name: f"<{name}>" for name in PLACEHOLDER.findall(table[f"{key}.other"])}
        params["n"] = n  # type: ignore[assignment]
        text = i18n.t(lang, key, **params)
        expected = i18n.fill(table[f"{key}.{FORMS[lang][n]}"], params)
        assert text == expected, (lang, key, n, text)
        if "{n}" in table[f"{key}.other"]:
            assert str(n) in text
        assert "{" not in text and "<n>" not in text
    # the same count as the page's text (digits) and as a fraction: "0,1 point" in French
    assert i18n.t(lang, key, n="1") == i18n.t(lang, key, n=1)
    form = "one" if lang == "fr" else "other"
    assert i18n.t(lang, key, n=0.1) == i18n.fill(table[f"{key}.{form}"], {"n": 0.1})


def test_singular_and_plural_differ_where_the_language_says_so() -> None:
    """A plural key whose two forms are the same text in every language is no plural."""
    same = [k for k in plural_keys()
            if all(i18n.catalog(lang)[f"{k}.one"] == i18n.catalog(lang)[f"{k}.other"]
                   for lang in i18n.LANGS)]
    assert not same


def test_no_count_before_a_plural_noun_outside_a_plural_key() -> None:
    """'{n} cards' in a plain key says '1 cards': such a key must be KEY.one/KEY.other."""
    found = {}
    for key, text in i18n.catalog("en").items():
        if key.endswith((".one", ".other")) or key in NEVER_ONE:
            continue
        hits = [m[0] for m in NOUNS.finditer(text)]
        if hits:
            found[key] = hits
    assert not found


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["0 points", "1 point", "2 points"]),
    ("fr", ["0 point", "1 point", "2 points", "0,1 point"]),
    ("de", ["0 Punkte", "1 Punkt", "2 Punkte", "0,1 Punkte"]),
])
def test_points_read_right(lang: str, words: list[str]) -> None:
    decimal = {"en": "0.1", "fr": "0,1", "de": "0,1"}[lang]
    texts = [i18n.t(lang, "rules.pts", n=n) for n in (0, 1, 2)]
    texts.append(i18n.t(lang, "rules.pts", n=0.1).replace("0.1", decimal))
    for word in words:
        assert word in texts, (word, texts)


def test_the_second_person_and_bot_names_read_right() -> None:
    assert i18n.t("fr", "table.tookTrick.you") == "Vous prenez le pli."
    assert i18n.t("de", "table.tookTrick.you") == "Du nimmst den Stich."
    # German "auf" would need the accusative ("Schweren Bot 2"): the sentence avoids it
    assert i18n.t("de", "table.waiting", name=i18n.t("de", "name.bot.hard", n=2)) == \
        "Schwerer Bot 2 ist am Zug…"
