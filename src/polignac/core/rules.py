"""Rules as data: every rule parameter (docs/rules/common.md#parameters) as a named field.

A :class:`Rules` value is a complete rule set (a preset, possibly with house
rules).  Presets live in :mod:`polignac.core.presets`; :func:`Rules.with_overrides`
changes any parameter and validates the result, naming the parameter and its
allowed values when something is wrong.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from .cards import (
    CODES,
    FULL_PACK,
    PIQUET_PACK,
    RANK_LETTERS,
    Mask,
    make_card,
)
from .errors import RulesError
from .registry import current

if TYPE_CHECKING:  # pragma: no cover
    from .family import Family

REMOVALS: Final = ("none", "black-sevens-unless-4", "red-sevens-fr", "lowest-cards")
DIRECTIONS: Final = ("clockwise", "counter-clockwise")
TRUMPS: Final = ("none", "turn-up")
SUITS: Final = ("french", "german")
DECLARATIONS: Final = ("none", "capot", "general", "general-bonus", "chelem", "generale")
ANNOUNCED_CONTRACTS: Final = ("capot", "general", "general-bonus", "generale")
MATCH_ENDS: Final = (
    "threshold-loser",
    "threshold-lowest-wins",
    "fixed-deals",
    "first-to-target",
    "chips",
    "parties",
    "threshold-lowest-shared",
)
THRESHOLD_ENDS: Final = ("threshold-loser", "threshold-lowest-wins", "first-to-target",
                         "threshold-lowest-shared")
PASSINGS: Final = ("none", "rotate", "left", "right", "across")
"""Hearts family: where the passed cards go (see :mod:`polignac.core.hearts`)."""
FIRST_LEADS: Final = ("eldest", "lowest-club")

MAX_TEXT: Final = 200
"""Longest text read as a parameter value (``--rule``, JSON); longer is refused unread."""

BOUNDS: Final[dict[str, tuple[int, int]]] = {
    "players": (2, 13),
    "default_players": (2, 13),
    "packets": (1, 52),
    "card_points": (-1000, 1000),
    "trick_points": (-1000, 1000),
    "first_trick_points": (-1000, 1000),
    "last_trick_points": (-1000, 1000),
    "all_three_points": (-1000, 1000),
    "contract_points": (0, 100),
    "threshold": (1, 500),
    "deals": (1, 500),
    "pool": (1, 1000),
    "pool_shares": (0, 1000),
    "sweep_chips": (0, 1000),
    "overload_points": (0, 1000),
    "overload_chips": (0, 1000),
    "point_divisor": (1, 100),
    "partie_target": (1, 1000),
    "parties": (1, 100),
    "pass_count": (1, 6),
}
"""The smallest and largest value of each whole-number parameter (for a list or
``card_points``: of each item), checked before any other work."""

SHARED_PARAMETERS: Final = (
    "players", "default_players", "pack", "removals", "rank_order", "direction", "packets",
    "trumps", "suits", "scoring", "card_points", "trick_points", "first_trick_points",
    "last_trick_points", "match_end", "threshold", "deals",
)
"""The rule parameters of every game; each family adds its own (``Family.parameters``).
``preset`` names the rule set and ``game`` chooses the family: neither is in a group."""

MAX_ITEMS: Final[dict[str, int]] = {
    "players": 12, "packets": 52, "pool_shares": 12, "card_points": 65,
}
"""The most items a list parameter (or ``card_points``) may have."""



@dataclass(frozen=True)
class ScoreKind:
    """What a ``scoring`` family means to the engine, the bots and the research
    interfaces: flags read once per rule set (:attr:`Rules.kind`) instead of
    comparing the family's name."""

    name: str
    """The ``scoring`` value."""
    penalty: bool
    """Scores are penalties: lower is better (else higher is better)."""
    taker_gains: bool
    """The card points a player takes count for it (else against it, or, for
    chips, decide the settlement where fewer is better)."""
    chips: bool
    """The deal is settled in chips from the card points and tricks."""
    sides: bool
    """Scored by partnership side, with announcements and a claim (the deal's calls)."""
    match_ends: tuple[str, ...] = ()
    """The ``match_end`` values that fit this scoring."""


