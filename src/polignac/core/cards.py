"""Cards, suits, ranks and card sets.

A card is a small int: ``suit * 13 + rank`` where suits are ``C D H S`` (0-3)
and ranks ``2 3 4 5 6 7 8 9 T J Q K A`` (0-12).  A set of cards is an int
bitmask (bit ``card``); :class:`CardSet` wraps one in a set-like, immutable
type.  Each suit occupies 13 consecutive bits, so the cards of a suit in a
hand are ``hand & SUIT_MASKS[suit]``.

Notation (docs/rules/common.md#cards): canonical output is rank then suit, ``JS``,
``TH``; input also accepts ``10H``, lower case and the suit symbols
``♣ ♦ ♥ ♠``.

>>> parse_card("10h") == TH
True
>>> card_code(JS)
'JS'
>>> CardSet.parse("JS th 7c")
CardSet.parse('7C TH JS')
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

from .errors import CardParseError

Card = int
"""A card: ``suit * 13 + rank``."""
Suit = int
"""A suit: 0 clubs, 1 diamonds, 2 hearts, 3 spades."""
Rank = int
"""A rank: 0 is the Two, 8 the Ten, 9 the Jack, 12 the Ace."""
Mask = int
"""A set of cards as a bitmask."""

SUIT_LETTERS: Final = "CDHS"
RANK_LETTERS: Final = "23456789TJQKA"
SUIT_SYMBOLS: Final = "♣♦♥♠"

CLUBS: Final = 0
DIAMONDS: Final = 1
HEARTS: Final = 2
SPADES: Final = 3

SUIT_MASKS: Final[tuple[Mask, ...]] = tuple(0x1FFF << (13 * s) for s in range(4))
FULL_PACK: Final[Mask] = (1 << 52) - 1
CARD_BITS: Final[tuple[Mask, ...]] = tuple(1 << c for c in range(52))
"""Each card's one-card mask: ``CARD_BITS[c] == 1 << c`` (read from a tuple, without
building a new int: the rules core's per-action path)."""
# Ranks 7 to Ace in every suit: the 32-card piquet pack.
PIQUET_PACK: Final[Mask] = sum(((1 << 13) - (1 << 5)) << (13 * s) for s in range(4))

SUIT_NAMES_FR: Final = ("clubs", "diamonds", "hearts", "spades")
SUIT_NAMES_DE: Final = ("Acorns", "Bells", "Hearts", "Leaves")
RANK_NAMES_FR: Final = (
    "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten",
    "Jack", "Queen", "King", "Ace",
)
RANK_NAMES_DE: Final = (
    "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten",
    "Unter", "Ober", "King", "Sow",
)

_SUIT_INPUT = {
    "c": CLUBS, "d": DIAMONDS, "h": HEARTS, "s": SPADES,
    "♣": CLUBS, "♦": DIAMONDS, "♥": HEARTS, "♠": SPADES,
    "♧": CLUBS, "♢": DIAMONDS, "♡": HEARTS, "♤": SPADES,
}
_RANK_INPUT = {letter.lower(): i for i, letter in enumerate(RANK_LETTERS)}
_RANK_INPUT["10"] = 8


def make_card(rank: Rank, suit: Suit) -> Card:
    """Return the card of ``rank`` and ``suit``."""
    return suit * 13 + rank


def suit_of(card: Card) -> Suit:
    """Return the suit of ``card``."""
    return card // 13


def rank_of(card: Card) -> Rank:
    """Return the rank of ``card``."""
    return card % 13


