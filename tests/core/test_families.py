"""The game families' list (core/families.py): every preset resolves to its
family, the families' hooks agree with the rules, a new family can join for a
while (``extended``), and no core module but a family's own names its special cases."""

from __future__ import annotations

import importlib
import random
import re
from dataclasses import replace
from pathlib import Path

import pytest

from polignac.core import Deal, IllegalActionError, Match, RulesError, get_rules, rules_text
from polignac.core import families as fam
from polignac.core import rules as rules_mod
from polignac.core.actions import (
    ANNOUNCE_BASE,
    NUM_ACTIONS,
    PASS,
    action_name,
    parse_action,
)
from polignac.core.avoidance import TrickAvoidanceFamily
from polignac.core.cards import cards_of
from polignac.core.deal_tables import _Tables
from polignac.core.families import ANNOUNCEMENTS, FAMILIES, GAMES, SCORE_KINDS, SCORINGS
from polignac.core.hearts_deal import HeartsDeal
from polignac.core.presets import PRESETS
from polignac.core.rules import Rules
from polignac.core.scoring import point_cards_in_play, score_tricks

CORE = Path(fam.__file__).parent

EXPECTED = {
    "polignac": "trick-avoidance", "slobberhannes": "trick-avoidance", "knaves": "knaves",
    "bassadewitz": "bassadewitz", "pollack": "pollack", "hearts": "hearts",
}
SCORERS = {"penalty": "trick-avoidance", "points": "knaves", "chips": "bassadewitz",
           "pollack": "pollack"}


def test_every_game_and_scoring_has_one_family() -> None:
    base = get_rules("polignac")
    assert {g: fam.family_of(replace(base, game=g)).name for g in GAMES} == EXPECTED
    assert {s: fam.scorer_of(replace(base, scoring=s)).name for s in SCORINGS} == SCORERS
    names = [f.name for f in fam.families()]
    assert names == ["trick-avoidance", "knaves", "bassadewitz", "pollack", "hearts"]
    assert fam.families() == FAMILIES
    # the list gives the parameter values, in the rule book's order
    assert list(GAMES) == [g for f in fam.families() for g in f.games] == list(EXPECTED)
    assert list(SCORINGS) == list(SCORE_KINDS) == list(SCORERS)
    assert list(PRESETS) == [r.preset for f in fam.families() for r in f.presets]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_preset_family_and_hooks_agree_with_rules(preset: str) -> None:
    rules = get_rules(preset)
    family, scorer = rules.family, rules.scorer
    assert family is fam.family_of(rules) and scorer is fam.scorer_of(rules)
    assert family.name == EXPECTED[rules.game] and rules.game in family.games
    assert rules in family.presets
    assert scorer.name == SCORERS[rules.scoring]
    assert rules.kind in scorer.scorings and rules.match_end in rules.kind.match_ends
    # What a rule set may do, its family allows; the family's flags hold for its presets.
    assert family.calls == rules.has_calls == (scorer.call_rules is not None)
    assert family.passing == (rules.passing != "none") == (family.deal_class is HeartsDeal)
    assert family.declaration_round or not rules.has_declaration_round
    assert family.exact_solver  # the solver models every family (tests/bots/test_solver*.py)
    assert (scorer is family) == (not family.passing)  # the Hearts family scores as penalty
    # The deal is the family's, scored by the scoring family's hook.
    n = rules.default_players
    rng = random.Random(1)
    deal = Deal.shuffled(rules, n, 0, rng)
    assert type(deal) is family.deal_class
    while not deal.done:
        deal = deal.apply(rng.choice(deal.legal_actions()))
    assert scorer.score_deal(deal) == deal.score()
    # The match end: the family's own (parties) or the shared ones.
    match = Match.new(rules, n)
    own = scorer.after_deal(match.standing, rules, [0] * n, None, None)
    assert (own is not None) == rules.plays_parties == rules.end.parties
    assert bool(scorer.sheet(match.standing, rules)) == rules.plays_parties
    assert match.family_sheet() == scorer.sheet(match.standing, rules)
    # The rules text: the family's section, its scoring, its declarations.
    text = rules_text(rules)
    titles = [s.title.key for s in text.sections]
    assert ("rules.section.hearts" in titles) == family.passing
    scoring = next(s for s in text.sections if s.title.key == "rules.section.scoring")
    assert list(scoring.lines) == scorer.scoring_lines(rules) + family.scoring_notes(rules)


