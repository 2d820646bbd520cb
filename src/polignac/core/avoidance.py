"""The trick-avoidance penalty games (Polignac and its variants, Slobberhannes,
Eichelobern, Grasobern): their family and its declarations.

Lower is better: a player scores the point cards it takes (and tricks, the
first and last trick where the preset says).  Before the first card a player
may declare a contract (``declaration``: capot, general, general-bonus, la
générale; :attr:`~polignac.core.rules.Rules.contract` says what each means) in
a declaration round, or a slam scores on its own (chelem).  The deal's
declaration round is :class:`~polignac.core.deal.Deal`'s (``PASS`` and the
contract's action); the score is :func:`~polignac.core.scoring.score_tricks`'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from .actions import CONTRACT_WORDS, PASS, Action, action_name
from .calls import _Called
from .deal import Deal
from .errors import IllegalActionError
from .family import Family
from .phases import DECLARE, PLAY
from .rules import Rules, ScoreKind, derive
from .scoring import DealScore, score_taken, score_tricks, trick_score_bounds
from .trick_chain import _PREV, _WINNER, _totals, slam_of

if TYPE_CHECKING:  # pragma: no cover
    from .describe import Param
    from .scorepad import Entry, ScorePad

_NAMED_JACK_GAMES: Final = ("polignac",)
"""The games whose Jack of spades has a name of its own (``polignac``)."""
_FOUR_PLAYER_SOURCES: Final = ("slobberhannes",)
"""The games whose sources describe four players only (the rule book interprets more)."""


# ---------------------------------------------------------------- presets

_POLIGNAC: Final = Rules()  # the defaults of Rules are the `polignac` preset


_THRESHOLD = derive(
    _POLIGNAC,
    "polignac-threshold",
    direction="counter-clockwise",
    packets=(3, 2, 3),
    match_end="threshold-lowest-wins",
)
_FR = derive(
    _POLIGNAC,
    "polignac-fr",
    players=(3, 4, 5, 6, 7, 8),
    removals="red-sevens-fr",
    direction="counter-clockwise",
    packets=(2,),
    declaration="chelem",
)
_SLOBBER = derive(
    _POLIGNAC,
    "slobberhannes",
    game="slobberhannes",
    rank_order="AKQJT987",
    packets=(1,),
    card_points={"QC": 1},
    first_trick_points=1,
    last_trick_points=1,
    all_three_points=4,
    declaration="none",
    threshold=10,
)

PRESETS: Final[tuple[Rules, ...]] = (
    _POLIGNAC,
    derive(_POLIGNAC, "polignac-queens", rank_order="AKQJT987",
          card_points={"QS": 2, "Q": 1}),
    derive(_POLIGNAC, "polignac-rounds", players=(4, 5, 6), rank_order="AKQJT987",
          packets=(1,), declaration="general", match_end="fixed-deals", threshold=None),
    _THRESHOLD,
    derive(_THRESHOLD, "polignac-threshold-general", declaration="general-bonus"),
    _FR,
    derive(_FR, "polignac-fr-generale", declaration="generale"),
    derive(_POLIGNAC, "quatre-valets", card_points={"J": 1}),
    derive(_POLIGNAC, "two-knaves", players=(3, 4), card_points={"JS": 2, "JD": 1}),
    derive(_POLIGNAC, "polignac-party", players=tuple(range(3, 11)), pack=52,
          removals="lowest-cards", rank_order="KQJAT98765432", packets=(1,)),
    _SLOBBER,
    derive(_SLOBBER, "eichelobern", suits="german", packets=(4, 4)),
    derive(_SLOBBER, "grasobern", suits="german", packets=(4, 4), card_points={"QS": 1}),
    derive(_POLIGNAC, "obern", suits="german", card_points={"Q": 1}),
)
"""The trick-avoidance presets (docs/rules/README.md#presets)."""


def declare(deal: Deal, action: Action) -> Deal:
    """The deal after ``action`` in the declaration round: ``pass``, or the rule
    set's contract (the declarer then leads with la générale, else eldest does).

    Raises:
        IllegalActionError: a card before the round is over (rule
            ``declaration-round``), a declaration after it
            (``declaration-out-of-time``), or another game's contract (``wrong-contract``).
    """
    s = deal._s
    p = deal.to_act
    contract = s.contract_action
    if deal.phase == DECLARE and action in (PASS, contract):
        return _declared(deal, action, s, p)
    name = action_name(action)
    if 0 <= action < 52:
        raise IllegalActionError(
            f"declaration round first: player {p} must pass or declare "
            f"{CONTRACT_WORDS[contract]} before any card is played, not play {name}",
            rule="declaration-round", action=name,
        )
    if deal.phase != DECLARE:
        raise IllegalActionError(
            f"declaration at the wrong time: {name} is only allowed before "
            "the first card",
            rule="declaration-out-of-time", action=name,
        )
    if action != PASS and action != contract:
        raise IllegalActionError(
            f"{name} is not this game's contract: preset {s.rules.preset!r} "
            f"offers {CONTRACT_WORDS[contract]}",
            rule="wrong-contract", action=name,
        )
    return _declared(deal, action, s, p)  # pragma: no cover - refused above


def _declared(deal: Deal, action: Action, s: Any, p: int) -> Deal:
    """The deal after ``p``'s legal ``action`` (a pass or the contract) in the
    declaration round (:func:`declare` has checked it)."""
    new = deal._copy(action)
    if action == PASS:
        nxt = (p + 1) % s.n
        if nxt == s.eldest:
            new.phase = PLAY
        new.to_act = nxt
    else:
        new._c = _Called(p, deal._c.calls)
        new.phase = PLAY
        new.to_act = p if s.rules.contract.declarer_leads else s.eldest
    return new


def score_played_tricks(deal: Deal) -> DealScore:
    """The score of a finished trick game's deal (:func:`score_taken` from its play:
    the cards and tricks each player took, the first and last tricks' winners)."""
    link = deal._last
    if link is None:  # no trick played: as score_tricks' facts would have it (no first)
        winners = deal.trick_winners
        return score_tricks(deal.rules, deal.num_players, deal.point_takers(), deal.tricks,
                            winners[0], winners[-1], deal.declarer, deal.slam())
    s = deal._s
    n = s.n
    taken, tricks, _past = _totals(link, n)
    last = link[_WINNER]
    prev = link[_PREV]
    while prev is not None:  # back to the first trick
        link = prev
        prev = link[_PREV]
    return score_taken(s.rules, n, taken, tricks, link[_WINNER], last, deal._c.declarer,
                       slam_of(tricks, s.total_tricks), deal.point_takers)


def score_trick_entry(pad: ScorePad, entry: Entry, dealer: int,
                      seats: tuple[int, ...]) -> DealScore:
    """A score pad's entry of a trick game (:meth:`polignac.core.scorepad.ScorePad.score_tricks`).

    Raises:
        ScorePadError: a bad entry; its ``field`` names the bad field.
    """
    return pad.score_tricks(entry, seats)


def penalty_lines(rules: Rules) -> list[Param]:
    """The scoring section of a penalty game (lower is better)."""
    from .describe import SEMI, Join, _per_deal_total, _point_cards, _pts, msg

    lines: list[Param] = [msg("rules.penalty.intro")]
    cards = _point_cards(rules)
    if cards:
        lines.append(msg("rules.penalty.cards", cards=Join(SEMI, tuple(cards)),
                         total=_per_deal_total(rules)))
    else:
        lines.append(msg("rules.noCardScores"))
    if rules.trick_points:
        lines.append(msg("rules.eachTrick", value=_pts(rules.trick_points)))
    if rules.first_trick_points:
        lines.append(msg("rules.firstTrick", value=_pts(rules.first_trick_points)))
    if rules.last_trick_points:
        lines.append(msg("rules.lastTrick", value=_pts(rules.last_trick_points)))
    if rules.all_three_points is not None:
        lines.append(msg("rules.allThree", n=rules.all_three_points))
    return lines


def contract_lines(rules: Rules) -> list[Param]:
    """The declarations section of a rule set with a contract (``Rules.has_contract``)."""
    from .describe import INTERP, msg

    contract = rules.contract
    v = rules.contract_points
    nouns = "card" if rules.card_points else "plain"
    card = msg(f"rules.noun.{nouns}.one")
    cards = msg(f"rules.noun.{nouns}.other")
    if contract.automatic:
        return [msg("rules.decl.chelem", v=v), msg("rules.decl.noRound")]
    said = contract.word
    word = msg(f"contract.{said}")
    lines: list[Param] = [msg("rules.decl.round", word=word, said=said)]
    if contract.declarer_leads:
        lines.append(msg("rules.decl.generaleLeads"))
    else:
        lines.append(msg("rules.decl.eldestLeads", word=word))
    lines.append(msg("rules.decl.success", mine=-v if contract.bonus else 0, v=v))
    if contract.declarer_leads:
        lines.append(msg("rules.decl.generaleFail", v=v, cards=cards))
        lines.append(msg("rules.decl.generaleSlam"))
    else:
        if contract.failure_interpreted:
            lines.append(msg("rules.decl.fail.interp", v=v, card=card, interp=INTERP))
        else:
            lines.append(msg("rules.decl.fail", v=v, card=card))
        lines.append(msg("rules.decl.otherSlam", v=v, cards=cards))
    lines.append(msg("rules.decl.playedOut"))
    if said == "general":
        lines.append(msg("rules.decl.generalWord"))
    return lines


class TrickScoredFamily(Family):
    """A family scored from the tricks taken (the penalty games here, Knaves'
    points): its deal and score-pad scoring; not listed itself."""

    def score_deal(self, deal: Deal) -> DealScore:
        """The cards and tricks taken, the contract (:func:`score_played_tricks`)."""
        return score_played_tricks(deal)

    def score_entry(self, pad: ScorePad, entry: Entry, dealer: int,
                    seats: tuple[int, ...]) -> DealScore:
        """Who took which point card, the tricks, the contract (:func:`score_trick_entry`).

        Raises:
            ScorePadError: a bad entry; its ``field`` names the bad field.
        """
        return score_trick_entry(pad, entry, dealer, seats)


class TrickAvoidanceFamily(TrickScoredFamily):
    """The trick-avoidance penalty games and their declarations."""

    name = "trick-avoidance"
    games = ("polignac", "slobberhannes")
    parameters = ("all_three_points", "declaration", "contract_points")
    scorings = (ScoreKind("penalty", penalty=True, taker_gains=False, chips=False, sides=False,
                          match_ends=("threshold-loser", "threshold-lowest-wins", "fixed-deals",
                                      "threshold-lowest-shared")),)
    declaration_round = True
    score_unit = "penalty points per deal"
    taken_unit = "penalty"
    modules = ("polignac.core.avoidance", "polignac.core.scoring")
    presets = PRESETS
    revoke_penalties: Mapping[str, int] = {
        "polignac-rounds": 3,  # 001: "the offending player loses 3 points"
        "polignac-threshold": 5,  # 002: "5 extra penalty points to the offender"
        "polignac-threshold-general": 5,
        "quatre-valets": 5,
        "two-knaves": 5,
    }

    def declare(self, deal: Deal, action: Action) -> Deal:
        """The declaration round (:func:`declare`).

        Raises:
            IllegalActionError: a card too early, a declaration too late or of another game.
        """
        return declare(deal, action)

    def return_bounds(self, rules: Rules, n: int,
                      deal_state: Any = None) -> tuple[float, float]:
        """Minus the trick game's score bounds (a penalty counts against its player;
        exact for the presets: :func:`~polignac.core.scoring.trick_score_bounds`)."""
        lo, hi = trick_score_bounds(rules, n)
        return 0.0 - hi, 0.0 - lo

    def returns(self, score: DealScore, rules: Rules, n: int) -> list[float]:
        """Minus each player's penalty."""
        return [0.0 - s for s in score.scores]

    def solver_result(self, deal: Deal, player: int) -> int:
        """Minus the player's penalty.

        Raises:
            IllegalActionError: the deal is not finished.
        """
        return -deal.score().scores[player]

    def card_key(self, code: str, rules: Rules) -> str | None:
        """Polignac's Jack of spades, the polignac, in the French pack."""
        if code == "JS" and rules.game in _NAMED_JACK_GAMES and not rules.german:
            return "rules.cardCode.polignac"
        return None

    def scoring_lines(self, rules: Rules) -> list[Param]:
        """Penalties (:func:`penalty_lines`)."""
        return penalty_lines(rules)

    def declaration_lines(self, rules: Rules) -> list[Param]:
        """The contract (:func:`contract_lines`), or none."""
        if rules.has_contract:
            return contract_lines(rules)
        return super().declaration_lines(rules)

    def game_interpretations(self, rules: Rules) -> list[Param]:
        """Slobberhannes with other than four players."""
        from .describe import INTERP, msg

        if rules.game in _FOUR_PLAYER_SOURCES and tuple(rules.players) != (4,):
            return [msg("rules.interp.slobberhannes", interp=INTERP)]
        return []


TRICK_AVOIDANCE: Final = TrickAvoidanceFamily()

__all__ = ["PRESETS", "TRICK_AVOIDANCE", "TrickAvoidanceFamily", "contract_lines", "declare",
           "penalty_lines", "score_played_tricks", "score_trick_entry"]
