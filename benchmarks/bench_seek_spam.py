"""Find players under seek spam (issue 32, item 1; docs/server.md, "Find players":
limits).

Starts ``polignac serve`` (SQLite in a temporary folder; X-Forwarded-For trusted
from 127.0.0.1, so that each client has its own address).  First the reference: two
real players (Polignac, 4 players, bots after 30 s) ask on the empty server and poll
as the lobby does until seated.  Then the spam: ``--addresses`` addresses (each its
own /24) post ``--per-address`` requests each, every one from a fresh browser, and
never poll.  Then the same two real players ask again.  Prints, for both: the
answer time of each ``POST /api/seeks`` and the time from asking until both are
seated, with the ratio spam / reference; how many spam requests were taken and
refused (by which rule); and the tables made (must be the two real ones).

    PYTHONPATH=src .venv/bin/python benchmarks/bench_seek_spam.py [--addresses 100]
"""

from __future__ import annotations

import argparse
import collections
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
from serving import served


def client(base: str, address: str) -> httpx.Client:
    """A browser from ``address`` (through the trusted proxy's header)."""
    return httpx.Client(base_url=base, timeout=60, trust_env=False,
                        headers={"origin": base, "x-forwarded-for": address})


def real_pair(base: str, tag: str) -> tuple[list[float], float, str]:
    """Two real players ask and poll every 0.5 s until seated: (each POST's answer in
    ms, seconds from the first POST until both are seated, the table; or, when a POST
    was refused, -1 and the refusal)."""
    people = [client(base, f"203.0.113.{tag}"), client(base, f"198.18.{tag}.9")]
    answers = []
    started = time.perf_counter()
    for i, http in enumerate(people):
        t = time.perf_counter()
        r = http.post("/api/seeks", json={"preset": "polignac", "players": 4,
                                          "bots_after": 30, "name": f"Real{i}"})
        answers.append((time.perf_counter() - t) * 1000)
        if r.status_code != 200:
            return answers, -1.0, f"{r.status_code} {r.json().get('rule')}"
    urls: dict[int, str] = {}
    while len(urls) < len(people):
        for i, http in enumerate(people):
            if i not in urls:
                mine = http.get("/api/seeks").json()["mine"]
                assert mine is not None, f"Real{i}'s request vanished"
                if mine["state"] == "seated":
                    urls[i] = mine["url"]
        time.sleep(0.5)
    took = time.perf_counter() - started
    for http in people:
        http.close()
    assert len(set(urls.values())) == 1, urls
    return answers, took, urls[0]


def spam(base: str, k: int, per_address: int) -> list[int | str]:
    """Address ``k`` posts ``per_address`` requests, each from a fresh browser, and never
    polls: the status (200) or the refusing rule of each."""
    out: list[int | str] = []
    with client(base, f"10.{k // 256 % 256}.{k % 256}.1") as http:
        for _ in range(per_address):
            http.cookies.clear()
            r = http.post("/api/seeks", json={"preset": "polignac", "players": 4,
                                              "bots_after": 30})
            out.append(200 if r.status_code == 200 else r.json().get("rule", r.status_code))
    return out


def main() -> None:
    """Run it and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--addresses", type=int, default=100)
    ap.add_argument("--per-address", type=int, default=10)
    ap.add_argument("--port", type=int, default=18151)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as folder, \
            served(Path(folder), args.port, "--bot-workers", "1", "--job-workers", "1",
                   "--grace", "600", "--forwarded-allow-ips", "127.0.0.1") as server:
        base = server.base
        ref_answers, ref_took, ref_table = real_pair(base, "1")
        print(f"reference   empty server: POST answered in "
              f"{', '.join(f'{a:.1f}' for a in ref_answers)} ms; both seated "
              f"{ref_took:.1f} s after asking (countdown 5 s)")
        t = time.perf_counter()
        with ThreadPoolExecutor(max_workers=16) as pool:
            results = [s for out in pool.map(lambda k: spam(base, k, args.per_address),
                                             range(args.addresses)) for s in out]
        spent = time.perf_counter() - t
        counts = collections.Counter(results)
        print(f"spam        {len(results)} requests from {args.addresses} addresses in "
              f"{spent:.1f} s, never polled: {counts[200]} taken, refused "
              f"{dict((k, v) for k, v in counts.items() if k != 200)}")
        answers, took, table = real_pair(base, "2")
        if took < 0:
            print(f"real player after the spam: REFUSED ({table}) in "
                  f"{', '.join(f'{a:.1f}' for a in answers)} ms")
            return
        ratio_post = max(answers) / max(ref_answers)
        print(f"real player after the spam: POST answered in "
              f"{', '.join(f'{a:.1f}' for a in answers)} ms "
              f"({ratio_post:.1f}x the reference's slowest); both seated {took:.1f} s "
              f"after asking ({took / ref_took:.2f}x the reference's)")
        assert table != ref_table
    made = sum("matchmaker: table" in line for line in server.log_lines)
    print(f"server log: {made} tables made by the matchmaker (the two real pairs': 2)")


if __name__ == "__main__":
    main()
