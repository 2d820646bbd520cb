"""The rules of a rule set in plain English, generated from its :class:`Rules` values.

The text follows the parameter values (house rules change it), and marks every
choice of ours that the sources leave open with ``(interpretation)``, as
RULES.md asks.

>>> from polignac.core.presets import get_rules
>>> text = " ".join(describe_rules(get_rules("polignac")).split())
>>> 'Jack of spades (JS, "Polignac"): 2 points' in text
True
>>> "threshold 10" in describe_rules(get_rules("polignac", {"threshold": 10}))
True
"""

from __future__ import annotations

from typing import Final

from .actions import ANNOUNCEMENTS
from .cards import (
    CODES,
    RANK_LETTERS,
    RANK_NAMES_DE,
    RANK_NAMES_FR,
    card_name,
    cards_of,
)
from .deal import ANNOUNCEMENT_VALUES
from .rules import Rules

INTERPRETATION: Final = "(interpretation)"

_GAME_TITLES: Final = {
    "polignac": "Polignac (Quatre Valets, Four Jacks)",
    "slobberhannes": "Slobberhannes family (first trick, last trick, one bad card)",
    "knaves": "Knaves",
    "bassadewitz": "Bassadewitz",
    "pollack": "Pollack",
}


def describe_rules(rules: Rules, players: int | None = None) -> str:
    """Return the complete rules of ``rules`` in plain English.

    ``players`` limits the pack description to that player count.

    Raises:
        RulesError: ``players`` may not play these rules (or the pack does
            not divide among them).
    """
    if players is not None:
        rules.check_player_count(players)
    counts = (players,) if players is not None else tuple(rules.players)
    sections = [
        _title(rules),
        _section("Players and pack", _pack(rules, counts)),
        _section("Dealing and play", _play(rules)),
        _section("Scoring", _scoring(rules)),
        _section("Declarations", _declarations(rules)),
        _section("Match end", _match_end(rules)),
    ]
    notes = _interpretations(rules)
    if notes:
        sections.append(_section("Interpretations", notes))
    return "\n\n".join(sections) + "\n"


# ----------------------------------------------------------------- helpers


def _title(rules: Rules) -> str:
    head = f"{_GAME_TITLES.get(rules.game, rules.game)}: preset {rules.preset!r}"
    return head + "\n" + "=" * len(head)


def _section(title: str, lines: list[str]) -> str:
    body = "\n".join(_wrap("- " + line, "  ") for line in lines)
    return f"{title}\n{'-' * len(title)}\n{body}"


def _wrap(text: str, indent: str, width: int = 78) -> str:
    out: list[str] = []
    line = ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > width:
            out.append(line)
            line = indent + word
        else:
            line = f"{line} {word}" if line else word
    out.append(line)
    return "\n".join(out)


def _card(code: str, rules: Rules) -> str:
    card = CODES.index(code)
    return f"{card_name(card, rules.german)} ({code})"


def _rank_word(letter: str, rules: Rules, plural: bool = True) -> str:
    names = RANK_NAMES_DE if rules.german else RANK_NAMES_FR
    word = names[RANK_LETTERS.index(letter)]
    if not plural:
        return word
    return word + ("es" if word == "Six" else "s")


def _count_range(counts: tuple[int, ...]) -> str:
    if len(counts) > 1 and list(counts) == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]} to {counts[-1]}"
    return ", ".join(str(n) for n in counts)


def _codes(mask: int) -> str:
    return " ".join(CODES[c] for c in cards_of(mask))


def _seq(items: tuple[int, ...]) -> str:
    return ", ".join(str(i) for i in items)


# ------------------------------------------------------------------ sections


def _pack(rules: Rules, counts: tuple[int, ...]) -> list[str]:
    lines = [
        f"Players: {_count_range(tuple(rules.players))} (default {rules.default_players})."
        + (" Partners sit opposite: seats 0 and 2 play against seats 1 and 3."
           if rules.partnerships else "")
    ]
    if rules.pack == 32:
        pack = "the 32-card piquet pack (Seven to Ace in each suit)"
    else:
        pack = "the 52-card pack (Two to Ace in each suit)"
    lines.append(f"Pack: {pack}.")
    if rules.german:
        lines.append(
            "German-suited pack: Acorns = clubs (C), Leaves = spades (S), Hearts = "
            "hearts (H), Bells = diamonds (D); Sow = Ace (A), Ober = Queen (Q), "
            "Unter = Jack (J). Records always use the French codes."
        )
    for n in counts:
        removed = rules.removed_cards(n)
        size = rules.pack_mask(n).bit_count()
        what = f"remove {_codes(removed)}" if removed else "no cards are removed"
        turn = " and one card is turned up" if rules.trumps == "turn-up" else ""
        lines.append(
            f"With {n} players: {what}; {size} cards{turn}, {rules.hand_size(n)} "
            "cards each."
        )
    return lines


