"""Load benchmark of the web app: N tables of four simulated people over real WebSockets.

Starts ``polignac serve`` as a subprocess on a free port of 127.0.0.1 (SQLite
with ``synchronous=FULL``, or ``--database-url``), creates N tables of four
human seats (one creator plus three invite links), connects 4*N WebSocket
clients and lets each play random legal actions for ``--seconds``: at once
when it is its turn (``--think 0``, the default: a saturation test, where the
latency is the queue of every table waiting for the server), or after a
think time drawn uniformly from 0.5 to 1.5 times ``--think`` seconds (people).
Reports the acknowledgement latency (from sending ``act`` to receiving its
event, which the server sends only after the commit) at p50 and p99, and
actions per second.  Raises the open-files limit to its hard limit (each
client is a socket on both sides).

    .venv/bin/python benchmarks/bench_server.py                 # 20 tables, 15 s
    .venv/bin/python benchmarks/bench_server.py --tables 500 --seconds 20 --think 1
    .venv/bin/python benchmarks/bench_server.py --workers 1,2 --bus redis://127.0.0.1:6379/0

``--workers 1,2`` runs the same load against ``polignac serve`` (one process, the
default), then ``--workers 2`` (a fresh database each time, so SQLite needs ``--bus``; a
PostgreSQL ``--database-url`` is its own bus but keeps the first run's tables)
and prints the ratios of throughput, server CPU per action and p99 to the first
row's; the server's CPU then counts the web processes.  ``--proxy nginx`` puts
deploy/nginx.conf (run by nginx on a free port of 127.0.0.1, its upstreams the
server's port) in front, and the clients go through it; ``proxy_cpu`` is nginx's.

Not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets


def free_port() -> int:
    """A TCP port of 127.0.0.1 nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(data: Path, port: int, database_url: str | None,
                 extra: tuple[str, ...] = (), profile: Path | None = None
                 ) -> subprocess.Popen[bytes]:
    """``polignac serve`` on 127.0.0.1:port, ready to answer; ``extra`` options come
    last (they win over the benchmark's own).  ``profile``: a folder where each server
    process writes its cProfile of the play (``profiling/sitecustomize.py``).

    Raises:
        RuntimeError: it exited or did not answer within 120 s.
    """
    script = Path(sys.executable).parent / "polignac"
    cmd = [str(script)] if script.exists() else [sys.executable, "-m", "polignac"]
    cmd += ["serve", "--host", "127.0.0.1", "--port", str(port), "--data", str(data),
            "--deal-delay", "0", "--bot-delay", "0", "--rate", "100000", "--grace", "3600",
            "--create-burst", "100000", "--max-connections", "100000",
            "--header-timeout", "60",  # thousands of sockets open at once
            "--max-requests", "100000"]  # every client of the benchmark is one address
    if database_url:
        cmd += ["--database-url", database_url]
    cmd += list(extra)
    log = os.environ.get("POLIGNAC_BENCH_LOG")  # the server's output, to see why it failed
    out = open(log, "ab") if log else subprocess.DEVNULL  # noqa: SIM115
    env = dict(os.environ)
    if profile is not None:  # profiling/sitecustomize.py profiles each server process
        env["POLIGNAC_PROFILE"] = str(profile)
        env["PYTHONPATH"] = os.pathsep.join(
            [str(PROFILING)] + [p for p in [env.get("PYTHONPATH")] if p])
    proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
    deadline = time.monotonic() + 120  # a busy machine starts slowly
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("polignac serve exited")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/presets", timeout=1,
                         trust_env=False).status_code == 200:
                if "--workers" in extra:  # the others start as fast: give them time
                    time.sleep(3)
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.terminate()  # --workers: the supervisor stops its processes
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        proc.kill()
    raise RuntimeError("polignac serve did not start in 120 s")


