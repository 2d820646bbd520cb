"""A refused house-rule set: the server's ``bad-rules`` answer carries the rules error's
code as a catalog ``key`` and its ``params`` (``errors.py:rules_refused``), so a page says
the reason in its language; every code the rules raise has its words in en, fr and de."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from polignac import i18n
from polignac.core import RulesError, get_rules

SRC = Path(__file__).resolve().parents[2] / "src" / "polignac" / "core"


def _table(client: TestClient, overrides: dict[str, Any], players: int = 4,
           preset: str = "polignac") -> dict[str, Any]:
    seats = [{"kind": "you"}] + [{"kind": "bot"}] * (players - 1)
    r = client.post("/api/tables", json={"preset": preset, "players": players, "seats": seats,
                                          "overrides": overrides})
    assert r.status_code == 400, r.text
    body: dict[str, Any] = r.json()
    assert body["rule"] == "bad-rules"
    return body


def test_the_answer_carries_the_code_and_its_parts(client: TestClient) -> None:
    body = _table(client, {"threshold": 100000})
    assert body == {"error": "threshold must be from 1 to 500, not 100000", "rule": "bad-rules",
                    "code": "out-of-range", "key": "rulesError.out-of-range",
                    "params": {"param": "threshold", "lo": 1, "hi": 500, "value": "100000"}}
    assert i18n.t("fr", body["key"], **body["params"]) == \
        "threshold doit être compris entre 1 et 500, pas 100000."
    assert _table(client, {"suits": "x"})["params"] == {
        "param": "suits", "value": "'x'", "allowed": "french, german"}
    assert _table(client, {"threshold": "abc"})["code"] == "cannot-read"
    assert _table(client, {"nope": 1})["code"] == "unknown-parameter"
    assert _table(client, {}, players=9)["code"] == "players-not-allowed"
    r = client.post("/api/tables", json={"preset": "nosuch", "seats": [{"kind": "you"}]})
    assert r.status_code == 400 and r.json()["code"] == "unknown-preset"


def test_a_long_value_stays_short_in_the_params(client: TestClient) -> None:
    body = _table(client, {"threshold": "9" * 5000})
    assert body["code"] in ("cannot-read", "too-long")
    assert len(str(body["params"])) < 300


@pytest.mark.parametrize("overrides", [{"threshold": 0}, {"deals": 0},
                                       {"card_points": {"ZZ": 1}}, {"pack": 40}])
def test_core_errors_have_codes(overrides: dict[str, Any]) -> None:
    with pytest.raises(RulesError) as exc:
        get_rules("polignac", overrides)
    assert exc.value.code is not None, exc.value
    assert exc.value.params


def test_every_code_has_its_words_in_each_language() -> None:
    codes: set[str] = set()
    for path in SRC.glob("*.py"):  # a code is the literal before the params' dict
        text = path.read_text(encoding="utf-8")
        codes |= set(re.findall(r'"([a-z]+(?:-[a-z]+)+)",\s*\{', text))
        for pair in re.findall(r'"([a-z-]+)" if each else "([a-z-]+)"', text):
            codes |= set(pair)
    assert {"out-of-range", "out-of-range-each", "not-allowed", "unknown-preset",
            "cannot-read"} <= codes, codes
    for lang in ("en", "fr", "de"):
        for code in codes:
            assert i18n.t(lang, f"rulesError.{code}") != f"rulesError.{code}", (lang, code)
