"""The project's rule book, ``docs/rules/``, written from the same text as ``polignac rules``.

Each page of the book mixes two kinds of text:

* **generated regions**, between ``<!-- BEGIN GENERATED: NAME -->`` and
  ``<!-- END GENERATED: NAME -->``, written here from
  :func:`polignac.core.describe.rules_text` and the catalogs: the very text that
  ``polignac rules PRESET`` prints and the ``/rules/{preset}`` pages show;
* **hand-written prose** everywhere else (introduction, strategy, history),
  which :func:`refresh` keeps as it is.

Region names: ``head PRESET`` (a page's title and summary), ``rules PRESET``
(its complete rules, every interpretation with an anchor), ``presets`` (the
index of pages), ``interpretations`` (every interpretation of the family, with
the pages it applies to), ``parameters`` (every rule parameter) and ``uses
PARAMETER`` (each value of a parameter that presets have, and which have it).
:func:`book` says what each page should be; ``polignac rulebook docs/rules``
writes it, and a test fails while the pages are stale.

Every line of the rules that carries an interpretation gets a stable anchor
made from its catalog key (:func:`interpretation_id`), so code can cite it as
``docs/rules/polignac.md#interp-failed``.

>>> interpretation_id(msg("rules.interp.lowestCards", interp=msg("rules.interp")))
'interp-lowest-cards'
>>> interpretation_id(msg("rules.trumps.none")) is None
True
>>> print(rules_markdown(PRESETS["knaves"]).splitlines()[2])
<a id="how-to-play"></a>
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Final

from ..core import PRESETS, Rules
from ..core.describe import Join, Msg, Param, msg, rules_text
from ..core.rules import parameter_bounds, parameter_docs
from ..core.scorepad import REVOKE_DEFAULTS
from . import DEFAULT, preset_name, preset_summary, render, trick_line

REGION: Final = re.compile(
    r"<!-- BEGIN GENERATED: (?P<name>[\w .-]+?) -->\n.*?<!-- END GENERATED: (?P=name) -->",
    re.S)
"""A generated region of a page (its name in the group ``name``)."""

WRITE_ME: Final = "<!-- WRITE:"
"""What a new page's placeholders start with: prose that nobody has written yet."""

REFRESH: Final = "PYTHONPATH=src python -m polignac rulebook docs/rules"
"""The command that rewrites the generated regions of the book (from the repository root)."""

SECTION_IDS: Final = {
    "rules.section.quick": "how-to-play",
    "rules.section.tips": "tips",
    "rules.section.pack": "pack",
    "rules.section.play": "play",
    "rules.section.scoring": "scoring",
    "rules.section.declarations": "declarations",
    "rules.section.end": "end",
    "rules.section.interpretations": "interpretations",
}
"""The anchor of each section of the rules."""


def page_name(preset: str) -> str:
    """The file of a preset's page in the book: ``polignac.md``."""
    return f"{preset}.md"


def _kebab(key: str) -> str:
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"-\1", key).lower().replace(".", "-")


def _messages(value: Param) -> Iterator[Msg]:
    """Every message in ``value``, outermost first."""
    if isinstance(value, Msg):
        yield value
        for _, param in value.params:
            yield from _messages(param)
    elif isinstance(value, Join):
        for item in value.items:
            yield from _messages(item)


def interpretation_id(line: Param) -> str | None:
    """The anchor of a line of the rules that is an interpretation, else None.

    A line is an interpretation when one of its messages is a ``rules.interp.*``
    message (the section "Interpretations", which lists each of them once:
    ``rules.interp.lowestCards`` gives ``interp-lowest-cards``) or carries the
    "(interpretation)" mark in the text of a rule (``rules.decl.fail.interp``
    gives ``decl-fail``); the anchor is made from that message's key. Code
    cites the ``interp-*`` anchors.
    """
    for m in _messages(line):
        if m.key.startswith("rules.interp."):
            return "interp-" + _kebab(m.key.removeprefix("rules.interp."))
        if any(isinstance(p, Msg) and p.key == "rules.interp" for _, p in m.params):
            return _kebab(m.key.removeprefix("rules.").removesuffix(".interp"))
    return None


def _interpretations(rules: Rules, lang: str) -> list[tuple[str, str]]:
    """(anchor, text) of every interpretation line of ``rules``, in page order."""
    out: list[tuple[str, str]] = []
    for section in rules_text(rules).sections:
        for line in section.lines:
            anchor = interpretation_id(line)
            if anchor is not None and anchor not in (a for a, _ in out):
                out.append((anchor, render(line, lang)))
    return out