def test_contract_flags_say_what_each_declaration_means() -> None:
    assert not get_rules("polignac-fr").has_declaration_round
    assert get_rules("polignac-fr").contract.automatic
    assert get_rules("polignac-fr-generale").contract.declarer_leads
    assert get_rules("polignac-threshold-general").contract.bonus
    assert get_rules("polignac-threshold-general").contract.word == "general"
    assert not get_rules("knaves").has_contract and get_rules("polignac").has_contract


def test_unknown_game_or_scoring_is_refused() -> None:
    rules = replace(get_rules("polignac"), game="skat")
    with pytest.raises(RulesError, match="game 'skat' has no family"):
        fam.family_of(rules)
    with pytest.raises(RulesError, match="scoring 'golf' has no family"):
        fam.scorer_of(replace(get_rules("polignac"), scoring="golf"))
    with pytest.raises(RulesError, match="game 'skat' is not allowed; allowed values: polignac"):
        get_rules("polignac").with_overrides({"game": "skat"})


def test_a_game_belongs_to_one_family() -> None:
    class Clash(TrickAvoidanceFamily):
        name = "other"
        games = ("newgame", "knaves")
        scorings = ()

    with pytest.raises(ValueError, match="game 'knaves' already belongs to family 'knaves'"), \
            fam.extended(Clash()):
        pass  # pragma: no cover - refused before the block
    assert "newgame" not in fam.registry().by_game and "newgame" not in GAMES


def test_a_family_can_join_for_a_while() -> None:
    base = get_rules("polignac")
    started: list[tuple[int, ...]] = []

    def start(tables: _Tables, hands: tuple[int, ...], dealer: int) -> Deal:
        started.append(tuple(h.bit_count() for h in hands))
        return Deal.from_hands(base, hands, dealer)

    class TestFamily(TrickAvoidanceFamily):
        name = "test-family"
        games = ("test-game",)
        scorings = ()
        presets = ()

        def __init__(self) -> None:
            self.start = start

    new = TestFamily()
    with fam.extended(new) as reg:
        assert reg.games[-1] == "test-game" and fam.families()[-1] is new
        rules = base.with_overrides({"game": "test-game"})
        assert rules.family is new and rules.scorer is fam.scorer_of(base)
        deal = Deal.shuffled(rules, 4, 0, random.Random(3))
        assert started == [(8, 8, 8, 8)]
        assert deal.legal_actions()
    # after the block, the fixed list again
    assert fam.families() == FAMILIES and "test-game" not in fam.registry().by_game
    with pytest.raises(RulesError, match="game 'test-game' is not allowed"):
        base.with_overrides({"game": "test-game"})


# ------------------------------------------------------------ one home each

POLLACK_NAMED_IN: dict[str, str] = {
    "pollack.py": "its own module",
    "families.py": "the list names its members",
    "family.py": "the base's declarations line names its catalog key rules.decl.pollackOnly",
}
"""The core modules that may name Pollack, and why: the action names, the
parameter docs and the package's exports are the families' (issue 13)."""

COMPARISON = re.compile(
    r"\b(?:rules|r|self)\.(?:game|scoring|declaration|match_end)\s*"
    r"(?:[!=]=\s*[\"']|(?:not\s+)?in\s*\(\s*[\"'])")
"""A parameter compared with a literal value (``rules.declaration == "chelem"``)."""