@dataclass(frozen=True)
class Contract:
    """What a ``declaration`` value means (:attr:`Rules.contract`): flags read
    instead of comparing the value (the trick-avoidance family's declarations,
    scored in :func:`polignac.core.scoring.score_tricks`)."""

    name: str
    """The ``declaration`` value."""
    word: str
    """The contract's word in score lines and actions (``capot``, ``general``,
    ``generale``, ``chelem``; empty for none)."""
    declared: bool = False
    """Declared in a round before the first card (``Rules.has_declaration_round``)."""
    automatic: bool = False
    """A slam scores as a contract without a declaration (chelem)."""
    bonus: bool = False
    """A made contract gives its declarer minus ``contract_points`` (general-bonus)."""
    declarer_leads: bool = False
    """The declarer leads the first trick, and on failure scores ``contract_points``
    instead of its cards (la générale)."""
    failure_interpreted: bool = False
    """The rule book interprets what a failed contract costs (capot, general)."""


CONTRACTS: Final[dict[str, Contract]] = {
    "none": Contract("none", ""),
    "capot": Contract("capot", "capot", declared=True, failure_interpreted=True),
    "general": Contract("general", "general", declared=True, failure_interpreted=True),
    "general-bonus": Contract("general-bonus", "general", declared=True, bonus=True),
    "chelem": Contract("chelem", "chelem", automatic=True),
    "generale": Contract("generale", "generale", declared=True, declarer_leads=True),
}
"""Each ``declaration`` value's :class:`Contract`."""


@dataclass(frozen=True)
class MatchEnd:
    """What a ``match_end`` value means (:attr:`Rules.end`): flags read instead of
    comparing the value."""

    name: str
    """The ``match_end`` value."""
    threshold: bool = False
    """It ends when a total reaches ``threshold``."""
    fixed: bool = False
    """It ends after a fixed number of counted deals (``num_deals``)."""
    chips: bool = False
    """A fixed number of deals settled in chips, each player dealing equally often."""
    parties: bool = False
    """Played in parties won by a side (the partnership family's own match end)."""
    tie_break: bool = False
    """Players tied for the lowest total play tie-break deals (threshold-lowest-wins)."""
    target: bool = False
    """The first to reach the target wins (first-to-target)."""
    loser: bool = False
    """The highest total at the threshold loses, every other player wins (threshold-loser)."""
    shared: bool = False
    """Every player with the lowest total at the threshold wins (threshold-lowest-shared)."""


MATCH_END_KINDS: Final[dict[str, MatchEnd]] = {
    "threshold-loser": MatchEnd("threshold-loser", threshold=True, loser=True),
    "threshold-lowest-wins": MatchEnd("threshold-lowest-wins", threshold=True, tie_break=True),
    "fixed-deals": MatchEnd("fixed-deals", fixed=True),
    "first-to-target": MatchEnd("first-to-target", threshold=True, target=True),
    "chips": MatchEnd("chips", fixed=True, chips=True),
    "parties": MatchEnd("parties", parties=True),
    "threshold-lowest-shared": MatchEnd("threshold-lowest-shared", threshold=True, shared=True),
}
"""Each ``match_end`` value's :class:`MatchEnd`."""


# The order in which polignac-party strips low cards: 2s first, in suits C, S, D, H.
_PARTY_STRIP_SUITS: Final = (0, 3, 1, 2)