async def make_table(port: int, preset: str) -> tuple[str, list[str]]:
    """A table of four people; its id and each seat's cookie header.

    Raises:
        httpx.HTTPError, KeyError: the server refused.
    """
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60,
                                 trust_env=False, verify=False) as http:
        return await seat_four(http, preset)


async def seat_four(http: httpx.AsyncClient, preset: str = "polignac",
                    overrides: dict[str, Any] | None = None) -> tuple[str, list[str]]:
    """A table of four people (each invite opened by another browser): its id and the
    four seat cookies."""
    r = await http.post("/api/tables", json={
        "preset": preset, "seats": [{"kind": "you"}] + [{"kind": "open"}] * 3,
        "overrides": overrides or {}})
    r.raise_for_status()
    table = r.json()["id"]
    name = f"polignac_{table}"
    cookies = [f"{name}={r.cookies[name]}"]
    for invite in r.json()["invites"]:
        http.cookies.clear()  # each invite is opened by another browser
        j = await http.post(invite["url"], follow_redirects=False)
        cookies.append(f"{name}={j.cookies[name]}")
    return table, cookies


async def player(port: int, table: str, cookie: str, seed: int, deadline: list[float],
                 latencies: list[float], go: asyncio.Event, think: float = 0.0) -> int:
    """Play random legal actions for one seat from ``go`` until ``deadline[0]``; how many.

    With ``think`` > 0, wait 0.5 to 1.5 times ``think`` seconds before each action.
    """
    rng = random.Random(seed)
    played = 0
    async with websockets.connect(f"ws://127.0.0.1:{port}/tables/{table}/ws", proxy=None,
                                  additional_headers={"Cookie": cookie},
                                  max_queue=None, open_timeout=60) as ws:
        await ws.send(json.dumps({"type": "hello", "last_seq": 0}))
        seq, view, sent_at, pending = 0, {}, 0.0, False
        await go.wait()
        stop_at = deadline[0]
        while time.monotonic() < stop_at:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.01, stop_at -
                                                                    time.monotonic()))
            except TimeoutError:
                break
            frame: dict[str, Any] = json.loads(raw)
            if frame["type"] not in ("state", "event"):
                continue
            seq, view = frame["seq"], frame.get("view", view)
            if pending and frame["type"] == "event" and frame["event"].get("action") and \
                    frame["event"].get("seat") == view.get("seat"):
                latencies.append(time.perf_counter() - sent_at)
                pending = False
                played += 1
            legal = (view.get("deal") or {}).get("legal")
            if legal and not pending and not view.get("finished"):
                if think > 0:
                    await asyncio.sleep(think * (0.5 + rng.random()))
                    if time.monotonic() >= stop_at:
                        break
                    # the frames that came meanwhile cannot change a turn that is ours
                sent_at = time.perf_counter()
                pending = True
                await ws.send(json.dumps({"type": "act", "action": rng.choice(legal),
                                          "seq": seq}))
    return played


def web_processes(pid: int, web_children: bool = False) -> list[int]:
    """``pid`` and, with ``web_children``, its children that run the app (``--workers
    N``: uvicorn's processes, not the worker pools, which are the children's children)."""
    pids = [pid]
    if web_children:
        try:
            kids = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        except OSError:
            kids = []
        for kid in kids:
            with contextlib.suppress(OSError):
                if "multiprocessing" in Path(f"/proc/{kid}/cmdline").read_text():
                    pids.append(int(kid))
    return pids


def cpu_seconds(pid: int | None = None, web_children: bool = False) -> float:
    """CPU time (user + system) used so far by process ``pid`` (None: this one); with
    ``web_children``, plus its children that run the app (:func:`web_processes`)."""
    if pid is None:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return usage.ru_utime + usage.ru_stime
    total = 0.0
    for one in web_processes(pid, web_children):
        try:
            fields = Path(f"/proc/{one}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            if one == pid:
                return float("nan")
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def loop_cpu_seconds(pids: list[int]) -> float:
    """CPU time used so far by the main thread of each of ``pids`` (the event loop's;
    the rest of a process's is its writer's thread, ``to_thread``'s and the pools')."""
    total = 0.0
    for pid in pids:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/task/{pid}/stat").read_text().rsplit(")", 1)[1]
            total += sum(int(f) for f in fields.split()[11:13]) / os.sysconf("SC_CLK_TCK")
    return total