def _core_files() -> list[Path]:
    return sorted(CORE.glob("*.py"))


def test_pollack_is_named_only_in_its_module_and_the_registry() -> None:
    naming = {p.name for p in _core_files() if "pollack" in p.read_text("utf-8").lower()}
    assert naming == set(POLLACK_NAMED_IN), (
        f"core modules naming Pollack outside its family module: "
        f"{sorted(naming - set(POLLACK_NAMED_IN))}; give the rule to core/pollack.py")


def test_bots_and_research_reach_pollack_only_through_its_family() -> None:
    """Not a word of Pollack in the bots and the research interfaces: they read the
    family's calls (``Rules.scorer.call_rules``), hooks and the rule set's flags."""
    src = CORE.parent
    naming = sorted(str(p.relative_to(src)) for pkg in ("bots", "research")
                    for p in (src / pkg).rglob("*.py") if "pollack" in p.read_text("utf-8").lower())
    assert naming == []


FAMILY_NAMED_IN: dict[str, str] = {
    "research/hearts_agreement.py": "the card-for-card comparison with OpenSpiel's hearts",
}
"""The modules of the bots, the research interfaces, the command line and the server
that still name a family (its classes, its modules, its names), and why."""

PAGE_SCRIPTS_STILL_NAMING: dict[str, str] = {}
"""The page scripts (server/static) that still name a family, game or preset in a
quoted string, and why; every other page script, new ones too, must name none:
remove a script from this list when it reads the families' words from the server."""


def _family_words() -> tuple[set[str], set[str], set[str]]:
    """Every family's class names (its deal's too), its modules, and its names (the
    family's, its games', its presets'; not ``polignac``, the project's name)."""
    classes = {c.__name__ for f in FAMILIES for c in type(f).__mro__
               if c not in (fam.Family, object)}
    classes |= {f.deal_class.__name__ for f in FAMILIES if f.deal_class is not Deal}
    modules = {m for f in FAMILIES for m in (type(f).__module__, *f.modules)}
    modules -= {"polignac.core.scoring"}  # shared: the trick games' scoring
    # every class a family's module defines (its deal's statics, its states...)
    classes |= {name for m in modules for name, obj in vars(importlib.import_module(m)).items()
                if isinstance(obj, type) and obj.__module__ == m}
    words = {f.name for f in FAMILIES} | set(GAMES) | set(PRESETS)
    return classes, modules, words - {"polignac"}


STATE_FIELDS: frozenset[str] = frozenset({"partie", "pool_in"})
"""Fields of a family's own state (Pollack's partie, Bassadewitz' pool): outside the
core, code passes the state on (``family_state``) and asks the family's hooks
(``Family.side_total``, ``Family.stake``...), never reads or passes them by name."""


def _naming(path: Path, text: str | None = None) -> list[str]:
    """Where ``path`` (or ``text``, read as that file) names a family in code (not in
    its docstrings and comments), or one of its state's fields as an attribute, a
    keyword or a parameter (:data:`STATE_FIELDS`)."""
    import ast

    classes, modules, words = _family_words()
    tree = ast.parse(path.read_text("utf-8") if text is None else text)
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and n.body and isinstance(n.body[0], ast.Expr)
            and isinstance(n.body[0].value, ast.Constant)}
    package = "polignac." + ".".join(path.relative_to(CORE.parent).parent.parts)
    hits = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in classes:
            hits.append(f"{node.lineno}: {node.id}")
        elif isinstance(node, ast.Attribute) and node.attr in classes | STATE_FIELDS:
            hits.append(f"{node.lineno}: .{node.attr}")
        elif isinstance(node, ast.keyword) and node.arg in STATE_FIELDS:
            hits.append(f"{node.value.lineno}: {node.arg}=")
        elif isinstance(node, ast.arg) and node.arg in STATE_FIELDS:
            hits.append(f"{node.lineno}: parameter {node.arg}")
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            module = ".".join(p for p in (base, node.module or "") if p)
            named = [module] + [f"{module}.{a.name}" for a in node.names]
            hits += [f"{node.lineno}: imports {m}" for m in named if m in modules]
            hits += [f"{node.lineno}: imports {a.name}" for a in node.names if a.name in classes]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in docs:
            text = node.value.lower()
            hits += [f"{node.lineno}: {node.value!r}" for w in words
                     if text == w or text.startswith((w + "-", w + ":"))]
    return hits


