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
>>> text.title.key, [s.title.key for s in text.sections][:2]
('rules.title', ['rules.section.pack', 'rules.section.play'])
>>> [c.code for c in text.cards]
['JS', 'JC', 'JD', 'JH']
>>> [c.code for c in rules_text(get_rules("bassadewitz")).cards]  # one card for each rank
['AS', 'TS', 'KS', 'QS', 'JS']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Union

from .actions import ANNOUNCEMENTS
from .cards import CODES, RANK_LETTERS, cards_of
from .deal import ANNOUNCEMENT_VALUES
from .hearts import lowest_club, penalty_cards
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
class RulesText:
    """A rule set's complete rules: a title, sections, and the cards that score."""

    title: Msg
    sections: tuple[Section, ...]
    cards: tuple[ScoringCard, ...]


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
    sections = [
        Section(msg("rules.section.pack"), tuple(_pack(rules, counts))),
        Section(msg("rules.section.play"), tuple(_play(rules))),
        *([Section(msg("rules.section.hearts"), tuple(_hearts(rules)))]
          if rules.game == "hearts" else []),
        Section(msg("rules.section.scoring"), tuple(_scoring(rules))),
        Section(msg("rules.section.declarations"), tuple(_declarations(rules))),
        Section(msg("rules.section.end"), tuple(_match_end(rules))),
    ]
    notes = _interpretations(rules)
    if notes:
        sections.append(Section(msg("rules.section.interpretations"), tuple(notes)))
    title = msg("rules.title", game=msg(f"game.{rules.game}"), preset=rules.preset)
    return RulesText(title, tuple(sections), _scoring_cards(rules))


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
    if code == "JS" and rules.game == "polignac" and not rules.german:
        return msg("rules.cardCode.polignac", name=card(code, rules.german), code=code)
    return msg("rules.cardCode", name=card(code, rules.german), code=code)


def _rank(letter: str, rules: Rules) -> Msg:
    return msg(f"rank.{'german' if rules.german else 'french'}.{letter}")


def _count_range(counts: tuple[int, ...]) -> Param:
    if len(counts) > 1 and list(counts) == list(range(counts[0], counts[-1] + 1)):
        return msg("rules.range", a=counts[0], b=counts[-1])
    return Join(LIST, counts)


def _codes(mask: int) -> str:
    return " ".join(CODES[c] for c in cards_of(mask))


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
    turn = ".turnUp" if rules.trumps == "turn-up" else ""
    for n in counts:
        removed = rules.removed_cards(n)
        size = rules.pack_mask(n).bit_count()
        if removed:
            lines.append(msg("rules.withN.remove" + turn, n=n, cards=_codes(removed), size=size,
                             hand=rules.hand_size(n)))
        else:
            lines.append(msg("rules.withN.all" + turn, n=n, size=size, hand=rules.hand_size(n)))
    return lines


def _play(rules: Rules) -> list[Param]:
    lines: list[Param] = [msg("rules.rankOrder", order=" ".join(rules.rank_order))]
    if rules.rank_order.index("A") > rules.rank_order.index("J"):
        lines.append(msg("rules.aceBelowJack"))
    lines.append(msg(f"rules.direction.{rules.direction}"))
    if rules.packets == (1,):
        packets = msg("rules.packets.single")
    else:
        packets = msg("rules.packets.of", seq="-".join(str(p) for p in rules.packets))
    lines.append(msg("rules.dealing", packets=packets, interp=INTERP))
    lines.append(msg("rules.trumps.turnUp" if rules.trumps == "turn-up" else "rules.trumps.none"))
    if rules.first_lead == "lowest-club":
        lows = sorted({lowest_club(rules, n) for n in rules.players})
        if len(lows) == 1:
            lead = msg("rules.hearts.firstLead", card=_card(CODES[lows[0]], rules))
        else:
            lead = msg("rules.hearts.firstLeadLowest", cards=Join(LIST, tuple(
                msg("rules.hearts.lowestWith", code=CODES[c], n=Join(LIST, tuple(
                    n for n in rules.players if lowest_club(rules, n) == c))) for c in lows)))
    else:
        lead = msg("rules.lead.generale" if rules.declaration == "generale" else "rules.lead")
    lines.append(sentences(
        lead,
        msg("rules.follow.trumps" if rules.trumps == "turn-up" else "rules.follow"),
        msg("rules.dealEnds.claim" if rules.kind.sides else "rules.dealEnds")))
    if rules.game == "pollack":
        lines.append(msg("rules.pollack.noHead"))
    lines.append(msg("rules.illegal"))
    return lines