@dataclass(frozen=True)
class Rules:
    """A complete rule set.  Field docs say what each parameter means.

    Construct through :func:`polignac.core.presets.get_rules` or
    :meth:`with_overrides`; both validate.  Direct construction does not.
    """

    preset: str = "polignac"
    """Name of the preset these rules start from (informational)."""
    game: str = "polignac"
    """The game (docs/rules/README.md#presets lists them with their presets); it
    chooses the game family: what a deal has beyond card play, and its rules text."""
    players: tuple[int, ...] = (3, 4, 5, 6)
    """Allowed player counts."""
    default_players: int = 4
    """The player count used when none is given."""
    pack: int = 32
    """32 (piquet pack, 7 to Ace) or 52 cards."""
    removals: str = "black-sevens-unless-4"
    """Which cards are removed so the pack divides: none; black-sevens-unless-4
    (7C 7S unless exactly 4 play); red-sevens-fr (7D 7H for 3, 5, 6 players,
    all sevens for 7, none for 4 or 8); lowest-cards (strip 2s, then 3s, ... in
    suit order C S D H until the pack divides)."""
    rank_order: str = "KQJAT987"
    """Ranks from highest to lowest for winning tricks."""
    direction: str = "clockwise"
    """Direction of dealing and play (seats are always numbered in play order)."""
    packets: tuple[int, ...] = (2, 3, 3)
    """Packet sizes the dealer gives each player, repeated as needed; a packet
    that would overfill a hand is cut to what remains."""
    trumps: str = "none"
    """none, or turn-up: the last card of the pack is turned up, belongs to
    nobody, and its suit is trumps."""
    suits: str = "french"
    """french or german: which pictures and names the pack shows."""
    scoring: str = "penalty"
    """How tricks become a score (docs/rules/common.md#scoring lists every value):
    penalty (lower is better), points (higher is better), chips (Bassadewitz
    settlement), or a game's scoring by sides (two sides of partners count their
    card points and their announcements)."""
    card_points: Mapping[str, int] = field(
        default_factory=lambda: {"JS": 2, "J": 1}
    )
    """Points a card scores for the player who takes it, keyed by card code
    ('JS') or rank letter ('J' = every Jack); a card code overrides its rank."""
    trick_points: int = 0
    """Points per trick taken."""
    first_trick_points: int = 0
    """Points for taking the first trick."""
    last_trick_points: int = 0
    """Points for taking the last trick."""
    all_three_points: int | None = None
    """If set, a player who takes the first trick, the last trick and every
    point card scores this instead of the sum (Slobberhannes: 4)."""
    declaration: str = "capot"
    """The contract a player may declare before the first card: none, capot,
    general, general-bonus, generale; or chelem (automatic, not declared)."""
    contract_points: int = 5
    """The value of a contract or slam (each opponent's penalty on success,
    the declarer's on failure; general-bonus gives the declarer minus this)."""
    match_end: str = "threshold-loser"
    """threshold-loser, threshold-lowest-wins, threshold-lowest-shared, fixed-deals,
    first-to-target, chips or parties (docs/rules/common.md#match-end)."""
    threshold: int | None = 20
    """The total that ends the match (a penalty threshold, or Knaves' target)."""
    deals: int | None = None
    """Number of deals for fixed-deals and chips matches; None means twice the
    number of players."""
    pool: int = 12
    """Bassadewitz: chips the dealer puts in the pool."""
    pool_shares: tuple[int, ...] = (5, 4, 3)
    """Bassadewitz: chips from the pool to the fewest, second and third fewest card points."""
    sweep_chips: int = 4
    """Bassadewitz: chips each other player pays one who wins every trick."""
    overload_points: int = 100
    """Bassadewitz: card points at or above which a player (without every trick) pays."""
    overload_chips: int = 4
    """Bassadewitz: chips such a player pays each other player."""
    partnerships: bool = False
    """Partners sit opposite (seats 0 and 2 against 1 and 3)."""
    announcements: bool = False
    """Players may announce combinations they hold for points, in games scored by
    sides (docs/rules/common.md#scoring); the game's family names the combinations."""
    point_divisor: int = 1
    """In games scored by sides: each side's card points are divided by this,
    fraction discarded (docs/rules/common.md#scoring)."""
    partie_target: int = 21
    """In games scored by sides: the score that wins a partie (docs/rules/common.md#match-end)."""
    parties: int = 6
    """In games scored by sides: the number of parties in a game
    (docs/rules/common.md#match-end)."""
    passing: str = "none"
    """Hearts family: where each player passes cards before play: none; rotate (by
    the dealer: left, right, across, none, core/hearts.py); left (to the
    next player in play order); right (to the previous one); across (two on)."""
    pass_count: int = 3
    """Hearts family: how many cards each player passes."""
    first_lead: str = "eldest"
    """Who leads the first trick: eldest, or lowest-club (the holder of the lowest
    club in play leads it: the Two of clubs when it is in the pack)."""
    clean_first_trick: bool = False
    """Hearts family: no penalty card (one scoring more than 0) may be discarded
    on the first trick, unless the hand holds nothing else."""
    break_hearts: bool = False
    """Hearts family: hearts may not be led until one has been played (or the
    Queen of spades, with queen_breaks), unless the hand holds only hearts."""
    queen_breaks: bool = True
    """Hearts family: playing the Queen of spades breaks hearts too."""
    moon: bool = False
    """Hearts family: shooting the moon. A player who takes every penalty card
    scores 0 for them and every other player scores their total instead."""

    # ------------------------------------------------------------------ derived

    def removed_cards(self, num_players: int) -> Mask:
        """Return the mask of cards removed from the full pack for ``num_players``."""
        if self.removals == "none":
            return 0
        if self.removals == "black-sevens-unless-4":
            return 0 if num_players == 4 else _mask("7C 7S")
        if self.removals == "red-sevens-fr":
            if num_players in (3, 5, 6):
                return _mask("7D 7H")
            if num_players == 7:
                return _mask("7C 7D 7H 7S")
            return 0
        # lowest-cards: strip until the (trump-adjusted) pack divides evenly.
        base = self._base_pack()
        size = base.bit_count() - (1 if self.has_turn_up else 0)
        removed = 0
        order = [
            make_card(rank, suit)
            for rank in range(13)
            for suit in _PARTY_STRIP_SUITS
            if base >> make_card(rank, suit) & 1
        ]
        i = 0
        while num_players > 0 and size % num_players and i < len(order):
            removed |= 1 << order[i]
            size -= 1
            i += 1
        return removed

    def _base_pack(self) -> Mask:
        return PIQUET_PACK if self.pack == 32 else FULL_PACK

    def pack_mask(self, num_players: int) -> Mask:
        """Return the cards in play for ``num_players``."""
        return self._base_pack() & ~self.removed_cards(num_players)

    def hand_size(self, num_players: int) -> int:
        """Return the number of cards each player holds."""
        size = self.pack_mask(num_players).bit_count()
        if self.has_turn_up:
            size -= 1
        return size // num_players

    def strength(self) -> tuple[int, ...]:
        """Return, per rank (0-12), its trick-taking strength (higher wins)."""
        table = [-1] * 13
        for i, letter in enumerate(reversed(self.rank_order)):
            table[RANK_LETTERS.index(letter)] = i
        return tuple(table)

    def point_table(self) -> tuple[int, ...]:
        """Return, per card (0-51), the points it scores for its taker."""
        table = [0] * 52
        for key, value in self.card_points.items():
            if len(key) == 1:
                r = RANK_LETTERS.index(key)
                for suit in range(4):
                    table[make_card(r, suit)] = value
        for key, value in self.card_points.items():
            if len(key) == 2:
                table[CODES.index(key)] = value
        return tuple(table)

    def point_cards(self) -> Mask:
        """Return the mask of cards that score anything when taken."""
        table = self.point_table()
        return sum(1 << c for c in range(52) if table[c])

    def num_deals(self, num_players: int) -> int:
        """Return the number of deals of a fixed-deals or chips match."""
        return self.deals if self.deals is not None else 2 * num_players

    @property
    def has_declaration_round(self) -> bool:
        """True when players may declare a contract before the first card."""
        return CONTRACTS[self.declaration].declared

    @property
    def contract(self) -> Contract:
        """What ``declaration`` means (flags, see :class:`Contract`)."""
        return CONTRACTS[self.declaration]

    @property
    def has_contract(self) -> bool:
        """True when a contract can be scored: declared, or an automatic slam (chelem)."""
        return CONTRACTS[self.declaration].word != ""

    @property
    def end(self) -> MatchEnd:
        """What ``match_end`` means (flags, see :class:`MatchEnd`)."""
        return MATCH_END_KINDS[self.match_end]

    @property
    def plays_parties(self) -> bool:
        """True when the match is played in parties won by a side (``MatchEnd.parties``)."""
        return MATCH_END_KINDS[self.match_end].parties

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """The partnerships, as each side's seats (``((0, 2), (1, 3))``: partners sit
        opposite and seat ``s`` is on side ``s & 1``); empty when everyone plays alone."""
        return ((0, 2), (1, 3)) if self.partnerships else ()

    @property
    def has_turn_up(self) -> bool:
        """True when the last card of the pack is turned up for trumps (``trumps`` turn-up)."""
        return self.trumps == "turn-up"

    @property
    def kind(self) -> ScoreKind:
        """What the ``scoring`` family means (flags, see :class:`ScoreKind`)."""
        return current().kinds[self.scoring]

    @property
    def family(self) -> Family:
        """The game family of these rules (:func:`polignac.core.families.family_of`).

        Raises:
            RulesError: no family is registered for ``game``.
        """
        return current().family_of(self.game)

    @property
    def scorer(self) -> Family:
        """The family that brings these rules' ``scoring`` (its deal score, match end,
        score pad and scoring text): the game's family in every preset but the
        Hearts family's, which scores as the trick-avoidance games do.

        Raises:
            RulesError: no family brings ``scoring``.
        """
        return current().scorer_of(self.scoring)

    @property
    def has_calls(self) -> bool:
        """True when the deal has calls beyond card play (announcements, a claim)."""
        return self.announcements or self.kind.sides

    def parameter_names(self) -> tuple[str, ...]:
        """The names of its game's parameter group (:func:`parameters_for`), in form order:
        what a house rule may change."""
        return tuple(p.name for p in parameters_for(self))

    @property
    def german(self) -> bool:
        """True when the pack shows German suits."""
        return self.suits == "german"

    # ------------------------------------------------------------- overrides

    def with_overrides(self, overrides: Mapping[str, Any]) -> Rules:
        """Return these rules with some parameters changed, validated.

        Values may be given as their Python type or as text (from a command
        line): ``{"threshold": "10", "card_points": "JS:2,J:1"}``.

        Raises:
            RulesError: an unknown parameter, a value of the wrong kind, or an
                invalid combination; the message names the parameter.
        """
        changes: dict[str, Any] = {}
        for name, value in overrides.items():
            if name not in PARAMETERS or name == "preset":
                raise RulesError(
                    f"unknown rule parameter {show(name)}; parameters are: "
                    + ", ".join(p for p in PARAMETERS if p != "preset"),
                    "unknown-parameter", {"param": show(name)})
            changes[name] = _coerce(name, value)
        players = changes.get("players")
        if (players is not None and "default_players" not in changes
                and self.default_players not in players and players):
            # The preset's default count is no longer allowed: take the nearest allowed one.
            changes["default_players"] = min(players, key=lambda n: (abs(n - 4), n))
        rules = dataclasses.replace(self, **changes)
        rules.validate()
        group = {p.name for p in parameters_for(rules)}
        for name in changes:
            if name not in group and name != "game" and changes[name] != getattr(self, name):
                family = rules.family
                raise RulesError(
                    f"{name} does not apply to {rules.preset!r} (game {rules.game!r}, family "
                    f"{family.name!r}); "
                    f"its parameters: {', '.join(p for p in PARAMETERS if p in group)}",
                    "not-for-game", {"param": name, "preset": rules.preset})
        return rules

    def overrides_from(self, base: Rules) -> dict[str, Any]:
        """Return the parameters (JSON-ready) on which these rules differ from ``base``."""
        out: dict[str, Any] = {}
        for name in PARAMETERS:
            if name == "preset":
                continue
            mine, theirs = getattr(self, name), getattr(base, name)
            if mine != theirs:
                out[name] = _jsonable(mine)
        return out

    def to_dict(self) -> dict[str, Any]:
        """Return every parameter, JSON-ready."""
        return {name: _jsonable(getattr(self, name)) for name in PARAMETERS}

    # ------------------------------------------------------------ validation

    def validate(self) -> None:
        """Check every parameter and their combination.

        Raises:
            RulesError: names the parameter, the bad value and the allowed values
                (for a number out of bounds: the bounds, :data:`BOUNDS`).
        """
        self.check_bounds()
        look = current()
        _choice("game", self.game, look.games)
        _choice("scoring", self.scoring, look.scorings)
        _choice("removals", self.removals, REMOVALS)
        _choice("direction", self.direction, DIRECTIONS)
        _choice("trumps", self.trumps, TRUMPS)
        _choice("suits", self.suits, SUITS)
        _choice("declaration", self.declaration, DECLARATIONS)
        _choice("match_end", self.match_end, MATCH_ENDS)
        _choice("passing", self.passing, PASSINGS)
        _choice("first_lead", self.first_lead, FIRST_LEADS)
        if self.pack not in (32, 52):
            raise RulesError(f"pack must be 32 or 52, not {self.pack!r}", "not-allowed",
                             {"param": "pack", "value": show(self.pack), "allowed": "32, 52"})
        ranks = "AKQJT987" if self.pack == 32 else "AKQJT98765432"
        if sorted(self.rank_order) != sorted(ranks):
            raise RulesError(
                f"rank_order {self.rank_order!r} must list each rank of the "
                f"{self.pack}-card pack once ({ranks}), highest first"
            )
        if not self.players or any(not 2 <= n <= 13 for n in self.players):
            raise RulesError(
                f"players {list(self.players)} must be counts from 2 to 13"
            )
        if self.default_players not in self.players:
            raise RulesError(
                f"default_players {self.default_players} is not one of the "
                f"allowed player counts {_counts(self.players)}"
            )
        if not self.packets or any(p < 1 for p in self.packets):
            raise RulesError(f"packets {list(self.packets)} must be positive packet sizes")
        base = self._base_pack()
        for key, value in self.card_points.items():
            ok = (len(key) == 1 and key in ranks) or (
                key in CODES and base >> CODES.index(key) & 1
            )
            if not ok:
                raise RulesError(
                    f"card_points key {show(key)} is not a card code or rank letter "
                    f"of the {self.pack}-card pack",
                    "bad-card-key", {"param": "card_points", "value": show(key),
                                     "pack": self.pack})
            if not isinstance(value, int) or isinstance(value, bool):
                raise RulesError(f"card_points[{show(key)}] must be a whole number, "
                                 f"not {show(value)}", "not-whole",
                                 {"param": "card_points", "value": show(value)})
        for n in self.players:
            self.check_player_count(n, allow_any=True)
        if self.end.threshold and (self.threshold is None or self.threshold <= 0):
            raise RulesError(
                f"threshold must be a whole number of at least 1 for match_end "
                f"{self.match_end!r}, not {self.threshold!r}",
                "at-least", {"param": "threshold", "lo": 1, "value": show(self.threshold)})
        if self.deals is not None and self.deals <= 0:
            raise RulesError(f"deals must be at least 1 (or unset), not {self.deals}",
                             "at-least", {"param": "deals", "lo": 1, "value": self.deals})
        if self.contract_points < 0:
            raise RulesError(f"contract_points must be 0 or more, not {self.contract_points}",
                             "at-least", {"param": "contract_points", "lo": 0,
                                          "value": self.contract_points})
        kind = self.kind
        if self.has_contract and not kind.penalty:
            raise RulesError(
                f"declaration {self.declaration!r} needs scoring 'penalty' "
                f"(allowed with scoring {self.scoring!r}: 'none')"
            )
        if self.match_end not in kind.match_ends:
            raise RulesError(
                f"match_end {self.match_end!r} does not fit scoring {self.scoring!r}; "
                f"allowed: {', '.join(kind.match_ends)}"
            )
        for family in look.families:  # each family checks the parameters it owns
            family.check_rules(self)

    def check_bounds(self) -> None:
        """Check every parameter's size against :data:`BOUNDS`, :data:`MAX_ITEMS` and
        :data:`MAX_TEXT`: cheap, so it runs before any other check.

        Raises:
            RulesError: names the parameter, the value (shortened) and the bounds.
        """
        for name in PARAMETERS:
            value = getattr(self, name)
            if isinstance(value, str):
                if len(value) > MAX_TEXT:
                    raise RulesError(f"{name}: text of {len(value)} characters; at most "
                                     f"{MAX_TEXT}", "too-long",
                                     {"param": name, "n": len(value), "most": MAX_TEXT})
                continue
            if name not in BOUNDS or value is None:
                continue
            lo, hi = BOUNDS[name]
            if isinstance(value, (tuple, list, Mapping)):
                if len(value) > MAX_ITEMS[name]:
                    raise _too_many(name, len(value))
                items = value.values() if isinstance(value, Mapping) else value
                for item in items:
                    _check_bound(name, item, lo, hi, each=True)
            else:
                _check_bound(name, value, lo, hi)

    def check_player_count(self, num_players: int, allow_any: bool = False) -> None:
        """Check that ``num_players`` may play (``allow_any``: skip the preset's list).

        Raises:
            RulesError: the count is not allowed, or the pack does not divide.
        """
        if not allow_any and num_players not in self.players:
            raise RulesError(
                f"players: {num_players} may not play preset {self.preset!r}; "
                f"allowed player counts: {_counts(self.players)}",
                "players-not-allowed", {"n": num_players, "allowed": _counts(self.players)})
        if num_players < 2:
            raise RulesError(f"players: at least 2 must play, not {num_players}")
        size = self.pack_mask(num_players).bit_count()
        if self.has_turn_up:
            size -= 1
        if size <= 0 or size % num_players:
            extra = " plus one turn-up card" if self.has_turn_up else ""
            raise RulesError(
                f"pack: {size} cards{extra} (pack {self.pack}, removals "
                f"{self.removals!r}) do not divide among {num_players} players; "
                f"choose other removals or another player count",
                "pack-does-not-divide", {"cards": size, "n": num_players})