def test_outside_the_core_no_family_is_named() -> None:
    """The bots, the research interfaces, the command line and the server ask the
    families' hooks (``Deal.seat_knowledge``, ``visible_actions``, ``received``,
    ``Family.passing``...) instead of naming a family's classes, modules, games or
    presets (FAMILY_NAMED_IN lists what is left, and why)."""
    src = CORE.parent
    found = {str(p.relative_to(src)): hits for pkg in ("bots", "research", "cli", "server")
             for p in sorted((src / pkg).rglob("*.py")) if (hits := _naming(p))}
    extra = {k: v for k, v in found.items() if k not in FAMILY_NAMED_IN}
    assert extra == {}, f"name a family only through its hooks: {extra}"
    gone = sorted(set(FAMILY_NAMED_IN) - set(found))
    assert gone == [], f"these no longer name a family: remove them from FAMILY_NAMED_IN: {gone}"


def test_the_family_guard_finds_a_name() -> None:
    probe = CORE.parent / "bots" / "probe.py"
    text = ('"""HeartsDeal in a docstring is fine."""\n'
            "from ..core.hearts_deal import HeartsDeal\n"
            "def f(d: object) -> bool:\n"
            "    return isinstance(d, HeartsDeal) or d.preset.startswith('pollack-')\n"
            "def g(d: Any, pool_in: bool) -> object:\n"
            "    return d.partie, h(pool_in=d.pool_in)\n")
    hits = _naming(probe, text)
    assert sorted(hits) == sorted([
        "2: imports polignac.core.hearts_deal", "2: imports HeartsDeal", "4: HeartsDeal",
        "4: 'pollack-'", "5: parameter pool_in", "6: .partie", "6: pool_in=",
        "6: .pool_in"]), hits


def test_page_scripts_name_no_family() -> None:
    import re

    _classes, _modules, words = _family_words()
    quoted = re.compile(r"[\"'`](" + "|".join(sorted(map(re.escape, words), key=len,
                                                        reverse=True)) + r")[-:\"'`]")
    assert quoted.findall('if (preset.startsWith("pollack-") || x === "bassadewitz")') == [
        "pollack", "bassadewitz"]
    static = CORE.parent / "server" / "static"
    naming = {p.name: found for p in sorted(static.glob("*.js"))
              if (found := quoted.findall(p.read_text("utf-8")))}
    extra = {k: v for k, v in naming.items() if k not in PAGE_SCRIPTS_STILL_NAMING}
    assert extra == {}, f"page scripts naming a family: {extra}"
    gone = sorted(set(PAGE_SCRIPTS_STILL_NAMING) - set(naming))
    assert gone == [], f"these name no family now: remove them from the list: {gone}"


