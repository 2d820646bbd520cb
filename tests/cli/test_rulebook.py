"""``polignac rules --markdown`` and ``polignac rulebook DIR``: the rule book's pages."""

from __future__ import annotations

from pathlib import Path

import pytest

from polignac.cli.main import main
from polignac.core import PRESETS, get_rules
from polignac.i18n.rulebook import rules_markdown, skeleton


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_rules_markdown_is_the_rule_books_text(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "rules", "pollack", "--markdown", "--lang", "de")
    assert status == 0 and not err
    assert out == rules_markdown(PRESETS["pollack"], lang="de", level=2)
    assert out.startswith("# Pollack") and '<a id="interp-pollack-claim"></a>' in out
    status, out, _ = run(capsys, "rules", "polignac", "--markdown", "--players", "3",
                         "--rule", "threshold=10")
    assert out == rules_markdown(get_rules("polignac", {"threshold": 10}), 3, level=2)
    status, _, err = run(capsys, "rules", "knaves", "--markdown", "--players", "5")
    assert status == 2 and "5" in err


def test_rulebook_writes_checks_and_keeps_the_prose(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out, _ = run(capsys, "rulebook", str(tmp_path), "--check")
    assert status == 1 and "polignac.md: missing" in out
    status, out, _ = run(capsys, "rulebook", str(tmp_path))
    assert status == 0 and f"wrote {tmp_path / 'knaves.md'}" in out
    assert "knaves.md: has prose still to write" in out
    assert (tmp_path / "knaves.md").read_text("utf-8") == skeleton("knaves")
    page = tmp_path / "knaves.md"
    page.write_text(page.read_text("utf-8").replace("<!-- WRITE:", "Our words. <!--")
                    .replace("17 cards each", "9 cards each"), "utf-8")
    status, out, _ = run(capsys, "rulebook", str(tmp_path), "--check")
    assert status == 1 and "knaves.md: a generated region is stale" in out
    run(capsys, "rulebook", str(tmp_path))
    text = page.read_text("utf-8")
    assert "17 cards each" in text and "9 cards each" not in text and "Our words." in text


def test_rulebook_errors_are_one_line(capsys: pytest.CaptureFixture[str],
                                      tmp_path: Path) -> None:
    status, _, err = run(capsys, "rulebook", str(tmp_path / "nowhere"))
    assert status == 2 and err == f"polignac: rulebook: {tmp_path / 'nowhere'} is not a folder\n"
    (tmp_path / "x.md").write_text("<!-- BEGIN GENERATED: bogus -->\n<!-- END GENERATED: bogus -->")
    status, _, err = run(capsys, "rulebook", str(tmp_path), "--check")
    assert status == 2 and "unknown generated region 'bogus'" in err
