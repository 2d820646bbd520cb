"""Every preset of the rule book (docs/rules/README.md#presets), registered by name.

>>> get_rules("slobberhannes").card_points
{'QC': 1}
>>> get_rules("polignac", {"threshold": 10}).threshold
10
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from .errors import RulesError
from .families import FAMILIES, families
from .rules import Rules, show

PRESETS: Final[dict[str, Rules]] = {
    r.preset: r for family in FAMILIES for r in family.presets
}
"""Every preset by name, in the order of the rule book (the families' list)."""


def preset_names() -> list[str]:
    """Return the names of every preset, in rule-book order."""
    return list(PRESETS)


def get_rules(preset: str, overrides: Mapping[str, Any] | None = None) -> Rules:
    """Return the rules of ``preset``, with house-rule ``overrides`` applied.

    Raises:
        RulesError: the preset is unknown (the message lists the known ones),
            or an override is unknown or invalid.
    """
    rules = PRESETS.get(preset)
    if rules is None:  # a family that joined for a while (families.extended)
        rules = next((r for f in families() for r in f.presets if r.preset == preset), None)
    if rules is None:
        raise RulesError(
            f"unknown preset {show(preset)}; presets are: {', '.join(PRESETS)}",
            "unknown-preset", {"preset": show(preset)})
    if overrides:
        return rules.with_overrides(overrides)
    return rules


for _rules in PRESETS.values():
    _rules.validate()