def test_the_registry_names_the_announcement_actions() -> None:
    """The shared action numbers from ANNOUNCE_BASE are named after the families'
    announcements, in the list's order; the parser's error lists them."""
    names = [a for f in fam.families() for a in f.announcements]
    assert tuple(names) == ANNOUNCEMENTS and len(names) == NUM_ACTIONS - ANNOUNCE_BASE
    assert [action_name(ANNOUNCE_BASE + i) for i in range(len(names))] == [
        "announce:" + a for a in names]
    with pytest.raises(IllegalActionError, match="announce:<" + "[|]".join(names) + ">"):
        parse_action("announce:nothing")
    assert parse_action("ANNOUNCE:" + names[0].upper()) == ANNOUNCE_BASE

    class MoreCalls(TrickAvoidanceFamily):
        name = "more-calls"
        games = scorings = ()
        announcements = ("one-more",)

    with pytest.raises(ValueError, match="at most"), fam.extended(MoreCalls()):
        pass  # pragma: no cover - refused before the block
    assert tuple(names) == ANNOUNCEMENTS == fam.announcement_names()
    calls = get_rules("pollack").scorer.call_rules
    assert calls is not None and set(calls.needs) == set(names)
    assert calls.slots_per_player == max(calls.slot) + 1


def test_only_the_hearts_modules_import_the_hearts_module() -> None:
    importers = {p.name for p in _core_files()
                 if re.search(r"^from \.hearts import", p.read_text("utf-8"), re.M)}
    assert importers == {"hearts_deal.py"}


def test_core_reads_flags_not_parameter_strings() -> None:
    """No ``rules.declaration == "chelem"`` and the like in the core: Rules.contract,
    Rules.end, Rules.kind and the families' hooks say what a value means."""
    found = [f"{p.name}:{i}: {line.strip()}" for p in _core_files()
             for i, line in enumerate(p.read_text("utf-8").splitlines(), 1)
             if COMPARISON.search(line)]
    assert not found, found
    assert COMPARISON.search('if rules.declaration == "chelem":')
    assert COMPARISON.search("if r.match_end in ('chips', 'parties'):")
    assert rules_mod.CONTRACTS.keys() == set(rules_mod.DECLARATIONS)
    assert rules_mod.MATCH_END_KINDS.keys() == set(rules_mod.MATCH_ENDS)


def test_each_match_end_has_one_rule() -> None:
    """Standing.after_deal and the rules text pick a match end by its one flag."""
    for name, end in rules_mod.MATCH_END_KINDS.items():
        assert end.name == name
        rules = (end.loser, end.shared, end.tie_break, end.target, end.fixed and not end.chips,
                 end.chips, end.parties)
        assert sum(rules) == 1, name
        assert end.threshold == (name in rules_mod.THRESHOLD_ENDS)


# ------------------------------------------- returns and their bounds (the hooks)


def _house_hearts(preset: str, **extra: str) -> Rules:
    """A Hearts preset with the Jack of diamonds house rule (``card_points JD:-10``)."""
    base = get_rules(preset)
    points = ",".join(f"{code}:{v}" for code, v in {**base.card_points, "JD": -10}.items())
    return get_rules(preset, {"card_points": points, **extra})


ALL_COUNTS = [(get_rules(name), n) for name, r in PRESETS.items() for n in r.players] + [
    (_house_hearts(name), n) for name in ("black-lady", "black-maria")
    for n in get_rules(name).players]


def _random_deal(rules: Rules, n: int, rng: random.Random, pool_in: bool) -> Deal:
    """A deal played to its end by random legal actions (declarations, passes, calls)."""
    deal = Deal.shuffled(rules, n, rng.randrange(n), rng,
                         family_state=pool_in if rules.kind.chips else None)
    while not deal.done:
        deal = deal.apply(rng.choice(deal.legal_actions()))
    return deal


@pytest.mark.parametrize(("rules", "n"), ALL_COUNTS,
                         ids=[f"{r.preset}{'-jd' if 'JD' in r.card_points else ''}-{n}"
                              for r, n in ALL_COUNTS])