def _play(rules: Rules) -> list[str]:
    order = " ".join(rules.rank_order)
    lines = [f"Rank order in each suit, highest first: {order} (T is the Ten)."]
    if rules.rank_order.index("A") > rules.rank_order.index("J"):
        lines.append("The Ace ranks below the Jack and above the Ten.")
    side = "to the left" if rules.direction == "clockwise" else "to the right"
    lines.append(
        f"Dealing and play go {rules.direction} ({side}). The first dealer is chosen "
        "at random; the deal passes to the next player in the play direction."
    )
    if rules.packets == (1,):
        packets = "one card at a time"
    else:
        packets = "packets of " + "-".join(str(p) for p in rules.packets)
    lines.append(
        f"The dealer deals {packets}, starting with eldest hand (the player after "
        "the dealer). The packet sequence is repeated as needed, and a packet that "
        f"would overfill a hand is cut to what remains {INTERPRETATION}. With a fair "
        "shuffle the packets do not change which hands are possible; they fix the "
        "hands dealt from a given pack order."
    )
    if rules.trumps == "turn-up":
        lines.append(
            "Trumps: the last card of the pack is turned face up; its suit is trumps "
            "and it belongs to nobody."
        )
    else:
        lines.append("Trumps: none.")
    lead = "Eldest hand leads the first trick"
    if rules.declaration == "generale":
        lead += " (except that the declarer of a générale leads it)"
    lines.append(
        f"{lead}. Each player in turn must follow the suit led if able, otherwise "
        + ("may play any card, a trump included. The highest trump wins the trick "
           "if any was played, otherwise the highest card of the suit led."
           if rules.trumps == "turn-up" else
           "may play any card. The highest card of the suit led wins the trick.")
        + " The winner of a trick leads the next. The deal ends when every card "
        "is played" + (" or a claim is made." if rules.scoring == "pollack" else ".")
    )
    if rules.game == "pollack":
        lines.append("Players must follow suit but need not head the trick.")
    lines.append(
        "An illegal action (a card not in hand, not following suit when able, "
        "acting out of turn, a declaration at the wrong time, a word that does not "
        "belong to the game) is rejected with the rule it breaks; nothing changes."
    )
    return lines


def _point_cards(rules: Rules) -> list[str]:
    """Describe the card_points table: specific cards first, then whole ranks."""
    out: list[str] = []
    specific = {k: v for k, v in rules.card_points.items() if len(k) == 2}
    ranks = {k: v for k, v in rules.card_points.items() if len(k) == 1}
    for code, value in specific.items():
        name = _card(code, rules)
        if code == "JS" and rules.game == "polignac" and not rules.german:
            name = name.replace("(JS)", "(JS, \"Polignac\")")
        out.append(f"{name}: {_pts(value)}")
    for letter in RANK_LETTERS[::-1]:
        if letter not in ranks:
            continue
        other = "every other" if any(k[0] == letter for k in specific) else "every"
        word = _rank_word(letter, rules, plural=False)
        out.append(f"{other} {word} ({letter}): {_pts(ranks[letter])}")
    return out


def _pts(value: int) -> str:
    return f"{value} point" + ("" if abs(value) == 1 else "s")


def _per_deal_total(rules: Rules) -> str:
    table = rules.point_table()
    totals = {n: sum(table[c] for c in cards_of(rules.pack_mask(n))) for n in rules.players}
    values = set(totals.values())
    if len(values) == 1:
        total = values.pop()
        return f"{total} card point{'' if abs(total) == 1 else 's'} in all per deal"
    return "card points per deal: " + ", ".join(
        f"{t} with {n} players" for n, t in totals.items())


def _scoring(rules: Rules) -> list[str]:
    if rules.scoring == "penalty":
        return _scoring_penalty(rules)
    if rules.scoring == "points":
        return _scoring_points(rules)
    if rules.scoring == "chips":
        return _scoring_chips(rules)
    return _scoring_pollack(rules)


