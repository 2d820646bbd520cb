"""Build the golden records in ``records/`` from the readable specs in ``specs_*.py``.

Run ``.venv/bin/python tests/golden/build.py`` after editing a spec.

A spec gives, per deal, the tricks in play order, each written as
``"L: c1 c2 c3 c4 >W"``: player ``L`` (a deal-player index, ``hands[i]``
belongs to ``seats[i]``) leads, the cards follow in play order, and ``W`` is
the winner of the trick *as worked out by hand*.  The hands are derived from
the tricks (each player holds exactly the cards it plays, plus ``rest`` for
deals cut short by a Pollack claim), so a spec cannot deal a card twice.
Non-card tokens inside a trick (``announce:...``, ``claim``) are calls by the
player whose turn it is.  ``pre`` holds the declaration round.  ``passes`` (the
Hearts family) gives each player's passed cards and how many seats on they go:
the tricks then give the hands after passing, and the hands as dealt and the
passing actions (eldest first) are derived from them.

The helper only checks the spec's own consistency (each trick is led by the
winner written for the previous one); the expected scores, totals, winners
and losers are written by hand in each spec and are never computed here.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
RECORDS = HERE / "records"

_RANKS = "AKQJT98765432"
_SUITS = "SHDC"


def _is_card(token: str) -> bool:
    return len(token) == 2 and token[0] in _RANKS and token[1] in _SUITS


def _sort_key(card: str) -> tuple[int, int]:
    return _SUITS.index(card[1]), _RANKS.index(card[0])


def build_deal(spec: dict[str, Any]) -> dict[str, Any]:
    """Turn one deal spec into a record deal (hands and actions)."""
    n = len(spec["seats"])
    hands: list[list[str]] = [[] for _ in range(n)]
    actions: list[str] = list(spec.get("pre", []))
    expected_leader: int | None = None
    for t, line in enumerate(spec.get("tricks", []), start=1):
        head, _, body = line.partition(":")
        leader = int(head)
        tokens = body.split()
        winner: int | None = None
        if tokens and tokens[-1].startswith(">"):
            winner = int(tokens.pop()[1:])
        if expected_leader is not None and leader != expected_leader:
            raise ValueError(f"trick {t} led by {leader}, but {expected_leader} won trick {t - 1}")
        player = leader
        played = 0
        for token in tokens:
            actions.append(token)
            if _is_card(token):
                hands[player].append(token)
                player = (player + 1) % n
                played += 1
        if played not in (0, n) and t != len(spec["tricks"]):
            raise ValueError(f"trick {t} has {played} cards")
        expected_leader = winner
    for i, cards in enumerate(spec.get("rest", [[]] * n)):
        hands[i].extend(cards if isinstance(cards, list) else cards.split())
    if "passes" in spec:  # the Hearts family: the tricks give the hands after passing
        offset = spec["passes"]["offset"]
        given = [g.split() for g in spec["passes"]["cards"]]
        for p in range(n):
            got = given[(p - offset) % n]
            missing = [c for c in got if c not in hands[p]]
            if missing:
                raise ValueError(f"player {p} plays no {missing} it was passed")
            hands[p] = [c for c in hands[p] if c not in got] + given[p]
        eldest = (spec["dealer"] + 1) % n
        actions = [c for k in range(n) for c in given[(eldest + k) % n]] + actions
    actions.extend(spec.get("post", []))
    if "actions" in spec:  # negative records: the exact (illegal) action list
        actions = list(spec["actions"])
    sizes = {len(h) for h in hands}
    if len(sizes) != 1 and not spec.get("unequal_ok"):
        raise ValueError(f"hands of unequal sizes: {[len(h) for h in hands]}")
    return {
        "dealer": spec["dealer"],
        "seats": list(spec["seats"]),
        "hands": [sorted(h, key=_sort_key) for h in hands],
        "turn_up": spec.get("turn_up"),
        "actions": actions,
    }


def build_record(spec: dict[str, Any]) -> dict[str, Any]:
    """Turn a record spec into a golden record (record plus expected and why)."""
    record: dict[str, Any] = {
        "format": "polignac-record/1",
        "preset": spec["preset"],
        "rules": spec.get("rules", {}),
        "players": spec["players"],
        "first_dealer": spec.get("first_dealer", 0),
        "deals": [build_deal(d) for d in spec["deals"]],
    }
    why = spec["why"]
    tricks: list[str] = []
    for d, deal in enumerate(spec["deals"], start=1):
        if deal.get("tricks"):
            tricks.append(f"Deal {d}: " + " | ".join(deal["tricks"]))
    record["why"] = why
    if tricks:
        record["tricks_by_hand"] = tricks
    record["expected"] = spec["expected"]
    return record


def main() -> None:
    """Write every spec's record to ``records/<name>.json``."""
    sys.path.insert(0, str(HERE))
    import specs_bassadewitz
    import specs_hearts
    import specs_knaves
    import specs_negative
    import specs_polignac
    import specs_pollack
    import specs_slobber

    RECORDS.mkdir(exist_ok=True)
    for module in (specs_polignac, specs_slobber, specs_knaves, specs_bassadewitz,
                   specs_pollack, specs_negative, specs_hearts):
        for name, spec in module.SPECS.items():
            record = build_record(spec)
            path = RECORDS / f"{name}.json"
            path.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n")
            print("wrote", path.relative_to(HERE))


if __name__ == "__main__":
    main()