def rules_markdown(rules: Rules, players: int | None = None, lang: str = DEFAULT,
                   level: int = 3) -> str:
    """The complete rules of ``rules`` in ``lang`` as Markdown (``polignac rules --markdown``).

    Sections are headings of ``level`` with anchors (``#how-to-play``, ``#tips``,
    ``#pack``, ``#play``, ``#scoring``, ``#declarations``, ``#end``,
    ``#interpretations``, the notes); each interpretation's line starts with its
    anchor (:func:`interpretation_id`). The example trick of "How to play" is also
    shown as its cards, seat by seat (:func:`polignac.i18n.trick_line`).

    Raises:
        RulesError: ``players`` may not play these rules.
        KeyError: ``lang`` is not one of the catalogs' languages.
    """
    text = rules_text(rules, players)
    hashes = "#" * level
    parts = [f"{hashes[:-1] or '#'} {render(text.title, lang)}"]
    seen: set[str] = set()
    for section in text.sections:
        lines = []
        for line in section.lines:
            anchor = interpretation_id(line)
            mark = ""
            if anchor is not None and anchor not in seen:
                seen.add(anchor)
                mark = f'<a id="{anchor}"></a>'
            lines.append(f"- {mark}{render(line, lang)}")
        if section.title.key == "rules.section.quick":
            lines.append("- " + trick_line(text.example, rules.german, lang))
        sid = SECTION_IDS.get(section.title.key, _kebab(section.title.key))
        parts.append(f'<a id="{sid}"></a>\n{hashes} {render(section.title, lang)}\n\n'
                     + "\n".join(lines))
    return "\n\n".join(parts) + "\n"


# --------------------------------------------------------------- the regions


def _head(preset: str) -> str:
    rules = PRESETS[preset]
    return (f"# {preset_name(preset, DEFAULT)}\n\n"
            f"*Preset `{preset}` of the game "
            f"{render(msg(f'game.{rules.game}'), DEFAULT)}.* "
            f"{preset_summary(preset, DEFAULT)}")


def _value(value: object) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k}: {v}" for k, v in value.items()) or "(none)"
    if isinstance(value, list):
        return ", ".join(map(str, value))
    if value is None:
        return "none"
    return str(value).lower() if isinstance(value, bool) else str(value)


def _rules_region(preset: str) -> str:
    rules = PRESETS[preset]
    body = rules_markdown(rules, level=3).split("\n", 1)[1].lstrip("\n")
    family = [p for p, r in PRESETS.items() if r.game == rules.game and p != preset]
    lines = [
        "## The rules",
        "",
        f"The text that `polignac rules {preset}` prints and the web app's page "
        f"`/rules/{preset}` shows (`--lang fr` or `de` for French or German).",
        "",
        body.rstrip("\n"),
        "",
        '<a id="parameters"></a>',
        "### Rule parameters",
        "",
        "The values that make this preset; any of them can be changed as a house rule "
        f"(`polignac rules {preset} --rule NAME=VALUE`; what each means: "
        "[the parameters](common.md#parameters)).",
        "",
        "| parameter | value |",
        "| --- | --- |",
    ]
    lines += [f"| `{name}` | {_value(v)} |" for name, v in rules.to_dict().items()
              if name != "preset"]
    revoke = REVOKE_DEFAULTS.get(preset)
    lines += ["", "At the [score pad](common.md#score-pad) a called revoke costs "
              + (f"{revoke} points by default." if revoke is not None
                 else "nothing by default (the players may set a penalty).")]
    if family:
        links = ", ".join(f"[{preset_name(p, DEFAULT)}]({page_name(p)})" for p in family)
        lines += ["", f"Other presets of this game: {links}."]
    return "\n".join(lines)


def _presets_region() -> str:
    lines = ["| preset | game | players | in one line |", "| --- | --- | --- | --- |"]
    for preset, rules in PRESETS.items():
        p = rules.players
        count = (f"{p[0]}-{p[-1]}" if len(p) > 1 and list(p) == list(range(p[0], p[-1] + 1))
                 else ", ".join(map(str, p)))
        lines.append(f"| [{preset_name(preset, DEFAULT)}]({page_name(preset)}) `{preset}` "
                     f"| {rules.game} | {count} | {preset_summary(preset, DEFAULT)} |")
    return "\n".join(lines)


def _interpretations_region() -> str:
    found: dict[str, tuple[str, list[str]]] = {}
    for preset, rules in PRESETS.items():
        for anchor, text in _interpretations(rules, DEFAULT):
            if anchor.startswith("interp-"):
                found.setdefault(anchor, (text, []))[1].append(preset)
    lines = []
    for anchor, (text, presets) in found.items():
        where = ", ".join(f"[{p}]({page_name(p)}#{anchor})" for p in presets)
        lines.append(f"- `{anchor}`: {text} In: {where}.")
    return "\n".join(lines)


