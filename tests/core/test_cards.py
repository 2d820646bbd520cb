"""Cards, notation and card sets (docs/rules/common.md#cards)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polignac.core import (
    CODES,
    SUIT_MASKS,
    CardParseError,
    CardSet,
    PolignacError,
    card_code,
    card_name,
    card_symbol,
    cards_of,
    mask_of,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)
from polignac.core.cards import JS, PIQUET_PACK, QC, TH


def test_card_numbering_is_suit_times_13_plus_rank() -> None:
    assert parse_card("2C") == 0
    assert parse_card("AC") == 12
    assert parse_card("2D") == 13
    assert parse_card("JS") == 3 * 13 + 9 == JS
    assert parse_card("AS") == 51
    assert (suit_of(JS), rank_of(JS)) == (3, 9)
    assert parse_card("TH") == TH and parse_card("QC") == QC


def test_every_code_round_trips() -> None:
    assert len(CODES) == len(set(CODES)) == 52
    for c in range(52):
        assert card_code(c) == CODES[c]
        assert parse_card(CODES[c]) == c
        assert parse_card(CODES[c].lower()) == c


@pytest.mark.parametrize(
    ("text", "code"),
    [("JS", "JS"), ("js", "JS"), ("jS", "JS"), ("10h", "TH"), ("10H", "TH"), ("th", "TH"),
     ("J♠", "JS"), ("10♥", "TH"), ("A♦", "AD"), ("7♣", "7C"), ("♠J", "JS"), (" qc ", "QC")],
)
def test_lenient_input_canonical_output(text: str, code: str) -> None:
    assert card_code(parse_card(text)) == code


@pytest.mark.parametrize("bad", ["", "J", "1H", "11S", "JX", "ZS", "JSS", "10", "joker", "♠"])
def test_bad_card_names_the_token(bad: str) -> None:
    with pytest.raises(CardParseError) as info:
        parse_card(bad)
    assert repr(bad) in str(info.value)
    assert isinstance(info.value, PolignacError) and isinstance(info.value, ValueError)


def test_parse_cards_names_the_bad_token() -> None:
    assert parse_cards("JS, 10h  7c") == [JS, TH, parse_card("7C")]
    assert parse_cards(["JS", "th"]) == [JS, TH]
    with pytest.raises(CardParseError, match="'XX'"):
        parse_cards("JS XX TH")


def test_names_and_symbols() -> None:
    assert card_name(JS) == "Jack of spades"
    assert card_name(QC, german=True) == "Ober of Acorns"
    assert card_name(parse_card("AS"), german=True) == "Sow of Leaves"
    assert card_name(parse_card("7D"), german=True) == "Seven of Bells"
    assert card_symbol(TH) == "10♥"
    assert card_symbol(JS) == "J♠"
    for c in range(52):
        assert parse_card(card_symbol(c)) == c


def test_suit_masks_and_piquet_pack() -> None:
    assert sum(SUIT_MASKS) == (1 << 52) - 1
    for s, mask in enumerate(SUIT_MASKS):
        assert all(suit_of(c) == s for c in cards_of(mask))
    assert CardSet(PIQUET_PACK).codes()[:8] == ["7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC"]
    assert len(CardSet(PIQUET_PACK)) == 32


@settings(max_examples=50, deadline=None)
@given(st.sets(st.integers(0, 51)))
def test_mask_of_and_cards_of_are_inverse(cards: set[int]) -> None:
    mask = mask_of(cards)
    assert cards_of(mask) == sorted(cards)
    assert mask.bit_count() == len(cards)


@settings(max_examples=50, deadline=None)
@given(st.sets(st.integers(0, 51)), st.sets(st.integers(0, 51)))
def test_cardset_behaves_like_a_frozenset(a: set[int], b: set[int]) -> None:
    x, y = CardSet(a), CardSet(b)
    assert list(x) == sorted(a)
    assert len(x) == len(a)
    assert bool(x) == bool(a)
    assert set(x | y) == a | b
    assert set(x & y) == a & b
    assert set(x - y) == a - b
    assert set(x ^ y) == a ^ b
    assert all(c in x for c in a)
    assert (x == y) == (a == b)
    assert eval(repr(x), {"CardSet": CardSet}) == x
    assert CardSet.parse(str(x)) == x
    assert hash(CardSet(a)) == hash(x)


def test_cardset_details() -> None:
    s = CardSet.parse("JS th 7c")
    assert repr(s) == "CardSet.parse('7C TH JS')"
    assert str(s) == "7C TH JS"
    assert s.codes() == ["7C", "TH", "JS"]
    assert s.suit(3) == CardSet([JS])
    assert "JS" not in s and 52 not in s and -1 not in s
    assert CardSet() == CardSet(0) and not CardSet()
    assert CardSet(1 << JS) == CardSet([JS])
    assert s != {JS, TH, 5}
    assert {s: 1}[CardSet.parse("7c 10h J♠")] == 1


@pytest.mark.parametrize("bad", [[52], [-1], 1 << 52, -1])
def test_cardset_rejects_non_cards(bad: object) -> None:
    with pytest.raises(CardParseError):
        CardSet(bad)  # type: ignore[arg-type]


def test_cardset_parse_names_the_bad_token() -> None:
    with pytest.raises(CardParseError, match="'QQ'"):
        CardSet.parse("JS QQ")