def test_returns_of_random_deals_lie_within_the_bounds(rules: Rules, n: int) -> None:
    """Every random deal's returns (the scoring family's hooks) lie within its bounds;
    a zero-sum family's add up to 0; each return follows from the deal's score."""
    scorer = rules.scorer
    rng = random.Random(f"{rules.preset}-{n}-{sorted(rules.card_points.items())}")
    seen_low = seen_high = False
    for i in range(40):
        pool_in = i % 4 != 3
        deal = _random_deal(rules, n, rng, pool_in)
        lo, hi = scorer.return_bounds(rules, n, deal.family_state)
        assert lo <= 0.0 <= hi
        score = deal.score()
        got = scorer.returns(score, rules, n)
        assert len(got) == n and all(lo <= g <= hi for g in got), (got, lo, hi)
        if scorer.zero_sum:
            assert sum(got) == 0.0
        elif rules.kind.penalty:  # higher is better: minus the penalty
            assert got == [-float(s) for s in score.scores]
        else:
            assert got == [float(s) for s in score.scores]
        seen_low |= min(got) < 0.0
        seen_high |= max(got) > 0.0
    assert seen_low  # something was lost in 40 deals: the test sees real scores


def _sweep_deal(rules: Rules, n: int, declare: bool) -> Deal:
    """A deal in which one player, the eldest (it holds the highest cards in
    play and plays its highest, the others their lowest), takes every trick;
    ``declare``: it declares the contract first (the others pass)."""
    strength = rules.strength()
    pack = cards_of(rules.pack_mask(n))
    size = rules.hand_size(n)
    order = sorted(pack, key=lambda c: (-strength[c % 13], c))
    sweeper = 1 % n
    hands = [0] * n
    hands[sweeper] = sum(1 << c for c in order[:size])
    rest = order[size:]
    random.Random(n).shuffle(rest)
    others = [p for p in range(n) if p != sweeper]
    for i, c in enumerate(rest):
        hands[others[i % (n - 1)]] |= 1 << c
    deal = Deal.from_hands(rules, hands, dealer=0)
    while not deal.done:
        legal = deal.legal_actions()
        cards = [a for a in legal if a < 52]
        if not cards:  # the declaration round
            calls = [a for a in legal if a != PASS]
            deal = deal.apply(calls[0] if declare and deal.to_act == sweeper and calls else PASS)
            continue
        pick = max if deal.to_act == sweeper else min
        deal = deal.apply(pick(cards, key=lambda c: (strength[c % 13], c)))
    assert deal.tricks[sweeper] == size
    return deal


PENALTY_COUNTS = [(r, n) for r, n in ALL_COUNTS if r.kind.penalty]


@pytest.mark.parametrize(("rules", "n"), PENALTY_COUNTS,
                         ids=[f"{r.preset}{'-jd' if 'JD' in r.card_points else ''}-{n}"
                              for r, n in PENALTY_COUNTS])
def test_penalty_bounds_are_reached_by_a_sweep(rules: Rules, n: int) -> None:
    """The penalty games' bounds are exact: a player who takes every trick (the
    moon in the Hearts family) gives some player the lowest return, or, where a
    declared contract can fail, that lowest less the contract's points (a
    declarer who takes every point card and fails: scored by the engine's
    :func:`~polignac.core.scoring.score_tricks`); declaring the contract first,
    where it has a bonus, gives the declarer the highest; with the Jack of
    diamonds (-10), the moon's shooter gets the highest."""
    if rules.passing != "none":
        rules = replace(rules, passing="none")  # the sweeper keeps its cards
    scorer = rules.scorer
    lo, hi = scorer.return_bounds(rules, n)
    got = scorer.returns(_sweep_deal(rules, n, declare=False).score(), rules, n)
    assert all(lo <= g <= hi for g in got), (got, lo, hi)
    if rules.has_declaration_round and not rules.contract.declarer_leads:
        assert min(got) == lo + rules.contract_points
        size = rules.hand_size(n)
        taken: dict[str, int | None] = {c: 1 for c in point_cards_in_play(rules, n)}
        tricks = [0] * n
        tricks[0], tricks[1] = 1, size - 1
        failed = score_tricks(rules, n, taken, tricks, 1, 0, declarer=1, slam=-1)
        assert scorer.returns(failed, rules, n)[1] == lo
    else:
        assert min(got) == lo
    if rules.moon:
        sweeper = 1 % n
        assert got[sweeper] == hi == (10.0 if "JD" in rules.card_points else 0.0)
        assert [g for p, g in enumerate(got) if p != sweeper] == [lo] * (n - 1)
    if rules.has_declaration_round and rules.contract.bonus:
        got = scorer.returns(_sweep_deal(rules, n, declare=True).score(), rules, n)
        assert max(got) == hi > 0.0


