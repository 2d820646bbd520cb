"""One translation catalog for everything a person reads: the page, the server, the CLI.

The catalogs are flat JSON files, one per language (``catalog/en.json``,
``fr.json``, ``de.json``): ``{"key": "text with {param} placeholders"}``.
Python reads them here; the server serves them to the page as JSON
(``GET /i18n/{lang}.json``) and ``static/i18n.js`` loads them, so the two
sides share every text. See ``docs/i18n.md`` for why JSON and how to add a key.

A key missing from ``KEY`` but present as ``KEY.one``/``KEY.other`` is a
plural: the form is chosen by the parameter ``n`` (CLDR's integer rules for
English, French and German). The core describes things as messages
(:class:`polignac.core.describe.Msg`); :func:`render` turns them into text.

>>> t("fr", "lobby.playNow")
'Jouer maintenant'
>>> t("de", "rules.pts", n=1), t("fr", "rules.pts", n=0), t("en", "rules.pts", n=0)
('1 Punkt', '0 point', '0 points')
>>> negotiate("de-CH,de;q=0.9,en;q=0.8"), negotiate("es, fr;q=0.5"), negotiate("")
('de', 'fr', 'en')
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Mapping
from importlib import resources
from typing import Final

from ..core import PRESETS, Rules
from ..core.cards import SUIT_SYMBOLS, parse_card, suit_of
from ..core.describe import ExampleTrick, Join, Msg, Param, RulesText, rules_text

LANGS: Final = ("en", "fr", "de")
DEFAULT: Final = "en"
NAMES: Final = {"en": "English", "fr": "Français", "de": "Deutsch"}
_PLACEHOLDER: Final = re.compile(r"\{(\w+)\}")


@functools.cache
def catalog(lang: str) -> Mapping[str, str]:
    """The catalog of ``lang`` (key -> text).

    Raises:
        KeyError: ``lang`` is not one of :data:`LANGS`.
    """
    if lang not in LANGS:
        raise KeyError(f"unknown language {lang!r}; known: {', '.join(LANGS)}")
    text = resources.files(__package__).joinpath("catalog", f"{lang}.json").read_text("utf-8")
    data: dict[str, str] = json.loads(text)
    return data


def catalog_json(lang: str) -> bytes:
    """The catalog of ``lang`` as the page loads it (UTF-8 JSON).

    Raises:
        KeyError: ``lang`` is not one of :data:`LANGS`.
    """
    return _catalog_bytes(lang)


@functools.cache
def _catalog_bytes(lang: str) -> bytes:
    return json.dumps(catalog(lang), ensure_ascii=False, separators=(",", ":")).encode()


def plural(lang: str, n: float) -> str:
    """The CLDR plural category of the count ``n`` in ``lang``: ``one`` or ``other``.

    Babel's CLDR rules when Babel is installed (the server's extra), else the same
    rules written out for our three languages: French counts 0 and 1 (and 0.5, 1.5:
    the whole part 0 or 1) as singular; English and German only a whole 1. The page
    uses ``Intl.PluralRules``, CLDR's too.

    >>> [plural("fr", n) for n in (0, 1, 2, 5, 0.1)], [plural("de", n) for n in (0, 1, 2, 0.1)]
    (['one', 'one', 'other', 'other', 'one'], ['other', 'one', 'other', 'other'])
    """
    rule = _cldr_plural(lang)
    if rule is not None:
        return "one" if rule(abs(n)) == "one" else "other"
    if lang == "fr":
        return "one" if int(abs(n)) in (0, 1) else "other"
    return "one" if abs(n) == 1 and float(n).is_integer() else "other"


@functools.cache
def _cldr_plural(lang: str) -> Callable[[float], str] | None:
    """Babel's CLDR plural rule of ``lang``, or None without Babel. Imported on first
    use: Babel's locale data would cost every command's start-up."""
    try:
        from babel.core import Locale
    except ImportError:  # pragma: no cover - the server's extra installs Babel
        return None
    rule: Callable[[float], str] = Locale.parse(lang).plural_form
    return rule


def _count(n: object) -> float | None:
    """``n`` as a count (a number, not a bool, or its digits as text), else None."""
    if isinstance(n, str) and re.fullmatch(r"-?\d{1,15}(\.\d{1,15})?", n):
        return float(n) if "." in n else int(n)
    return n if isinstance(n, int | float) and not isinstance(n, bool) else None


def lookup(lang: str, key: str, n: object = None) -> str | None:
    """The text of ``key`` in ``lang`` (plural form by ``n``), else English, else None."""
    for code in (lang, DEFAULT):
        table = catalog(code)
        if key in table:
            return table[key]
        count = _count(n)
        if count is not None and f"{key}.other" in table:
            return table.get(f"{key}.{plural(code, count)}", table[f"{key}.other"])
    return None


def fill(text: str, params: Mapping[str, object]) -> str:
    """Replace each ``{name}`` in ``text`` by ``params[name]`` (unknown ones stay)."""
    return _PLACEHOLDER.sub(lambda m: str(params[m[1]]) if m[1] in params else m[0], text)


def t(lang: str, key: str, **params: object) -> str:
    """The text of ``key`` in ``lang`` with its placeholders filled; the key itself if unknown."""
    text = lookup(lang, key, params.get("n"))
    return key if text is None else fill(text, params)


def render(value: Param, lang: str) -> str:
    """A message (or number, text or :class:`Join`) in ``lang``."""
    if isinstance(value, Msg):
        params = {name: render(v, lang) for name, v in value.params}
        text = lookup(lang, value.key, value.get("n"))
        return value.key if text is None else fill(text, params)
    if isinstance(value, Join):
        sep = lookup(lang, value.sep) or " "
        return sep.join(render(v, lang) for v in value.items)
    return str(value)


def negotiate(accept_language: str | None, default: str = DEFAULT) -> str:
    """The best of :data:`LANGS` for an ``Accept-Language`` header (``default`` if none)."""
    best: tuple[float, str] | None = None
    for i, part in enumerate((accept_language or "").split(",")[:32]):
        tag, _, rest = part.strip().partition(";")
        code = tag.strip()[:2].lower()
        if code not in LANGS:
            continue
        q = 1.0
        if rest.strip().startswith("q="):
            try:
                q = float(rest.strip()[2:])
            except ValueError:
                continue
        if q > 0 and (best is None or q > best[0]):
            best = (q - i * 1e-6, code)
    return best[1] if best else default


# ------------------------------------------------------------------ seat names


def default_name(key: str, **params: object) -> str:
    """A default seat name as the server stores it (English): ``name.guest`` -> "Guest 2"."""
    return t(DEFAULT, key, **params)


def bot_name(level: str, n: int) -> str:
    """A bot's default name as the server stores it: "Easy bot 2" (any level)."""
    key = f"name.bot.{level}"
    return default_name(key, n=n) if key in catalog(DEFAULT) else f"{level.capitalize()} bot {n}"


