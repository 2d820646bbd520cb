"""``polignac verify``: a per-deal table, exit 1 naming a tampered deal, finished deals
without their proof failing (reported as not verifiable only with --lenient)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from polignac.cli.main import main
from polignac.core import Match, get_rules, to_record
from polignac.core.shuffle import Proof, commitment, deal_order


def verifiable_record(seed: int) -> dict[str, object]:
    rng = random.Random(seed)
    m = Match.new(get_rules("knaves", {"threshold": 8}), 3, first_dealer=0,
                  names=["A", "B", "C"])
    proofs = []
    while not m.finished:
        if m.needs_deal:
            server, cuts = rng.randbytes(32), [rng.randbytes(4), None, rng.randbytes(32)]
            proofs.append(Proof("T", commitment(server, "T", m.deal_number), server,
                                tuple(cuts), m.rules.packets).to_json())
            m = m.deal_from_pack(deal_order(m.rules, 3, server, "T", m.deal_number, cuts))
        else:
            m = m.apply(rng.choice(m.legal_actions()))
    return to_record(m, proofs)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_verify_a_record_then_a_tampered_turn_up(capsys: pytest.CaptureFixture[str],
                                                 tmp_path: Path) -> None:
    record = verifiable_record(2)
    n = len(record["deals"])  # type: ignore[arg-type]
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record))
    status, out, _ = run(capsys, "verify", str(path))
    assert status == 0 and f"{n} of {n} deals verified, 0 failed, 0 not verifiable." in out
    assert out.splitlines()[1].split()[:3] == ["1", "ok", "2"]  # deal 1: ok, 2 cuts
    deals = record["deals"]
    assert isinstance(deals, list)
    deals[0]["turn_up"], deals[0]["hands"][1][0] = deals[0]["hands"][1][0], deals[0]["turn_up"]
    path.write_text(json.dumps(record))
    status, out, _ = run(capsys, "verify", str(path))
    assert status == 1 and "Deal 1 failed:" in out and "turn-up is" in out


def test_a_finished_deal_without_its_proof_fails_unless_lenient(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = verifiable_record(2)
    deals = record["deals"]
    assert isinstance(deals, list) and len(deals) >= 2
    path = tmp_path / "r.json"
    for forge in ("removed", "null seed"):
        forged = json.loads(json.dumps(record))
        if forge == "removed":
            del forged["deals"][1]["shuffle"]
        else:
            forged["deals"][1]["shuffle"]["seed"] = None
        path.write_text(json.dumps(forged))
        status, out, _ = run(capsys, "verify", str(path))
        assert status == 1 and "Deal 2 failed: the deal is over but its" in out, out
        status, out, _ = run(capsys, "verify", str(path), "--lenient")
        assert status == 0 and "1 not verifiable." in out, out
    status, _, err = run(capsys, "verify", str(path), "--lenient", "--strict")
    assert status == 2 and "not allowed with" in err
    in_play = json.loads(json.dumps(record))  # the deal in play: no seed yet, no failure
    in_play["deals"] = in_play["deals"][:2]
    in_play["deals"][1]["actions"] = in_play["deals"][1]["actions"][:2]
    in_play["deals"][1]["shuffle"]["seed"] = None
    path.write_text(json.dumps(in_play))
    status, out, _ = run(capsys, "verify", str(path))
    assert status == 0 and "1 not verifiable." in out, out
    status, out, _ = run(capsys, "verify", str(path), "--strict")
    assert status == 1 and "--strict: deals 2" in out, out


def test_not_verifiable_lenient_strict_and_bad_files(capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Path) -> None:
    path = tmp_path / "plain.json"
    assert main(["play-random", "--seed", "3", "--rule", "threshold=5", "--out",
                 str(path)]) == 0
    capsys.readouterr()
    status, out, _ = run(capsys, "verify", str(path))
    assert status == 1 and "FAILED" in out and "proof (shuffle) is missing" in out
    status, out, _ = run(capsys, "verify", str(path), "--lenient")
    assert status == 0 and "not verifiable  " in out and "no verification data" in out
    status, out, _ = run(capsys, "verify", str(path), "--json", "--lenient")
    result = json.loads(out)
    assert status == 0 and result["ok"]
    assert {d["status"] for d in result["deals"]} == {"not-verifiable"}
    status, _, err = run(capsys, "verify", str(tmp_path / "missing.json"))
    assert status == 2 and "missing.json" in err
    (tmp_path / "bad.json").write_text('{"preset": "nope", "players": ["a"]}')
    status, _, err = run(capsys, "verify", str(tmp_path / "bad.json"))
    assert status == 1 and "nope" in err