def card_code(card: Card) -> str:
    """Return the canonical two-letter code of ``card`` (``JS``, ``TH``)."""
    return RANK_LETTERS[card % 13] + SUIT_LETTERS[card // 13]


CODES: Final[tuple[str, ...]] = tuple(card_code(c) for c in range(52))
_CODE_TO_CARD: Final[dict[str, Card]] = {code: c for c, code in enumerate(CODES)}


def parse_card(text: str) -> Card:
    """Read one card: ``JS``, ``js``, ``10H``, ``J♠``, ``♠J`` are accepted.

    Raises:
        CardParseError: the text is not a card; the message quotes it.
    """
    card = _CODE_TO_CARD.get(text)
    if card is not None:
        return card
    token = text.strip()
    low = token.lower()
    if len(low) >= 2:
        for rank_part, suit_part in ((low[:-1], low[-1]), (low[1:], low[0])):
            rank = _RANK_INPUT.get(rank_part)
            suit = _SUIT_INPUT.get(suit_part)
            if rank is not None and suit is not None:
                return make_card(rank, suit)
    raise CardParseError(
        f"not a card: {text!r} (write rank then suit, for example 'JS', 'TH', '10h' or 'J♠')"
    )


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Read cards separated by spaces or commas, or from an iterable of tokens.

    Raises:
        CardParseError: a token is not a card; the message names it.
    """
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_card(tok) for tok in tokens]


def card_name(card: Card, german: bool = False) -> str:
    """Return the card's name in words: 'Jack of spades', or 'Ober of Acorns'."""
    if german:
        return f"{RANK_NAMES_DE[rank_of(card)]} of {SUIT_NAMES_DE[suit_of(card)]}"
    return f"{RANK_NAMES_FR[rank_of(card)]} of {SUIT_NAMES_FR[suit_of(card)]}"


def card_symbol(card: Card) -> str:
    """Return the card with its suit symbol, for terminals: 'J♠', '10♥'."""
    rank = rank_of(card)
    text = "10" if rank == 8 else RANK_LETTERS[rank]
    return text + SUIT_SYMBOLS[suit_of(card)]


def mask_of(cards: Iterable[Card]) -> Mask:
    """Return the bitmask of ``cards``."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_of(mask: Mask) -> list[Card]:
    """Return the cards of ``mask`` in ascending card order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def count(mask: Mask) -> int:
    """Return the number of cards in ``mask``."""
    return mask.bit_count()


class CardSet:
    """An immutable set of cards backed by an int bitmask.

    Supports ``in``, iteration (ascending card order), ``len``, ``|``, ``&``,
    ``-``, ``^``, equality and hashing; ``repr`` evaluates back.
    """

    __slots__ = ("mask",)

    def __init__(self, cards: Iterable[Card] | Mask = 0) -> None:
        if isinstance(cards, int):
            if cards < 0 or cards > FULL_PACK:
                raise CardParseError(f"card mask out of range: {cards:#x}")
            self.mask: Mask = cards
        else:
            mask = 0
            for card in cards:
                if not 0 <= card < 52:
                    raise CardParseError(f"not a card number: {card!r} (cards are 0-51)")
                mask |= 1 << card
            self.mask = mask

    @classmethod
    def parse(cls, text: str | Iterable[str]) -> CardSet:
        """Read a card set from codes (see :func:`parse_cards`).

        Raises:
            CardParseError: a token is not a card.
        """
        return cls(parse_cards(text))

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < 52 and bool(self.mask >> card & 1)

    def __iter__(self) -> Iterator[Card]:
        return iter(cards_of(self.mask))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return self.mask != 0

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def __xor__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask ^ other.mask)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    def codes(self) -> list[str]:
        """Return the canonical codes in ascending card order."""
        return [CODES[c] for c in cards_of(self.mask)]

    def suit(self, suit: Suit) -> CardSet:
        """Return the cards of one suit."""
        return CardSet(self.mask & SUIT_MASKS[suit])

    def __str__(self) -> str:
        return " ".join(self.codes())

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"


# Named cards that the rule book singles out (any card: ``parse_card("7C")``).
JC: Final = 9
QC: Final = 10
JD: Final = 22
TH: Final = 34
JH: Final = 35
JS: Final = 48
QS: Final = 49