def _scoring_penalty(rules: Rules) -> list[str]:
    lines = ["Penalty points: lower is better. After each deal each player adds the "
             "penalties below to a running total."]
    cards = _point_cards(rules)
    if cards:
        lines.append("Penalty cards, scored against the player who takes them in a trick: "
                     + "; ".join(cards) + f" ({_per_deal_total(rules)}).")
    else:
        lines.append("No card scores by itself.")
    if rules.trick_points:
        lines.append(f"Each trick taken: {_pts(rules.trick_points)}.")
    if rules.first_trick_points:
        lines.append(f"Taking the first trick: {_pts(rules.first_trick_points)}.")
    if rules.last_trick_points:
        lines.append(f"Taking the last trick: {_pts(rules.last_trick_points)}.")
    if rules.all_three_points is not None:
        lines.append(
            "A player who takes the first trick, the last trick and every penalty card "
            f"in one deal scores {rules.all_three_points} instead of the sum."
        )
    return lines


def _scoring_points(rules: Rules) -> list[str]:
    lines = ["Points: higher is better. After each deal each player adds the points "
             "below to a running total."]
    if rules.trick_points:
        lines.append(f"Each trick taken: {rules.trick_points:+d}.")
    cards = [f"{_card(k, rules) if len(k) == 2 else 'every ' + _rank_word(k, rules, False)}"
             f" {v:+d}" for k, v in rules.card_points.items()]
    if cards:
        lines.append("Cards scored for (or, when negative, against) the player who "
                     "takes them: " + "; ".join(cards) + ".")
    if rules.first_trick_points:
        lines.append(f"Taking the first trick: {rules.first_trick_points:+d}.")
    if rules.last_trick_points:
        lines.append(f"Taking the last trick: {rules.last_trick_points:+d}.")
    return lines


def _card_values(rules: Rules) -> str:
    parts = []
    for letter in rules.rank_order:
        value = rules.card_points.get(letter, 0)
        parts.append(f"{_rank_word(letter, rules, False)} {value}")
    specific = [f"{_card(k, rules)} {v}" for k, v in rules.card_points.items() if len(k) == 2]
    return ", ".join(parts) + ("; but " + ", ".join(specific) if specific else "")


def _scoring_chips(rules: Rules) -> list[str]:
    shares = rules.pool_shares
    places = ("fewest", "second fewest", "third fewest", "fourth fewest", "fifth fewest")
    paid = "; ".join(f"the {places[i] if i < len(places) else f'place {i + 1}'} "
                     f"wins {s}" for i, s in enumerate(shares))
    lines = [
        "Chips: each deal is settled in chips; the running total is each player's "
        "chip balance (higher is better).",
        f"Card points taken in tricks: {_card_values(rules)}"
        + (f"; each trick adds {rules.trick_points} to its taker's card points"
           if rules.trick_points else "") + f" ({_per_deal_total(rules)}).",
        f"The dealer puts {rules.pool} chips into a pool. It is shared by card points "
        f"taken: {paid} chips.",
        "Ties are settled in favour of the player nearer the dealer's left (eldest "
        "first), except that a player who took no trick beats one who took tricks "
        "worth no points.",
        f"A player who wins every trick is paid {rules.sweep_chips} chips by each other "
        f"player. A player who takes {rules.overload_points} or more card points without "
        f"winning every trick pays {rules.overload_chips} chips to each other player.",
        "In those cases, and when all players take the same card points, the pool "
        "stays where it is and the same dealer deals again without adding to it (a "
        "redeal).",
        "A deal's chip change for each player is what it received minus what it paid, "
        "the dealer's stake included in the deal where it is put up (not in a redeal).",
    ]
    return lines