def name_fields(name: str, seat: int, level: str | None) -> dict[str, object]:
    """``{"name_key", "name_params"}`` when ``name`` is the server's default name for the seat.

    ``level`` is the seat's bot level (None: a person, or unknown as in a record).

    The server stores default names in English ("Easy bot 2", "Guest 2", "You");
    with these fields each page shows them in its own language.

    >>> name_fields("Easy bot 3", 2, "easy")
    {'name_key': 'name.bot.easy', 'name_params': {'n': 3}}
    >>> name_fields("Alice", 0, None)
    {}
    """
    found = _default_name_key(name, seat, level)
    if found is None:
        return {}
    key, n = found
    return {"name_key": key, "name_params": {} if n is None else {"n": n}}


@functools.lru_cache(maxsize=1)
def _bot_levels() -> tuple[str, ...]:
    """The bot levels that have a default name in the default catalog."""
    return tuple(k[9:] for k in catalog(DEFAULT) if k.startswith("name.bot."))


@functools.lru_cache(maxsize=4096)
def _default_name_key(name: str, seat: int, level: str | None) -> tuple[str, int | None] | None:
    """:func:`name_fields`' answer as ``(key, n)`` (``n`` None: no parameter), kept: the
    server asks it for every seat of every presence and state frame, and the answer
    never changes (the catalog is read once)."""
    candidates: list[tuple[str, int | None]] = [
        ("name.you", None), ("name.guest", seat + 1), ("name.player", seat + 1)]
    candidates += [(f"name.bot.{lv}", seat + 1) for lv in ((level,) if level else _bot_levels())]
    for key, n in candidates:
        if key in catalog(DEFAULT) and \
                default_name(key, **({} if n is None else {"n": n})) == name:
            return key, n
    return None


