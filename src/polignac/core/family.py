"""The base of the game families.

A :class:`Family` says, for the games of one family, what it does beyond
card play: the deal class it plays (and the hook that starts one), its
parameter group and checks, its calls (announcements, a claim) and declaration round, how a
deal is scored (from a played deal and from a score-pad entry), a deal's
returns and their bounds (the research interfaces, the bots), its match
end and match sheet, and the family-specific parts of its rules text.  The
shared core (the deal, the scoring, the rules text, the score pad, the
standing, the match, the record) calls these hooks; each family's module
subclasses :class:`Family`, and :data:`polignac.core.families.FAMILIES` lists
one instance of each, in one fixed list (as python-chess lists its variants).

The look-ups by ``game`` and ``scoring`` are :mod:`polignac.core.families`'
(``Rules.family``, ``Rules.scorer``).  A new family: a :class:`Family`
subclass in its own module and one line in ``FAMILIES``; see
docs/architecture.md#change-family.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from .actions import Action
from .calls import CallRules
from .cards import Mask
from .deal import Deal
from .deal_tables import _Tables
from .errors import IllegalActionError
from .rules import Rules, ScoreKind
from .scoring import DealScore, ScoreLine, trick_score_bounds

if TYPE_CHECKING:  # pragma: no cover
    from .describe import Param
    from .match import DealResult
    from .scorepad import Entry, ScorePad
    from .standing import Standing

StartDeal = Callable[[_Tables, tuple[Mask, ...], int], Deal]
"""A family's hook that starts its deal from checked hands: (tables, hands, dealer)."""


class PlayLimits(NamedTuple):
    """A family's limits on trick play beyond following suit, and its moon, as the
    exact solver (bots/solver.py) reads them (:meth:`Family.play_limits`): masks in
    the cards' own numbering, for one rule set and player count."""

    opening: int
    """The card that must open the deal's first trick (-1: any card)."""
    clean: Mask
    """The cards kept off the first trick while a player has others (0: none)."""
    unbroken: Mask
    """The cards that may not be led until one of ``breakers`` has been played (0: none)."""
    breakers: Mask
    """The cards whose play lifts ``unbroken`` (0 without it)."""
    moon: Mask
    """The cards a player takes all of to shoot the moon (0: no moon); what that
    changes is the family's :meth:`Family.adjust_lines`."""


