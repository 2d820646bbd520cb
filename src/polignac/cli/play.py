"""``polignac play``: a match in the terminal, the human at one seat."""

from __future__ import annotations

import random
import secrets
import sys
from collections.abc import Callable
from typing import TextIO

from ..core import (
    ANNOUNCEMENTS,
    CLAIM,
    Action,
    IllegalActionError,
    Match,
    Rules,
    action_name,
    is_card,
    parse_action,
    to_record,
)
from . import render
from .common import CliError, write_json
from .players import Player, from_bot, random_player

HELP = """\
Type a card (JS, 10h, J♠, js), a number from the list of legal moves, or a word:
  pass / capot / general / generale   in the declaration round
  claim, announce three-tens, pollack-S ...   in Pollack
  show   the table again        rules   the rules of this preset
  help   this text              quit    leave the match (the record is kept with --out)"""


class Quit(Exception):
    """The human left the match (quit, end of input or Ctrl-C); ``status`` is the exit status."""

    def __init__(self, message: str, status: int = 0) -> None:
        super().__init__(message)
        self.status = status


def run_play(
    rules: Rules,
    players: int | None,
    seat: int,
    seed: int | None,
    out_path: str | None,
    ask: Callable[[str], str] | None = None,
    out: TextIO | None = None,
    opponents: str = "medium",
) -> int:
    """Play a match with the human at ``seat``; return the exit status.

    ``opponents`` is a bot level (``random``, ``easy``, ``medium``, ...) that
    plays every other seat, each with its own seeded generator.

    ``ask`` reads one line of input (default: :func:`input`); ``out`` gets the
    text (default: stdout).  Quitting, end of input and Ctrl-C end the match
    cleanly (status 0, or 130 after Ctrl-C); with ``out_path`` the record is
    written either way.

    Raises:
        CliError: a bad player count, seat or opponent level.
    """
    stream = out if out is not None else sys.stdout
    n = rules.default_players if players is None else players
    try:
        rules.check_player_count(n)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    if not 0 <= seat < n:
        raise CliError(f"--seat {seat}: seats are 0 to {n - 1}")
    if seed is None:
        seed = secrets.randbelow(10**6)
    deal_rng = random.Random(seed)
    bots = _opponents(opponents, n, seat, seed)
    label = opponents.split(":")[0].capitalize()
    names = ["You" if s == seat else f"{label} {s}" for s in range(n)]
    match = Match.new(rules, n, deal_rng.randrange(n), names)
    print(f"Polignac: preset {rules.preset}, {n} players, you are seat {seat}. "
          f"Seed {seed} (--seed {seed} deals the same cards again). Type help for help.",
          file=stream)
    status = 0
    progress = [match]
    try:
        _loop(progress, seat, bots, deal_rng, ask if ask is not None else input, stream)
    except Quit as why:
        print(f"\n{why} The match is abandoned.", file=stream)
        status = why.status
    if out_path is not None:
        write_json(out_path, to_record(progress[0]))
        print(f"Record written to {out_path}.", file=stream)
    return status


def _opponents(level: str, n: int, seat: int, seed: int) -> dict[int, Player]:
    """One player per other seat, of bot ``level``, seeded from ``seed`` and the seat.

    Raises:
        CliError: ``level`` is not a known bot level.
    """
    if level.split(":")[0] == "oracle":
        raise CliError("--opponents oracle: the oracle sees every hand; it is for "
                       "evaluating bots, not for play", status=2)
    if level == "random":
        return {s: random_player(random.Random(f"{seed}/{s}")) for s in range(n) if s != seat}
    from ..bots.registry import make_bot

    try:
        return {s: from_bot(make_bot(level), random.Random(f"{seed}/{s}"))
                for s in range(n) if s != seat}
    except (ValueError, ImportError) as exc:
        raise CliError(f"--opponents {level}: {exc}", status=2) from None