def signal_all(pids: list[int], sig: int) -> None:
    """Send ``sig`` to each of ``pids`` that still runs."""
    for pid in pids:
        with contextlib.suppress(OSError):
            os.kill(pid, sig)


def cluster_counts(port: int, processes: int, tries: int = 60) -> dict[str, int]:
    """What crossed between the server's processes so far (``GET /health``'s
    ``cluster``, summed over the processes: forwarded sockets and requests, hand-overs,
    bus messages), asking until each of ``processes`` answered once (a new connection
    each time: the kernel gives it to either), or ``tries`` times."""
    seen: dict[str, dict[str, int]] = {}
    for _ in range(tries):
        with contextlib.suppress(httpx.HTTPError, ValueError):
            body = httpx.get(f"http://127.0.0.1:{port}/health", timeout=10,
                             trust_env=False).json()
            if isinstance(body.get("cluster"), dict):
                seen[body["process"]] = body["cluster"]
        if len(seen) >= processes:
            break
    total: dict[str, int] = {"processes_heard": len(seen)}
    for counts in seen.values():
        for key, value in counts.items():
            if isinstance(value, int):
                total[key] = total.get(key, 0) + value
    return total


DEPLOY = Path(__file__).resolve().parents[1] / "deploy"
PROFILING = Path(__file__).resolve().parent / "profiling"


def start_nginx(server_port: int, folder: Path) -> tuple[subprocess.Popen[bytes], int]:
    """nginx with deploy/nginx.conf in front of 127.0.0.1:``server_port``, on a free
    port (one nginx worker; its files in ``folder``); the process and its port.

    Raises:
        RuntimeError: nginx is not installed, or did not answer within 20 s.
    """
    import shutil

    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists()
                                      else None)
    if nginx is None:
        raise RuntimeError("--proxy nginx: nginx is not installed")
    port = free_port()
    text = (DEPLOY / "nginx.conf").read_text()
    for name in ("web1", "web2"):
        text = text.replace(f"server {name}:8000 ", f"server 127.0.0.1:{server_port} ")
    for old, new in {"listen 8080;": f"listen 127.0.0.1:{port};",
                     "worker_processes auto;": "worker_processes 1;",
                     "pid /tmp/nginx.pid;": f"pid {folder}/nginx.pid;",
                     "access_log /dev/stdout;": "access_log off;",
                     "error_log /dev/stderr warn;": f"error_log {folder}/error.log warn;",
                     "worker_connections 4096;": "worker_connections 16384;"}.items():
        text = text.replace(old, new)
    temp = "".join(f"    {kind}_temp_path {folder}/{kind};\n"
                   for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    conf = folder / "nginx.conf"
    conf.write_text(text.replace("http {\n", "http {\n" + temp, 1))
    proc = subprocess.Popen([nginx, "-p", str(folder), "-c", str(conf), "-g", "daemon off;"])
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"http://127.0.0.1:{port}/api/presets", timeout=1,
                         trust_env=False).status_code == 200:
                return proc, port
        time.sleep(0.1)
    proc.kill()
    raise RuntimeError("nginx did not answer in 20 s")


def process_tree_cpu(pid: int) -> float:
    """CPU seconds of ``pid`` and its children (nginx's master and workers)."""
    total = cpu_seconds(pid)
    with contextlib.suppress(OSError):
        for kid in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
            total += cpu_seconds(int(kid))
    return total


