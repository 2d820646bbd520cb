"""Verifiable deals (``polignac-shuffle/1``): known answers, the written-out byte
layout, unbiased Fisher-Yates, hands dealt as the core deals, and record checks."""

from __future__ import annotations

import collections
import copy
import hashlib
import hmac
import json
import random
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polignac.core import CODES, Match, cards_of, get_rules, replay, to_record
from polignac.core.shuffle import (
    VERSION,
    Proof,
    ShuffleError,
    _below,
    commitment,
    deal_order,
    hands_from_order,
    pack_order,
    parse_hex,
    shuffle_key,
    verify_record,
)

SEED = bytes(range(32))

# Known answers: fixed here so that any change of the algorithm fails loudly
# (the browser's verify.js is checked against the same numbers).
KNOWN = [
    (SEED, "t1", 1, [None, b"\x01"], 8,
     "517d49b54a400d916b01c686bdf0dbda5038c233065a42737b95664670e36788",
     [5, 2, 0, 4, 7, 1, 3, 6]),
]


def test_known_answers() -> None:
    for seed, table, deal, cuts, n, commit, order in KNOWN:
        assert commitment(seed, table, deal) == commit
        assert pack_order(seed, table, deal, cuts, list(range(n))) == order
    pack = cards_of(get_rules("polignac").pack_mask(4))
    got = [CODES[c] for c in pack_order(b"\xff" * 32, "AbC_-9", 12, [b"\x00", None, b"\xab" * 32,
                                                                      None], pack)]
    assert got[:8] == ["8D", "7H", "9C", "8S", "7C", "7D", "JC", "KH"]
    assert commitment(b"\xff" * 32, "AbC_-9", 12) == \
        "91fec5553f50c563d8884a74caa54be4278f4f3a59e7b487ea974d519a0c7981"
    assert sorted(got) == sorted(CODES[c] for c in pack)


def _lp(b: bytes) -> bytes:
    return len(b).to_bytes(4, "big") + b


def test_the_byte_layout_is_as_documented() -> None:
    """An independent reading of docs/server.md's layout gives the same bytes."""
    seed, table, deal, cuts = b"\x07" * 32, "tbl", 3, [b"\x01\x02", None, b"\xff"]
    msg = (_lp(b"polignac-shuffle/1 commitment") + _lp(b"tbl") + _lp(b"3") + _lp(seed))
    assert commitment(seed, table, deal) == hashlib.sha256(msg).hexdigest()
    keymsg = (_lp(b"polignac-shuffle/1 key") + _lp(b"tbl") + _lp(b"3") + (3).to_bytes(4, "big")
              + _lp(b"\x01\x02") + _lp(b"") + _lp(b"\xff"))
    key = hmac.new(seed, keymsg, hashlib.sha256).digest()
    assert shuffle_key(seed, table, deal, cuts) == key
    # Fisher-Yates over the words of HMAC(key, counter), written out plainly.
    words: list[int] = []
    for counter in range(4):
        words += struct.unpack(">8I", hmac.new(key, counter.to_bytes(4, "big"),
                                               hashlib.sha256).digest())
    order, k = list(range(20)), 0
    for i in range(19, 0, -1):
        while words[k] >= 2**32 - 2**32 % (i + 1):
            k += 1
        j = words[k] % (i + 1)
        k += 1
        order[i], order[j] = order[j], order[i]
    assert pack_order(seed, table, deal, cuts, list(range(20))) == order


def test_rejection_sampling_skips_the_biased_top_words() -> None:
    # 2**32 % 3 == 1: the word 2**32 - 1 would make 0 likelier than 1 and 2, so it is skipped
    assert _below(iter([2**32 - 1, 5]), 3) == 2
    assert _below(iter([2**32 - 2, 5]), 3) == (2**32 - 2) % 3
    assert _below(iter([2**32 - 1, 7]), 2**31) == 2**31 - 1  # a power of two: nothing skipped
    assert _below(iter([2**32 - 6, 2**32 - 5, 8]), 52) == 8  # 2**32 % 52 == 48 words skipped


def test_every_order_of_three_cards_is_equally_likely() -> None:
    counts = collections.Counter(
        tuple(pack_order(i.to_bytes(4, "big"), "t", 1, [None], [0, 1, 2])) for i in range(3000))
    assert len(counts) == 6
    # 500 expected each; 5 standard deviations is about 100
    assert all(400 < c < 600 for c in counts.values()), counts


@settings(max_examples=60, deadline=None)
@given(seed=st.binary(min_size=16, max_size=64), table=st.text(min_size=1, max_size=12),
       deal=st.integers(1, 500),
       cuts=st.lists(st.one_of(st.none(), st.binary(min_size=1, max_size=32)),
                     min_size=1, max_size=6),
       n=st.sampled_from([8, 32, 52]), which=st.integers(0, 5))
def test_a_permutation_deterministic_and_every_cut_counts(
        seed: bytes, table: str, deal: int, cuts: list[bytes | None], n: int,
        which: int) -> None:
    order = pack_order(seed, table, deal, cuts, list(range(n)))
    assert sorted(order) == list(range(n))
    assert pack_order(seed, table, deal, list(cuts), list(range(n))) == order
    s = which % len(cuts)
    changed = list(cuts)
    changed[s] = (cuts[s] or b"") + b"\x01"
    # a different key: another order (a collision would be a 1 in 8! chance at worst)
    assert shuffle_key(seed, table, deal, changed) != shuffle_key(seed, table, deal, cuts)
    if n >= 32:
        assert pack_order(seed, table, deal, changed, list(range(n))) != order
        assert pack_order(seed, table, deal + 1, cuts, list(range(n))) != order
    assert commitment(seed, table, deal) != commitment(seed, table, deal + 1)


