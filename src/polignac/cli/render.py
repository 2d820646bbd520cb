"""Text for the terminal: hands, tricks, scores and tables (no input, no state)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core import (
    CODES,
    Action,
    DealResult,
    Mask,
    Match,
    Rules,
    action_name,
    card_symbol,
    cards_of,
    is_card,
    rank_of,
    suit_of,
)
from ..core.cards import RANK_LETTERS, SUIT_NAMES_DE, SUIT_NAMES_FR, SUIT_SYMBOLS

SUIT_ORDER = (3, 2, 0, 1)  # spades, hearts, clubs, diamonds: colours alternate


def card_text(card: int) -> str:
    """A card for the terminal: ``J♠``, ``10♥``."""
    return card_symbol(card)


def action_text(action: Action) -> str:
    """An action for the terminal: a card with its suit symbol, or the call's word."""
    return card_text(action) if is_card(action) else action_name(action)


def sort_cards(cards: Sequence[int], rules: Rules) -> list[int]:
    """Cards grouped by suit (♠ ♥ ♣ ♦), highest first in the rules' rank order."""
    order = rules.rank_order
    return sorted(cards, key=lambda c: (SUIT_ORDER.index(suit_of(c)),
                                        order.index(RANK_LETTERS[rank_of(c)])))


def hand_text(hand: Mask, rules: Rules) -> str:
    """A hand sorted by suit: ``♠ K J 8   ♥ A 10``."""
    groups = []
    names = SUIT_NAMES_DE if rules.german else SUIT_NAMES_FR
    for suit in SUIT_ORDER:
        cards = sort_cards([c for c in cards_of(hand) if suit_of(c) == suit], rules)
        if cards:
            ranks = " ".join(card_text(c)[:-1] for c in cards)
            label = SUIT_SYMBOLS[suit] + (f"({names[suit]})" if rules.german else "")
            groups.append(f"{label} {ranks}")
    return "   ".join(groups) if groups else "(no cards)"


def seat_label(match: Match, seat: int) -> str:
    """``Bob (seat 1)``."""
    return f"{match.names[seat]} (seat {seat})"


def deal_score_lines(match: Match, result: DealResult) -> list[str]:
    """The score of a finished deal: one line per reason, then each seat's total."""
    lines = []
    pollack = match.rules.plays_parties
    for line in result.score.lines:
        if pollack and line.reason == "card-points":
            who = "side " + _side_text(match, line.player)
        else:
            who = match.names[result.seats[line.player]]
        lines.append(f"  {who}: {line.points:+d} {_reason(line.reason, line.detail)}")
    if not lines:
        lines.append("  nobody scores")
    if result.score.redeal:
        lines.append("  the pool stays: the same dealer deals again")
    if pollack:
        lines.append("  deal: " + ", ".join(
            f"side {_side_text(match, s)} {result.scores[s]}" for s in (0, 1)))
    else:
        lines.append("  deal: " + ", ".join(
            f"{match.names[s]} {result.scores[s]:+d}" for s in result.seats))
    return lines


def _reason(reason: str, detail: str) -> str:
    """A score line's reason in words: ``took J♣``, ``capot failed``."""
    if reason == "card" and detail in CODES:
        return f"took {card_text(CODES.index(detail))}"
    if reason == "tricks":
        return f"{detail} tricks"
    words = reason.replace("-", " ")
    return f"{words} ({detail})" if detail else words


def _side_text(match: Match, side: int) -> str:
    seats = [s for s in range(match.num_players) if s & 1 == side]
    return "+".join(match.names[s] for s in seats)


def totals_line(match: Match) -> str:
    """Running totals (Pollack: the partie and the parties won)."""
    if match.rules.plays_parties:
        sheet = match.family_sheet()  # the scoring family's: the partie and the parties
        partie, won = sheet["partie"], sheet["parties_tally"]
        return (f"Partie: side {_side_text(match, 0)} {partie[0]}, side "
                f"{_side_text(match, 1)} {partie[1]}; parties won {won[0]}-{won[1]}")
    return "Totals: " + ", ".join(f"{match.names[s]} {match.totals[s]}"
                                  for s in range(match.num_players))


def result_lines(match: Match) -> list[str]:
    """The end of a match: winners, losers, the notes."""
    lines = [f"Match over after {len(match.results)} deals."]
    for note in match.notes:
        lines.append(f"  {note}")
    lines.append("Winners: " + (_seats(match, match.winners) or "nobody (a draw)"))
    lines.append("Losers: " + (_seats(match, match.losers) or "nobody"))
    return lines


def _seats(match: Match, seats: Sequence[int]) -> str:
    return ", ".join(seat_label(match, s) for s in seats)


def summary_table(summary: dict[str, Any]) -> list[str]:
    """The replay summary as a table: deals by seats, totals, winners and losers."""
    names: list[str] = summary["players"]
    n = len(names)
    heads = [f"{s} {names[s]}" for s in range(n)]
    widths = [max(6, len(h)) for h in heads]
    lines = [f"Preset {summary['preset']}, {n} players."]
    lines.append("deal dealer  " + "  ".join(h.rjust(w) for h, w in zip(heads, widths,
                                                                      strict=True)) + "  note")
    for d in summary["deals"]:
        notes = []
        if d.get("tiebreak"):
            notes.append("tie-break")
        if d.get("redeal"):
            notes.append("redeal")
        if "claim" in d:
            notes.append(f"claim by seat {d['claim']['seat']}: "
                         + ("correct" if d["claim"]["correct"] else "wrong"))
        if "partie_winner" in d:
            notes.append("partie to seats " + "+".join(map(str, d["partie_winner"])))
        cells = []
        for s in range(n):
            value = "-" if s not in d["seats"] else str(d["scores"][s])
            cells.append(value.rjust(widths[s]))
        lines.append(f"{d['number']:>4} {d['dealer']:>6}  " + "  ".join(cells)
                     + ("  " + "; ".join(notes) if notes else ""))
    label = "partie" if "parties" in summary else "total"
    lines.append(f"{label:>11}  " + "  ".join(str(t).rjust(w) for t, w in
                                             zip(summary["totals"], widths, strict=True)))
    if "parties" in summary:
        lines.append("Parties won by: " + ("; ".join(
            "+".join(map(str, side)) for side in summary["parties"]) or "none yet"))
    if "in_progress" in summary:
        p = summary["in_progress"]
        lines.append(f"Deal {p['deal']} in progress ({p['actions']} actions so far).")
    if summary["finished"]:
        lines.append("Finished. Winners: " + (_names(summary["winners"], names)
                                              or "nobody (a draw)"))
        lines.append("Losers: " + (_names(summary["losers"], names) or "nobody"))
    else:
        lines.append("Not finished.")
    return lines


def _names(seats: Sequence[int], names: Sequence[str]) -> str:
    return ", ".join(f"{names[s]} (seat {s})" for s in seats)