def _parameters_region() -> str:
    docs = parameter_docs()
    bounds = parameter_bounds()
    lines = ["| parameter | what it means | bounds |", "| --- | --- | --- |"]
    for name in PRESETS["polignac"].to_dict():
        if name == "preset":
            continue
        lines.append(f"| `{name}` | {docs.get(name, '')} | {bounds.get(name, '')} |")
    return "\n".join(lines)


def _uses_region(parameter: str) -> str:
    """Each value of ``parameter`` that a preset has, with the presets that have it."""
    users: dict[str, list[str]] = {}
    for preset, rules in PRESETS.items():
        users.setdefault(_value(rules.to_dict()[parameter]), []).append(preset)
    return "\n".join(f"- `{value}`: " + ", ".join(f"[{p}]({page_name(p)})" for p in presets)
                     for value, presets in users.items())


def region(name: str) -> str:
    """The text of the generated region ``name``, markers excluded.

    Raises:
        KeyError: no region has that name (or its preset or parameter is unknown).
    """
    kind, _, preset = name.partition(" ")
    if kind in ("head", "rules"):
        if preset not in PRESETS:
            raise KeyError(f"no preset {preset!r} for the region {name!r}")
        return _head(preset) if kind == "head" else _rules_region(preset)
    if kind == "uses":
        if preset not in PRESETS["polignac"].to_dict() or preset == "preset":
            raise KeyError(f"no rule parameter {preset!r} for the region {name!r}")
        return _uses_region(preset)
    makers = {"presets": _presets_region, "interpretations": _interpretations_region,
              "parameters": _parameters_region}
    if name not in makers:
        raise KeyError(f"unknown generated region {name!r}")
    return makers[name]()


def _block(name: str) -> str:
    return (f"<!-- BEGIN GENERATED: {name} -->\n{region(name)}\n"
            f"<!-- END GENERATED: {name} -->")


def _preset_of(name: str) -> str | None:
    """The preset a region ``head PRESET`` or ``rules PRESET`` names, else None."""
    kind, _, preset = name.partition(" ")
    return preset if kind in ("head", "rules") else None


def refresh(page: str) -> str:
    """``page`` with every generated region rewritten; the prose around them unchanged.

    A region of a preset that does not exist is left as it is (:func:`problems`
    reports it).

    Raises:
        KeyError: a region has an unknown name.
    """
    def block(m: re.Match[str]) -> str:
        preset = _preset_of(m["name"])
        return m[0] if preset is not None and preset not in PRESETS else _block(m["name"])

    return REGION.sub(block, page)


def skeleton(preset: str) -> str:
    """A new page for ``preset``: its generated regions, and placeholders for the prose."""
    return (f"{_block(f'head {preset}')}\n\n"
            f"{WRITE_ME} what the game is and how it feels to play, in our own words -->\n\n"
            f"{_block(f'rules {preset}')}\n\n"
            f"## Notes\n\n{WRITE_ME} strategy tips, history and sources -->\n")


def book(pages: Mapping[str, str]) -> dict[str, str]:
    """What every page of the book should be, from the pages as they are (file name -> text).

    Existing pages are refreshed (:func:`refresh`); a preset without a page gets
    a :func:`skeleton`. Pages that are not a preset's (README.md, common.md) are
    refreshed too.

    Raises:
        KeyError: a page has a region with an unknown name.
    """
    out = {name: refresh(text) for name, text in pages.items()}
    for preset in PRESETS:
        out.setdefault(page_name(preset), skeleton(preset))
    return out


def problems(pages: Mapping[str, str]) -> list[str]:
    """What is wrong with the book ``pages`` (file name -> text), one line each; [] if nothing.

    Stale or missing pages, regions of a preset that does not exist, prose still to write.

    Raises:
        KeyError: a page has a region with an unknown name.
    """
    out = []
    expected = book(pages)
    for name, text in expected.items():
        if name not in pages:
            out.append(f"{name}: missing (the preset has no page)")
        elif pages[name] != text:
            out.append(f"{name}: a generated region is stale")
        elif WRITE_ME in text:
            out.append(f"{name}: has prose still to write ({WRITE_ME} ...)")
    for name, text in pages.items():
        for m in REGION.finditer(text):
            preset = _preset_of(m["name"])
            if preset is not None and preset not in PRESETS:
                out.append(f"{name}: the region {m['name']!r} names no preset")
    return out


__all__ = ["REFRESH", "REGION", "SECTION_IDS", "WRITE_ME", "book", "interpretation_id", "page_name",
           "problems", "refresh", "region", "rules_markdown", "skeleton"]
