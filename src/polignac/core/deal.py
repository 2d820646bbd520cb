"""One deal: dealing, the declaration round, trick play, calls (announcements, claims), the score.

A :class:`Deal` is immutable: :meth:`Deal.apply` returns a new deal and leaves
the old one as it was (also when it raises).  Players are numbered ``0..n-1``
in play order, counted within the deal; a :class:`~polignac.core.match.Match`
maps them to its seats (tie-break deals have fewer players than the match).

This module holds the :class:`Deal` class; its helpers have modules of their own:
what a deal needs from its rules and player count and the dealing
(core/deal_tables.py), the finished tricks (core/trick_chain.py), the calls beyond
card play (core/calls.py) and the phases (core/phases.py).  Their public names are
re-exported here.

>>> from polignac.core.presets import get_rules
>>> from polignac.core.cards import CardSet
>>> import random
>>> deal = Deal.shuffled(get_rules("polignac"), 4, dealer=0, rng=random.Random(1))
>>> deal.to_act, deal.phase_name
(1, 'declare')
>>> deal = deal.apply_text("pass").apply_text("pass").apply_text("pass").apply_text("pass")
>>> deal.phase_name
'play'
"""

from __future__ import annotations

import random as _random
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar, Final, NamedTuple

from .actions import (
    CAPOT,
    CLAIM,
    CONTRACT_WORDS,
    GENERAL,
    GENERALE,
    NUM_ACTIONS,
    PASS,
    Action,
    action_name,
    parse_action,
)
from .calls import _NOT_CALLED, NO_CALLS, CallRules, Calls, _Called, _unused
from .cards import (
    CARD_BITS,
    CODES,
    SUIT_LETTERS,
    SUIT_MASKS,
    Card,
    Mask,
    card_code,
    cards_of,
    parse_card,
)
from .deal_tables import (
    _FAST_SHUFFLE,
    _SUIT_CARDS,
    _fast_shuffle,
    _fill_suit_cards,
    _Random,
    _Static,
    _Tables,
    _tables,
    deal_packets,
)
from .errors import GameOverError, IllegalActionError, NotYourTurnError, RulesError
from .phases import DECLARE, DONE, PASS_CARDS, PHASE_NAMES, PLAY
from .rules import Rules
from .scoring import DealScore, ScoreLine
from .trick_chain import _PREV, _REM, _WINNER, _WON, Trick, _Link, _past, _totals, slam_of
from .tricks import legal_mask, winning_index

_DECLARATION_WORDS: Final = frozenset((PASS, CAPOT, GENERAL, GENERALE))
"""The declaration round's actions (the trick-avoidance family's, core/avoidance.py)."""

_new = object.__new__

_Chain = tuple[int, "_Chain"] | None
"""A history as a chain: None, or (last action, the chain before it)."""

_S0, _S1, _S2, _S3 = SUIT_MASKS
_BITS: Final = CARD_BITS  # a card's one-card mask, without a new int at every action


class SeatKnowledge(NamedTuple):
    """What one player knows of its deal beyond the public part, as its family's deal
    says (:meth:`Deal.seat_knowledge`; the bots' seat views are built from it)."""

    rules: Rules
    """The rules as the seat plays them now (the Hearts family: without passing
    once the cards are passed)."""
    history: tuple[Action, ...]
    """The actions it has seen, in order."""
    initial_hand: Mask
    """Its hand as it started playing (after passing)."""
    passed: Mask = 0
    """The cards it has chosen to pass."""
    received: Mask = 0
    """The cards passed to it (0 until everyone has passed)."""
    pass_to: int = -1
    """The player it passes to, or -1."""


HIDDEN: Final = "hidden"
"""What a view shows in place of an action of a private phase (:attr:`Deal.private_phases`)
that another player took (a passed card)."""