PARAMETERS: Final[tuple[str, ...]] = tuple(f.name for f in dataclasses.fields(Rules))
"""Every rule parameter name, in documentation order."""

_FIELD_TYPES: Final = {f.name: str(f.type) for f in dataclasses.fields(Rules)}
_DEFAULT: Final = Rules()


class Parameter(NamedTuple):
    """A rule parameter of a game's group (:func:`parameters_for`)."""

    name: str
    """The field of :class:`Rules`."""
    doc: str
    """What it means (the field's docstring, on one line)."""
    bounds: str
    """Its bounds in words, or empty (:data:`BOUNDS`, :data:`MAX_TEXT`)."""
    shared: bool
    """Every game has it (:data:`SHARED_PARAMETERS`), else it is its family's own."""


def parameters_for(rules_or_game: Rules | str) -> tuple[Parameter, ...]:
    """The parameter group of a rule set's game (or of a ``game`` value): the shared
    parameters and its family's own (``Family.parameters``), in the order of
    :data:`PARAMETERS` (the house-rule form's and ``polignac rules --params``').

    >>> [p.name for p in parameters_for("hearts")][-3:]
    ['break_hearts', 'queen_breaks', 'moon']

    Raises:
        RulesError: no family has that game.
    """
    rules = rules_or_game if isinstance(rules_or_game, Rules) else \
        dataclasses.replace(_DEFAULT, game=rules_or_game)
    own = rules.family.parameters
    group = _GROUPS.get(own)
    if group is None:
        docs, bounds = _parameter_docs(), parameter_bounds()
        names = set(SHARED_PARAMETERS) | set(own)
        group = _GROUPS[own] = tuple(
            Parameter(n, docs.get(n, ""), bounds.get(n, ""), n in SHARED_PARAMETERS)
            for n in PARAMETERS if n in names)
    return group


