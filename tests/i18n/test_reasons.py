"""Every score reason the core can give has a sentence in every language.

The pages (static/scoresheet.js) say each score line with the catalog's
``why.REASON`` or, for a line with a detail key, ``why.REASON.KEY`` (KEY
without ``detail.``).  ``polignac.core.scoring.SCORE_REASONS`` lists every
reason and its keys; these tests check that list against the core's source
(every ``ScoreLine(...)`` it builds) and against the lines of played matches,
and that each has its sentence.
"""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest

from polignac import i18n
from polignac.core import CODES, PRESETS, Match, get_rules
from polignac.core.rules import ANNOUNCED_CONTRACTS
from polignac.core.scorepad import ScorePad
from polignac.core.scoring import SCORE_REASONS, ScoreLine, point_cards_in_play

CORE = Path(i18n.__file__).parent.parent / "core"
WORDS = {"general" if c == "general-bonus" else c for c in ANNOUNCED_CONTRACTS}
"""What ``word`` can be where scoring.py builds a reason as ``word + "-made"``."""
PARAMS = {"who", "points", "card", "n", "player", "what", "place", "div", "last"}
"""The parameters scoresheet.js gives a sentence."""


def sentence_key(reason: str, key: str) -> str:
    return f"why.{reason}" + (f".{key.removeprefix('detail.')}" if key else "")


def _reasons_of(node: ast.expr) -> set[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = node.left, node.right
        if isinstance(left, ast.Name) and isinstance(right, ast.Constant):
            return {f"{w}{right.value}" for w in WORDS}
        if isinstance(left, ast.Constant) and isinstance(right, ast.Name):
            return {f"{left.value}{w}" for w in WORDS}
    raise AssertionError(f"a reason this test cannot read: {ast.unparse(node)}")


def source_lines() -> list[tuple[str, set[str], str]]:
    """(where, reasons, key) for every ScoreLine(...) the core's source builds."""
    out = []
    for path in sorted(CORE.glob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "ScoreLine"):
                continue
            args = dict(enumerate(node.args))
            kw = {k.arg: k.value for k in node.keywords}
            reason = kw.get("reason", args.get(2))
            if reason is None:  # ScoreLine(*fields): a copy of a line built elsewhere
                continue
            key_node = kw.get("key", args.get(4))
            key = ""
            if key_node is not None:
                if isinstance(key_node, ast.Attribute):  # x.key: copies a line
                    continue
                assert isinstance(key_node, ast.Constant), ast.unparse(key_node)
                key = key_node.value
            out.append((f"{path.name}:{node.lineno}", _reasons_of(reason), key))
    return out


def test_the_list_has_every_reason_the_source_builds() -> None:
    found = source_lines()
    assert len(found) > 15
    for where, reasons, key in found:
        assert reasons <= set(SCORE_REASONS), (where, reasons - set(SCORE_REASONS))
        assert any(key in SCORE_REASONS[r] for r in reasons), (where, reasons, key)


def _played_lines(preset: str, seed: int) -> list[ScoreLine]:
    rules = get_rules(preset, {"parties": 2, "partie_target": 8}
                      if preset == "pollack" else None)
    rng = random.Random(seed)
    m = Match.new(rules, rules.default_players)
    while not m.finished:
        m = m.deal_random(rng) if m.needs_deal else m.apply(rng.choice(m.legal_actions()))
    return [line for r in m.results for line in r.score.lines]


@pytest.mark.parametrize("preset", list(PRESETS))
def test_played_lines_are_in_the_list(preset: str) -> None:
    lines = [x for seed in range(3) for x in _played_lines(preset, seed)]
    assert lines
    for line in lines:
        assert line.key in SCORE_REASONS.get(line.reason, ()), line


def _written_down(match: Match) -> dict[str, object]:
    """What a table writes on a score pad about the first deal of ``match``."""
    r = match.results[0]
    d, rules, n = r.deal, match.rules, match.num_players
    if rules.scoring == "pollack":
        return {"card_points": [d.card_points(0) + d.card_points(2),
                                d.card_points(1) + d.card_points(3)],
                "last_trick": d.past[-1].winner & 1}
    tricks = [d.tricks[r.seats.index(s)] for s in range(n)]
    if rules.scoring == "chips":
        return {"card_points": [d.card_points(r.seats.index(s)) for s in range(n)],
                "tricks": tricks}
    taken = {code: next((r.seats[i] for i in range(n) if d.taken[i] >> CODES.index(code) & 1),
                        None) for code in point_cards_in_play(rules, n)}
    return {"taken": taken, "tricks": tricks, "first_trick": r.seats[d.past[0].winner],
            "last_trick": r.seats[d.past[-1].winner]}


@pytest.mark.parametrize("preset", ["polignac-rounds", "knaves", "bassadewitz", "pollack"])
def test_revoke_lines_are_in_the_list(preset: str) -> None:
    rules = get_rules(preset, {"declaration": "none"} if preset == "polignac-rounds" else None)
    rng = random.Random(5)
    m = Match.new(rules, rules.default_players).deal_random(rng)
    while not m.results:
        legal = m.legal_actions()
        m = m.apply(legal[0] if len(legal) == 1 else rng.choice(
            [a for a in legal if a < 52] or legal))  # cards: no claim, no contract
    pad = ScorePad.new(rules, ["A", "B", "C", "D"][: m.num_players], revoke_penalty=2)
    pad = pad.add({**_written_down(m), "revokes": [1]})
    lines = [x for x in pad.deals[-1].lines if x.reason == "revoke"]
    assert lines
    for line in pad.deals[-1].lines:
        assert line.key in SCORE_REASONS.get(line.reason, ()), line


@pytest.mark.parametrize("lang", list(i18n.LANGS))
def test_every_reason_has_a_sentence(lang: str) -> None:
    words = i18n.catalog(lang)
    missing, odd = [], {}
    for reason, keys in SCORE_REASONS.items():
        for key in keys:
            k = sentence_key(reason, key)
            forms = [words[x] for x in (k, f"{k}.one", f"{k}.other") if x in words]
            if not forms:
                missing.append(k)
            for text in forms:
                names = set(re.findall(r"\{(\w+)\}", text))
                if not {"who", "points"} <= names or not names <= PARAMS:
                    odd[k] = text
    assert not missing, f"no sentence in {lang} for {missing}"
    assert not odd, odd