def _point_cards(rules: Rules) -> list[Param]:
    """Describe the card_points table: specific cards first, then whole ranks."""
    out: list[Param] = []
    specific = {k: v for k, v in rules.card_points.items() if len(k) == 2}
    ranks = {k: v for k, v in rules.card_points.items() if len(k) == 1}
    hearts = [r + "H" for r in RANK_LETTERS if r in rules.rank_order]
    if not ranks and len({specific.get(c) for c in hearts}) == 1 and hearts[0] in specific:
        # every heart the same (the Hearts family): one line instead of thirteen
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
    kind = rules.kind
    if kind.penalty:
        return _scoring_penalty(rules)
    if kind.chips:
        return _scoring_chips(rules)
    if kind.sides:
        return _scoring_pollack(rules)
    return _scoring_points(rules)


def _scoring_penalty(rules: Rules) -> list[Param]:
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
    if rules.moon:
        table = rules.point_table()
        totals = {sum(table[c] for c in cards_of(penalty_cards(rules, n))) for n in rules.players}
        total: Param = totals.pop() if len(totals) == 1 else msg("rules.hearts.moonTotal")
        lines.append(msg("rules.hearts.moon", total=total))
    if rules.game == "hearts" and "JD" not in rules.card_points:
        lines.append(msg("rules.hearts.jdHouse"))
    return lines


def _hearts(rules: Rules) -> list[Param]:
    """The Hearts family's passing and leads (core/hearts.py)."""
    lines: list[Param] = []
    count = rules.pass_count
    if rules.passing == "none":
        lines.append(msg("rules.hearts.noPass"))
    elif rules.passing == "rotate":
        lines.append(msg("rules.hearts.passRotate", count=count, interp=INTERP))
    else:
        lines.append(msg(f"rules.hearts.pass.{rules.passing}", count=count))
    if rules.passing != "none":
        lines.append(msg("rules.hearts.passOrder", interp=INTERP))
    if rules.clean_first_trick:
        lines.append(msg("rules.hearts.cleanFirst", interp=INTERP))
    if rules.break_hearts:
        lines.append(msg("rules.hearts.breakHearts"))
        if rules.queen_breaks:
            lines.append(msg("rules.hearts.queenBreaks"))
    return lines


def _scoring_points(rules: Rules) -> list[Param]:
    lines: list[Param] = [msg("rules.points.intro")]
    if rules.trick_points:
        lines.append(msg("rules.eachTrick", value=_signed(rules.trick_points)))
    cards = tuple(
        msg("rules.signedValue",
            card=_card(k, rules) if len(k) == 2 else msg("rules.everyRankName",
                                                         rank=_rank(k, rules)),
            value=_signed(v))
        for k, v in rules.card_points.items())
    if cards:
        lines.append(msg("rules.points.cards", cards=Join(SEMI, cards)))
    if rules.first_trick_points:
        lines.append(msg("rules.firstTrick", value=_signed(rules.first_trick_points)))
    if rules.last_trick_points:
        lines.append(msg("rules.lastTrick", value=_signed(rules.last_trick_points)))
    return lines


def _card_values(rules: Rules) -> Msg:
    values = Join(LIST, tuple(msg("rules.rankValue", rank=_rank(letter, rules),
                                  value=rules.card_points.get(letter, 0))
                              for letter in rules.rank_order))
    specific = tuple(msg("rules.rankValue", rank=_card(k, rules), value=v)
                     for k, v in rules.card_points.items() if len(k) == 2)
    if specific:
        return msg("rules.cardValues.but", values=values, but=Join(LIST, specific))
    return msg("rules.cardValues", values=values)


def _scoring_chips(rules: Rules) -> list[Param]:
    paid = Join(SEMI, tuple(
        msg("rules.chips.share", place=msg(f"rules.place.{i + 1}") if i < 5
            else msg("rules.place.n", n=i + 1), n=s)
        for i, s in enumerate(rules.pool_shares)))
    return [
        msg("rules.chips.intro"),
        msg("rules.chips.cards.trick" if rules.trick_points else "rules.chips.cards",
            values=_card_values(rules), trick=rules.trick_points, total=_per_deal_total(rules)),
        msg("rules.chips.pool", pool=rules.pool, paid=paid),
        msg("rules.chips.ties"),
        msg("rules.chips.sweep", sweep=rules.sweep_chips, overload=rules.overload_points,
            chips=rules.overload_chips),
        msg("rules.chips.redeal"),
        msg("rules.chips.change"),
    ]


def _scoring_pollack(rules: Rules) -> list[Param]:
    ann = Join(SEMI, tuple(msg("rules.pollack.announcement", name=msg(f"announce.{a}"),
                               n=ANNOUNCEMENT_VALUES[a])
                           for a in ANNOUNCEMENTS if not a.startswith("pollack-")))
    target, div = rules.partie_target, rules.point_divisor
    lines: list[Param] = [
        msg("rules.pollack.values", values=_card_values(rules), last=rules.last_trick_points),
        msg("rules.pollack.dealScore", last=rules.last_trick_points, div=div),
    ]
    if rules.announcements:
        lines += [
            msg("rules.pollack.ann", list=ann, pollack=ANNOUNCEMENT_VALUES["pollack-S"],
                interp=INTERP),
            msg("rules.pollack.annWhen", interp=INTERP),
            msg("rules.pollack.annTrue", interp=INTERP),
            msg("rules.pollack.annOnce"),
        ]
    lines += [
        msg("rules.pollack.partie", target=target, div=div),
        msg("rules.pollack.claim", interp=INTERP),
        msg("rules.pollack.noClaim", target=target),
    ]
    return lines


