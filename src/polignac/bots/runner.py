"""Playing bots against each other: one action, one match."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..core.actions import Action
from ..core.errors import IllegalActionError
from ..core.match import Match
from ..core.rules import Rules
from .base import Bot, SeatView
from .registry import UnknownBotError, make_bot


def choose_action(bot: Bot, match: Match, rng: random.Random) -> Action:
    """Ask ``bot`` for the action of the player to act in ``match``'s current deal.

    A bot with ``cheats = True`` (the evaluation-only oracle) is called as
    ``bot.act_open(deal, player, rng)`` and sees every hand; every other bot
    gets only its :class:`SeatView`.

    Raises:
        IllegalActionError: no deal is in progress, or the bot returned an
            action that is not legal (the message names the bot).
    """
    deal = match.current
    if deal is None or deal.done:
        raise IllegalActionError("no deal in progress: nobody is to act", rule="no-deal")
    player = deal.to_act
    if getattr(bot, "cheats", False):
        action: Action = bot.act_open(deal, player, rng)  # type: ignore[attr-defined]
        legal = deal.legal_actions()
    else:
        view = SeatView.of(deal, player, match)
        action = bot.act(view, rng)
        legal = list(view.legal)
    if action not in legal:
        raise IllegalActionError(
            f"bot {bot.name!r} chose illegal action {action!r}", rule="bot-illegal-action"
        )
    return action


def move_seed(table_seed: int, deal: int, index: int) -> str:
    """The seed of one bot move: from a table's bot seed, the deal's number (from 1)
    and the action's index in that deal's history.

    A move's random generator is ``random.Random(move_seed(...))`` (a text seed is
    hashed with SHA-512, the same in every process), so a move computed again (in
    another worker, after a worker died) is the same move.
    """
    return f"{table_seed}/{deal}/{index}"


_BOTS: dict[str, Bot] = {}


def move_for(spec: str, view: SeatView, seed: str) -> Action:
    """The action the bot named by ``spec`` chooses from ``view`` with the random
    generator ``random.Random(seed)``: a pure function of its arguments (bots keep
    no state between moves; the view holds the deal's whole history), so it gives
    the same action in any process.  Bots are built once per process and spec.

    Raises:
        UnknownBotError: ``spec`` names no bot, or an evaluation-only one that must
            see every hand (``oracle``).
        IllegalActionError: the view has no legal action, or the bot chose an
            action that is not legal.
    """
    bot = _BOTS.get(spec)
    if bot is None:
        bot = make_bot(spec)
        if getattr(bot, "cheats", False):
            raise UnknownBotError(f"bot {spec!r} sees every hand: it cannot play from a view")
        if len(_BOTS) >= 64:
            _BOTS.clear()
        _BOTS[spec] = bot
    if not view.legal:
        raise IllegalActionError("the viewer has no legal action: it is not its turn",
                                 rule="not-your-turn")
    action = bot.act(view, random.Random(seed))
    if action not in view.legal:
        raise IllegalActionError(
            f"bot {bot.name!r} chose illegal action {action!r}", rule="bot-illegal-action"
        )
    return action


def play_deal(
    match: Match, bots: Sequence[Bot], rng: random.Random
) -> Match:
    """Play the current deal of ``match`` to its end; ``bots[seat]`` plays each seat.

    Raises:
        IllegalActionError: as :func:`choose_action`.
    """
    start = len(match.results)
    while match.current is not None and len(match.results) == start:
        seat = match.current_seats[match.current.to_act]
        match = match.apply(choose_action(bots[seat], match, rng))
    return match


def play_match(
    rules: Rules,
    n: int,
    bots: Sequence[Bot],
    rng: random.Random,
    deal_rng: random.Random | None = None,
    first_dealer: int = 0,
    max_deals: int | None = None,
) -> Match:
    """Play a whole match (or ``max_deals`` deals) between ``bots`` (one per seat).

    ``rng`` drives the bots, ``deal_rng`` (default: ``rng``) shuffles the
    packs, so the same deals can be replayed with other bots.

    Raises:
        RulesError: ``n`` is not allowed or ``len(bots) != n``.
        IllegalActionError: a bot chose an illegal action.
    """
    if len(bots) != n:
        from ..core.errors import RulesError

        raise RulesError(f"{len(bots)} bots for {n} players")
    deal_rng = rng if deal_rng is None else deal_rng
    match = Match.new(rules, n, first_dealer)
    deals = 0
    while not match.finished and (max_deals is None or deals < max_deals):
        match = match.deal_random(deal_rng)
        match = play_deal(match, bots, rng)
        deals += 1
    return match
