"""Every preset as an OpenSpiel Python game: ``python_polignac``.

>>> from polignac.research.openspiel_game import load_game
>>> game = load_game("slobberhannes", players=4)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 32)

One OpenSpiel game is **one deal** (the natural unit for RL and search); a
match is a sequence of such games, which the caller drives (no match mode: a
match's score carry-over, redeals and tie-break deals with fewer players do
not fit OpenSpiel's fixed player count cleanly).

Parameters (``pyspiel.load_game("python_polignac(preset=knaves,players=3)")``):

- ``preset`` (string, default ``polignac``): any name in ``polignac.core.PRESETS``;
- ``players`` (int, default 0 = the preset's default count);
- ``rules`` (string, default ``{}``): a JSON object of house-rule overrides,
  as accepted by ``get_rules(preset, overrides)``;
- ``dealer`` (int, default 0): the dealer; player ``dealer + 1`` is eldest.

Chance nodes deal the pack card by card (uniformly among the cards left):
for Knaves the turned-up trump card first, then one card at a time to each
player in turn from eldest.  Player actions are the core's action ints
(``NUM_ACTIONS`` = 67).  Returns: see :func:`polignac.research.encoding.deal_returns`.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Mapping
from typing import Any, Final

import numpy as np
import pyspiel

from ..core.actions import NUM_ACTIONS, action_name
from ..core.cards import CODES, Mask, cards_of
from ..core.deal import Deal
from ..core.errors import PolignacError, RulesError
from ..core.presets import PRESETS, get_rules
from ..core.rules import Rules
from .encoding import (
    deal_returns,
    encode_infostate,
    encode_observation,
    encode_partial_observation,
    infostate_shapes,
    max_game_length,
    observation_shapes,
    utility_bounds,
    views,
)
from .sampling import Knowledge, SamplingError, passing_world, sample_hands

SHORT_NAME: Final = "python_polignac"
_MIN_PLAYERS: Final = min(min(r.players) for r in PRESETS.values())
_MAX_PLAYERS: Final = max(max(r.players) for r in PRESETS.values())
DEFAULT_PARAMS: Final[dict[str, Any]] = {"preset": "polignac", "players": 0, "rules": "{}",
                                          "dealer": 0}


def _game_type(utility: Any) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="Polignac and its family (one deal)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=_MAX_PLAYERS,
        min_num_players=_MIN_PLAYERS,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(DEFAULT_PARAMS),
    )


GAME_TYPE: Final = _game_type(pyspiel.GameType.Utility.GENERAL_SUM)
_ZERO_SUM_TYPE: Final = _game_type(pyspiel.GameType.Utility.ZERO_SUM)


class Config:
    """What a game's states need (kept apart from the pyspiel game object, whose
    Python attributes do not survive every trip through C++)."""

    __slots__ = ("dealer", "hand_size", "max_length", "n", "num_dealt", "pack", "rules",
                 "turn_up_first")

    def __init__(self, rules: Rules, n: int, dealer: int) -> None:
        self.rules = rules
        self.n = n
        self.dealer = dealer
        self.pack: Mask = rules.pack_mask(n)
        self.hand_size = rules.hand_size(n)
        self.turn_up_first = rules.has_turn_up
        self.num_dealt = self.hand_size * n + (1 if self.turn_up_first else 0)
        self.max_length = max_game_length(rules, n)


_CONFIGS: dict[tuple[str, int, str, int], Config] = {}


def game_config(params: Mapping[str, Any]) -> Config:
    """The :class:`Config` of the game with these parameters (cached).

    Raises:
        RulesError: unknown preset, bad overrides, a player count the preset
            does not allow, or a dealer who is not a player.
    """
    p = dict(DEFAULT_PARAMS)
    p.update(params)
    key = (str(p["preset"]), int(p["players"]), str(p["rules"]), int(p["dealer"]))
    cfg = _CONFIGS.get(key)
    if cfg is None:
        overrides = json.loads(key[2] or "{}")
        if not isinstance(overrides, dict):
            raise RulesError(f"rules must be a JSON object of overrides, got {key[2]!r}")
        rules = get_rules(key[0], overrides)
        n = key[1] or rules.default_players
        rules.check_player_count(n)
        if not 0 <= key[3] < n:
            raise RulesError(f"dealer {key[3]} is not a player (0-{n - 1})")
        cfg = _CONFIGS[key] = Config(rules, n, key[3])
    return cfg


class PolignacGame(pyspiel.Game):
    """One deal of a preset (with house rules) for a number of players."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        p = dict(DEFAULT_PARAMS)
        p.update(params or {})
        cfg = game_config(p)
        rules, n = cfg.rules, cfg.n
        lo, hi = utility_bounds(rules, n)
        zero_sum = rules.scorer.zero_sum  # the scoring family says (scored by sides)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=52,
            num_players=n,
            min_utility=lo,
            max_utility=hi,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=cfg.max_length,
        )
        params_out = {"preset": str(p["preset"]), "players": int(p["players"]),
                      "rules": str(p["rules"]), "dealer": cfg.dealer}
        super().__init__(_ZERO_SUM_TYPE if zero_sum else GAME_TYPE, info, params_out)

    @property
    def config(self) -> Config:
        """The rules, player count, dealer and derived sizes of this game."""
        return game_config(self.get_parameters())

    @property
    def rules(self) -> Rules:
        """The rules (preset plus house rules) of this game."""
        return self.config.rules

    def new_initial_state(self) -> PolignacState:
        """A state before the first card is dealt."""
        return PolignacState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: Mapping[str, Any] | None = None) -> PolignacObserver:
        """The observer behind the observation and information-state strings and tensors."""
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return PolignacObserver(game_config(self.get_parameters()), perfect_recall)