def _declarations(rules: Rules) -> list[Param]:
    d = rules.declaration
    v = rules.contract_points
    nouns = "card" if rules.card_points else "plain"
    card = msg(f"rules.noun.{nouns}.one")
    cards = msg(f"rules.noun.{nouns}.other")
    if d == "none":
        return [sentences(msg("rules.decl.none"),
                          msg("rules.decl.pollackOnly") if rules.game != "pollack" else None)]
    if d == "chelem":
        return [msg("rules.decl.chelem", v=v), msg("rules.decl.noRound")]
    said = "generale" if d == "generale" else ("general" if d.startswith("general") else d)
    word = msg(f"contract.{said}")
    lines: list[Param] = [msg("rules.decl.round", word=word, said=said)]
    if d == "generale":
        lines.append(msg("rules.decl.generaleLeads"))
    else:
        lines.append(msg("rules.decl.eldestLeads", word=word))
    lines.append(msg("rules.decl.success", mine=-v if d == "general-bonus" else 0, v=v))
    if d == "generale":
        lines.append(msg("rules.decl.generaleFail", v=v, cards=cards))
        lines.append(msg("rules.decl.generaleSlam"))
    else:
        if d in ("capot", "general"):
            lines.append(msg("rules.decl.fail.interp", v=v, card=card, interp=INTERP))
        else:
            lines.append(msg("rules.decl.fail", v=v, card=card))
        lines.append(msg("rules.decl.otherSlam", v=v, cards=cards))
    lines.append(msg("rules.decl.playedOut"))
    if d in ("general", "general-bonus"):
        lines.append(msg("rules.decl.generalWord"))
    return lines


def _match_end(rules: Rules) -> list[Param]:
    end = rules.match_end
    t = rules.threshold if rules.threshold is not None else 0
    reach = msg("rules.end.reach", t=t)
    if end == "threshold-loser":
        lines: list[Param] = [msg("rules.end.loser", t=t), reach]
        if rules.declaration == "chelem":
            lines.append(msg("rules.end.loserChelem"))
        return lines
    if end == "threshold-lowest-shared":
        return [msg("rules.end.lowestShared", t=t), reach]
    if end == "threshold-lowest-wins":
        return [msg("rules.end.lowest", t=t), reach, msg("rules.end.tieBreak", interp=INTERP),
                msg("rules.end.tieBreakDealer")]
    if rules.deals is not None:
        deals: Msg = msg("rules.deals", n=rules.deals)
    else:
        deals = msg("rules.deals.twice", list=Join(LIST, tuple(
            msg("rules.deals.with", d=2 * n, n=n) for n in rules.players)))
    if end == "fixed-deals":
        best = "lowest" if rules.kind.penalty else "highest"
        return [msg(f"rules.end.fixed.{best}", deals=deals)]
    if end == "first-to-target":
        return [msg("rules.end.first", t=t), reach,
                msg("rules.end.firstTie", t=t, interp=INTERP)]
    if end == "chips":
        return [msg("rules.end.chips", deals=deals)]
    return [msg("rules.end.parties", n=rules.parties)]


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
    if rules.game == "slobberhannes" and tuple(rules.players) != (4,):
        out.append(msg("rules.interp.slobberhannes", interp=INTERP))
    if rules.declaration in ("capot", "general"):
        out.append(msg("rules.interp.failed", word=msg(f"contract.{rules.declaration}"),
                       v=rules.contract_points))
    if rules.match_end == "threshold-lowest-wins":
        out.append(msg("rules.interp.tieBreak", interp=INTERP))
    if rules.match_end == "first-to-target":
        out.append(msg("rules.interp.firstTarget", interp=INTERP))
    if rules.preset == "black-lady" and rules.game == "hearts":
        out.append(msg("rules.interp.openspiel"))
    if rules.preset == "black-maria":
        out.append(msg("rules.interp.blackMaria", interp=INTERP))
    if rules.kind.sides:
        out += [
            msg("rules.interp.pollackDivision", div=rules.point_divisor, interp=INTERP),
            msg("rules.interp.pollackTurn", interp=INTERP),
            msg("rules.interp.pollackHand", interp=INTERP),
            msg("rules.interp.pollackClaim", interp=INTERP),
            msg("rules.interp.pollackCaption"),
        ]
    return out


__all__ = ["Join", "Msg", "Param", "RulesText", "ScoringCard", "Section", "card", "msg",
           "rules_text", "sentences"]
