"""Exact open-hand solve of whole 4-player Polignac deals, against a C reference.

For ``--deals`` random deals (seeded), solves the position before the first
card (the paranoid value for eldest, who leads: :meth:`Solver.value`) and
reports the mean, median, 99th percentile and worst time per deal, and the
nodes searched.  The numba kernel is compiled and warmed up before timing
(the first-call time is printed).

The reference is ``polbench`` (a simple C alpha-beta solver, not part of the
project), compiled from ``polbench.c`` in the reference folder when a C
compiler is there.  It solves the very same positions in the same run
(``polbench - 5 < positions``: seat P = eldest minimises its own penalty,
J♠ 2 and the other Jacks 1, ranks K Q J A T 9 8 7), in chunks interleaved
with ours so that both see the same load, each chunk ``--repeat`` times by
each (the fastest time of each position counts: a load spike on a shared
machine then hits neither); the benchmark checks that the two
values agree on every deal and prints the ratios (ours / C) of the mean,
median and p99 times.  The folder is ``--reference DIR``, else
``$POLIGNAC_REFERENCE``, else ``<repo>/../shared/reference`` (for a git
worktree, also next to the main checkout).  Without it or a compiler the
benchmark says so and runs ours alone, next to a naive plain-Python minimax
on the last ``--naive-cards`` cards of the first ``--naive-deals`` deals.

A second line times the Hearts family (no C reference): ``--hearts-deals``
random 4-player ``black-lady`` deals (random passes and random legal play up
to trick ``--hearts-trick``, 6 by default: the hard bot's and the analysis'
late positions), the paranoid value for the player to lead, each solved
``--repeat`` times (the fastest counts); the first ``--naive-deals`` of them
are also played on to their last ``--naive-cards`` cards (at most 3) and
checked against the naive minimax over the core (its moon included).

Run::

    .venv/bin/python benchmarks/bench_solver.py [--deals 500] [--seed 1] [--reference DIR]

This is not a test: pytest does not collect ``benchmarks/``.  Exit status 1
when the two solvers disagree on a value.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from polignac.bots.solver import Position, Solver, final_result
from polignac.core import Deal, get_rules

AIM_P99_MS = 20.0
ENV_REFERENCE = "POLIGNAC_REFERENCE"
# polbench numbers the ranks of a suit weakest first: 7 8 9 T A J Q K (the Jack is 5)
C_ORDER = "789TAJQK"
C_JACK_RANK = 5
RANKS = "23456789TJQKA"


def naive(deal: Deal, me: int) -> int:
    """Plain paranoid minimax over the core (no pruning at all)."""
    if deal.done:
        return final_result(deal, me)
    vals = [naive(deal.apply(c), me) for c in deal.legal_actions()]
    return max(vals) if deal.to_act == me else min(vals)


def c_mask(hand: int) -> int:
    """Our card mask as polbench's: bit ``suit * 8 + r``, ``r`` weakest first."""
    m = 0
    for c in range(52):
        if hand >> c & 1:
            m |= 1 << (8 * (c // 13) + C_ORDER.index(RANKS[c % 13]))
    return m


def c_line(deal: Deal) -> str:
    """The polbench line of ``deal``: ``P leader h0 h1 h2 h3`` (P = the leader)."""
    p = deal.to_act
    return f"{p} {deal.leader} " + " ".join(f"0x{c_mask(h):08x}" for h in deal.hands)


def find_reference(arg: str | None) -> tuple[Path | None, list[Path]]:
    """The reference folder holding polbench.c, and the places tried."""
    tried: list[Path] = []
    if arg:
        tried.append(Path(arg))
    elif os.environ.get(ENV_REFERENCE):
        tried.append(Path(os.environ[ENV_REFERENCE]))
    else:
        repo = Path(__file__).resolve().parent.parent
        tried.append(repo.parent / "shared" / "reference")
        try:  # a git worktree: also next to the main checkout
            common = subprocess.run(["git", "-C", str(repo), "rev-parse", "--git-common-dir"],
                                    capture_output=True, text=True, timeout=10, check=False)
            if common.returncode == 0:
                main = (repo / common.stdout.strip()).resolve().parent
                if main != repo:
                    tried.append(main.parent / "shared" / "reference")
        except OSError:
            pass
    for d in tried:
        if (d / "polbench.c").is_file():
            return d, tried
    return None, tried


def build_reference(folder: Path, out: Path) -> tuple[Path | None, str]:
    """Compile polbench; return its path (None on failure) and a note."""
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if not cc:
        return None, "no C compiler (cc, gcc, clang) found"
    exe = out / "polbench"
    cmd = [cc, "-O3", "-march=native", "-o", str(exe), str(folder / "polbench.c")]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
    if r.returncode != 0:
        return None, f"{' '.join(cmd)} failed: {r.stderr.strip()[:500]}"
    return exe, " ".join(cmd)


def run_reference(exe: Path, lines: list[str]) -> list[tuple[int, int, float]]:
    """Solve ``lines`` with polbench; return (value, nodes, ms) for each.

    Raises:
        RuntimeError: polbench failed or printed something unexpected.
    """
    r = subprocess.run([str(exe), "-", str(C_JACK_RANK)], input="\n".join(lines) + "\n",
                       capture_output=True, text=True, timeout=3600, check=False)
    if r.returncode != 0:
        raise RuntimeError(f"polbench exited {r.returncode}: {r.stderr.strip()}")
    out = []
    for row in r.stdout.splitlines()[: len(lines)]:
        v, n, ms = row.split()
        out.append((int(v), int(n), float(ms)))
    if len(out) != len(lines):
        raise RuntimeError(f"polbench answered {len(out)} of {len(lines)} positions")
    return out


def pct(sorted_ms: list[float], q: float) -> float:
    """The ``q`` quantile of sorted figures (nearest rank, as polbench's summary)."""
    return sorted_ms[min(len(sorted_ms) - 1, int(q * (len(sorted_ms) - 1) + 0.5))]


def figures(name: str, ms: list[float], nodes: list[int]) -> tuple[float, float, float]:
    """Print one solver's line; return its mean, median and p99."""
    s = sorted(ms)
    mean, med, p99 = statistics.fmean(s), statistics.median(s), pct(s, 0.99)
    print(f"  {name:<5} mean {mean:8.3f} ms  median {med:7.3f}  p99 {p99:8.3f}  "
          f"worst {s[-1]:8.3f}   nodes mean {statistics.fmean(nodes):9.0f} max {max(nodes)}")
    return mean, med, p99


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; return the exit status."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--deals", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--chunk", type=int, default=50, help="deals a turn, ours and C's in turn")
    ap.add_argument("--repeat", type=int, default=2,
                    help="solves of each chunk by each solver, in turn; the fastest counts")
    ap.add_argument("--reference", help=f"folder of polbench.c (else ${ENV_REFERENCE}, "
                                        "else <repo>/../shared/reference)")
    ap.add_argument("--naive-deals", type=int, default=20)
    ap.add_argument("--naive-cards", type=int, default=4)
    ap.add_argument("--hearts-deals", type=int, default=100,
                    help="black-lady deals solved from trick --hearts-trick (0: none)")
    ap.add_argument("--hearts-trick", type=int, default=6)
    args = ap.parse_args(argv)
    rules = get_rules("polignac")
    rng = random.Random(args.seed)
    deals = []
    for _ in range(args.deals):
        d = Deal.shuffled(rules, 4, dealer=rng.randrange(4), rng=rng)
        while d.phase_name == "declare":
            d = d.apply_text("pass")
        deals.append(d)

    folder, tried = find_reference(args.reference)
    exe = None
    with tempfile.TemporaryDirectory() as tmp:
        if folder is None:
            note = ("C reference MISSING: no polbench.c in "
                    + ", ".join(str(p) for p in tried)
                    + f" (give --reference DIR or ${ENV_REFERENCE})")
        else:
            exe, note = build_reference(folder, Path(tmp))
            if exe is None:
                note = f"C reference NOT BUILT from {folder}: {note}"
            else:
                note = f"C reference: {note}"
        return _run(args, deals, exe, note)


def _run(args: argparse.Namespace, deals: list[Deal], exe: Path | None, note: str) -> int:
    solver = Solver()
    t0 = time.perf_counter()
    solver.value(Position.from_deal(deals[0]))  # compile or load from numba's cache
    first_s = time.perf_counter() - t0
    ms: list[float] = []
    cpu: list[float] = []
    nodes: list[int] = []
    vals: list[int] = []
    ref: list[tuple[int, int, float]] = []
    step = max(1, args.chunk)
    for k in range(0, len(deals), step):
        chunk = deals[k:k + step]
        best: list[tuple[float, float, int, int]] = []
        cbest: list[tuple[int, int, float]] = []
        for r in range(max(1, args.repeat)):
            for i, d in enumerate(chunk):
                pos = Position.from_deal(d)
                t = time.perf_counter()
                c = time.process_time()
                v = solver.value(pos)
                one = (1000 * (time.perf_counter() - t), 1000 * (time.process_time() - c),
                       solver.last_nodes, v)
                if r == 0:
                    best.append(one)
                else:  # the same work again (a new table salt): keep the faster
                    assert one[2:] == best[i][2:], "a repeated solve differs"
                    best[i] = min(best[i], one)
            if exe is not None:
                got = run_reference(exe, [c_line(d) for d in chunk])
                cbest = got if r == 0 else [min(a, b, key=lambda x: x[2])
                                            for a, b in zip(cbest, got, strict=True)]
        ms += [b[0] for b in best]
        cpu += [b[1] for b in best]
        nodes += [b[2] for b in best]
        vals += [b[3] for b in best]
        ref += cbest
    print(f"exact paranoid solve, 4-player polignac, whole deal from the opening lead "
          f"(eldest minimises its penalty), {len(deals)} deals (seed {args.seed}), "
          f"each solved {max(1, args.repeat)} times by each solver, the fastest counts; "
          f"first solve {first_s:.1f} s, not counted (numba compiles the search at import, "
          f"or loads it from its cache)")
    if hasattr(os, "getloadavg"):
        print(f"  load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs "
              "(on a shared machine read the ratios, measured side by side)")
    print(f"  {note}")
    mean, med, p99 = figures("ours", ms, nodes)
    cs = sorted(cpu)
    print(f"        CPU time: mean {statistics.fmean(cs):.3f} ms, "
          f"median {statistics.median(cs):.3f},"
          f" p99 {pct(cs, 0.99):.3f}, worst {cs[-1]:.3f}; "
          f"{1e6 * sum(cpu) / max(1, sum(nodes)):.0f} ns of CPU a node")
    status = 0
    if ref:
        rmean, rmed, rp99 = figures("C", [r[2] for r in ref], [r[1] for r in ref])
        bad = sum(1 for v, r in zip(vals, ref, strict=True) if v != -r[0])
        print(f"  ratio ours / C (same positions, same run): mean {mean / rmean:.2f}, "
              f"median {med / rmed:.2f}, p99 {p99 / rp99:.2f}; nodes "
              f"{statistics.fmean(nodes) / statistics.fmean(r[1] for r in ref):.3f}")
        print(f"  values that disagree with C: {bad} of {len(deals)}")
        if bad:
            status = 1
    print(f"  aim: mean and p99 at or below C's, p99 at most {AIM_P99_MS:g} ms "
          f"({'met' if p99 <= AIM_P99_MS else 'not met'} for p99 {p99:.1f} ms)")
    if exe is None:
        status = max(status, _naive(args, deals, solver))
    if args.hearts_deals > 0:
        status = max(status, _hearts(args, solver))
    return status


def _hearts(args: argparse.Namespace, solver: Solver) -> int:
    """The black-lady line: solves from trick ``--hearts-trick``, and the naive check."""
    rules = get_rules("black-lady")
    rng = random.Random(args.seed)
    deals = []
    for _ in range(args.hearts_deals):
        d = Deal.shuffled(rules, 4, dealer=rng.randrange(4), rng=rng)
        while d.phase_name == "pass" or len(d.past) < args.hearts_trick - 1 or d.trick:
            d = d.apply(rng.choice(d.legal_actions()))
        deals.append(d)
    ms: list[float] = []
    cpu: list[float] = []
    nodes: list[int] = []
    for d in deals:
        pos = Position.from_deal(d)
        best = (float("inf"), float("inf"))
        for _ in range(max(1, args.repeat)):
            t = time.perf_counter()
            c = time.process_time()
            solver.value(pos)
            best = min(best, (1000 * (time.perf_counter() - t),
                              1000 * (time.process_time() - c)))
        ms.append(best[0])
        cpu.append(best[1])
        nodes.append(solver.last_nodes)
    print(f"exact paranoid solve, 4-player black-lady (the Hearts family's leads and "
          f"moon), from trick {args.hearts_trick} after random passes and play, "
          f"{len(deals)} deals (seed {args.seed}), the player to lead; no C reference")
    figures("ours", ms, nodes)
    print(f"        {1e6 * sum(cpu) / max(1, sum(nodes)):.0f} ns of CPU a node")
    k = min(args.naive_cards, 3)  # 4 cards of 4 players: minutes of naive search a deal
    checked = 0
    for d in deals[: args.naive_deals]:
        e = d
        while e.hands[e.to_act].bit_count() > k or e.trick:
            e = e.apply(rng.choice(e.legal_actions()))
        want = naive(e, e.to_act)
        got = solver.value(Position.from_deal(e))
        if got != want:
            print(f"  MISMATCH naive {want} solver {got} (black-lady)")
            return 1
        checked += 1
    print(f"  the naive minimax agrees on the last {k} cards of {checked} of these deals")
    return 0


def _naive(args: argparse.Namespace, deals: list[Deal], solver: Solver) -> int:
    """The in-run reference without C: naive minimax on end positions of the same deals."""
    tn = ts = 0.0
    k = args.naive_cards
    for d in deals[: args.naive_deals]:
        e = d
        while e.hands[e.to_act].bit_count() > k or e.trick:
            e = e.apply(e.legal_actions()[0])
        t = time.perf_counter()
        want = naive(e, e.to_act)
        tn += time.perf_counter() - t
        t = time.perf_counter()
        got = solver.value(Position.from_deal(e))
        ts += time.perf_counter() - t
        if got != want:
            print(f"  MISMATCH naive {want} solver {got}")
            return 1
    m = max(1, min(args.naive_deals, len(deals)))
    print(f"  in-run reference, {k}-card end positions of {m} deals: naive Python minimax "
          f"{1000 * tn / m:.2f} ms, solver {1000 * ts / m:.3f} ms "
          f"(ratio {tn / max(ts, 1e-9):.0f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