class Deal:
    """The state of one deal.  Immutable; see :meth:`apply`."""

    private_phases: ClassVar[frozenset[str]] = frozenset()
    """The phases (by name) whose actions only their actor sees: a family's deal class
    names its own (the Hearts family's pass); core/visibility.py hides them."""

    # The state is kept small, so that a card play sets few slots: the cards
    # still in the hands as one mask (a player's hand is its dealt hand & _rem;
    # hands have equal sizes, so _rem == 0 ends the deal), and what changes
    # only when a trick ends in _last (the last trick's link, None before
    # the first), what changes at a declaration or a call in _c.
    # The history is a chain of (action, earlier chain) pairs, shared with the
    # states before (one pair a action instead of copying the whole tuple);
    # the history property turns it into a tuple on first use (_hist, left
    # unset by apply: a slot set costs at every action, an unset one only when read).
    # done is a plain slot (read at every step of a play loop), kept equal to
    # phase == DONE; _led is the mask of the led suit's cards (0 before a lead).
    __slots__ = (
        "_c",
        "_h",
        "_hist",
        "_last",
        "_led",
        "_rem",
        "_s",
        "done",
        "phase",
        "to_act",
        "trick",
    )

    _s: _Static
    _rem: Mask
    _last: _Link | None
    """The last finished trick's link (core/trick_chain.py: _PREV.._REM), None before the first."""
    _c: _Called
    _h: _Chain
    _hist: tuple[Action, ...]
    """The history as a tuple, once built (unset until then)."""
    _led: Mask
    phase: int
    to_act: int
    trick: tuple[Card, ...]
    done: bool
    """True when the deal is over (every card played, or a claim)."""

    # ----------------------------------------------------------- construction

    @classmethod
    def from_hands(
        cls,
        rules: Rules,
        hands: Sequence[Sequence[Card] | Mask],
        dealer: int = 0,
        turn_up: Card | None = None,
        family_state: Any = None,
    ) -> Deal:
        """Start a deal from the players' hands (player 0 first, in play order).

        ``family_state`` is the scoring family's state of the deal (its
        ``Family.deal_state`` of the match's; None: of a deal on its own), which
        the deal carries for its family (:attr:`family_state`).

        Raises:
            RulesError: wrong number of hands or cards, a card dealt twice or
                not in the pack, a missing or superfluous turn-up.
        """
        n = len(hands)
        masks: list[Mask] = []
        for h in hands:
            if isinstance(h, int):
                masks.append(h)
            else:
                m = 0
                for c in h:
                    m |= 1 << c
                masks.append(m)
        rules.check_player_count(n, allow_any=True)
        if not 0 <= dealer < n:
            raise RulesError(f"dealer {dealer} is not a player (0-{n - 1})")
        pack = rules.pack_mask(n)
        size = rules.hand_size(n)
        seen = 0
        for i, m in enumerate(masks):
            if m.bit_count() != size:
                raise RulesError(
                    f"hand {i} has {m.bit_count()} cards; each player gets {size}"
                )
            if m & ~pack:
                bad = " ".join(CODES[c] for c in cards_of(m & ~pack))
                raise RulesError(f"hand {i} holds cards not in this pack: {bad}")
            if m & seen:
                bad = " ".join(CODES[c] for c in cards_of(m & seen))
                raise RulesError(f"hand {i} repeats cards dealt to another hand: {bad}")
            seen |= m
        if rules.has_turn_up:
            if turn_up is None:
                raise RulesError("this game turns up a trump card: turn_up is missing")
            if not (pack >> turn_up & 1) or seen >> turn_up & 1:
                raise RulesError(
                    f"turn_up {CODES[turn_up]} must be the pack's card that no hand holds"
                )
        elif turn_up is not None:
            raise RulesError("turn_up given, but this game has no trumps (trumps: none)")
        tables = _tables(rules, n)
        if tables is None:  # pragma: no cover - check_player_count has passed
            raise RulesError(f"{n} players cannot play these rules")
        return cls._start(tables, tuple(masks), dealer,
                          -1 if turn_up is None else turn_up, family_state)

    @classmethod
    def _start(
        cls,
        tables: _Tables,
        hands: tuple[Mask, ...],
        dealer: int,
        turn_up: Card,
        family_state: Any,
    ) -> Deal:
        """The first state of a deal from checked hands."""
        if tables.start is not None:  # the family's own deal (Hearts: passing, leads)
            return tables.start(tables, hands, dealer)
        static = _Static(tables, dealer, hands, turn_up,
                         tables.deal_state if family_state is None else family_state)
        deal = _new(cls)
        deal._s = static
        deal._rem = static.all_cards
        deal.phase = tables.first_phase
        deal.done = False
        deal.to_act = static.eldest
        deal.trick = ()
        deal._led = 0
        deal._last = None
        deal._c = _NOT_CALLED
        deal._h = None
        deal._hist = ()
        return deal

    @classmethod
    def from_pack(
        cls,
        rules: Rules,
        pack_order: Sequence[Card],
        n: int,
        dealer: int = 0,
        family_state: Any = None,
    ) -> Deal:
        """Deal ``pack_order`` (top card first) as the dealer would (``family_state``:
        as :meth:`from_hands`).

        The dealer gives packets of ``rules.packets`` sizes (repeated; the last
        cut to fit) to each player in turn, starting with eldest (the player
        after the dealer); with a turn-up, the last card is turned up.

        Raises:
            RulesError: the pack is not exactly the cards in play for ``n``.
        """
        pack = rules.pack_mask(n)
        order = list(pack_order)
        if len(order) != pack.bit_count() or sum(1 << c for c in set(order)) != pack:
            raise RulesError(
                f"pack order must hold each of the {pack.bit_count()} cards in play once"
            )
        hands = deal_packets(rules, order, n, dealer)
        turn_up = order[-1] if rules.has_turn_up else None
        return cls.from_hands(rules, hands, dealer, turn_up, family_state)

    @classmethod
    def shuffled(
        cls,
        rules: Rules,
        n: int,
        dealer: int,
        rng: _random.Random,
        family_state: Any = None,
    ) -> Deal:
        """Shuffle the pack with ``rng`` (injected: seeded, or secrets.SystemRandom) and deal it
        (``family_state``: as :meth:`from_hands`).

        Raises:
            RulesError: ``n`` players cannot play these rules.
        """
        tables = _tables(rules, n)
        if tables is None or not 0 <= dealer < n:  # the checked path raises the error
            order = cards_of(rules.pack_mask(n))
            rng.shuffle(order)
            return cls.from_pack(rules, order, n, dealer, family_state)
        # The same as from_pack, without checking what is right by construction.
        getters = tables.deal_hands
        if getters is not None:
            bits = tables.pack_bits.copy()  # one-card masks, in pack order
            if _FAST_SHUFFLE and type(rng) is _Random:
                _fast_shuffle(rng, bits)  # the same order and rng use as rng.shuffle
            else:
                rng.shuffle(bits)
            hands = tuple([sum(get(bits)) for get in getters[dealer]])
            # With a turn-up the last card of the pack is turned up (no getter has it).
            turn_up = bits[-1].bit_length() - 1 if tables.turn_up_game else -1
            return cls._start(tables, hands, dealer, turn_up, family_state)
        order = list(tables.pack_order)
        rng.shuffle(order)
        masks = [0] * n
        # deal_to is one shorter than the order with a turn-up: it stays out.
        for card, p in zip(order, tables.deal_to[dealer], strict=False):
            masks[p] |= 1 << card
        turn_up = order[-1] if tables.turn_up_game else -1
        return cls._start(tables, tuple(masks), dealer, turn_up, family_state)

    # ------------------------------------------------------------- accessors

    @property
    def history(self) -> tuple[Action, ...]:
        """Every action so far, in order."""
        try:
            return self._hist
        except AttributeError:  # not built yet
            out = []
            h = self._h
            while h is not None:
                out.append(h[0])
                h = h[1]
            out.reverse()
            hist = self._hist = tuple(out)  # a cache: the state itself is unchanged
            return hist

    @property
    def hands(self) -> tuple[Mask, ...]:
        """Each player's cards in hand now."""
        rem = self._rem
        return tuple([h & rem for h in self._s.hands])

    @property
    def leader(self) -> int:
        """The player who leads (led) the trick in progress (eldest while declaring)."""
        if self.phase == DECLARE:
            return self._s.eldest
        return (self.to_act - len(self.trick)) % self._s.n

    @property
    def taken(self) -> tuple[Mask, ...]:
        """The cards in each player's tricks."""
        return _totals(self._last, self._s.n)[0]

    @property
    def tricks(self) -> tuple[int, ...]:
        """How many tricks each player has won."""
        return _totals(self._last, self._s.n)[1]

    @property
    def past(self) -> tuple[Trick, ...]:
        """The finished tricks, in order."""
        return _past(self._last, self._s.n)

    @property
    def trick_winners(self) -> tuple[int, ...]:
        """Who won each finished trick, in order (as ``past``, without building the
        tricks: scoring a deal reads the first and the last)."""
        out = []
        link = self._last
        while link is not None:
            out.append(link[_WINNER])
            link = link[_PREV]
        out.reverse()
        return tuple(out)

    @property
    def declarer(self) -> int:
        """The player who declared a contract, or -1."""
        return self._c.declarer

    @property
    def _calls(self) -> Calls:
        return self._c.calls

    @property
    def calls(self) -> Calls:
        """The calls beyond card play so far (announcements, the claim: the family's
        :class:`~polignac.core.calls.CallRules` make them)."""
        return self._c.calls

    @property
    def rules(self) -> Rules:
        """The rules of this deal."""
        return self._s.rules

    @property
    def num_players(self) -> int:
        """Number of players in this deal."""
        return self._s.n

    @property
    def dealer(self) -> int:
        """The dealer (a player number of this deal)."""
        return self._s.dealer

    @property
    def eldest(self) -> int:
        """The player after the dealer, who acts first."""
        return self._s.eldest

    @property
    def initial_hands(self) -> tuple[Mask, ...]:
        """The hands as dealt."""
        return self._s.hands

    @property
    def turn_up(self) -> Card | None:
        """The turned-up trump card, or None."""
        return None if self._s.turn_up < 0 else self._s.turn_up

    @property
    def trump(self) -> int | None:
        """The trump suit, or None."""
        return None if self._s.trump < 0 else self._s.trump

    @property
    def phase_name(self) -> str:
        """``declare``, ``play`` or ``done``."""
        return PHASE_NAMES[self.phase]

    @property
    def contract(self) -> str | None:
        """The declared contract word (``capot``, ``general``, ``generale``), or None."""
        if self.declarer < 0:
            return None
        return CONTRACT_WORDS[self._s.contract_action]

    @property
    def family_state(self) -> Any:
        """The scoring family's state of this deal, given at its start and carried
        unread (``Family.deal_state``; None in a family that keeps none)."""
        return self._s.family_state

    @property
    def announcements(self) -> tuple[tuple[int, str], ...]:
        """The announcements so far: (player, name) in order."""
        return self._calls.log

    @property
    def claim(self) -> tuple[int, bool] | None:
        """(claimant, correct) if the deal ended by a claim."""
        return self._calls.claim

    # ------------------------------------------- what a seat knows (family hooks)

    @property
    def play_hands(self) -> tuple[Mask, ...]:
        """The hands as trick play starts (a family with passing: after the passes)."""
        return self._s.hands

    @property
    def pass_direction(self) -> str:
        """Where this deal's passed cards go (``none`` in a game without passing)."""
        return "none"

    @property
    def pass_to_offset(self) -> int:
        """How many players on the passed cards go (0: no pass in this deal)."""
        return 0

    @property
    def passed(self) -> tuple[Mask, ...]:
        """The cards each player has chosen to pass so far (none without passing)."""
        return (0,) * self._s.n

    def received(self, player: int) -> Mask:
        """The cards passed to ``player`` (0 until everyone has passed, or without passing)."""
        return 0

    def visible_actions(self, player: int) -> tuple[Action, ...]:
        """The actions ``player`` has seen: every one, unless its family hides some
        (the Hearts family: the cards the others passed)."""
        return self.history

    def public_holdings(self) -> tuple[tuple[int, Mask], ...]:
        """Cards every player knows a player holds, though unplayed: (player, cards);
        none unless its family says (the Hearts family: the lowest club's holder leads)."""
        return ()

    def seat_knowledge(self, player: int) -> SeatKnowledge:
        """What ``player`` knows beyond the public part of the deal (its family's
        deal may say more: the passes)."""
        return SeatKnowledge(self._s.rules, self.history, self._s.hands[player])

    def trick_winner_so_far(self) -> int | None:
        """The player currently winning the trick in progress, or None."""
        if not self.trick:
            return None
        s = self._s
        return (self.leader + winning_index(self.trick, s.strength, s.trump)) % s.n

    # ---------------------------------------------------------- legal actions

    def legal_card_mask(self) -> Mask:
        """The cards the player to act may play (0 outside trick play)."""
        if self.phase != PLAY:
            return 0
        hand = self._s.hands[self.to_act] & self._rem
        return legal_mask(hand, self.trick[0] // 13 if self.trick else -1)

    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to act, ascending (empty when done)."""
        phase = self.phase
        if phase == PLAY:
            s = self._s
            hand = s.hands[self.to_act] & self._rem
            # follow suit (tricks.legal_mask, inlined: this runs at every action)
            follow = hand & self._led  # 0 on lead, or when void in the led suit
            cards = _SUIT_CARDS
            try:
                if follow:
                    out = [*cards[follow]]
                else:
                    out = [*cards[hand & _S0], *cards[hand & _S1], *cards[hand & _S2],
                           *cards[hand & _S3]]
            except KeyError:  # a pack not dealt in this process (an unpickled deal)
                _fill_suit_cards(s.rules.pack_mask(s.n))
                return self.legal_actions()
            if s.has_calls:
                # calls (the family's CallRules), in action order: the claim (on lead),
                # then the announcements still open (a cached tuple, CallRules.open).
                p = self.to_act
                if not self._led:
                    out.append(CLAIM)  # on lead
                if s.announcers[p]:  # dealt an announcement (else it never has one)
                    # CallRules.may_announce, inlined (a call less at every action)
                    last = self._last
                    if (p == s.eldest and not self._led and last is None) or (
                            last is not None and last[_WON] >> (p & 1) & 1):
                        ann = s.open_calls[hand & s.call_cards]
                        if ann:  # often empty: skip the rest
                            made = self._c.calls.made[p]
                            if made:  # after its own announcement: not the used slots
                                out += _unused(ann, made, s.call_slot)
                            else:
                                out += ann
            return out
        if phase == DECLARE:
            contract = self._s.contract_action
            return [PASS, contract] if contract > PASS else [contract, PASS]
        return []

    def _may_announce(self, p: int) -> bool:
        last = self._last
        calls = self._s.call_rules
        assert calls is not None
        return calls.may_announce(p, self._s.eldest, last is None and not self.trick,
                                  0 if last is None else last[_WON])

    # ----------------------------------------------------------------- apply

    def apply(self, action: Action, player: int | None = None) -> Deal:
        """Return the deal after ``action`` by the player to act.

        ``player``, when given, must be the player to act.

        Raises:
            NotYourTurnError: ``player`` is not the player to act.
            GameOverError: the deal is over.
            IllegalActionError: the action breaks a rule; ``.rule`` names it.
        """
        if player is not None and player != self.to_act and self.phase != DONE:
            raise NotYourTurnError(
                f"not your turn: player {player} tried {_name(action)}, "
                f"but player {self.to_act} is to act",
                rule="not-your-turn", action=_name(action),
            )
        phase = self.phase
        if phase == PLAY and 0 <= action < 52:
            s = self._s
            p = self.to_act
            rem = self._rem
            hand = s.hands[p] & rem
            bit = _BITS[action]
            if not hand & bit:
                raise self._card_error(action)
            led = self._led
            if led:  # following: tricks.legal_mask's rule, inlined
                if not bit & led and hand & led:
                    raise self._follow_error(action, hand & led)
                trick = self.trick + (action,)
                if len(trick) == s.n:
                    # The trick is full (done here, not in a method: one call less
                    # a trick).  The strongest trump wins, or else the strongest
                    # card of the led suit (tricks.top_cards, the table form of
                    # tricks.winning_index); its leader came after p.
                    rem ^= bit
                    link = self._last
                    # the trick's cards: those gone from the hands since its lead
                    mask = (s.all_cards if link is None else link[_REM]) ^ rem
                    leader = s.nxt[p]
                    winner = (leader + trick.index(s.top[mask & s.trump_mask or mask & led])) \
                        % s.n
                    won = 1 << (winner & 1)
                    if link is not None:
                        won |= link[_WON]
                    new = Deal()  # no __init__: an empty state (cheaper than _new(Deal))
                    new._s = s
                    new._rem = rem
                    new._h = (action, self._h)
                    # taken, tricks and past are worked out from the links when read
                    new._last = [link, leader, trick, winner, mask, won, None, rem]
                    new._c = self._c
                    new.trick = ()
                    new._led = 0
                    new.to_act = winner
                    # hands have equal sizes: the deal ends when the last trick does
                    new.phase = PLAY if rem else DONE
                    new.done = not rem
                    return new
            else:  # leading (n >= 2: a lead never ends the trick)
                trick = (action,)
                led = SUIT_MASKS[action // 13]
            new = Deal()  # no __init__: an empty state (cheaper than _new(Deal))
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
        if phase == DONE:
            raise GameOverError(
                f"the deal is over: {_name(action)} cannot be played",
                rule="deal-over", action=_name(action),
            )
        return self._call(action)

    def apply_text(self, text: str, player: int | None = None) -> Deal:
        """Like :meth:`apply`, reading the action from its record text.

        Raises:
            IllegalActionError: unknown text, or an illegal action.
        """
        return self.apply(parse_action(text), player)

    def _card_error(self, card: Card) -> IllegalActionError:
        p = self.to_act
        owner = next((i for i, h in enumerate(self.hands) if h >> card & 1), None)
        if owner is not None:
            # never say whose: another player's unplayed cards are hidden information
            where = "it is in another player's hand"
        elif self._s.turn_up == card:
            where = "it is the turned-up trump card"
        elif any(t >> card & 1 for t in self.taken) or card in self.trick:
            where = "it has already been played"
        else:
            where = "it is not in this pack"
        return IllegalActionError(
            f"card not in hand: player {p} does not hold {CODES[card]} ({where})",
            rule="card-not-in-hand", action=CODES[card],
        )

    def _follow_error(self, card: Card, follow: Mask) -> IllegalActionError:
        led = self.trick[0]
        return IllegalActionError(
            f"must follow suit: {CODES[card]} does not follow "
            f"{SUIT_LETTERS[led // 13]} (led by {CODES[led]}), "
            f"and player {self.to_act} holds " + " ".join(CODES[c] for c in cards_of(follow)),
            rule="must-follow-suit", action=CODES[card],
        )

    def _call(self, action: Action) -> Deal:
        s = self._s
        p = self.to_act
        if 0 <= action < 52 or action in _DECLARATION_WORDS:
            # a card during the declaration round, or a declaration: the family's
            declare = s.declare
            if declare is not None:
                return declare(self, action)
            name = _name(action)
            raise IllegalActionError(
                f"{name} does not belong to this game: preset "
                f"{s.rules.preset!r} has no declaration round",
                rule="not-in-this-game", action=name,
            )
        name = _name(action)
        if not 52 <= action < NUM_ACTIONS:
            raise IllegalActionError(f"no such action: {name}", rule="unknown-action",
                                     action=name)
        # calls beyond card play: announcements and claims (the family's CallRules)
        rules = s.call_rules
        if rules is None:
            raise IllegalActionError(
                f"{name} does not belong to this game: preset {s.rules.preset!r} "
                "has no announcements or claims",
                rule="not-in-this-game", action=name,
            )
        if self.phase != PLAY:  # pragma: no cover - no game with calls declares
            raise IllegalActionError(f"{name} is not allowed now", rule="call-out-of-time")
        if action == CLAIM:
            calls = rules.claimed(self, self._calls, p)
            new = self._copy(action)
            new._set_calls(calls)
            new.phase = DONE
            new.done = True
            return new
        calls = rules.announced(self._calls, p, action, self.hands[p], self._may_announce(p))
        new = self._copy(action)
        new._set_calls(calls)
        return new

    def _copy(self, action: Action) -> Deal:
        """A copy of this state with ``action`` added to the history (the caller sets the rest).

        Every slot is set here, one by one (a loop over __slots__ with
        getattr/setattr costs several times more, at every declaration).
        """
        new = Deal()  # no __init__: an empty state (cheaper than _new(Deal))
        new._s = self._s
        new._rem = self._rem
        new._h = (action, self._h)
        new._last = self._last
        new._c = self._c
        new._led = self._led
        new.phase = self.phase
        new.done = self.done
        new.to_act = self.to_act
        new.trick = self.trick
        return new

    def _set_calls(self, calls: Calls) -> None:
        """Replace the calls of a deal being built (only on a fresh copy)."""
        self._c = _Called(self._c.declarer, calls)

    def _side_card_points(self, side: int) -> int:
        pts = self._s.points
        total = 0
        for p in range(side, self._s.n, 2):
            m = self.taken[p]
            while m:
                low = m & -m
                total += pts[low.bit_length() - 1]
                m ^= low
        return total

    # ------------------------------------------------------------------ score

    def card_points(self, player: int) -> int:
        """The card points in ``player``'s tricks (plus trick points where counted)."""
        pts = self._s.points
        total = 0
        m = self.taken[player]
        while m:
            low = m & -m
            total += pts[low.bit_length() - 1]
            m ^= low
        return total

    def points_taken(self) -> tuple[int, ...]:
        """Each player's points taken so far in the deal, as its scoring counts them
        before the end (the scoring family's :meth:`~polignac.core.families.Family.points_taken`:
        no contract, moon or settlement, which come with :meth:`score`).  Public
        information (the taken cards are in every view).
        """
        return self._s.rules.scorer.points_taken(self)

    def score(self) -> DealScore:
        """The score of the finished deal, with its reasons.

        Raises:
            IllegalActionError: the deal is not finished (rule ``deal-not-over``).
        """
        if self.phase != DONE:
            raise IllegalActionError("the deal is not over yet", rule="deal-not-over")
        return self._s.score_deal(self)  # the scoring family's (core/families.py)

    def point_takers(self) -> dict[str, int]:
        """Each point card taken so far (its code) and the player who took it."""
        point_mask = self._s.point_mask
        out: dict[str, int] = {}
        for p, m in enumerate(self.taken):  # by player, each in card order
            m &= point_mask
            while m:
                low = m & -m
                out[CODES[low.bit_length() - 1]] = p
                m ^= low
        return out

    def slam(self) -> int:
        """The player who has taken every trick of the deal, or -1."""
        return slam_of(self.tricks, self._s.total_tricks)

    def side_card_points(self, side: int) -> int:
        """The card points taken so far by partnership ``side`` (0 or 1)."""
        return self._side_card_points(side)

    def side_total(self, side: int) -> int:
        """In a game scored by sides: a side's score counted now, as the scoring
        family counts it (``Family.side_total``)."""
        return self._s.rules.scorer.side_total(self, side)

    # ------------------------------------------------------------------ views

    def view(self, player: int | None) -> dict[str, object]:
        """What ``player`` may see, as JSON-ready data (None: a spectator).

        A player sees its own hand, every action taken (all are public), the
        tricks and their winners, the cards each player has taken, the
        turn-up, the announcements and, when the deal is over, the score.  It
        never sees another player's unplayed cards.
        """
        return self.views((player,))[player]

    def views(self, players: Iterable[int | None]) -> dict[int | None, dict[str, object]]:
        """:meth:`view` of each of ``players`` (None: a spectator), the part every
        viewer may see built once for all of them (a server sends each seat its view
        after every action).  Each view is a dict of its own; the values of the
        public part are shared between them (JSON-ready data, not to be changed in
        place)."""
        players = tuple(players)
        if not players:
            return {}
        public = self._public_view()
        out: dict[int | None, dict[str, object]] = {}
        hands = self.hands
        for player in players:
            own = dict(public)
            own["hand"] = None if player is None else [CODES[c] for c in cards_of(hands[player])]
            if player is not None and player == self.to_act and self.phase != DONE:
                own["legal"] = [action_name(a) for a in self.legal_actions()]
            out[player] = own
        return out

    def _public_view(self) -> dict[str, object]:
        """The part of a view every viewer sees (:meth:`views`)."""
        s = self._s
        out: dict[str, object] = {
            "players": s.n,
            "dealer": s.dealer,
            "phase": PHASE_NAMES[self.phase],
            "to_act": None if self.phase == DONE else self.to_act,
            "hand": None,
            "hand_sizes": [h.bit_count() for h in self.hands],
            "turn_up": None if s.turn_up < 0 else CODES[s.turn_up],
            "trump": None if s.trump < 0 else SUIT_LETTERS[s.trump],
            "actions": [action_name(a) for a in self.history],
            "tricks": [t.to_dict() for t in self.past],
            "trick": {"leader": self.leader, "cards": [CODES[c] for c in self.trick]},
            "tricks_won": list(self.tricks),
            "taken": [[CODES[c] for c in cards_of(t)] for t in self.taken],
            "points_taken": list(self.points_taken()),
            "declarer": None if self.declarer < 0 else self.declarer,
            "contract": self.contract,
        }
        if s.has_calls:
            out["announcements"] = [{"player": p, "announcement": a} for p, a in self._calls.log]
            out["side_totals"] = [self.side_total(0), self.side_total(1)]
        if self.phase == DONE:
            out["score"] = self.score().to_dict()
        return out

    # --------------------------------------------------------------- equality

    def key(self) -> tuple[object, ...]:
        """A value that identifies the state (equal keys: equal states)."""
        return (self._s.hands, self._s.dealer, self._s.turn_up, self._s.family_state,
                self.history)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Deal) and other._s.rules == self._s.rules \
            and other.key() == self.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        return (f"<Deal {self._s.rules.preset} players={self._s.n} "
                f"phase={PHASE_NAMES[self.phase]} actions={len(self.history)}>")


def _name(action: Action) -> str:
    if 0 <= action < NUM_ACTIONS:
        return action_name(action)
    return f"action #{action}"


def parse_hand(codes: Sequence[str]) -> Mask:
    """Read a hand from card codes.

    Raises:
        CardParseError: a code is not a card.
    """
    m = 0
    for code in codes:
        m |= 1 << parse_card(code)
    return m


__all__ = [
    "DECLARE",
    "DONE",
    "NO_CALLS",
    "PASS_CARDS",
    "PHASE_NAMES",
    "PLAY",
    "CallRules",
    "Calls",
    "Deal",
    "DealScore",
    "ScoreLine",
    "SeatKnowledge",
    "Trick",
    "card_code",
    "deal_packets",
    "parse_hand",
    "slam_of",
]