_GROUPS: dict[tuple[str, ...], tuple[Parameter, ...]] = {}
"""The groups already built, by the family's own parameters (a cache)."""


def derive(base: Rules, name: str, **changes: Any) -> Rules:
    """The preset ``name``: ``base`` with some parameters changed (not validated:
    the presets are, once collected in :mod:`polignac.core.presets`)."""
    return dataclasses.replace(base, preset=name, **changes)


def parameter_docs() -> dict[str, str]:
    """Return each parameter's one-paragraph description, from the source docs."""
    return dict(_parameter_docs())


def _parameter_docs() -> dict[str, str]:
    """parameter_docs, read from the source once (a cache)."""
    if _DOCS:
        return _DOCS
    import inspect
    import re

    source = inspect.getsource(Rules)
    docs: dict[str, str] = {}
    for match in re.finditer(
        r"^    (\w+): [^\n]*\n(?:[^\n]*\n)*?    \"\"\"(.*?)\"\"\"", source, re.M | re.S
    ):
        name, doc = match.group(1), match.group(2)
        if name in PARAMETERS and name not in docs:
            docs[name] = " ".join(doc.split())
    _DOCS.update(docs)
    return _DOCS


_DOCS: dict[str, str] = {}


def parameter_bounds() -> dict[str, str]:
    """Return, per parameter that has one, its bounds in words (for ``--params``)."""
    out: dict[str, str] = {}
    for name in PARAMETERS:
        if name in BOUNDS:
            lo, hi = BOUNDS[name]
            each = "each " if name in MAX_ITEMS else ""
            out[name] = f"{each}from {lo} to {hi}"
            if name in MAX_ITEMS:
                out[name] += f", at most {MAX_ITEMS[name]} items"
        elif _FIELD_TYPES[name] == "str":
            out[name] = f"text of at most {MAX_TEXT} characters"
    return out


