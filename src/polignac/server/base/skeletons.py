"""Unicode skeletons (UTS #39, "Unicode Security Mechanisms", section 4): the form two
confusable strings share, and the two keys a player's name is compared by
(``players/names.py`` says what for).

The skeleton of a string is the string decomposed (NFD), each character replaced by
its prototype in Unicode's ``confusables.txt``, and decomposed again; two strings are
confusable when their skeletons are equal.  The table is the one the
``confusable_homoglyphs`` package ships (its ``confusables.json``, Unicode's
``confusables.txt`` as data, read once: :func:`prototypes`).  Pure: no I/O but reading
that file.
"""

from __future__ import annotations

import functools
import importlib.resources
import json
import unicodedata

_MARKS = str.maketrans("", "", "\u200e\u200f")
"""The direction marks ``confusables.txt``'s comments put around right-to-left text."""


@functools.lru_cache(maxsize=1)
def prototypes() -> dict[str, str]:
    """Unicode's confusables table: each character that has a prototype -> it (text).

    ``confusable_homoglyphs`` keeps each line of ``confusables.txt`` (source ->
    prototype) both ways: a source's list holds its one prototype, a prototype's
    list the sources that map to it.  A prototype is therefore known by a list of
    two or more, or by being several characters; a pair of single characters that
    only name each other cannot be told apart, and the lower code point stands for
    both (the same strings compare equal either way).
    """
    data = json.loads((importlib.resources.files("confusable_homoglyphs") / "confusables.json")
                      .read_text(encoding="utf-8"))
    links = {k.translate(_MARKS): [e["c"].translate(_MARKS) for e in v] for k, v in data.items()}
    table: dict[str, str] = {}
    for key, others in links.items():
        if len(key) != 1 or len(others) != 1:
            continue  # a prototype (or a sequence): it stays
        other = others[0]
        if len(other) != 1 or len(links.get(other, ())) != 1:
            table[key] = other  # a source, and its prototype
        elif key > other:
            table[key] = other  # a pair: the lower code point for both
    return table


def skeleton(text: str) -> str:
    """UTS #39's ``skeleton(text)``: NFD, each character by its prototype, NFD."""
    table = prototypes()
    mapped = "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFD", text))
    mapped = "".join(table.get(ch, ch) for ch in mapped)  # a pair's member in a sequence
    return unicodedata.normalize("NFD", mapped)


def name_keys(name: str) -> tuple[str, str]:
    """The two keys a name is compared by (see the module): the skeleton of its case
    fold, and the skeleton of the case fold of its skeleton."""
    return skeleton(name.casefold()), skeleton(skeleton(name).casefold())
