"""The rules of a rule set as translatable structured text, built from its :class:`Rules`.

The core stays pure: :func:`rules_text` returns message keys and parameters
(:class:`Msg`, :class:`Join`), never sentences. ``polignac.i18n`` renders them
in English, French or German from its catalogs, for ``polignac rules`` and
for the ``/rules/{preset}`` pages alike, so the two never disagree.

The text follows the parameter values (house rules change it), and marks every
choice of ours that the sources leave open with the ``rules.interp`` message
("(interpretation)"). The rule book, docs/rules/README.md#one-source, is written
from this text too; its anchors come from the message keys.

>>> from polignac.core.presets import get_rules
>>> text = rules_text(get_rules("polignac"))
>>> text.title.key, [s.title.key for s in text.sections][:3]
('rules.title', ['rules.section.quick', 'rules.section.tips', 'rules.section.pack'])
>>> [c.code for c in text.cards]
['JS', 'JC', 'JD', 'JH']
>>> [c.code for c in rules_text(get_rules("bassadewitz")).cards]  # one card for each rank
['AS', 'TS', 'KS', 'QS', 'JS']
>>> text.example.cards, text.example.winner  # the example trick of "How to play", seat 1 leads
(('QC', 'KC', 'JS', '7C'), 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Union

from .cards import CODES, RANK_LETTERS, cards_of
from .rules import Rules

Param = Union[str, int, "Msg", "Join"]


@dataclass(frozen=True)
class Msg:
    """A message: a catalog ``key`` and its parameters (text, numbers or nested messages).

    A key whose catalog has ``KEY.one``/``KEY.other`` instead of ``KEY`` is
    chosen by the plural category of the parameter ``n``.
    """

    key: str
    params: tuple[tuple[str, Param], ...] = ()

    def get(self, name: str) -> Param | None:
        """The parameter ``name``, or None."""
        return dict(self.params).get(name)


@dataclass(frozen=True)
class Join:
    """``items`` rendered one after the other, separated by the catalog text ``sep``."""

    sep: str
    items: tuple[Param, ...]


@dataclass(frozen=True)
class Section:
    """A titled section: one message per line (bullet)."""

    title: Msg
    lines: tuple[Param, ...]


@dataclass(frozen=True)
class ScoringCard:
    """A card that scores, to be pictured: its ``code``, its ``name`` (for a card that
    stands for its whole rank, "every Ten") and its ``value``."""

    code: str
    name: Msg
    value: Param


@dataclass(frozen=True)
class ExampleTrick:
    """The example trick of "How to play", to be pictured: the ``cards`` played by
    seats 1, 2, ... in turn (seat 1 leads) and the index of the one that wins."""

    cards: tuple[str, ...]
    winner: int


@dataclass(frozen=True)
class RulesText:
    """A rule set's complete rules: a title, sections, the cards that score, and the
    example trick that the first section ("How to play") describes."""

    title: Msg
    sections: tuple[Section, ...]
    cards: tuple[ScoringCard, ...]
    example: ExampleTrick


def msg(key: str, **params: Param) -> Msg:
    """Build a :class:`Msg`."""
    return Msg(key, tuple(params.items()))


SPACE: Final = "sep.space"
LIST: Final = "sep.list"
SEMI: Final = "sep.semi"
INTERP: Final = msg("rules.interp")


def sentences(*items: Param | None) -> Join:
    """Messages written one after the other in one line (None items left out)."""
    return Join(SPACE, tuple(i for i in items if i is not None))


def rules_text(rules: Rules, players: int | None = None) -> RulesText:
    """Return the complete rules of ``rules`` as structured, translatable text.

    ``players`` limits the pack description to that player count.

    Raises:
        RulesError: ``players`` may not play these rules (or the pack does
            not divide among them).
    """
    if players is not None:
        rules.check_player_count(players)
    counts = (players,) if players is not None else tuple(rules.players)
    family = rules.family
    example = _example_trick(rules)
    sections = [
        Section(msg("rules.section.quick"), tuple(_quick(rules, example))),
        Section(msg("rules.section.tips"), tuple(
            msg(f"rules.tips.{rules.game}.{i}") for i in range(1, TIPS + 1))),
        Section(msg("rules.section.pack"), tuple(_pack(rules, counts))),
        Section(msg("rules.section.play"), tuple(_play(rules))),
        *(Section(msg(title), tuple(lines)) for title, lines in family.extra_sections(rules)),
        Section(msg("rules.section.scoring"), tuple(_scoring(rules))),
        Section(msg("rules.section.declarations"), tuple(_declarations(rules))),
        Section(msg("rules.section.end"), tuple(_match_end(rules))),
    ]
    notes = [*_interpretations(rules), msg("rules.illegal")]
    sections.append(Section(msg("rules.section.interpretations"), tuple(notes)))
    title = msg("rules.title", name=msg(f"preset.{rules.preset}.name"),
                game=msg(f"game.{rules.game}"), preset=rules.preset)
    return RulesText(title, tuple(s for s in sections if s.lines), _scoring_cards(rules), example)


TIPS: Final = 3
"""How many tips each game has: ``rules.tips.GAME.1`` to ``rules.tips.GAME.3`` in the catalogs."""


def _example_trick(rules: Rules) -> ExampleTrick:
    """A trick that shows how play goes: seat 1 leads a card of a suit without the most
    valuable card, seat 2 plays higher, seat 3 has none of the suit and throws that
    valuable card, seat 4 (if any) plays low; with partners, seats 3 and 4 swap roles
    (seat 4 gives the card to its partner). Seat 2 wins it."""
    table = rules.point_table()
    pack = [CODES[c] for c in cards_of(rules.pack_mask(rules.default_players))]
    valuable = max(pack, key=lambda c: abs(table[CODES.index(c)]))
    strength = rules.rank_order.index
    best: list[str] = []
    for suit in "CDHS":
        if suit == valuable[1]:
            continue
        cards = sorted((c for c in pack if c[1] == suit), key=lambda c: strength(c[0]))
        plain = [c for c in cards if not table[CODES.index(c)]]
        pick = plain if len(plain) >= 3 else cards
        if len(pick) > len(best):
            best = pick
    if rules.partnerships:  # seat 4 gives the valuable card to its partner's trick
        order = [best[1], best[0], best[-1], valuable]
    else:
        order = [best[1], best[0], valuable, best[-1]][:max(3, min(rules.default_players, 4))]
    return ExampleTrick(tuple(order), 1)


def _quick(rules: Rules, example: ExampleTrick) -> list[Param]:
    """How to play in thirty seconds: the goal, a trick, an example trick."""
    german = rules.german
    deck = "german" if german else "french"
    cards = example.cards
    lead_suit = msg(f"suitOf.{deck}.{cards[0][1]}")
    plays: list[Param] = [msg("rules.example.lead", seat=1, card=card(cards[0], german))]
    for seat, code in enumerate(cards[1:], start=2):
        if code[1] == cards[0][1]:
            plays.append(msg("rules.example.follow", seat=seat, card=card(code, german)))
        else:
            plays.append(msg("rules.example.discard", seat=seat, suit=lead_suit,
                             card=card(code, german)))
    winner = example.winner + 1
    plays.append(msg("rules.example.wins", seat=winner, card=card(cards[example.winner], german)))
    table = rules.point_table()
    total = sum(table[CODES.index(c)] for c in cards)
    kind = rules.kind
    worth = "side" if kind.sides else "penalty" if kind.penalty else "points"
    plays.append(msg(f"rules.example.points.{worth}", points=_pts(total), seat=winner,
                     mate=winner + 2))
    if rules.has_turn_up:
        plays.append(msg("rules.example.noTrump"))
    return [msg(f"rules.quick.goal.{rules.game}"),
            msg("rules.quick.trick.trumps" if rules.has_turn_up else "rules.quick.trick"),
            sentences(*plays)]


def _scoring_cards(rules: Rules) -> tuple[ScoringCard, ...]:
    """The cards that score: the specific ones, then each scoring rank's cards (all of
    them when that makes at most eight cards, else one Spade standing for its rank)."""
    table = rules.point_table()
    pack = {CODES[c] for c in cards_of(rules.pack_mask(rules.default_players))}
    kind = rules.kind

    def value(code: str) -> Param:
        points = table[CODES.index(code)]
        if kind.penalty:
            return _pts(points)
        return _signed(points) if kind.taker_gains and not kind.sides else points

    specific = [k for k in rules.card_points if len(k) == 2 and k in pack]
    ranks = [k for k in rules.rank_order if k in rules.card_points]
    rest = [[c for c in (r + s for s in "SCDH") if c in pack and c not in specific]
            for r in ranks]
    out = [ScoringCard(c, card(c, rules.german), value(c)) for c in specific]
    if len(specific) + sum(map(len, rest)) <= 8:
        out += [ScoringCard(c, card(c, rules.german), value(c)) for cs in rest for c in cs]
    else:
        out += [ScoringCard(cs[0], msg("rules.everyRankName", rank=_rank(cs[0][0], rules)),
                            value(cs[0])) for cs in rest if cs]
    return tuple(out)


# ----------------------------------------------------------------- helpers


def card(code: str, german: bool) -> Msg:
    """The name of the card ``code`` ("Jack of spades")."""
    deck = "german" if german else "french"
    return msg("card.name", rank=msg(f"rank.{deck}.{code[0]}"),
               suit=msg(f"suitOf.{deck}.{code[1]}"))


def _card(code: str, rules: Rules) -> Msg:
    key = rules.family.card_key(code, rules) or "rules.cardCode"  # a family's own name
    return msg(key, name=card(code, rules.german), code=code)


def _rank(letter: str, rules: Rules) -> Msg:
    return msg(f"rank.{'german' if rules.german else 'french'}.{letter}")


def _count_range(counts: tuple[int, ...]) -> Param:
    if len(counts) > 1 and list(counts) == list(range(counts[0], counts[-1] + 1)):
        return msg("rules.range", a=counts[0], b=counts[-1])
    return Join(LIST, counts)


def _codes(mask: int, rules: Rules) -> Join:
    return Join(LIST, tuple(card(CODES[c], rules.german) for c in cards_of(mask)))


def _pts(value: int) -> Msg:
    return msg("rules.pts", n=value)


def _signed(value: int) -> str:
    return f"{value:+d}"


# ------------------------------------------------------------------ sections


def _pack(rules: Rules, counts: tuple[int, ...]) -> list[Param]:
    lines: list[Param] = [sentences(
        msg("rules.players", range=_count_range(tuple(rules.players)), n=rules.default_players),
        msg("rules.partners") if rules.partnerships else None)]
    lines.append(msg("rules.pack32" if rules.pack == 32 else "rules.pack52"))
    if rules.german:
        lines.append(msg("rules.germanPack"))
    turn = ".turnUp" if rules.has_turn_up else ""
    for n in counts:
        removed = rules.removed_cards(n)
        size = rules.pack_mask(n).bit_count()
        if removed:
            lines.append(msg("rules.withN.remove" + turn, n=n, cards=_codes(removed, rules),
                             size=size, hand=rules.hand_size(n)))
        else:
            lines.append(msg("rules.withN.all" + turn, n=n, size=size, hand=rules.hand_size(n)))
    return lines


def _play(rules: Rules) -> list[Param]:
    lines: list[Param] = [msg("rules.rankOrder", order=Join(LIST, tuple(
        _rank(letter, rules) for letter in rules.rank_order)))]
    if rules.rank_order.index("A") > rules.rank_order.index("J"):
        lines.append(msg("rules.aceBelowJack"))
    lines.append(msg(f"rules.direction.{rules.direction}"))
    if rules.packets == (1,):
        packets = msg("rules.packets.single")
    else:
        packets = msg("rules.packets.of", seq="-".join(str(p) for p in rules.packets))
    lines.append(msg("rules.dealing", packets=packets, interp=INTERP))
    lines.append(msg("rules.trumps.turnUp" if rules.has_turn_up else "rules.trumps.none"))
    family = rules.family
    lead = family.lead_line(rules)  # the family's own first lead, if it has one
    if lead is None:
        lead = msg("rules.lead.generale" if rules.contract.declarer_leads else "rules.lead")
    lines.append(sentences(
        lead,
        msg("rules.follow.trumps" if rules.has_turn_up else "rules.follow"),
        msg("rules.dealEnds.claim" if rules.kind.sides else "rules.dealEnds")))
    lines += family.play_notes(rules)
    return lines


def _point_cards(rules: Rules) -> list[Param]:
    """Describe the card_points table: specific cards first, then whole ranks."""
    out: list[Param] = []
    specific = {k: v for k, v in rules.card_points.items() if len(k) == 2}
    ranks = {k: v for k, v in rules.card_points.items() if len(k) == 1}
    hearts = [r + "H" for r in RANK_LETTERS if r in rules.rank_order]
    if not ranks and len({specific.get(c) for c in hearts}) == 1 and hearts[0] in specific:
        # every heart the same: one line instead of thirteen
        every = msg("rules.everyHeart", value=_pts(specific[hearts[0]]))
        specific = {k: v for k, v in specific.items() if k not in hearts}
    else:
        every = None
    for code, value in specific.items():
        out.append(msg("rules.cardValue", card=_card(code, rules), value=_pts(value)))
    if every is not None:
        out.append(every)
    for letter in RANK_LETTERS[::-1]:
        if letter not in ranks:
            continue
        key = "rules.everyOtherRank" if any(k[0] == letter for k in specific) else "rules.everyRank"
        out.append(msg(key, rank=_rank(letter, rules), letter=letter, value=_pts(ranks[letter])))
    return out


def _per_deal_total(rules: Rules) -> Msg:
    table = rules.point_table()
    totals = {n: sum(table[c] for c in cards_of(rules.pack_mask(n))) for n in rules.players}
    values = set(totals.values())
    if len(values) == 1:
        return msg("rules.perDeal", n=values.pop())
    return msg("rules.perDealByPlayers", list=Join(LIST, tuple(
        msg("rules.totalWith", total=t, n=n) for n, t in totals.items())))


def _scoring(rules: Rules) -> list[Param]:
    """The scoring family's section, then the game family's notes (core/families.py)."""
    return rules.scorer.scoring_lines(rules) + rules.family.scoring_notes(rules)


def _card_values(rules: Rules) -> Msg:
    values = Join(LIST, tuple(msg("rules.rankValue", rank=_rank(letter, rules),
                                  value=rules.card_points.get(letter, 0))
                              for letter in rules.rank_order))
    specific = tuple(msg("rules.rankValue", rank=_card(k, rules), value=v)
                     for k, v in rules.card_points.items() if len(k) == 2)
    if specific:
        return msg("rules.cardValues.but", values=values, but=Join(LIST, specific))
    return msg("rules.cardValues", values=values)


def _declarations(rules: Rules) -> list[Param]:
    """The scoring family's declarations (the trick-avoidance games' contracts)."""
    return rules.scorer.declaration_lines(rules)


def _deals(rules: Rules) -> Msg:
    """The number of deals of a match of a fixed number of deals."""
    if rules.deals is not None:
        return msg("rules.deals", n=rules.deals)
    return msg("rules.deals.twice", list=Join(LIST, tuple(
        msg("rules.deals.with", d=2 * n, n=n) for n in rules.players)))


def _match_end(rules: Rules) -> list[Param]:
    own = rules.scorer.match_end_lines(rules)  # a family's own match end (parties, chips)
    if own is not None:
        return own
    end = rules.end
    t = rules.threshold if rules.threshold is not None else 0
    reach = msg("rules.end.reach", t=t)
    if end.loser:
        lines: list[Param] = [msg("rules.end.loser", t=t), reach]
        if rules.contract.automatic:
            lines.append(msg("rules.end.loserChelem"))
        return lines
    if end.shared:
        return [msg("rules.end.lowestShared", t=t), reach]
    if end.tie_break:
        return [msg("rules.end.lowest", t=t), reach, msg("rules.end.tieBreak", interp=INTERP),
                msg("rules.end.tieBreakDealer")]
    if end.fixed:
        best = "lowest" if rules.kind.penalty else "highest"
        return [msg(f"rules.end.fixed.{best}", deals=_deals(rules))]
    # first-to-target
    return [msg("rules.end.first", t=t), reach, msg("rules.end.firstTie", t=t, interp=INTERP)]


def _interpretations(rules: Rules) -> list[Param]:
    """The interpretations of the rule book that apply to these rules, beyond those inline."""
    out: list[Param] = []
    if rules.packets == (2, 3, 3):
        out.append(msg("rules.interp.packets233", interp=INTERP))
    out.append(msg("rules.interp.packets", interp=INTERP))
    if rules.preset.startswith("polignac-threshold") and rules.rank_order == "KQJAT987":
        out.append(msg("rules.interp.source002", interp=INTERP))
    if rules.removals == "lowest-cards":
        out.append(msg("rules.interp.lowestCards", interp=INTERP))
    out += rules.family.game_interpretations(rules)
    contract = rules.contract
    if contract.failure_interpreted:
        out.append(msg("rules.interp.failed", word=msg(f"contract.{contract.word}"),
                       v=rules.contract_points))
    end = rules.end
    if end.tie_break:
        out.append(msg("rules.interp.tieBreak", interp=INTERP))
    if end.target:
        out.append(msg("rules.interp.firstTarget", interp=INTERP))
    out += rules.family.preset_interpretations(rules)
    out += rules.scorer.scoring_interpretations(rules)
    return out


__all__ = ["TIPS", "ExampleTrick", "Join", "Msg", "Param", "RulesText", "ScoringCard", "Section",
           "card", "msg", "rules_text", "sentences"]
