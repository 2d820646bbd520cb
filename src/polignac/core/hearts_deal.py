"""A deal of the Hearts family: the passing phase, the first trick, hearts breaking.

:class:`HeartsDeal` is a :class:`~polignac.core.deal.Deal` (the same state, the
same trick play and scoring) with the family's rules on top (see
:mod:`polignac.core.hearts`):

- phase ``pass`` (:data:`~polignac.core.deal.PASS_CARDS`): each player, eldest
  first, chooses ``pass_count`` cards, one action (the card) at a time; when
  the last has chosen, every player receives its cards and play starts;
- in play, the legal cards are the plain trick game's, narrowed by the first
  lead, the clean first trick and hearts breaking.

``initial_hands`` are the hands as dealt (a record replays them with the
passes); :attr:`HeartsDeal.play_hands` are the hands after passing.  The view
shows a player its own passed cards, and the cards it received once everyone
has passed; other players' passes are hidden (``"hidden"`` in ``actions``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

from .actions import NUM_ACTIONS, Action, action_name
from .cards import CODES, SUIT_MASKS, Card, Mask, cards_of
from .deal import (
    _NOT_CALLED,
    _SUIT_CARDS,
    DONE,
    PASS_CARDS,
    PLAY,
    Deal,
    _name,
    _Static,
    _Tables,
)
from .errors import IllegalActionError, NotYourTurnError
from .families import Family, register
from .hearts import (
    GAME,
    HEARTS_MASK,
    PRESETS,
    QUEEN_OF_SPADES,
    check_rules,
    hearts_section,
    interpretations,
    lead_line,
    lowest_club,
    pass_direction,
    pass_offset,
    penalty_cards,
    scoring_notes,
    shoot_the_moon,
)
from .rules import Rules

if TYPE_CHECKING:  # pragma: no cover
    from .describe import Param
    from .scoring import ScoreLine

HIDDEN: Final = "hidden"
"""What a view shows in place of another player's passed card."""

_S0, _S1, _S2, _S3 = SUIT_MASKS


class _Plan:
    """What the family's rules say for one rule set and player count (worked out once)."""

    __slots__ = ("break_hearts", "breakers", "clean", "first_card", "pack", "penalty",
                 "rules")

    def __init__(self, rules: Rules, n: int) -> None:
        self.rules = rules
        self.pack = rules.pack_mask(n)
        self.penalty = penalty_cards(rules, n)
        self.first_card = lowest_club(rules, n) if rules.first_lead == "lowest-club" else -1
        self.clean = rules.clean_first_trick
        self.break_hearts = rules.break_hearts
        self.breakers = HEARTS_MASK | ((1 << QUEEN_OF_SPADES) if rules.queen_breaks else 0)


_PLANS: dict[tuple[int, int], _Plan] = {}


def _plan(rules: Rules, n: int) -> _Plan:
    plan = _PLANS.get((id(rules), n))
    if plan is None or plan.rules is not rules:
        if len(_PLANS) >= 256:
            _PLANS.clear()
        plan = _PLANS[id(rules), n] = _Plan(rules, n)
    return plan


class _HeartsStatic(_Static):
    """The deal's fixed facts, with the family's: the dealt hands, the passes."""

    __slots__ = ("dealt", "direction", "given", "offset", "plan")

    dealt: tuple[Mask, ...]
    direction: str
    given: tuple[Mask, ...]
    offset: int
    plan: _Plan


def _static(tables: _Tables, dealer: int, hands: tuple[Mask, ...], dealt: tuple[Mask, ...],
            given: tuple[Mask, ...], direction: str, offset: int) -> _HeartsStatic:
    s = _HeartsStatic(tables, dealer, hands, -1, (0, 0), True)
    s.dealt = dealt
    s.given = given
    s.direction = direction
    s.offset = offset
    s.plan = _plan(tables.rules, tables.n)
    return s