def _scoring_pollack(rules: Rules) -> list[str]:
    ann = "; ".join(f"{a.replace('-', ' ')} {ANNOUNCEMENT_VALUES[a]}"
                    for a in ANNOUNCEMENTS if not a.startswith("pollack-"))
    pollack = ANNOUNCEMENT_VALUES["pollack-S"]
    lines = [
        f"Card values: {_card_values(rules)}. Winning the last trick is worth "
        f"{rules.last_trick_points}.",
        "Deal score: each side adds the values of the cards in its tricks and the "
        f"last-trick {rules.last_trick_points}, divides by {rules.point_divisor} and "
        "discards the fraction.",
    ]
    if rules.announcements:
        lines += [
            f"Announcements (bonuses for cards held in hand): {ann}; a pollack (the "
            f"Ten, Nine and Ace of one suit) {pollack}. Announcements are added after "
            f"the division {INTERPRETATION}.",
            "Forehand (eldest hand) may announce before leading to the first trick; "
            "any other player only after its side has won a trick, at its turn, before "
            f"playing a card {INTERPRETATION}.",
            "An announcement must be true: only announcements the hand really holds are "
            "accepted, and the cards of an announcement must all still be in the "
            f"announcer's hand when it is made {INTERPRETATION}.",
            "Each combination once per player and deal: each rank (Tens, Nines, Aces) "
            "as three or as four, not both, and each suit's pollack once. One card may "
            "count in two announcements (the Ten of spades in four Tens and in the "
            "spade pollack). A player may make several announcements at one turn, and "
            "may announce and then claim at the same turn.",
        ]
    lines += [
        f"Partie: the first side to {rules.partie_target} wins it. A side that has "
        f"reached {rules.partie_target} (its earlier deals, plus its announcements, "
        f"plus its card points so far this deal divided by {rules.point_divisor}, "
        "rounded down) may claim \"out\" (say `claim`) when it is on lead: from hand, "
        "or right after taking a trick that brings it there; forehand may claim "
        "before the first card.",
        "A correct claim wins the partie at once; if the first side to get there does "
        "not claim and the other side then reaches it and claims, the claimant wins. "
        f"A wrong claim loses the partie {INTERPRETATION}. A claim, right or wrong, "
        "ends the deal at once; the deal scores what each side had counted at the claim.",
        f"A deal that ends without a claim: a side at {rules.partie_target} or more "
        "wins the partie; if both are, the higher total wins; if equal, the side that "
        "took the last trick.",
    ]
    return lines


def _declarations(rules: Rules) -> list[str]:
    d = rules.declaration
    v = rules.contract_points
    cards = "penalty card" if rules.card_points else "penalty"
    if d == "none":
        return ["There are no declarations and no declaration round: `pass`, `capot`, "
                "`general` and `generale` are illegal words in this game."
                + (" Announcements and claims are Pollack's and belong only to it."
                   if rules.game != "pollack" else "")]
    if d == "chelem":
        return [
            "Chelem (automatic, never announced): a player who takes every trick scores "
            f"0 and each other player scores {v}.",
            "There is no declaration round: `pass`, `capot`, `general` and `generale` "
            "are illegal words in this game.",
        ]
    word = "générale" if d == "generale" else ("general" if d.startswith("general") else d)
    said = "generale" if d == "generale" else word
    lines = [
        f"After the deal and before the first card, each player in turn from eldest "
        f"hand may declare {word} (say `{said}`) or `pass`; the first declaration ends "
        "the round, so there is at most one declarer per deal. The declarer undertakes "
        "to take every trick.",
    ]
    if d == "generale":
        lines.append("The declarer of a générale leads the first trick.")
    else:
        lines.append(f"Eldest hand still leads the first trick after a {word}.")
    mine = -v if d == "general-bonus" else 0
    lines.append(f"Success (the declarer takes every trick): the declarer scores {mine}, "
                 f"each opponent {v}.")
    if d == "generale":
        lines.append(
            f"Failure: the declarer scores {v} whatever {cards}s he took (his own "
            f"{cards}s do not count); the others score their {cards}s as usual.")
        lines.append("A slam that was not announced counts as an ordinary deal.")
    else:
        interp = f" {INTERPRETATION}" if d in ("capot", "general") else ""
        lines.append(
            f"Failure: the declarer scores {v}, and every {cards} scores as usual against "
            f"its taker, the declarer included{interp}.")
        lines.append(
            f"If another player takes every trick, the declarer has failed ({v} and "
            f"{cards}s as usual); the other player's slam is an ordinary deal for him. "
            "An unannounced slam has no score of its own.")
    lines.append("The deal is always played out, also after the declarer loses a trick.")
    if d in ("general", "general-bonus"):
        lines.append("The word said is `general` in both general presets; the preset "
                     "decides how it scores.")
    return lines