def _loop(progress: list[Match], seat: int, bots: dict[int, Player], rng: random.Random,
          ask: Callable[[str], str], out: TextIO) -> None:
    """Play to the end; ``progress[0]`` is always the latest match state."""
    match = progress[0]
    while not match.finished:
        if match.needs_deal:
            match = match.deal_random(rng)
            progress[0] = match
            dealer = match.current_dealer
            tb = " (tie-break)" if match.tied else ""
            print(f"\n=== Deal {match.deal_number}{tb}: {render.seat_label(match, dealer)} "
                  "deals ===", file=out)
            if match.current is not None and match.current.turn_up is not None:
                print(f"Turn-up: {render.card_text(match.current.turn_up)} (trumps)", file=out)
            if seat not in match.current_seats:
                print("You sit out this tie-break deal.", file=out)
        to_act = match.to_act()
        if to_act is None:  # pragma: no cover - a deal always has someone to act
            break
        if to_act == seat:
            action = _ask_human(match, seat, ask, out)
        else:
            action = bots[to_act](match, to_act)
            _say(match, to_act, action, out)
        passing = match.current is not None and match.current.phase_name == "pass"
        match = _apply_and_report(match, action, to_act, out)
        progress[0] = match
        if passing and match.current is not None and match.current.phase_name != "pass":
            _received(match, seat, out)
    for line in render.result_lines(match):
        print(line, file=out)


def _received(match: Match, seat: int, out: TextIO) -> None:
    """Everyone has passed (a family with passing); say what the human received."""
    deal = match.current
    if deal is None or not deal.pass_to_offset or seat not in match.current_seats:
        return
    player = match.current_seats.index(seat)
    n = deal.num_players
    giver = match.names[match.current_seats[(player - deal.pass_to_offset) % n]]
    print(f"Everyone has passed. You received from {giver}: "
          f"{render.hand_text(deal.received(player), match.rules)}", file=out)


def _say(match: Match, seat: int, action: Action, out: TextIO) -> None:
    who = match.names[seat]
    if match.current is not None and match.current.phase_name == "pass":
        print(f"{who} chooses a card to pass", file=out)  # which one is hidden
        return
    if is_card(action):
        print(f"{who} plays {render.action_text(action)}", file=out)
    else:
        print(f"{who}: {action_name(action)}", file=out)


def _apply_and_report(match: Match, action: Action, seat: int, out: TextIO) -> Match:
    before = match.current
    new = match.apply(action, seat)
    deal = new.current
    if before is not None and deal is not None and len(deal.past) > len(before.past):
        trick = deal.past[-1]
        print(f"  -> {_takes(match.names[new.current_seats[trick.winner]])} the trick "
              f"({' '.join(render.card_text(c) for c in trick.cards)})", file=out)
    if deal is None and len(new.results) > len(match.results):
        result = new.results[-1]
        last = result.deal.past[-1] if result.deal.past else None
        if last is not None and len(last.cards) == result.deal.num_players and \
                not result.score.claim:
            print(f"  -> {_takes(new.names[result.seats[last.winner]])} the last trick "
                  f"({' '.join(render.card_text(c) for c in last.cards)})", file=out)
        print(f"Deal {result.number} score:", file=out)
        for line in render.deal_score_lines(new, result):
            print(line, file=out)
        print(render.totals_line(new), file=out)
    return new


def _takes(name: str) -> str:
    return "You take" if name == "You" else f"{name} takes"