def show(value: object, limit: int = 60) -> str:
    """``repr(value)`` cut to about ``limit`` characters (a huge number by its digits),
    for error messages that must stay short whatever a client sent."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10 ** 18:
        return f"a number of about {int(value.bit_length() * 0.30103) + 1} digits"
    if isinstance(value, str) and len(value) > limit:
        return repr(value[:limit]) + f"... ({len(value)} characters)"
    if isinstance(value, (list, tuple, dict)) and len(value) > 20:
        return f"a {type(value).__name__} of {len(value)} items"
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def _check_bound(name: str, value: object, lo: int, hi: int, each: bool = False) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise RulesError(f"{name}: {show(value)} is not a whole number", "not-whole",
                         {"param": name, "value": show(value)})
    if not lo <= value <= hi:
        what = f"each of {name}" if each else name
        raise RulesError(f"{what} must be from {lo} to {hi}, not {show(value)}",
                         "out-of-range-each" if each else "out-of-range",
                         {"param": name, "lo": lo, "hi": hi, "value": show(value)})


def _too_many(name: str, n: int) -> RulesError:
    """The error for ``n`` items given to list parameter ``name`` (over :data:`MAX_ITEMS`)."""
    return RulesError(f"{name}: {n} items; at most {MAX_ITEMS[name]}", "too-many-items",
                      {"param": name, "n": n, "most": MAX_ITEMS[name]})


def _mask(codes: str) -> Mask:
    return sum(1 << CODES.index(c) for c in codes.split())


def _counts(players: tuple[int, ...]) -> str:
    return ", ".join(str(n) for n in players)


def _choice(name: str, value: object, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise RulesError(f"{name} {show(value)} is not allowed; allowed values: "
                         f"{', '.join(allowed)}", "not-allowed",
                         {"param": name, "value": show(value), "allowed": ", ".join(allowed)})


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, Mapping):
        return dict(value)
    return value


def _coerce(name: str, value: Any) -> Any:
    """Turn an override value (Python or text) into the field's type.

    Raises:
        RulesError: the value cannot be read as the parameter's kind.
    """
    kind = _FIELD_TYPES[name]
    if isinstance(value, str) and len(value) > MAX_TEXT:
        raise RulesError(f"parameter {name}: text of {len(value)} characters; at most "
                         f"{MAX_TEXT}", "too-long", {"param": name, "n": len(value),
                                                    "most": MAX_TEXT})
    if isinstance(value, (list, tuple, Mapping)) and name in MAX_ITEMS \
            and len(value) > MAX_ITEMS[name]:
        raise _too_many(name, len(value))
    try:
        if kind == "int":
            return _to_int(value)
        if kind == "int | None":
            if value is None or (isinstance(value, str) and value.lower() in ("none", "null", "")):
                return None
            return _to_int(value)
        if kind == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in ("true", "yes", "1", "on"):
                return True
            if isinstance(value, str) and value.lower() in ("false", "no", "0", "off"):
                return False
            raise ValueError
        if kind == "str":
            if not isinstance(value, str):
                raise ValueError
            return value
        if kind == "tuple[int, ...]":
            if isinstance(value, str):
                text = value.strip()
                if text.startswith("["):
                    value = json.loads(text)
                elif "-" in text and name == "players" and "," not in text:
                    lo, hi = (int(x) for x in text.split("-"))
                    least, most = BOUNDS[name]
                    for end in (lo, hi):  # before the range is built
                        _check_bound(name, end, least, most, each=True)
                    return tuple(range(lo, hi + 1))
                else:
                    value = [x for x in text.replace("-", ",").split(",") if x.strip()]
                if isinstance(value, list) and len(value) > MAX_ITEMS[name]:
                    raise _too_many(name, len(value))
            if isinstance(value, int) and not isinstance(value, bool):
                return (value,)
            return tuple(_to_int(x) for x in value)
        if kind == "Mapping[str, int]":
            if isinstance(value, str):
                text = value.strip()
                if text.startswith("{"):
                    value = json.loads(text)
                else:
                    value = {}
                    for part in text.split(","):
                        if part.strip():
                            key, _, num = part.partition(":")
                            value[key.strip()] = num
            if not isinstance(value, Mapping):
                raise ValueError
            if len(value) > MAX_ITEMS[name]:
                raise _too_many(name, len(value))
            return {_card_key(str(k)): _to_int(v) for k, v in value.items()}
    except RulesError:
        raise
    except (ValueError, TypeError) as exc:
        raise RulesError(
            f"parameter {name}: cannot read {show(value)} as {_KIND_WORDS.get(kind, kind)}",
            "cannot-read", {"param": name, "value": show(value)}) from exc
    raise RulesError(f"parameter {name}: unsupported kind {kind}")  # pragma: no cover


_KIND_WORDS: Final = {
    "int": "a whole number",
    "int | None": "a whole number or none",
    "bool": "true or false",
    "str": "a word",
    "tuple[int, ...]": "a list of whole numbers (for example 3-6 or 3,2,3)",
    "Mapping[str, int]": "card or rank points (for example JS:2,J:1)",
}


def _to_int(value: Any) -> int:
    if isinstance(value, bool):
        raise ValueError("bool is not a number")
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        return int(value.strip())
    raise ValueError(f"not a number: {value!r}")


def _card_key(key: str) -> str:
    key = key.strip().upper()
    if key == "10":
        return "T"
    if key.startswith("10"):
        key = "T" + key[2:]
    return key