def _match_end(rules: Rules) -> list[str]:
    end = rules.match_end
    t = rules.threshold
    reach = (f"Reaching {t} means a total of {t} or more." if t is not None else "")
    if end == "threshold-loser":
        lines = [
            f"Match to a threshold {t}: after each deal, if any player's total has "
            f"reached {t}, the match ends. The player with the highest total loses; if "
            "several share the highest total, all of them lose. Everyone else wins.",
            reach,
        ]
        if rules.declaration == "chelem":
            lines.append("After a chelem several players may reach the threshold at "
                         "once: the one with the highest total loses alone; if several "
                         "share the highest total, all of them lose.")
        return lines
    if end == "threshold-lowest-wins":
        return [
            f"Match to a threshold {t}: after each deal, if any player's total has "
            f"reached {t}, the match ends and the lowest total wins; everyone else loses.",
            reach,
            "Players tied for the lowest total play tie-break deals among themselves "
            "only (with this preset's removal rule applied to that many players, even "
            "two) until one has fewer penalties in a deal; the winner is that player, "
            f"and tie-break penalties are not added to the totals {INTERPRETATION}.",
            "The dealer of a tie-break deal is the first tied player strictly after the "
            "previous dealer in the play direction. If all the players of a tie-break "
            "deal score the same, they play another; if some but not all tie for the "
            "fewest penalties, the next tie-break deal is among those only.",
        ]
    deals = (f"{rules.deals} deals" if rules.deals is not None
             else "twice as many deals as there are players, so that everyone deals "
             "equally often (" + ", ".join(f"{2 * n} with {n}" for n in rules.players) + ")")
    if end == "fixed-deals":
        best = "highest" if rules.scoring == "points" else "lowest"
        return [f"A fixed number of deals: {deals}. Then the {best} total wins; players "
                "tied for it share the win, and every other player loses."]
    if end == "first-to-target":
        return [
            f"First to {t}: after each deal, if any player's total has reached {t}, the "
            "match ends and that player wins; everyone else loses.",
            reach,
            f"If several reach {t} in the same deal, the highest total wins and ties "
            f"share the win {INTERPRETATION}.",
        ]
    if end == "chips":
        return [f"A fixed number of deals: {deals}; redeals do not count towards it, and "
                "the same dealer deals again after a redeal. Then the most chips wins; "
                "ties share the win; every other player loses."]
    return [
        f"A game is {rules.parties} parties; after each partie the scores restart at "
        "zero. The side that won more parties wins the game; an equal count is a draw "
        "(nobody wins or loses).",
    ]


def _interpretations(rules: Rules) -> list[str]:
    """The interpretations of RULES.md that apply to these rules, beyond those inline."""
    out: list[str] = []
    if rules.packets == (2, 3, 3):
        out.append("The source says the dealer deals \"in 2s and 3s\"; we deal packets of "
                   f"2, 3, 3 {INTERPRETATION}.")
    out.append("Packets are repeated as needed, and a packet that would overfill a hand is "
               f"cut to what remains {INTERPRETATION}.")
    if rules.preset.startswith("polignac-threshold") and rules.rank_order == "KQJAT987":
        out.append("Source 002 lists the ranks as K Q J T 9 8 7, but its pack has Aces and "
                   "it names the French order, so the Ace ranks between the Jack and the "
                   f"Ten {INTERPRETATION}.")
    if rules.removals == "lowest-cards":
        out.append("To make the 52-card pack divide evenly, the lowest cards are removed "
                   "(2s first, then 3s, ...) in the suit order C, S, D, H "
                   f"{INTERPRETATION}.")
    if rules.game == "slobberhannes" and tuple(rules.players) != (4,):
        out.append("The game is for four; 3 to 6 may play with the Polignac removals "
                   f"(black sevens unless 4 play) {INTERPRETATION}.")
    if rules.declaration in ("capot", "general"):
        out.append(f"A failed {rules.declaration}: the declarer scores "
                   f"{rules.contract_points} and the penalty cards still count as usual, "
                   "the declarer's included (interpretation of source 000; 002 says so).")
    if rules.match_end == "threshold-lowest-wins":
        out.append(f"Tie-break penalties are not added to the totals {INTERPRETATION}.")
    if rules.match_end == "first-to-target":
        out.append("Several players passing the target in the same deal: the highest "
                   f"wins, ties share {INTERPRETATION}.")
    if rules.scoring == "pollack":
        out += [
            "Announcements are added after the division by "
            f"{rules.point_divisor} {INTERPRETATION}.",
            "A player other than forehand announces at its turn, before playing a card "
            f"{INTERPRETATION}.",
            "The cards of an announcement must all still be in the announcer's hand "
            f"{INTERPRETATION}.",
            f"A wrong claim loses the partie {INTERPRETATION}.",
            "The seed's picture caption calls a pollack \"Ten, Nine and Deuce\"; the "
            "text and the 32-card pack say Ten, Nine and Ace, which we follow.",
        ]
    return out


__all__ = ["describe_rules"]