async def run(args: argparse.Namespace, port: int, server_pid: int,
              proxy_pid: int | None = None, server_port: int | None = None) -> dict[str, Any]:
    """Create the tables through ``port`` (the server's, or the proxy's), play for
    ``args.seconds``; the figures.  ``GET /health`` is asked of the server's own port
    (``server_port``, default ``port``): through a proxy's kept connections it would
    reach one process only."""
    health_port = port if server_port is None else server_port
    sem = asyncio.Semaphore(20)

    async def one() -> tuple[str, list[str]]:
        async with sem:
            return await make_table(port, args.preset)

    tables = await asyncio.gather(*(one() for _ in range(args.tables)))
    latencies: list[float] = []
    go = asyncio.Event()
    deadline = [0.0]
    tasks = []
    for t, (table, cookies) in enumerate(tables):
        for s, cookie in enumerate(cookies):
            tasks.append(asyncio.create_task(
                player(port, table, cookie, t * 4 + s, deadline, latencies, go, args.think)))
    await asyncio.sleep(min(10.0, 0.5 + len(tasks) / 200))  # let the connections open
    many = getattr(args, "workers_now", 1) > 1
    crossed = cluster_counts(health_port, args.workers_now) if many else {}
    profiled = web_processes(server_pid, many) if args.profile else []
    signal_all(profiled, signal.SIGUSR1)
    started = time.monotonic()
    server_pids = web_processes(server_pid, many)
    loop_cpu = loop_cpu_seconds(server_pids)
    server_cpu, client_cpu = cpu_seconds(server_pid, many), cpu_seconds()
    proxy_cpu = process_tree_cpu(proxy_pid) if proxy_pid else 0.0
    stop_at = deadline[0] = started + args.seconds
    # The clients' own pauses would count as the server's latency: a full collection of
    # this process's 2,000 sockets' objects took 100-460 ms. Their objects are kept out
    # of the collector's scans, and it does not run during the play.
    gc.collect()
    gc.freeze()
    gc.disable()
    go.set()
    try:
        played = await asyncio.gather(*(_until(task, stop_at) for task in tasks))
    finally:
        gc.enable()
        gc.unfreeze()
    elapsed = time.monotonic() - started
    server_cpu, client_cpu = (cpu_seconds(server_pid, many) - server_cpu,
                               cpu_seconds() - client_cpu)
    loop_cpu = loop_cpu_seconds(server_pids) - loop_cpu
    signal_all(profiled, signal.SIGUSR2)
    if many:  # during the play only
        after = cluster_counts(health_port, args.workers_now)
        crossed = {"during_play": {k: v - crossed.get(k, 0) for k, v in after.items()
                                   if k != "processes_heard"}, "since_start": after}
    proxy_cpu = process_tree_cpu(proxy_pid) - proxy_cpu if proxy_pid else 0.0
    lat = sorted(latencies)
    return {
        "workers": getattr(args, "workers_now", 1), "tables": args.tables, "clients": len(tasks),
        "think_s": args.think,
        "seconds": round(elapsed, 1),
        "actions": sum(played), "actions_per_s": round(sum(played) / elapsed, 1),
        "p50_ms": round(1000 * lat[len(lat) // 2], 2) if lat else None,
        "p99_ms": round(1000 * lat[min(len(lat) - 1, int(len(lat) * 0.99))], 2)
        if lat else None,
        "mean_ms": round(1000 * statistics.fmean(lat), 2) if lat else None,
        "server_cpu": round(server_cpu / elapsed, 2),  # cores used, on average
        "server_ms_per_action": round(1000 * server_cpu / sum(played), 3) if sum(played)
        else None,
        "server_loop_ms_per_action": round(1000 * loop_cpu / sum(played), 3)
        if sum(played) else None,  # the event loops' threads only
        "client_cpu": round(client_cpu / elapsed, 2),
        **({"proxy_cpu": round(proxy_cpu / elapsed, 2)} if proxy_pid else {}),
        **({"crossed": crossed} if many else {}),
    }


async def _until(task: asyncio.Task[int], stop_at: float) -> int:
    try:
        return await asyncio.wait_for(asyncio.shield(task), timeout=stop_at -
                                      time.monotonic() + 10)
    except TimeoutError:
        task.cancel()
        return 0


def main(argv: list[str] | None = None) -> int:
    """Parse the options, run the benchmark against a fresh server, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=20, help="tables of four (default 20)")
    parser.add_argument("--seconds", type=float, default=15.0, help="play time (default 15)")
    parser.add_argument("--think", type=float, default=0.0,
                        help="mean seconds a player thinks before acting (default 0: at once)")
    parser.add_argument("--preset", default="polignac")
    parser.add_argument("--database-url", default=None,
                        help="PostgreSQL instead of SQLite, e.g. postgresql+psycopg://...")
    parser.add_argument("--workers", default="1",
                        help="web processes, or a list to compare in one run: 1,2 (default 1)")
    parser.add_argument("--bus", default=None,
                        help="the bus between web processes (redis://...), for --workers > 1")
    parser.add_argument("--proxy", choices=("none", "nginx"), default="none",
                        help="nginx: the clients go through deploy/nginx.conf's nginx")
    parser.add_argument("--profile", type=Path, default=None, metavar="DIR",
                        help="write a cProfile of the play per server process and thread "
                             "in DIR/wN/ (profiling/sitecustomize.py; read them with "
                             "profiling/compare.py); the figures then count its cost")
    args = parser.parse_args(argv)
    counts = [int(n) for n in args.workers.split(",")]
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = 65536 if hard == resource.RLIM_INFINITY else hard
    if soft != resource.RLIM_INFINITY and soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))  # inherited by the server
    if 2 * 4 * args.tables + 100 > resource.getrlimit(resource.RLIMIT_NOFILE)[0]:
        parser.error(f"{args.tables} tables need about {8 * args.tables + 100} open files; "
                     "raise the hard limit (ulimit -Hn)")
    backend = "postgresql" if args.database_url else "sqlite synchronous=FULL"
    rows = []
    for n in counts:
        args.workers_now = n
        extra = ("--workers", str(n)) if n > 1 else ()
        if args.bus and n > 1:  # one process: the default, nothing between processes
            extra += ("--bus", args.bus)
        if args.proxy != "none":  # the Host is the proxy's, port included
            extra += ("--allowed-host", "127.0.0.1")
        port = free_port()
        with tempfile.TemporaryDirectory(prefix="polignac-bench-") as data:
            profile = args.profile.resolve() / f"w{n}" if args.profile else None
            proc = start_server(Path(data), port, args.database_url, extra, profile)
            nginx = None
            try:
                if args.proxy == "nginx":
                    folder = Path(data) / "nginx"
                    folder.mkdir()
                    nginx, client_port = start_nginx(port, folder)
                else:
                    client_port = port
                figures = asyncio.run(run(args, client_port, proc.pid,
                                          nginx.pid if nginx else None, port))
            finally:
                if nginx is not None:
                    nginx.terminate()
                    nginx.wait(20)
                proc.terminate()  # --workers: the supervisor stops its processes
                try:
                    proc.wait(20)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
        figures["proxy"] = args.proxy
        if args.profile:
            (args.profile.resolve() / f"w{n}" / "figures.json").write_text(
                json.dumps(figures))
        rows.append(figures)
        print(f"bench_server ({backend}): {json.dumps(figures)}", flush=True)
    if len(counts) > 1:
        first = rows[0]

        def ratio(row: dict[str, Any], key: str) -> str:
            return f"{row[key] / first[key]:.2f}x" if row[key] and first[key] else "-"

        for n, row in zip(counts, rows, strict=True):
            print(f"{n} workers against 1: throughput {ratio(row, 'actions_per_s')}, "
                  f"server CPU per action {ratio(row, 'server_ms_per_action')}, "
                  f"p99 {ratio(row, 'p99_ms')}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
