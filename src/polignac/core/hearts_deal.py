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

The per-action path (:meth:`HeartsDeal.legal_actions`, :meth:`HeartsDeal.apply`)
is built as :class:`~polignac.core.deal.Deal`'s: the family's rules are masks
worked out once per rule set and player count (``_Plan``) and copied onto the
deal's fixed facts, a card play builds its state itself (no call to
``Deal.apply``), and the legal cards come from precomputed per-suit tuples
(``benchmarks/bench_core.py``'s row ``black-lady 4p`` measures it).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Final

from .actions import NUM_ACTIONS, Action, action_name
from .calls import _NOT_CALLED
from .cards import CARD_BITS, CODES, SUIT_MASKS, Card, Mask, cards_of
from .deal import (
    HIDDEN,
    Deal,
    SeatKnowledge,
    _name,
)
from .deal_tables import _SUIT_CARDS, _fill_suit_cards, _Static, _Tables
from .errors import IllegalActionError, NotYourTurnError
from .family import Family, PlayLimits
from .hearts import (
    GAME,
    HEARTS_MASK,
    PRESETS,
    breakers,
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
from .phases import DONE, PASS_CARDS, PLAY
from .rules import Rules
from .trick_chain import _REM, _WON

if TYPE_CHECKING:  # pragma: no cover
    from .describe import Param
    from .scoring import ScoreLine


_new = object.__new__
_BITS: Final = CARD_BITS  # a card's one-card mask, without a new int

# The cards of a hand, suit by suit: _CLUBS[hand & 0x1FFF], _DIAMONDS[hand >> 13 & 0x1FFF],
# _HEARTS[hand >> 26 & 0x1FFF], _SPADES[hand >> 39] are its clubs, diamonds, hearts,
# spades as tuples of cards, ascending (a card is suit * 13 + rank): four index
# lookups in tuples instead of four in _SUIT_CARDS' dict keyed by masks (which
# for a 52-card pack holds 32768 of them).  _FOLLOW gives, for the led suit's mask,
# that suit's table and shift.  Filled when the first Hearts-family deal is planned
# (8192 entries a suit; the cards' tuples are _SUIT_CARDS' own).
_Cards = tuple[tuple[Card, ...], ...]
_CLUBS: _Cards = ()
_DIAMONDS: _Cards = ()
_HEARTS: _Cards = ()
_SPADES: _Cards = ()
_FOLLOW: dict[Mask, tuple[_Cards, int]] = {}


def _fill_suits() -> None:
    global _CLUBS, _DIAMONDS, _HEARTS, _SPADES  # filled once, on first use
    if not _SPADES:
        _fill_suit_cards((1 << 52) - 1)
        tables = [tuple([_SUIT_CARDS[m << 13 * suit] for m in range(1 << 13)])
                  for suit in range(4)]
        for suit, table in enumerate(tables):
            _FOLLOW[SUIT_MASKS[suit]] = table, 13 * suit
        _CLUBS, _DIAMONDS, _HEARTS = tables[:3]
        _SPADES = tables[3]  # the last: another thread that sees it sees them all


class _Plan:
    """What the family's rules say for one rule set and player count (worked out once)."""

    __slots__ = ("bp", "break_hearts", "breakers", "cards", "clean", "clean_mask", "first_card",
                 "keep", "pack", "passes", "penalty", "rules", "tables", "turns", "unbroken",
                 "unhearts")

    def __init__(self, tables: _Tables) -> None:
        rules = tables.rules
        n = tables.n
        self.rules = rules
        self.tables = tables
        _fill_suits()
        self.pack = rules.pack_mask(n)
        self.penalty = penalty_cards(rules, n)
        self.first_card = lowest_club(rules, n) if rules.first_lead == "lowest-club" else -1
        self.clean = rules.clean_first_trick
        self.break_hearts = rules.break_hearts
        self.breakers = breakers(rules)
        # the masks the per-action path reads (see _HeartsStatic)
        self.clean_mask = self.penalty if self.clean else 0
        self.keep = ~self.clean_mask
        self.unbroken = HEARTS_MASK if self.break_hearts else 0
        self.unhearts = ~self.unbroken
        self.bp = self.breakers & self.pack
        self.passes = rules.pass_count * n
        self.cards = rules.hand_size(n) * n  # in the hands as dealt
        # per dealer: the pass direction and how many seats on the cards go
        turns = []
        for dealer in range(n):
            direction = pass_direction(rules, dealer)
            offset = pass_offset(direction, n)
            turns.append((direction if offset else "none", offset))
        self.turns = tuple(turns)

    def __setstate__(self, state: tuple[None, dict[str, Any]]) -> None:
        """A plan unpickled (with its deal) in a process that never planned a Hearts
        deal: the suit tables legal_actions reads are filled first."""
        _fill_suits()
        for name, value in state[1].items():
            setattr(self, name, value)


# Plans by id(tables) (one _Tables per rule set and player count, see deal_tables._tables);
# each entry holds its tables, so an id is not reused while its entry lives.
_PLANS: dict[int, _Plan] = {}


def _plan(tables: _Tables) -> _Plan:
    plan = _PLANS.get(id(tables))
    if plan is None or plan.tables is not tables:
        if len(_PLANS) >= 256:
            _PLANS.clear()
        plan = _PLANS[id(tables)] = _Plan(tables)
    return plan


class _HeartsStatic(_Static):
    """The deal's fixed facts, with the family's: the dealt hands, the passes, and the
    plan's masks the per-action path reads (copied here: one attribute lookup each)."""

    __slots__ = ("bp", "clean_mask", "dealt", "direction", "first_card", "given", "keep",
                 "offset", "plan", "unbroken", "unhearts")

    dealt: tuple[Mask, ...]
    direction: str
    given: tuple[Mask, ...]
    offset: int
    plan: _Plan
    first_card: Card
    """The card that must open the first trick, or -1."""
    clean_mask: Mask
    """The cards kept off the first trick (0 without clean_first_trick)."""
    keep: Mask
    """~clean_mask: the cards the first trick may take."""
    unbroken: Mask
    """The cards that may not be led before hearts break (0 without break_hearts)."""
    unhearts: Mask
    """~unbroken."""
    bp: Mask
    """The cards in play that break hearts: hearts are unbroken while _rem holds them all."""


def _static(plan: _Plan, dealer: int, hands: tuple[Mask, ...], dealt: tuple[Mask, ...],
            given: tuple[Mask, ...], direction: str, offset: int) -> _HeartsStatic:
    s = _HeartsStatic(plan.tables, dealer, hands, -1, plan.tables.deal_state)
    s.dealt = dealt
    s.given = given
    s.direction = direction
    s.offset = offset
    s.plan = plan
    s.first_card = plan.first_card
    s.clean_mask = plan.clean_mask
    s.keep = plan.keep
    s.unbroken = plan.unbroken
    s.unhearts = plan.unhearts
    s.bp = plan.bp
    return s


def start_hearts(tables: _Tables, hands: tuple[Mask, ...], dealer: int) -> HeartsDeal:
    """The first state of a Hearts-family deal from checked hands (Deal._start's hook)."""
    plan = _plan(tables)
    direction, offset = plan.turns[dealer]
    s = _static(plan, dealer, hands, hands, (0,) * tables.n, direction, offset)
    deal = _new(HeartsDeal)
    deal._s = s
    deal._rem = s.all_cards
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
    card = s.first_card
    if card < 0:
        return s.eldest
    bit = 1 << card
    for p, h in enumerate(s.hands):
        if h & bit:
            return p
    raise AssertionError("the first card is in a hand")  # pragma: no cover - checked hands


class HeartsDeal(Deal):
    """A deal of the Hearts family.  Immutable; see :meth:`apply`."""

    __slots__ = ()  # the same layout as Deal (apply builds its states as Deal.apply does)

    private_phases: ClassVar[frozenset[str]] = frozenset({"pass"})
    """The passing: only the passer sees its cards."""

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
        rem = self._rem  # while passing, a chosen card has left _rem, and only those have
        return tuple([d & ~rem for d in s.dealt])

    def received(self, player: int) -> Mask:
        """The cards ``player`` received (0 until everyone has passed)."""
        s = self._s
        if self.phase == PASS_CARDS or not s.offset:
            return 0
        return s.given[(player - s.offset) % s.n]

    def visible_actions(self, player: int) -> tuple[Action, ...]:
        """The actions ``player`` has seen: all but the cards the others passed."""
        history = self.history
        if not self._s.offset:
            return history
        count = self._s.rules.pass_count
        passes = sum(g.bit_count() for g in self.passed)
        mine = (player - self._s.eldest) % self._s.n
        return tuple(a for i, a in enumerate(history) if i >= passes or i // count == mine)

    def public_holdings(self) -> tuple[tuple[int, Mask], ...]:
        """Before the first card, with ``first_lead`` lowest-club, every player knows
        that the player to lead holds the card that must open the first trick."""
        first = self._s.first_card
        if first < 0 or self.phase != PLAY or self._last is not None or self.trick:
            return ()
        return ((self.to_act, 1 << first),)

    def seat_knowledge(self, player: int) -> SeatKnowledge:
        """While passing, no history (the player's own choices are ``passed``); in play,
        the rules without passing, the hands after passing and the card play's
        history (the others' passes stay hidden)."""
        passing = self.phase == PASS_CARDS
        skip = 0 if passing else sum(g.bit_count() for g in self.passed)
        offset = self._s.offset
        return SeatKnowledge(
            rules=self._s.rules if passing else play_rules(self._s.rules),
            history=() if passing else self.history[skip:],
            initial_hand=self.play_hands[player],
            passed=self.passed[player],
            received=self.received(player),
            pass_to=(player + offset) % self._s.n if offset else -1,
        )

    def hearts_broken(self) -> bool:
        """True once a heart (or the Queen of spades, with queen_breaks) has been played."""
        if self.phase == PASS_CARDS:
            return False
        bp = self._s.bp
        return self._rem & bp != bp

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

    # legal_card_mask, legal_actions and apply are tricks.restricted_mask inlined
    # (they run at every action; tests/core/test_tricks.py checks them against it):
    # the first trick is the one while _last is None, and it is being led while
    # _led is 0 (no card of it played yet); hearts are unbroken while _rem holds
    # every card that breaks them (s.bp).

    def legal_card_mask(self) -> Mask:
        """The cards the player to act may play, or choose to pass (0 when done)."""
        phase = self.phase
        s = self._s
        hand = s.hands[self.to_act] & self._rem
        if phase == PLAY:
            led = self._led
            if led:
                follow = hand & led
                if follow:
                    return follow
                if self._last is None:
                    return hand & s.keep or hand
                return hand
            if self._last is None:
                if s.first_card >= 0:
                    return 1 << s.first_card
                hand = hand & s.keep or hand
                return hand & s.unhearts or hand  # nothing played yet: unbroken
            bp = s.bp
            if self._rem & bp == bp:
                return hand & s.unhearts or hand
            return hand
        if phase == PASS_CARDS:
            return hand
        return 0

    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to act, ascending (empty when done)."""
        s = self._s
        rem = self._rem
        hand = s.hands[self.to_act] & rem
        led = self._led
        if led:  # following a lead (_led is 0 while passing, on lead and once done)
            follow = hand & led
            if follow:  # the plain rule
                cards, shift = _FOLLOW[led]
                return [*cards[follow >> shift]]
            if self._last is None:
                hand = hand & s.keep or hand
        else:
            phase = self.phase
            if phase == PLAY:
                if self._last is None:
                    if s.first_card >= 0:
                        return [s.first_card]
                    hand = hand & s.keep or hand
                    hand = hand & s.unhearts or hand  # nothing played yet: unbroken
                else:
                    bp = s.bp
                    if rem & bp == bp:
                        hand = hand & s.unhearts or hand
            elif phase != PASS_CARDS:
                return []
        return [*_CLUBS[hand & 0x1FFF], *_DIAMONDS[hand >> 13 & 0x1FFF],
                *_HEARTS[hand >> 26 & 0x1FFF], *_SPADES[hand >> 39]]

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
        if 0 <= action < 52 and (player is None or player == self.to_act):
            # Deal.apply's card play, with the family's restrictions (see above)
            s = self._s
            p = self.to_act
            rem = self._rem
            hand = s.hands[p] & rem
            bit = _BITS[action]
            led = self._led
            if led:  # following a lead (so in play)
                if not hand & bit:
                    raise self._card_error(action)
                if not bit & led:
                    if hand & led:
                        raise self._follow_error(action, hand & led)
                    if self._last is None and bit & s.clean_mask and hand & s.keep:
                        raise self._family_error(action)
                before = self.trick
                trick = before + (action,)
                if len(trick) == s.n:
                    # the trick is full: the strongest card of the led suit wins
                    # (no trumps in this family; tricks.top_cards, as Deal.apply)
                    rem ^= bit
                    link = self._last
                    # the trick's cards: those gone from the hands since its lead
                    mask = (s.all_cards if link is None else link[_REM]) ^ rem
                    leader = s.nxt[p]
                    winner = (leader + trick.index(s.top[mask & led])) % s.n
                    won = 1 << (winner & 1)
                    if link is not None:
                        won |= link[_WON]
                    new = HeartsDeal()  # no __init__: an empty state (cheaper than _new)
                    new._s = s
                    new._rem = rem
                    new._h = (action, self._h)
                    new._last = [link, leader, trick, winner, mask, won, None, rem]
                    new._c = self._c
                    new.trick = ()
                    new._led = 0
                    new.to_act = winner
                    new.phase = PLAY if rem else DONE
                    new.done = not rem
                    return new
                new = HeartsDeal()  # no __init__: an empty state (cheaper than _new)
                new._s = s
                new._rem = rem ^ bit
                new._h = (action, self._h)
                new.phase = PLAY
                new.done = False
                new.to_act = s.nxt[p]
                new.trick = trick
                new._led = led
                new._last = self._last
                new._c = self._c
                return new
            phase = self.phase
            if phase == PLAY:  # leading: the first trick's and unbroken hearts' restrictions
                if not hand & bit:
                    raise self._card_error(action)
                if (self._last is None or (bit & s.unbroken and rem & s.bp == s.bp)) \
                        and not bit & self.legal_card_mask():
                    raise self._family_error(action)
                new = HeartsDeal()  # no __init__: an empty state (cheaper than _new)
                new._s = s
                new._rem = rem ^ bit
                new._h = (action, self._h)
                new.phase = PLAY
                new.done = False
                new.to_act = s.nxt[p]
                new.trick = (action,)
                new._led = SUIT_MASKS[action // 13]
                new._last = self._last
                new._c = self._c
                return new
            if phase == PASS_CARDS and hand & bit:
                rem ^= bit
                done = s.plan.cards - rem.bit_count()  # the passes so far, this one too
                if done == s.plan.passes:
                    return self._passed(action, rem)
                new = HeartsDeal()  # no __init__: an empty state (cheaper than _new)
                new._s = s  # the same static: the chosen cards have left _rem
                new._rem = rem
                new._h = (action, self._h)
                new._last = None
                new._c = self._c
                new._led = 0
                new.trick = ()
                new.done = False
                new.phase = PASS_CARDS
                new.to_act = p if done % s.rules.pass_count else s.nxt[p]
                return new
        if self.phase == PASS_CARDS:
            raise self._pass_error(action, player)
        out = Deal.apply(self, action, player)  # raises: a wrong player, action or phase
        out.__class__ = HeartsDeal  # pragma: no cover - not reached
        return out

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

    def _passed(self, action: Action, rem: Mask) -> HeartsDeal:
        """The state after the last pass (``action``; ``rem``: the cards not chosen):
        each player receives its cards, and play starts."""
        s = self._s
        dealt = s.dealt
        chosen = ~rem
        given = tuple([d & chosen for d in dealt])
        cut = s.n - s.offset  # player q receives the cards of player q - offset
        # each keeps its cards not chosen (d & rem) and receives its neighbour's
        hands = tuple([d & rem | r for d, r in zip(dealt, given[cut:] + given[:cut],
                                                     strict=True)])
        static = _static(s.plan, s.dealer, hands, dealt, given, s.direction, s.offset)
        for g in given:  # every card is in a hand again
            rem |= g
        new = HeartsDeal()  # no __init__: an empty state (cheaper than _new)
        new._s = static
        new._rem = rem
        new._h = (action, self._h)
        new._last = None
        new._c = self._c
        new._led = 0
        new.trick = ()
        new.done = False
        new.phase = PLAY
        new.to_act = _first_leader(static)
        return new

    def _pass_error(self, action: Action, player: int | None) -> IllegalActionError:
        """Why ``action`` by ``player`` is not a pass the player to act may make."""
        p = self.to_act
        name = _name(action)
        if player is not None and player != p:
            return NotYourTurnError(
                f"not your turn: player {player} tried {name}, but player {p} is to pass",
                rule="not-your-turn", action=name)
        if not 0 <= action < NUM_ACTIONS:
            return IllegalActionError(f"no such action: {name}", rule="unknown-action",
                                      action=name)
        if not 0 <= action < 52:
            return IllegalActionError(
                f"passing: player {p} must choose a card to pass, not {name}",
                rule="pass-a-card", action=name)
        return IllegalActionError(
            f"pass not in hand: player {p} does not hold {name}"
            + (" (already chosen)" if self.passed[p] & 1 << action else ""),
            rule="pass-not-in-hand", action=name)

    # ------------------------------------------------------------------ views

    def views(self, players: Iterable[int | None]) -> dict[int | None, dict[str, object]]:
        """What each of ``players`` may see (see :meth:`Deal.views`), with the passing:
        its own passed cards, and the cards it received once everyone has passed.
        Other players' passed cards show as ``"hidden"`` in ``actions``.
        """
        out = Deal.views(self, players)
        s = self._s
        passes = sum(g.bit_count() for g in self.passed) if s.offset else 0
        broken = self.hearts_broken()
        for player, view in out.items():
            if passes:
                shown = []
                q = s.eldest
                k = 0
                count = s.rules.pass_count
                for i, a in enumerate(self.history):
                    if i < passes:
                        shown.append(action_name(a) if q == player or self.phase == DONE
                                     else HIDDEN)
                        k += 1
                        if k == count:
                            k = 0
                            q = s.nxt[q]
                    else:
                        shown.append(action_name(a))
                view["actions"] = shown
            passing: dict[str, object] = {"direction": s.direction,
                                          "count": s.rules.pass_count if s.offset else 0}
            if player is not None and s.offset:
                passing["to"] = (player + s.offset) % s.n
                passing["from"] = (player - s.offset) % s.n
                passing["given"] = [CODES[c] for c in cards_of(self.passed[player])]
                passing["received"] = [CODES[c] for c in cards_of(self.received(player))]
            view["passing"] = passing
            view["hearts_broken"] = broken
        return out

    def __repr__(self) -> str:
        return (f"<HeartsDeal {self._s.rules.preset} players={self._s.n} "
                f"phase={self.phase_name} actions={len(self.history)}>")


_PLAY_RULES: dict[int, tuple[Rules, Rules]] = {}


def play_rules(rules: Rules) -> Rules:
    """``rules`` without passing: the game from the first card on (cached)."""
    hit = _PLAY_RULES.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    plain = rules if rules.passing == "none" else dataclasses.replace(rules, passing="none")
    if len(_PLAY_RULES) >= 64:
        _PLAY_RULES.clear()
    _PLAY_RULES[id(rules)] = (rules, plain)
    return plain


class HeartsFamily(Family):
    """The Hearts family (Black Lady, Black Maria): passing, the first trick's
    restrictions, hearts breaking, the moon; scored as the penalty games are."""

    name = "hearts"
    games = (GAME,)
    parameters = ("passing", "pass_count", "first_lead", "clean_first_trick", "break_hearts",
                  "queen_breaks", "moon")
    deal_class = HeartsDeal
    passing = True
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

    def play_limits(self, rules: Rules, n: int) -> PlayLimits | None:
        """The lowest club's lead, the clean first trick, hearts breaking and the
        moon, as set in ``rules`` (None: none of them)."""
        if not (rules.break_hearts or rules.clean_first_trick
                or rules.first_lead == "lowest-club" or rules.moon):
            return None
        penalty = penalty_cards(rules, n)
        return PlayLimits(
            opening=lowest_club(rules, n) if rules.first_lead == "lowest-club" else -1,
            clean=penalty if rules.clean_first_trick else 0,
            unbroken=HEARTS_MASK if rules.break_hearts else 0,
            breakers=breakers(rules) if rules.break_hearts else 0,
            moon=penalty if rules.moon else 0)

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


HEARTS: Final = HeartsFamily()
