"""The catalogs: the same keys and placeholders in every language, and every key in use exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from polignac import i18n
from polignac.core import PRESETS, get_rules
from polignac.core.describe import Join, Msg, Param, rules_text

STATIC = Path(i18n.__file__).parent.parent / "server" / "static"
CORE = Path(i18n.__file__).parent.parent / "core"
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


@pytest.mark.parametrize("lang", [lang for lang in i18n.LANGS if lang != "en"])
def test_every_language_has_every_key_with_the_same_placeholders(lang: str) -> None:
    en, other = i18n.catalog("en"), i18n.catalog(lang)
    assert not sorted(set(en) - set(other)), f"missing in {lang}"
    assert not sorted(set(other) - set(en)), f"only in {lang}"
    wrong = {k: (en[k], other[k]) for k in en if placeholders(en[k]) != placeholders(other[k])}
    assert not wrong, f"placeholders differ in {lang}: {wrong}"


@pytest.mark.parametrize("lang", [lang for lang in i18n.LANGS if lang != "en"])
def test_translations_are_not_english_copies(lang: str) -> None:
    en, other = i18n.catalog("en"), i18n.catalog(lang)
    # Whole sentences (four words or more) are never the same in two languages.
    copies = [k for k in en if en[k] == other[k]
              and len(PLACEHOLDER.sub("", en[k]).split()) >= 4]
    assert not copies, copies


def test_french_writes_one_apostrophe() -> None:
    """French elides with the typographic apostrophe (’) everywhere, outside code
    (`claim`) and placeholders: a catalog that mixed it with the straight one showed
    "Clés d'accès" beside "Retour à l’accueil"."""
    code = re.compile(r"`[^`]*`|\{[^}]*\}")
    straight = {k: v for k, v in i18n.catalog("fr").items() if "'" in code.sub("", v)}
    assert not straight, straight


def test_plural_keys_have_both_forms() -> None:
    for lang in i18n.LANGS:
        table = i18n.catalog(lang)
        for key in table:
            if key.endswith(".one"):
                assert key[:-4] + ".other" in table, key


def keys_of(value: Param) -> set[str]:
    """Every catalog key a structured message uses (a plural key as KEY.other)."""
    if isinstance(value, Msg):
        out = {value.key}
        for _, v in value.params:
            out |= keys_of(v)
        return out
    if isinstance(value, Join):
        out = {value.sep}
        for v in value.items:
            out |= keys_of(v)
        return out
    return set()


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_rules_message_has_a_text(preset: str) -> None:
    text = rules_text(get_rules(preset))
    used = keys_of(text.title)
    for section in text.sections:
        used |= keys_of(section.title)
        for line in section.lines:
            used |= keys_of(line)
    en = i18n.catalog("en")
    missing = [k for k in used if k not in en and f"{k}.other" not in en]
    assert not missing
    for lang in i18n.LANGS:
        words = i18n.describe_rules(get_rules(preset), lang=lang)
        assert "{" not in words and "rules." not in words, lang


def test_every_rule_the_core_raises_has_an_error_text() -> None:
    rules = set()
    for source in CORE.glob("*.py"):
        rules |= set(re.findall(r'rule="([a-z-]+)"', source.read_text()))
    assert len(rules) > 10
    missing = sorted(r for r in rules if f"error.{r}" not in i18n.catalog("en"))
    assert not missing


def test_every_score_reason_has_a_text() -> None:
    source = (CORE / "scoring.py").read_text() + (CORE / "scorepad.py").read_text()
    reasons = set(re.findall(r'ScoreLine\([^"]*?, "([a-z]+(?:-[a-z]+)*)"', source))
    reasons |= {f"{w}-{x}" for w in ("capot", "general", "generale") for x in ("made", "failed")}
    reasons |= {f"opponent-{w}" for w in ("capot", "general", "generale")}
    keys = set(re.findall(r'"(detail\.[a-z-]+)"', source))
    assert len(reasons) > 10 and len(keys) > 5
    en = i18n.catalog("en")
    assert not sorted(r for r in reasons if f"reason.{r}" not in en)
    assert not sorted(k for k in keys if k not in en and f"{k}.other" not in en)  # or a plural


def test_every_literal_key_the_pages_use_exists() -> None:
    en = i18n.catalog("en")
    used: set[str] = set()
    for script in STATIC.glob("*.js"):
        text = script.read_text()
        used |= set(re.findall(r'\bt\("([a-zA-Z]+\.[\w.-]+)"', text))
    for page in STATIC.glob("*.html"):
        used |= set(re.findall(r'data-i18n(?:-\w+)?="([\w.-]+)"', page.read_text()))
    assert len(used) > 100
    pending = (STATIC / "i18n.js").read_text()
    missing = sorted(k for k in used if k not in en and f"{k}.other" not in en
                     and f'"{k}"' not in pending)
    assert not missing


def test_render_plural_and_nesting() -> None:
    two = Msg("rules.cardValue", (("card", Msg("card.name", (
        ("rank", Msg("rank.french.J")), ("suit", Msg("suitOf.french.S"))))),
        ("value", Msg("rules.pts", (("n", 2),)))))
    assert i18n.render(two, "en") == "Jack of spades: 2 points"
    assert i18n.render(two, "fr") == "Valet de pique\u00a0: 2 points"
    assert i18n.render(two, "de") == "Pik-Bube: 2 Punkte"
    assert i18n.t("fr", "rules.pts", n=1) == "1 point"
    assert i18n.t("xx" if False else "en", "no.such.key") == "no.such.key"
    with pytest.raises(KeyError):
        i18n.catalog("xx")


@pytest.mark.parametrize(("header", "lang"), [
    ("fr-CA,fr;q=0.9,en;q=0.5", "fr"), ("en-GB,de;q=0.8", "en"), ("de;q=0.2, fr;q=0.1", "de"),
    ("es, it", "en"), ("fr;q=0", "en"), ("de;q=abc, fr", "fr"), (None, "en"), ("*", "en")])
def test_accept_language(header: str | None, lang: str) -> None:
    assert i18n.negotiate(header) == lang


def test_default_names_are_recognised_in_every_level() -> None:
    for level in ("random", "easy", "medium", "hard", "expert"):
        name = i18n.bot_name(level, 2)
        fields = i18n.name_fields(name, 1, level)
        assert fields == {"name_key": f"name.bot.{level}", "name_params": {"n": 2}}
        assert i18n.name_fields(name, 1, None) == fields  # records do not know the level
        assert i18n.t("fr", fields["name_key"], n=2) != name  # type: ignore[arg-type]
    assert i18n.bot_name("solver", 3) == "Solver bot 3"
    assert i18n.name_fields("Guest 2", 1, None)["name_key"] == "name.guest"
    assert i18n.name_fields("Guest 2", 2, None) == {}  # not this seat's default