def test_hearts_without_the_moon_the_sweeper_keeps_its_penalties() -> None:
    """Without the moon the sweeper keeps the 26 (less the Jack of diamonds' 10):
    within the same bounds, which the moon's deals reach."""
    rules = replace(_house_hearts("black-lady"), passing="none", moon=False)
    got = rules.scorer.returns(_sweep_deal(rules, 4, declare=False).score(), rules, 4)
    assert got == [0.0, -16.0, 0.0, 0.0]
    assert rules.scorer.return_bounds(rules, 4) == (-26.0, 10.0)


CALLS_COUNTS = [(r, n) for r, n in ALL_COUNTS if r.has_calls or n == r.default_players]


@pytest.mark.parametrize(("rules", "n"), CALLS_COUNTS,
                         ids=[f"{r.preset}-{n}" for r, n in CALLS_COUNTS])
def test_calls_card_points_are_the_score_lines_of_the_calls(rules: Rules, n: int) -> None:
    """What a deal's calls are worth to a player beyond its card play (the bots'
    playouts add it to the solver's card points): its side's announcement lines,
    each point ``point_divisor`` card points; nothing in a game without calls."""
    rng = random.Random(f"calls-{rules.preset}-{n}")
    announced = 0
    for _ in range(30):
        deal = _random_deal(rules, n, rng, True)
        lines = deal.score().lines
        for p in range(n):
            mine = sum(x.points for x in lines if x.reason == "announce" and x.side == p & 1)
            assert rules.scorer.calls_card_points(deal, p) == mine * rules.point_divisor
            assert rules.has_calls or mine == 0
        announced += len(deal.announcements)
    assert announced > 0 or not rules.has_calls


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_solver_result_agrees_with_the_deal_score(preset: str) -> None:
    # The exact solver's leaf (Family.solver_result) on finished random deals: the
    # scoring family's return, or (scored by sides, no claim) the side's card points
    # that, with its calls, make its score.
    rules = get_rules(preset)
    scorer, n = rules.scorer, rules.default_players
    assert fam.scorer_of(rules).solver_unit(rules.scoring) == scorer.solver_unit(rules.scoring)
    rng = random.Random(7)
    checked = 0
    for dealer in range(40):
        deal = Deal.shuffled(rules, n, dealer % n, rng)
        while not deal.done:
            deal = deal.apply(rng.choice(deal.legal_actions()))
        score = deal.score()
        results = [scorer.solver_result(deal, p) for p in range(n)]
        if rules.kind.sides:
            assert scorer.solver_unit(rules.scoring) == "card-points"
            if score.claim is not None:
                continue
            assert results[0] + results[1] == sum(score.card_points) + rules.last_trick_points
            assert [(results[p] + scorer.calls_card_points(deal, p)) // rules.point_divisor
                    for p in range(n)] == list(score.scores)
        else:
            assert scorer.solver_unit(rules.scoring) == rules.scoring
            assert [float(x) for x in results] == scorer.returns(score, rules, n)
        checked += 1
    assert checked >= 6


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_play_limits_agree_with_the_deal(preset: str) -> None:
    """``Family.play_limits`` (what the solver reads) says what the family's deal
    does: none but in the Hearts family, and there the deal's own restrictions at
    every state of a random deal (the breakers lift ``unbroken`` once played)."""
    rules = get_rules(preset)
    rng = random.Random(preset)
    for n in rules.players:
        limits = rules.family.play_limits(rules, n)
        deal = Deal.shuffled(rules, n, 0, rng)
        if not isinstance(deal, HeartsDeal):
            assert limits is None
            continue
        assert limits is not None
        assert bool(limits.moon) == rules.moon
        while not deal.done:
            if deal.phase_name == "play":
                opening, clean, unbroken = deal.play_restrictions()
                first = not deal.past
                assert opening == (limits.opening if first and not deal.trick else -1)
                assert clean == (limits.clean if first else 0)
                played = sum(deal.taken) | sum(1 << c for c in deal.trick)
                assert unbroken == (limits.unbroken if not played & limits.breakers else 0)
            legal = deal.legal_actions()
            deal = deal.apply(legal[rng.randrange(len(legal))])


