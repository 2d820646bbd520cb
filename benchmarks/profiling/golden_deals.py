"""A fingerprint of the rules core's play, to compare two versions of the code (not a test).

Plays 40 seeded random deals of every preset and player count through ``Deal``
and hashes, at every step, the legal actions, the legal cards' mask, the player
to act, the phase and the trick; at the end the history, the taken cards, the
tricks, the claim, the announcements, the score and every seat's view (and a
spectator's); every 8th deal also the error (class, message, rule) of each
illegal action tried at each step, by the player to act and by another; every
5th deal the views of a state in its middle, and that state pickled and read
back.  Then it pickles one early state of every preset and player count, plays
them out in a new process (which has built no table) and here, and says whether
both agree.  Run it on both versions; the two lines must be the same::

    PYTHONPATH=src .venv/bin/python benchmarks/profiling/golden_deals.py
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import pickle
import random
import subprocess
import sys

from polignac.core import CLAIM, Deal, get_rules
from polignac.core.presets import PRESETS

_PLAY_OUT = """
import hashlib, pickle, random
from polignac.core import CLAIM
h = hashlib.sha256()
rng = random.Random(3)
for label, deal in pickle.loads(DATA):
    while not deal.done:
        legal = deal.legal_actions()
        h.update(repr(legal).encode())
        legal = [a for a in legal if a != CLAIM]
        deal = deal.apply(legal[rng.randrange(len(legal))])
    h.update(repr((label, deal.history, deal.score().to_dict(), deal.view(0))).encode())
print(h.hexdigest())
"""


def player_counts(preset: str) -> list[int]:
    """The player counts ``preset`` may be played by."""
    rules = get_rules(preset)
    out = []
    for n in range(2, 9):
        try:
            rules.check_player_count(n)
        except Exception:
            continue
        out.append(n)
    return out


def play(h: hashlib._Hash) -> int:
    """Hash the seeded deals into ``h``; return the actions played."""
    count = 0
    for name in sorted(PRESETS):
        rules = get_rules(name)
        for n in player_counts(name):
            rng = random.Random(7)
            for i in range(40):
                deal = Deal.shuffled(rules, n, i % n, rng)
                states = []
                while not deal.done:
                    legal = deal.legal_actions()
                    h.update(repr((legal, deal.to_act, deal.phase, deal.trick,
                                   deal.legal_card_mask())).encode())
                    if i % 2 and CLAIM in legal:
                        legal.remove(CLAIM)
                    states.append(deal)
                    if i % 8 == 0:
                        for bad in [*range(53), CLAIM, 60, 70, 80, 90, 200, -1]:
                            for who in (None, (deal.to_act + 1) % n):
                                try:
                                    deal.apply(bad, who)
                                    seen: object = "ok"
                                except Exception as e:
                                    seen = (type(e).__name__, str(e), getattr(e, "rule", None))
                                h.update(repr(seen).encode())
                    deal = deal.apply(legal[rng.randrange(len(legal))])
                    count += 1
                h.update(repr((type(deal).__name__, deal.history, deal.taken, deal.tricks,
                               deal.past, deal.claim, deal.announcements,
                               deal.score().to_dict())).encode())
                h.update(repr(deal.views([*range(n), None])).encode())
                if i % 5 == 0:
                    mid = states[len(states) // 2]
                    h.update(repr((mid.views([*range(n), None]), mid.taken, mid.tricks,
                                   mid.past)).encode())
                    again = pickle.loads(pickle.dumps(mid))
                    h.update(repr((again.legal_actions(), again.view(again.to_act))).encode())
    return count


def fresh_process() -> tuple[str, str]:
    """(a new process's hash, this one's) of early states played out after a pickle."""
    blobs = []
    for name in sorted(PRESETS):
        rules = get_rules(name)
        for n in player_counts(name):
            rng = random.Random(11)
            deal = Deal.shuffled(rules, n, 0, rng)
            for _ in range(n + 1):
                legal = [a for a in deal.legal_actions() if a != CLAIM]
                deal = deal.apply(legal[rng.randrange(len(legal))])
            blobs.append((f"{name} {n}", deal))
    data = pickle.dumps(blobs)
    reader = "import sys\nDATA = sys.stdin.buffer.read()\n"
    there = subprocess.run([sys.executable, "-c", reader + _PLAY_OUT], input=data,
                           capture_output=True, check=True).stdout.decode().strip()
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(_PLAY_OUT, {"DATA": data})
    return there, buf.getvalue().strip()


def main() -> int:
    """Print the fingerprint; exit 1 if the new process disagrees with this one."""
    h = hashlib.sha256()
    count = play(h)
    there, here = fresh_process()
    print(f"play {h.hexdigest()} ({count} actions)")
    print(f"unpickled in a new process {there} ({'same' if there == here else 'DIFFERENT'} here)")
    return 0 if there == here else 1


if __name__ == "__main__":
    raise SystemExit(main())