def test_parse_hex_bounds() -> None:
    assert parse_hex("0aFF", "cut", 1, 32) == b"\x0a\xff"
    for bad in ("", "abc", "zz", "00" * 33, 12, None):
        with pytest.raises(ShuffleError, match="cut must be 2 to 64 hex digits"):
            parse_hex(bad, "cut", 1, 32)


# ------------------------------------------------------------- whole matches


def verifiable_match(preset: str, n: int, seed: int, overrides: dict[str, object] | None = None,
                     table: str = "tbl") -> tuple[Match, list[dict[str, object]]]:
    """A random match whose every deal comes from a seed and cuts, with the proofs."""
    rng = random.Random(seed)
    m = Match.new(get_rules(preset, overrides), n, first_dealer=rng.randrange(n),
                  names=[f"P{i}" for i in range(n)])
    proofs = []
    while not m.finished:
        if m.needs_deal:
            server = rng.randbytes(32)
            cuts = [rng.randbytes(8) if rng.random() < 0.7 else None for _ in range(n)]
            _dealer, seats = m.next_deal()
            order = deal_order(m.rules, len(seats), server, table, m.deal_number, cuts)
            proofs.append(Proof(table, commitment(server, table, m.deal_number), server,
                                tuple(cuts), m.rules.packets).to_json())
            m = m.deal_from_pack(order)
        else:
            m = m.apply(rng.choice(m.legal_actions()))
    return m, proofs


@pytest.mark.parametrize(("preset", "n", "overrides"), [
    ("polignac", 4, {"threshold": 6}), ("knaves", 3, {"threshold": 6}),
    ("polignac-threshold", 4, {"threshold": 1}), ("pollack", 4, {}),
    ("polignac-party", 10, {"threshold": 4}), ("slobberhannes", 5, {"threshold": 4})])
def test_verify_record_passes_then_names_a_changed_card(
        preset: str, n: int, overrides: dict[str, object]) -> None:
    m, proofs = verifiable_match(preset, n, 11, overrides)
    record = json.loads(json.dumps(to_record(m, proofs)))
    checks = verify_record(record)
    assert [c.status for c in checks] == ["ok"] * len(m.results)
    assert replay(record).totals == m.totals  # the extra field does not disturb replay
    # one card changed between two hands of the last deal
    bad = copy.deepcopy(record)
    last = len(bad["deals"])
    hands = bad["deals"][-1]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    checks = verify_record(bad)
    assert [c.status for c in checks] == ["ok"] * (last - 1) + ["failed"]
    assert any("shuffle deals" in p for p in checks[-1].problems)


def test_turn_up_and_hands_follow_the_core() -> None:
    rules = get_rules("knaves")
    order = deal_order(rules, 3, SEED, "t", 1, [None, None, b"\x05"])
    hands, up = hands_from_order(rules, order, 3, 2)
    m = Match.new(rules, 3, first_dealer=2).deal_from_pack(order)
    assert m.current is not None and up == m.current.turn_up == order[-1]
    assert [sorted(cards_of(h)) for h in m.current.initial_hands] == hands


def test_verify_record_reports_what_is_wrong() -> None:
    m, proofs = verifiable_match("polignac", 4, 3, {"threshold": 12})
    assert len(m.results) >= 2
    record = to_record(m, proofs)
    record["deals"][0].pop("shuffle")
    checks = verify_record(record)  # a finished deal without its proof fails...
    assert checks[0].status == "failed" and checks[1].status == "ok"
    assert checks[0].problems == ("the deal is over but its proof (shuffle) is missing",)
    checks = verify_record(record, lenient=True)  # ...unless the check is lenient
    assert checks[0].status == "not-verifiable" and checks[1].status == "ok"
    wrong_seed = copy.deepcopy(record)
    wrong_seed["deals"][1]["shuffle"]["seed"] = "00" * 32
    assert "commitment is not SHA-256" in verify_record(wrong_seed)[1].problems[0]
    hidden = copy.deepcopy(record)
    hidden["deals"][1]["shuffle"]["seed"] = None
    assert verify_record(hidden)[1].problems == (
        "the deal is over but its seed is not revealed",)
    assert verify_record(hidden, lenient=True)[1].status == "not-verifiable"
    in_play = copy.deepcopy(hidden)  # the deal in play: its seed is not revealed yet
    in_play["deals"][1]["actions"] = in_play["deals"][1]["actions"][:1]
    in_play["deals"] = in_play["deals"][:2]
    assert verify_record(in_play)[1].status == "not-verifiable"
    cut = copy.deepcopy(record)
    shuffle = cut["deals"][1]["shuffle"]
    shuffle["cuts"] = [c or "01" for c in shuffle["cuts"]][:3] + ["ee"]
    check = verify_record(cut)[1]
    assert check.status == "failed" and "shuffle deals" in " ".join(check.problems)
    malformed = copy.deepcopy(record)
    malformed["deals"][1]["shuffle"]["cuts"] = ["xyz"] * 4
    assert verify_record(malformed)[1].problems == (
        "shuffle cut of seat 0 must be 2 to 64 hex digits (an even number)",)
    other = copy.deepcopy(record)
    other["deals"][1]["shuffle"]["version"] = "polignac-shuffle/9"
    assert "version" in verify_record(other)[1].problems[0]
    assert Proof.from_json(record["deals"][1]["shuffle"]).to_json() == \
        record["deals"][1]["shuffle"]
    assert record["deals"][1]["shuffle"]["version"] == VERSION