class PolignacState(pyspiel.State):
    """A deal in progress: chance nodes while dealing, then the core :class:`Deal`."""

    def __init__(self, game: PolignacGame) -> None:
        super().__init__(game)
        self._g = game_config(game.get_parameters())
        self.dealt: list[int] = []  # chance outcomes so far (turn-up first for Knaves)
        self.deal: Deal | None = None
        self._returns: list[float] | None = None

    # -------------------------------------------------------------- dealing

    @property
    def turn_up(self) -> int:
        """The turned-up card once dealt, else -1."""
        return self.dealt[0] if self._g.turn_up_first and self.dealt else -1

    def owner_of_position(self, k: int) -> int:
        """The player who receives the ``k``-th chance outcome (-1: the turn-up)."""
        g = self._g
        if g.turn_up_first:
            if k == 0:
                return -1
            k -= 1
        return (g.dealer + 1 + k) % g.n

    def dealt_hand(self, player: int) -> Mask:
        """``player``'s cards dealt so far."""
        m = 0
        for k, c in enumerate(self.dealt):
            if self.owner_of_position(k) == player:
                m |= 1 << c
        return m

    def _finish_dealing(self) -> None:
        g = self._g
        hands = [self.dealt_hand(p) for p in range(g.n)]
        turn_up = self.turn_up if g.turn_up_first else None
        self.deal = Deal.from_hands(g.rules, hands, g.dealer, turn_up)

    # ------------------------------------------------------------ the API

    def current_player(self) -> int:
        """The player to act, CHANCE while dealing, TERMINAL when over."""
        if self.deal is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.deal.done:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.deal.to_act

    def _legal_actions(self, player: int) -> list[int]:
        assert self.deal is not None and player == self.deal.to_act
        return self.deal.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards not dealt yet, each equally likely."""
        left = self._g.pack
        for c in self.dealt:
            left &= ~(1 << c)
        cards = cards_of(left)
        p = 1.0 / len(cards)
        return [(c, p) for c in cards]

    def _apply_action(self, action: int) -> None:
        if self.deal is None:
            self.dealt.append(action)
            if len(self.dealt) == self._g.num_dealt:
                self._finish_dealing()
            return
        self.deal = self.deal.apply(action)
        if self.deal.done:
            self._returns = deal_returns(self.deal)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            k = len(self.dealt)
            return ("TurnUp:" if self._g.turn_up_first and k == 0 else "Deal:") + CODES[action]
        return action_name(action)

    def is_terminal(self) -> bool:
        """True when the deal is over."""
        return self.deal is not None and self.deal.done

    def returns(self) -> list[float]:
        """Each player's return (zeros until the deal is over)."""
        return list(self._returns) if self._returns is not None else [0.0] * self._g.n

    def player_actions(self) -> list[int]:
        """The player actions of the deal so far (after the chance nodes)."""
        return list(self.deal.history) if self.deal is not None else []

    def visible_actions(self, player: int) -> list[int]:
        """The player actions ``player`` saw: all of them, except (the Hearts family)
        the cards other players passed."""
        d = self.deal
        return [] if d is None else list(d.visible_actions(player))  # its family's hook

    def received(self, player: int) -> Mask:
        """The Hearts family: the cards passed to ``player`` (0 before or without passing)."""
        d = self.deal
        return 0 if d is None else d.received(player)

    def resample_from_infostate(self, player_id: int,
                                probability_sampler: Callable[[], float]) -> PolignacState:
        """A state that ``player_id`` cannot tell apart from this one, with the hidden
        cards dealt afresh: the player's hand and the turn-up stay, every card
        played stays with whoever played it, no player gets a card of a suit it
        has shown out of, and the announcements made stay true.

        ``probability_sampler()`` returns uniform floats in [0, 1); it seeds
        the sampling.
        """
        g = self._g
        if self.deal is None:  # still dealing: deal the others' cards afresh
            rng = random.Random(int(probability_sampler() * 2**53))
            out = PolignacState(self.get_game())
            known = [c for k, c in enumerate(self.dealt)
                     if self.owner_of_position(k) in (player_id, -1)]
            left = [c for c in cards_of(g.pack) if c not in known]
            rng.shuffle(left)
            for k, c in enumerate(self.dealt):
                out.apply_action(c if self.owner_of_position(k) in (player_id, -1)
                                 else left.pop())
            return out
        rng = random.Random(int(probability_sampler() * 2**53))
        if self.deal.rules.family.passing:  # hands change before play: the passes
            return self._resample_passing(self.deal, player_id, rng)
        hands = sample_hands(Knowledge.of_deal(self.deal, player_id), rng)
        order = list(self.dealt)
        queues = {p: cards_of(hands[p]) for p in range(g.n) if p != player_id}
        for q in queues.values():
            rng.shuffle(q)
        for k in range(len(order)):
            owner = self.owner_of_position(k)
            if owner >= 0 and owner != player_id:
                order[k] = queues[owner].pop()
        out = PolignacState(self.get_game())
        for c in order:
            out.apply_action(c)
        for a in self.deal.history:
            out.apply_action(a)
        return out

    def _resample_passing(self, deal: Deal, player_id: int, rng: random.Random
                          ) -> PolignacState:
        """The resampling of a family with passing
        (:func:`polignac.research.sampling.passing_world`).

        Raises:
            SamplingError: no consistent deal found.
        """
        for _ in range(50):
            hands, actions = passing_world(deal, player_id, rng)
            queues = {p: cards_of(hands[p]) for p in range(self._g.n)}
            for q in queues.values():
                rng.shuffle(q)
            out = PolignacState(self.get_game())
            try:
                for k in range(len(self.dealt)):
                    out.apply_action(queues[self.owner_of_position(k)].pop())
                for a in actions:
                    out.apply_action(a)
            except PolignacError:
                continue
            return out
        raise SamplingError(f"no deal consistent with player {player_id}'s view found")

    def __str__(self) -> str:
        g = self._g
        if self.deal is None:
            lines = [f"dealing {len(self.dealt)}/{g.num_dealt}"]
            if self.turn_up >= 0:
                lines.append(f"turn-up {CODES[self.turn_up]}")
            for p in range(g.n):
                lines.append(f"p{p}: " + " ".join(CODES[c] for c in cards_of(self.dealt_hand(p))))
            return "\n".join(lines)
        d = self.deal
        lines = [f"{d.rules.preset} dealer {d.dealer} phase {d.phase_name}"]
        if d.turn_up is not None:
            lines.append(f"turn-up {CODES[d.turn_up]}")
        for p in range(g.n):
            lines.append(f"p{p}: " + " ".join(CODES[c] for c in cards_of(d.initial_hands[p])))
        lines.append("actions: " + " ".join(action_name(a) for a in d.history))
        return "\n".join(lines)