# ------------------------------------------------------------- the rules text


def describe_rules(rules: Rules, players: int | None = None, lang: str = DEFAULT) -> str:
    """The complete rules of ``rules`` in ``lang`` as plain text (what ``polignac rules`` prints).

    Raises:
        RulesError: ``players`` may not play these rules.
        KeyError: ``lang`` is not one of :data:`LANGS`.
    """
    text = rules_text(rules, players)
    head = render(text.title, lang)
    parts = [head + "\n" + "=" * len(head)]
    for section in text.sections:
        title = render(section.title, lang)
        lines = [render(line, lang) for line in section.lines]
        if section.title.key == "rules.section.quick":
            lines.append(trick_line(text.example, rules.german, lang))
        body = "\n".join(_wrap("- " + line, "  ") for line in lines)
        parts.append(f"{title}\n{'-' * len(title)}\n{body}")
    return "\n\n".join(parts) + "\n"


def _wrap(text: str, indent: str, width: int = 78) -> str:
    out: list[str] = []
    line = ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > width:
            out.append(line)
            line = indent + word
        else:
            line = f"{line} {word}" if line else word
    out.append(line)
    return "\n".join(out)


def rank_index(rank: str, german: bool, lang: str) -> str:
    """The index of a rank as the cards show it in ``lang``: ``K`` is "R" in French, "K" in
    German; a German pack's Ober is "O"; the Ten is "10"; numbers are themselves.

    >>> rank_index("K", False, "fr"), rank_index("J", False, "de"), rank_index("T", True, "en")
    ('R', 'B', '10')
    """
    if rank == "T":
        return "10"
    key = f"rankIndex.{'german' if german else 'french'}.{rank}"
    return t(lang, key) if key in catalog(DEFAULT) else rank


def trick_line(example: ExampleTrick, german: bool, lang: str) -> str:
    """The example trick as the corners of its cards, seat by seat, in ``lang``.

    >>> from polignac.core.describe import ExampleTrick
    >>> trick_line(ExampleTrick(("QC", "KC", "JS", "TC"), 1), False, "de")
    'Platz 1: D♣ · Platz 2: K♣ · Platz 3: B♠ · Platz 4: 10♣'
    """
    return " · ".join(
        t(lang, "rules.example.card", seat=i + 1, card=rank_index(code[0], german, lang)
          + SUIT_SYMBOLS[suit_of(parse_card(code))])
        for i, code in enumerate(example.cards))


def preset_name(preset: str, lang: str) -> str:
    """A preset's name for people ("Polignac (French rules)"); the id if it has none."""
    return t(lang, f"preset.{preset}.name") if f"preset.{preset}.name" in catalog(DEFAULT) \
        else preset


def preset_summary(preset: str, lang: str) -> str:
    """A preset's one-line summary, or an empty string."""
    key = f"preset.{preset}.summary"
    return t(lang, key) if key in catalog(DEFAULT) else ""


def presets_in(lang: str) -> list[dict[str, str]]:
    """Every preset's id, name and summary in ``lang``, in the order of :data:`PRESETS`."""
    return [{"id": p, "name": preset_name(p, lang), "summary": preset_summary(p, lang)}
            for p in PRESETS]


__all__ = [
    "DEFAULT",
    "LANGS",
    "NAMES",
    "RulesText",
    "bot_name",
    "catalog",
    "catalog_json",
    "default_name",
    "describe_rules",
    "fill",
    "lookup",
    "name_fields",
    "negotiate",
    "plural",
    "preset_name",
    "preset_summary",
    "presets_in",
    "rank_index",
    "render",
    "rules_text",
    "t",
    "trick_line",
]