def _show(match: Match, seat: int, out: TextIO) -> None:
    deal = match.current
    if deal is None:  # pragma: no cover
        return
    player = match.current_seats.index(seat)
    rules = match.rules
    where = {"declare": "declaration round", "pass": "passing"}.get(
        deal.phase_name, f"trick {len(deal.past) + 1}")
    print(f"\n--- Deal {match.deal_number}, {where}: your turn ---", file=out)
    if deal.turn_up is not None:
        print(f"Trumps: {render.card_text(deal.turn_up)[-1]} "
              f"(turn-up {render.card_text(deal.turn_up)})", file=out)
    if deal.contract is not None:
        print(f"{match.names[match.current_seats[deal.declarer]]} declared "
              f"{deal.contract}.", file=out)
    if deal.trick:
        plays = []
        for i, card in enumerate(deal.trick):
            who = match.names[match.current_seats[(deal.leader + i) % deal.num_players]]
            plays.append(f"{who} {render.card_text(card)}")
        print("Trick so far: " + ", ".join(plays), file=out)
    elif deal.phase_name == "play":
        print("You lead.", file=out)
    if deal.phase_name == "pass":  # a family with passing (the deal's pass hooks)
        n = deal.num_players
        to = match.names[match.current_seats[(player + deal.pass_to_offset) % n]]
        chosen = deal.passed[player]
        print(f"Pass {rules.pass_count} cards {deal.pass_direction} to {to}, one at a time "
              f"(card {chosen.bit_count() + 1} of {rules.pass_count})"
              + (f"; chosen so far: {render.hand_text(chosen, rules)}" if chosen else ""),
              file=out)
    if rules.plays_parties:
        partner = match.names[match.current_seats[(player + 2) % deal.num_players]]
        mine = deal.side_total(player & 1)
        print(f"Side totals now: yours (with {partner}) {mine}, theirs "
              f"{deal.side_total(1 - (player & 1))} (a partie is {rules.partie_target})",
              file=out)
        if mine < rules.partie_target and CLAIM in deal.legal_actions():
            print(f"(your side has {mine} of {rules.partie_target}: a claim now would "
                  "be wrong and lose the partie)", file=out)
    print(f"Your hand: {render.hand_text(deal.hands[player], rules)}", file=out)
    legal = _legal_sorted(match)
    print("Legal: " + "  ".join(f"{i}) {render.action_text(a)}"
                                for i, a in enumerate(legal, start=1)), file=out)
    if deal.phase_name == "declare":
        word = action_name(next(a for a in legal if not is_card(a) and action_name(a) != "pass"))
        print(f"Declare {word} (you must then take every trick) or pass.", file=out)


def _legal_sorted(match: Match) -> list[Action]:
    legal = match.legal_actions()
    cards = render.sort_cards([a for a in legal if is_card(a)], match.rules)
    return cards + [a for a in legal if not is_card(a)]


def _ask_human(match: Match, seat: int, ask: Callable[[str], str], out: TextIO) -> Action:
    _show(match, seat, out)
    while True:
        try:
            text = ask("> ").strip()
        except EOFError:
            raise Quit("End of input.") from None
        except KeyboardInterrupt:
            raise Quit("Interrupted.", 130) from None
        low = text.lower()
        if not low:
            continue
        if low in ("quit", "q", "exit"):
            raise Quit("You left.")
        if low in ("help", "?", "h"):
            print(HELP, file=out)
            continue
        if low in ("show", "s", "table"):
            _show(match, seat, out)
            continue
        if low == "rules":
            from ..i18n import describe_rules

            print(describe_rules(match.rules, match.num_players), file=out)
            continue
        try:
            action = _read_action(text, _legal_sorted(match))
            match.apply(action, seat)
        except IllegalActionError as exc:
            if exc.rule == "unknown-action":
                print(f"Not understood: {text!r}. Type a card (JS, 10h, J♠), a number "
                      "from the list of legal moves, or help.", file=out)
            else:
                print(f"Not allowed: {exc} [rule: {exc.rule}]", file=out)
            continue
        return action


def _read_action(text: str, legal: list[Action]) -> Action:
    """Read the human's move: a number from the list, a card, a call.

    Raises:
        IllegalActionError: the number is not in the list, or the text is no action.
    """
    if text.isdigit():
        k = int(text)
        if 1 <= k <= len(legal):
            return legal[k - 1]
        raise IllegalActionError(f"{k} is not in the list of legal moves (1-{len(legal)})",
                                 rule="not-in-list", action=text)
    words = text.replace(" ", ":", 1) if text.lower().startswith("announce ") else text
    low = words.lower()
    for name in ANNOUNCEMENTS:
        if low in (name.lower(), "announce:" + name.lower()):
            return parse_action("announce:" + name)
    return parse_action(words)