def test_a_family_carries_its_own_state_through_the_match() -> None:
    """A family's own state goes through the standing, each deal and the score pad
    unread by them (``Family.start_state``, ``deal_state``, ``next_state``): here a
    count of the deals played, which each deal is given at its start."""
    from typing import Any

    from polignac.core.scorepad import ScorePad

    class Counting(TrickAvoidanceFamily):
        name = "counting"
        games = ("counting",)
        scorings = (rules_mod.ScoreKind("counting", penalty=True, taker_gains=False,
                                        chips=False, sides=False,
                                        match_ends=("threshold-loser",)),)

        def start_state(self, rules: Rules, n: int) -> Any:
            return ("deals", 0)

        def deal_state(self, state: Any) -> Any:
            return state[1] if state is not None else -1

        def next_state(self, state: Any, redeal: bool) -> Any:
            return ("deals", state[1] + 1)

    rules = Rules(preset="counting", game="counting", scoring="counting", players=(4,),
                  card_points={"JC": 5}, declaration="none", threshold=15)
    with fam.extended(Counting()):
        assert Deal.shuffled(rules, 4, 0, random.Random(1)).family_state == -1
        m = Match.new(rules, 4)
        assert m.family_state == ("deals", 0)
        rng = random.Random(4)
        while not m.finished:
            if m.needs_deal:
                m = m.deal_random(rng)
                assert m.current is not None and m.current.family_state == len(m.results)
            else:
                m = m.apply(rng.choice(m.legal_actions()))
        assert m.family_state == ("deals", len(m.results))
        assert all(r.family_result is None and r.sheet() == {} for r in m.results)
        pad = ScorePad.new(rules, ["A", "B", "C", "D"])
        assert pad.family_state == ("deals", 0)


def test_the_shared_core_asks_the_families_hooks_for_their_rules() -> None:
    """The Hearts family's private pass, Pollack's sides and claim: the family's hooks,
    not branches of the shared core (visibility, the match, the deal)."""
    assert Deal.private_phases == frozenset() and HeartsDeal.private_phases == {"pass"}
    pollack, polignac = get_rules("pollack"), get_rules("polignac")
    assert [pollack.scorer.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert polignac.scorer.side_of(1) is None and get_rules("black-lady").scorer.side_of(1) is None
    deal = Deal.shuffled(pollack, 4, 0, random.Random(3))
    assert deal.side_total(0) == pollack.scorer.side_total(deal, 0) == 0
    assert Deal.shuffled(polignac, 4, 0, random.Random(3)).side_total(1) == 0


def test_the_registry_in_use_is_the_one_the_rules_read() -> None:
    from polignac.core import registry

    assert registry.current() is fam.registry() and registry.current().families == FAMILIES
    extra = registry.Registry(FAMILIES)
    registry.install(extra)
    try:
        assert registry.current() is extra and get_rules("polignac").family is FAMILIES[0]
    finally:
        registry.uninstall(extra)
    assert registry.current() is fam.registry()
    with pytest.raises(RulesError, match="game 'nope' has no family"):
        registry.current().family_of("nope")