class PolignacObserver:
    """Observation (``perfect_recall=False``) or information state (``True``) of a player;
    layouts in :mod:`polignac.research.encoding`."""

    def __init__(self, config: Config, perfect_recall: bool) -> None:
        self._g = config
        self.perfect_recall = perfect_recall
        shapes = (infostate_shapes(self._g.rules, self._g.n) if perfect_recall
                  else observation_shapes(self._g.n))
        self.tensor = np.zeros(sum(math.prod(s) for _, s in shapes), np.float32)
        self.dict = views(self.tensor, shapes)

    def set_from(self, state: PolignacState, player: int) -> None:
        """Fill ``tensor`` (and its views in ``dict``) for ``player``."""
        g = self._g
        if self.perfect_recall:
            encode_infostate(g.rules, g.n, player, state.dealt_hand(player), state.turn_up,
                             state.visible_actions(player), self.tensor,
                             state.received(player))
        elif state.deal is None:
            encode_partial_observation(g.n, state.dealt_hand(player), state.turn_up,
                                       self.tensor)
        else:
            encode_observation(state.deal, player, self.tensor)

    def string_from(self, state: PolignacState, player: int) -> str:
        """The information-state or observation string of ``player``."""
        turn = f" turn-up {CODES[state.turn_up]}" if state.turn_up >= 0 else ""
        if self.perfect_recall or state.deal is None:
            hand = " ".join(CODES[c] for c in cards_of(state.dealt_hand(player)))
            acts = " ".join(action_name(a) for a in state.visible_actions(player))
            got = state.received(player)
            recv = f" received[{' '.join(CODES[c] for c in cards_of(got))}]" if got else ""
            return f"p{player} dealt[{hand}]{turn}{recv} actions[{acts}]"
        d = state.deal
        n = self._g.n
        hand = " ".join(CODES[c] for c in cards_of(d.hands[player]))
        trick = " ".join(CODES[c] for c in d.trick)
        taken = " | ".join(" ".join(CODES[c] for c in cards_of(d.taken[p])) for p in range(n))
        parts = [f"p{player} {d.phase_name} hand[{hand}]{turn}",
                 f"leader {d.leader} trick[{trick}]", f"taken[{taken}]",
                 "tricks " + ",".join(map(str, d.tricks))]
        if d.declarer >= 0:
            parts.append(f"declarer {d.declarer}")
        if d.announcements:
            parts.append("announced " + ",".join(f"{p}:{a}" for p, a in d.announcements))
        return " ".join(parts)


def params_for(preset: str, players: int = 0, dealer: int = 0,
               **overrides: Any) -> dict[str, Any]:
    """The OpenSpiel parameters for ``preset`` with house-rule ``overrides``."""
    return {"preset": preset, "players": players, "dealer": dealer,
            "rules": json.dumps(overrides, sort_keys=True) if overrides else "{}"}


def load_game(preset: str = "polignac", players: int = 0, dealer: int = 0,
              **overrides: Any) -> PolignacGame:
    """Load ``python_polignac`` for ``preset`` (``players`` 0: the preset's default).

    Raises:
        RulesError: unknown preset, bad overrides, or a player count the preset
            does not allow.
    """
    game = pyspiel.load_game(SHORT_NAME, params_for(preset, players, dealer, **overrides))
    return game  # type: ignore[no-any-return]


pyspiel.register_game(GAME_TYPE, PolignacGame)

__all__ = ["GAME_TYPE", "SHORT_NAME", "PolignacGame", "PolignacObserver", "PolignacState",
           "game_config", "load_game", "params_for"]