def start_hearts(tables: _Tables, hands: tuple[Mask, ...], dealer: int) -> HeartsDeal:
    """The first state of a Hearts-family deal from checked hands (Deal._start's hook)."""
    n = tables.n
    direction = pass_direction(tables.rules, dealer)
    offset = pass_offset(direction, n)
    if not offset:
        direction = "none"
    s = _static(tables, dealer, hands, hands, (0,) * n, direction, offset)
    deal = object.__new__(HeartsDeal)
    deal._s = s
    rem = 0
    for h in hands:
        rem |= h
    deal._rem = rem
    deal.done = False
    deal.trick = ()
    deal._led = 0
    deal._last = None
    deal._c = _NOT_CALLED
    deal._h = None
    deal._hist = ()
    if offset:
        deal.phase = PASS_CARDS
        deal.to_act = s.eldest
    else:
        deal.phase = PLAY
        deal.to_act = _first_leader(s)
    return deal


def _first_leader(s: _HeartsStatic) -> int:
    card = s.plan.first_card
    if card < 0:
        return s.eldest
    return next(p for p, h in enumerate(s.hands) if h >> card & 1)


class HeartsDeal(Deal):
    """A deal of the Hearts family.  Immutable; see :meth:`apply`."""

    __slots__ = ()  # the same layout as Deal: a played card's Deal becomes a HeartsDeal

    _s: _HeartsStatic

    # ------------------------------------------------------------- accessors

    @property
    def initial_hands(self) -> tuple[Mask, ...]:
        """The hands as dealt, before passing."""
        return self._s.dealt

    @property
    def play_hands(self) -> tuple[Mask, ...]:
        """The hands after passing (as dealt while passing is under way)."""
        return self._s.hands if self.phase != PASS_CARDS else self._s.dealt

    @property
    def pass_direction(self) -> str:
        """This deal's pass: ``none``, ``left``, ``right`` or ``across``."""
        return self._s.direction

    @property
    def pass_to_offset(self) -> int:
        """How many players on the passed cards go (0: no pass this deal)."""
        return self._s.offset

    @property
    def passed(self) -> tuple[Mask, ...]:
        """The cards each player has chosen to pass so far."""
        s = self._s
        if self.phase != PASS_CARDS:
            return s.given
        return self.passed_from_history(s)  # while passing, the history is the passes

    def received(self, player: int) -> Mask:
        """The cards ``player`` received (0 until everyone has passed)."""
        s = self._s
        if self.phase == PASS_CARDS or not s.offset:
            return 0
        return s.given[(player - s.offset) % s.n]

    def hearts_broken(self) -> bool:
        """True once a heart (or the Queen of spades, with queen_breaks) has been played."""
        s = self._s
        if self.phase == PASS_CARDS:
            return False
        return bool(s.plan.pack & ~self._rem & s.plan.breakers)

    # ---------------------------------------------------------- legal actions

    def play_restrictions(self) -> tuple[Card, Mask, Mask]:
        """The Hearts family's restrictions on the card to play now, as
        :func:`polignac.core.tricks.restricted_mask` takes them: the card that must
        open the first trick (-1: none now), the cards kept off the first trick (0
        after it), the cards that may not be led (0 once hearts are broken)."""
        plan = self._s.plan
        first = self._last is None
        opening = plan.first_card if first and not self.trick else -1
        clean = plan.penalty if first and plan.clean else 0
        unbroken = HEARTS_MASK if plan.break_hearts and not self.hearts_broken() else 0
        return opening, clean, unbroken


    def legal_card_mask(self) -> Mask:
        """The cards the player to act may play, or choose to pass (0 when done)."""
        phase = self.phase
        s = self._s
        hand = s.hands[self.to_act] & self._rem
        if phase == PASS_CARDS:
            return hand
        if phase != PLAY:
            return 0
        plan = s.plan
        first = self._last is None
        led = self._led
        if led:
            follow = hand & led
            if follow:
                return follow
            if first and plan.clean:
                return hand & ~plan.penalty or hand
            return hand
        if first and not self.trick and plan.first_card >= 0:
            return 1 << plan.first_card
        cand = hand
        if first and plan.clean:
            cand = cand & ~plan.penalty or cand
        if plan.break_hearts and not plan.pack & ~self._rem & plan.breakers:
            cand = cand & ~HEARTS_MASK or cand
        return cand

    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to act, ascending (empty when done)."""
        phase = self.phase
        if phase == PLAY:
            led = self._led
            if led:  # following: the plain rule, unless void in the led suit
                follow = self._s.hands[self.to_act] & self._rem & led
                if follow:
                    return list(_SUIT_CARDS[follow])
        elif phase == DONE:
            return []
        m = self.legal_card_mask()
        cards = _SUIT_CARDS
        return [*cards[m & _S0], *cards[m & _S1], *cards[m & _S2], *cards[m & _S3]]

    # ----------------------------------------------------------------- apply

    def apply(self, action: Action, player: int | None = None) -> Deal:
        """Return the deal after ``action`` (a card to pass or to play) by the player to act.

        Raises:
            NotYourTurnError: ``player`` is not the player to act.
            GameOverError: the deal is over.
            IllegalActionError: the action breaks a rule; ``.rule`` names it
                (the family's: ``pass-not-in-hand``, ``first-lead``,
                ``penalty-on-first-trick``, ``hearts-not-broken``).
        """
        phase = self.phase
        if phase == PASS_CARDS:
            return self._pass(action, player)
        if phase == PLAY and 0 <= action < 52 and (player is None or player == self.to_act):
            bit = 1 << action
            led = self._led
            if not bit & led:  # leading, or not following: the family's rules may forbid it
                hand = self._s.hands[self.to_act] & self._rem
                if hand & bit and (not led or not hand & led) \
                        and not bit & self.legal_card_mask():
                    raise self._family_error(action)
        new = Deal.apply(self, action, player)
        new.__class__ = HeartsDeal
        return new

    def passed_from_history(self, s: _HeartsStatic) -> tuple[Mask, ...]:
        """Each player's passed cards, read off this state's history (all passes)."""
        given = [0] * s.n
        count = s.rules.pass_count
        for i, card in enumerate(self.history):
            given[(s.eldest + i // count) % s.n] |= 1 << card
        return tuple(given)

    def _family_error(self, card: Card) -> IllegalActionError:
        s = self._s
        p = self.to_act
        name = CODES[card]
        if not self._led and self._last is None and not self.trick and s.plan.first_card >= 0:
            return IllegalActionError(
                f"first lead: player {p} must lead {CODES[s.plan.first_card]} to the "
                f"first trick, not {name}", rule="first-lead", action=name)
        if self._last is None and 1 << card & s.plan.penalty:
            return IllegalActionError(
                f"no penalty card on the first trick: player {p} may not play {name} "
                "while holding another card", rule="penalty-on-first-trick", action=name)
        return IllegalActionError(
            f"hearts not broken: player {p} may not lead {name} before a heart has been "
            "played, while holding another suit", rule="hearts-not-broken", action=name)

    def _pass(self, action: Action, player: int | None) -> HeartsDeal:
        s = self._s
        p = self.to_act
        name = _name(action)
        if player is not None and player != p:
            raise NotYourTurnError(
                f"not your turn: player {player} tried {name}, but player {p} is to pass",
                rule="not-your-turn", action=name)
        if not 0 <= action < NUM_ACTIONS:
            raise IllegalActionError(f"no such action: {name}", rule="unknown-action",
                                     action=name)
        if not 0 <= action < 52:
            raise IllegalActionError(
                f"passing: player {p} must choose a card to pass, not {name}",
                rule="pass-a-card", action=name)
        bit = 1 << action
        if not s.hands[p] & self._rem & bit:
            raise IllegalActionError(
                f"pass not in hand: player {p} does not hold {name}"
                + (" (already chosen)" if self.passed[p] & bit else ""),
                rule="pass-not-in-hand", action=name)
        new = object.__new__(HeartsDeal)
        new._h = (action, self._h)
        new._hist = None
        new._last = self._last
        new._c = self._c
        new._led = 0
        new.trick = ()
        new.done = False
        done = len(self.history) + 1  # the passes so far, this one included
        count = s.rules.pass_count
        if done < count * s.n:  # the same static: the chosen cards are in the history
            new._s = s
            new._rem = self._rem ^ bit
            new.phase = PASS_CARDS
            new.to_act = p if done % count else s.nxt[p]
            return new
        # everyone has passed: each receives its cards, and play starts
        given = new.passed_from_history(s)
        n = s.n
        hands = tuple(s.dealt[q] & ~given[q] | given[(q - s.offset) % n] for q in range(n))
        static = _static(_tables_of(s), s.dealer, hands, s.dealt, given, s.direction,
                         s.offset)
        rem = 0
        for h in hands:
            rem |= h
        new._s = static
        new._rem = rem
        new.phase = PLAY
        new.to_act = _first_leader(static)
        return new

    # ------------------------------------------------------------------ views

    def view(self, player: int | None) -> dict[str, object]:
        """What ``player`` may see (see :meth:`Deal.view`), with the passing: its
        own passed cards, and the cards it received once everyone has passed.
        Other players' passed cards show as ``"hidden"`` in ``actions``.
        """
        out = Deal.view(self, player)
        s = self._s
        passes = sum(g.bit_count() for g in self.passed) if s.offset else 0
        if passes:
            actions = list(self.history)
            shown = []
            q = s.eldest
            k = 0
            count = s.rules.pass_count
            for i, a in enumerate(actions):
                if i < passes:
                    shown.append(action_name(a) if q == player or self.phase == DONE
                                 else HIDDEN)
                    k += 1
                    if k == count:
                        k = 0
                        q = s.nxt[q]
                else:
                    shown.append(action_name(a))
            out["actions"] = shown
        passing: dict[str, object] = {"direction": s.direction,
                                      "count": s.rules.pass_count if s.offset else 0}
        if player is not None and s.offset:
            passing["to"] = (player + s.offset) % s.n
            passing["from"] = (player - s.offset) % s.n
            passing["given"] = [CODES[c] for c in cards_of(self.passed[player])]
            passing["received"] = [CODES[c] for c in cards_of(self.received(player))]
        out["passing"] = passing
        out["hearts_broken"] = self.hearts_broken()
        return out

    def __repr__(self) -> str:
        return (f"<HeartsDeal {self._s.rules.preset} players={self._s.n} "
                f"phase={self.phase_name} actions={len(self.history)}>")


def _tables_of(s: _Static) -> _Tables:
    from .deal import _tables

    tables = _tables(s.rules, s.n)
    assert tables is not None  # the deal was started from them
    return tables


class HeartsFamily(Family):
    """The Hearts family (Black Lady, Black Maria): passing, the first trick's
    restrictions, hearts breaking, the moon; scored as the penalty games are."""

    name = "hearts"
    games = (GAME,)
    deal_class = HeartsDeal
    passing = True
    exact_solver = False
    modules = ("polignac.core.hearts", "polignac.core.hearts_deal")
    presets = PRESETS

    def __init__(self) -> None:
        self.start = start_hearts

    def check_rules(self, rules: Rules) -> None:
        """:func:`polignac.core.hearts.check_rules`.

        Raises:
            RulesError: a Hearts-only parameter elsewhere, or an unplayable Hearts rule set.
        """
        check_rules(rules)

    def adjust_lines(self, rules: Rules, n: int, taken: Mapping[str, int | None],
                     per: list[list[ScoreLine]]) -> list[list[ScoreLine]]:
        """The moon (:func:`polignac.core.hearts.shoot_the_moon`)."""
        return shoot_the_moon(rules, n, taken, per) if rules.moon else per

    def extra_sections(self, rules: Rules) -> list[tuple[str, list[Param]]]:
        """Passing and leads (:func:`polignac.core.hearts.hearts_section`)."""
        return [("rules.section.hearts", hearts_section(rules))]

    def lead_line(self, rules: Rules) -> Param | None:
        """The lowest club leads (:func:`polignac.core.hearts.lead_line`)."""
        return lead_line(rules)

    def scoring_notes(self, rules: Rules) -> list[Param]:
        """The moon, the Jack of diamonds (:func:`polignac.core.hearts.scoring_notes`)."""
        return scoring_notes(rules)

    def preset_interpretations(self, rules: Rules) -> list[Param]:
        """Its presets' (:func:`polignac.core.hearts.interpretations`)."""
        return interpretations(rules)


HEARTS: Final = register(HeartsFamily())