class Family:
    """One game family: what is chosen by the family, once per rule set.

    Subclasses (one per family module) set the class attributes and override
    the hooks that differ from these defaults (the shared behaviour).
    """

    name: str = ""
    """The family's name (``trick-avoidance``, ``knaves``...: see core/families.py)."""
    games: tuple[str, ...] = ()
    """The values of the rule parameter ``game`` that belong to it."""
    parameters: tuple[str, ...] = ()
    """The rule parameters of its own: with :data:`polignac.core.rules.SHARED_PARAMETERS`,
    its parameter group (:func:`polignac.core.rules.parameters_for`: what a house
    rule may change in its games; ``Rules.with_overrides`` refuses the others)."""
    scorings: tuple[ScoreKind, ...] = ()
    """The values of ``scoring`` it brings, with what each means (``Rules.kind``)."""
    deal_class: type[Deal] = Deal
    """The class of its deals (:class:`Deal`, or a subclass with the family's phases)."""
    start: StartDeal | None = None
    """Starts its deal from checked hands (None: the plain :class:`Deal`'s start)."""
    passing: bool = False
    """It may pass cards before play (a ``pass`` phase; ``Rules.passing``)."""
    calls: bool = False
    """It may have calls beyond card play (announcements, a claim; ``Rules.has_calls``)."""
    call_rules: CallRules | None = None
    """Its calls' tables and rules, read by the deal (for a family that brings a
    scoring with calls: ``ScoreKind.sides``)."""
    declaration_round: bool = False
    """It may have a declaration round before the first card (``Rules.has_declaration_round``)."""
    exact_solver: bool = True
    """The exact solver (bots/solver.py) models its play and scoring: hints, the
    analysis of a record and the hard bot's endgame use it only then."""
    announcements: tuple[str, ...] = ()
    """The names of its announcements (a score pad's form offers them); the
    registry names the shared announcement actions after them
    (:data:`polignac.core.families.ANNOUNCEMENTS`, in the list's order)."""
    modules: tuple[str, ...] = ()
    """The modules that hold its own rules (beyond the shared core)."""
    revoke_penalties: Mapping[str, int] = {}
    """The revoke penalty of those of its presets whose source has one, by preset
    (a score pad's default: docs/rules/common.md#revoke-penalty)."""
    presets: tuple[Rules, ...] = ()
    """Its presets, in the rule book's order (:data:`polignac.core.presets.PRESETS`
    gathers every family's, in the order of :data:`polignac.core.families.FAMILIES`)."""
    adjusts_lines: ClassVar[bool] = False
    """It overrides :meth:`adjust_lines` (set for each subclass, never by hand): the
    scoring asks for a deal's takers and calls the hook only then."""

    own_match_end: ClassVar[bool] = False
    """It overrides :meth:`after_deal` (set for each subclass, never by hand): a
    standing asks it after each deal only then."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.adjusts_lines = cls.adjust_lines is not Family.adjust_lines
        cls.own_match_end = cls.after_deal is not Family.after_deal

    # ------------------------------------------------------------- rules

    def check_rules(self, rules: Rules) -> None:
        """Check the parameters this family owns, in any rule set (``Rules.validate``
        calls every family's).

        Raises:
            RulesError: names the parameter and the allowed values.
        """

    # -------------------------------------------------------------- phases

    def declare(self, deal: Deal, action: Action) -> Deal:
        """The deal after ``action`` (a declaration, or a card too early) in the
        declaration round of a rule set whose ``scoring`` this family brings
        (``Rules.has_declaration_round``; kept in the deal's tables).

        Raises:
            IllegalActionError: the family has no declaration round.
        """
        raise IllegalActionError(f"family {self.name!r} has no declaration round",
                                 rule="not-in-this-game")

    # -------------------------------------------------------------- scoring

    def score_deal(self, deal: Deal) -> DealScore:
        """The score of a finished ``deal`` of a rule set whose ``scoring`` this
        family brings (``Deal.score`` checks that the deal is over).

        Raises:
            NotImplementedError: the family brings no scoring.
        """
        raise NotImplementedError(f"family {self.name!r} brings no scoring")

    def score_entry(self, pad: ScorePad, entry: Entry, dealer: int,
                    seats: tuple[int, ...]) -> DealScore:
        """The score of a score-pad ``entry`` (its checks, then its score), for a
        rule set whose ``scoring`` this family brings.

        Raises:
            ScorePadError: a bad entry; its ``field`` names the bad field.
            NotImplementedError: the family brings no scoring.
        """
        raise NotImplementedError(f"family {self.name!r} brings no scoring")

    def adjust_lines(self, rules: Rules, n: int, taken: Mapping[str, int | None],
                     per: list[list[ScoreLine]]) -> list[list[ScoreLine]]:
        """The game family's change to a trick game's score lines per player, before
        contracts (:func:`polignac.core.scoring.score_tricks`): none by default."""
        return per

    def play_limits(self, rules: Rules, n: int) -> PlayLimits | None:
        """Its limits on trick play beyond following suit and its moon, for ``rules``
        (a rule set of this game family) with ``n`` players; None: none (by default)."""
        return None

    # ------------------------------------------------------- its own state
    #
    # A scoring family may keep a state of its own across a match's deals (Pollack:
    # the partie and the parties; Bassadewitz: a pool that stays after a redeal).
    # The shared classes carry it without reading it: Standing.family_state (the
    # match's), Deal.family_state (a deal's, given at its start), DealResult and a
    # score pad's deal (family_result: what a deal did to it).  These hooks make,
    # update and read it; the defaults keep none.

    def start_state(self, rules: Rules, n: int) -> Any:
        """Its state before a match's first deal (a played match's and a score
        pad's), for ``rules`` with ``n`` seats: None by default."""
        return None

    def deal_state(self, state: Any) -> Any:
        """The state a deal starts with (``Deal.family_state``) when the match's is
        ``state`` (None: a deal on its own, as at a match's start): None by default.
        A value of ints, tuples and bools (a deal's key holds it)."""
        return None

    def side_total(self, deal: Deal, side: int) -> int:
        """In a game scored by sides: ``side``'s score counted now in ``deal``, a deal
        of a rule set whose ``scoring`` this family brings (``Deal.side_total``): 0 by
        default (no sides)."""
        return 0

    def side_of(self, seat: int) -> int | None:
        """The side ``seat`` (a match's seat) plays on in a game scored by sides, for
        this family's own match end (``last_trick_side`` of :meth:`after_deal`);
        None (by default): everyone plays alone."""
        return None

    def stake(self, rules: Rules, deal_state: Any) -> int:
        """What the dealer of a deal of ``rules`` whose state is ``deal_state`` (None: a
        deal on its own) puts up at its start, in the deal score's unit (a pool of
        chips; the exact solver's stake): 0 by default."""
        return 0

    def after_deal(self, standing: Standing, rules: Rules, scores: Sequence[int],
                   claim: tuple[int, bool] | None,
                   last_trick_side: int | None) -> tuple[Standing, Any] | None:
        """The standing after a deal under this family's own match end, and what the
        deal did to its state (the ``family_result`` of the deal's result; Pollack:
        the partie it was played in and the side that won it); None: the shared
        match ends apply (:meth:`polignac.core.standing.Standing.after_deal`), and
        :meth:`next_state` updates the state."""
        return None

    def next_state(self, state: Any, redeal: bool) -> Any:
        """Its state after a deal under a shared match end (``redeal``: a deal in
        chips whose pool stays): unchanged by default."""
        return state

    def sheet(self, standing: Standing, rules: Rules) -> dict[str, Any]:
        """The family's own part of a match's sheet, JSON-ready (empty by default)."""
        return {}

    def result_sheet(self, result: DealResult) -> dict[str, Any]:
        """The family's part of a played deal's line in the match's sheet
        (``DealResult.sheet``), JSON-ready: empty by default."""
        return {}

    def record_entry(self, family_result: Any, n: int) -> dict[str, Any]:
        """What a deal's ``family_result`` adds to its entry in a record's replay
        summary (:func:`polignac.core.record.summary`), with ``n`` seats: empty by
        default."""
        return {}

    def record_summary(self, standing: Standing, n: int) -> dict[str, Any]:
        """What its state adds at the end of a record's replay summary: empty by default."""
        return {}

    def pad_entry(self, family_result: Any) -> dict[str, Any]:
        """What a deal's ``family_result`` adds to a score pad's deal (``PadDeal.to_dict``):
        empty by default."""
        return {}

    # ------------------------------------------ returns (research, the bots)

    zero_sum: bool = False
    """The returns (:meth:`returns`) of every deal of its scoring add up to 0."""
    score_unit: str = "points per deal"
    """What its deal score counts, in a report's English (the bots' tournaments)."""
    taken_unit: str = "points"
    """What :meth:`points_taken` counts, for the table page's words: ``points``
    (higher is better), ``penalty``, ``cardPoints`` or ``side``."""
    total_word: str = "total"
    """What a match's total row counts, for the score sheets' words (catalog
    ``scorepad.total.<word>``): ``total``, ``partie`` (the partie in progress) or
    ``chips``."""
    side_reasons: tuple[str, ...] = ()
    """The reasons of the score lines that are a side's own (their ``player`` is the
    side, not a seat: a score sheet shows them under no player)."""

    def return_bounds(self, rules: Rules, n: int,
                      deal_state: Any = None) -> tuple[float, float]:
        """The lowest and highest return (:meth:`returns`) one player can get from
        one deal of ``rules`` with ``n`` players, a rule set whose ``scoring``
        this family brings, in a deal whose family state is ``deal_state`` (None: a
        deal on its own; sound bounds).
        By default the trick game's score, higher better
        (:func:`polignac.core.scoring.trick_score_bounds`)."""
        lo, hi = trick_score_bounds(rules, n)
        return float(lo), float(hi)

    def returns(self, score: DealScore, rules: Rules, n: int) -> list[float]:
        """Each player's return (higher is better) from the ``score`` of a finished
        deal of ``rules`` with ``n`` players: by default its score."""
        return [float(s) for s in score.scores]

    def points_taken(self, deal: Deal) -> tuple[int, ...]:
        """Each player's points taken so far in ``deal`` (the table shows them live):
        by default the card points of its tricks, the trick points, and the first
        and the last trick's once taken; no contract or moon before the end."""
        r = deal.rules
        past = deal.past
        first = past[0].winner if past else -1
        last = past[-1].winner if len(past) == r.hand_size(deal.num_players) else -1
        tricks = deal.tricks
        return tuple(deal.card_points(p) + r.trick_points * tricks[p]
                     + (r.first_trick_points if p == first else 0)
                     + (r.last_trick_points if p == last else 0)
                     for p in range(deal.num_players))

    def calls_card_points(self, deal: Deal, player: int) -> int:
        """What ``deal``'s calls (announcements) are worth to ``player`` beyond its
        card play, in card points (the exact solver's unit): none by default."""
        return 0

    def solver_unit(self, scoring: str) -> str:
        """The unit of the exact solver's values (:meth:`solver_result`) for a rule
        set whose ``scoring`` this family brings (the analysis' unit): by default
        the scoring's own name."""
        return scoring

    def solver_result(self, deal: Deal, player: int) -> int:
        """The result of a finished ``deal`` for ``player`` in the exact solver's
        unit, higher better (a leaf of its search; ``deal``'s ``scoring`` is one
        this family brings): by default the deal score.

        Raises:
            IllegalActionError: the deal is not finished.
        """
        return deal.score().scores[player]

    # ----------------------------------------------------------- rules text

    def extra_sections(self, rules: Rules) -> list[tuple[str, list[Param]]]:
        """Sections of its own in the rules text: (title key, lines), after play."""
        return []

    def card_key(self, code: str, rules: Rules) -> str | None:
        """The catalog key that names card ``code`` with a family name of its own
        (None: the usual name)."""
        return None

    def lead_line(self, rules: Rules) -> Param | None:
        """Who leads the first trick, when the family says (None: the shared line)."""
        return None

    def play_notes(self, rules: Rules) -> list[Param]:
        """Lines of its own at the end of the play section."""
        return []

    def scoring_lines(self, rules: Rules) -> list[Param]:
        """The scoring section, for a rule set whose ``scoring`` this family brings."""
        return []

    def scoring_notes(self, rules: Rules) -> list[Param]:
        """Lines of the game's family after the scoring section's."""
        return []

    def declaration_lines(self, rules: Rules) -> list[Param]:
        """The declarations section, for a rule set whose ``scoring`` this family
        brings: by default none, with a note (unless the game's family has
        calls) that calls belong to another family."""
        from .describe import msg, sentences

        return [sentences(msg("rules.decl.none"),
                          None if rules.family.calls else msg("rules.decl.pollackOnly"))]

    def match_end_lines(self, rules: Rules) -> list[Param] | None:
        """The match-end section of its own match end (None: the shared one)."""
        return None

    def game_interpretations(self, rules: Rules) -> list[Param]:
        """The rule book's interpretations for the game's family (after the pack's)."""
        return []

    def preset_interpretations(self, rules: Rules) -> list[Param]:
        """The game family's interpretations of its presets (after the match end's)."""
        return []

    def scoring_interpretations(self, rules: Rules) -> list[Param]:
        """The rule book's interpretations for the scoring's family (listed last)."""
        return []
