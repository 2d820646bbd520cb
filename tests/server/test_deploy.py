"""deploy/: the compose file's commands are what ``polignac`` accepts, with the example
settings, and the proxy, the web processes and the image agree with each other.

Docker does not run here: docs/deploy.md says what was run by hand instead.  The
proxy's configuration itself runs for real: nginx on loopback in front of two web
processes (skipped when nginx is not installed)."""

from __future__ import annotations

import argparse
import re
import shlex
import shutil
from pathlib import Path
from typing import Any

import pytest

from polignac.cli.common import CliError
from polignac.cli.main import build_parser
from polignac.cli.serve import build_config
from polignac.server import ServerConfig

yaml = pytest.importorskip("yaml")
DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def _env() -> dict[str, str]:
    """deploy/env.example's settings."""
    out = {}
    for line in (DEPLOY / "env.example").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            key, _, value = line.partition("=")
            out[key.strip()] = value.strip()
    return out


def interpolate(text: str, env: dict[str, str]) -> str:
    """Compose's ``${VAR}``, ``${VAR:-default}`` and ``${VAR:?message}``.

    Raises:
        KeyError: a ``${VAR:?...}`` or ``${VAR}`` that ``env`` does not set.
    """
    def one(m: re.Match[str]) -> str:
        name, op, arg = m.group(1), m.group(2), m.group(3)
        value = env.get(name, "")
        if op == ":-":
            return value or arg
        if not value and (op == ":?" or name not in env):
            raise KeyError(f"{name}: {arg}")
        return value
    return re.sub(r"\$\{(\w+)(?:(:[-?])([^}]*))?\}", one, text)


def _services() -> dict[str, Any]:
    services: dict[str, Any] = yaml.safe_load((DEPLOY / "compose.yaml").read_text())["services"]
    return services


def _serve_has_cluster_options() -> bool:
    parser = build_parser()
    try:
        parser.parse_args(["serve", "--bus", "memory://", "--lease-seconds", "5"])
    except (SystemExit, CliError):
        return False
    return True


def test_the_compose_files_polignac_commands_parse() -> None:
    env = _env()
    commands = {name: shlex.split(interpolate(s["command"], env))
                for name, s in _services().items()
                if isinstance(s.get("command"), str) and s["command"].startswith("polignac")}
    assert set(commands) == {"web1", "web2", "bots"}
    parser = build_parser()
    worker = parser.parse_args(commands["bots"][1:])
    assert worker.command == "bot-worker" and worker.redis.startswith("redis://:")
    if not _serve_has_cluster_options():
        pytest.skip("polignac serve has no --bus yet (the several-processes branch)")
    for name in ("web1", "web2"):
        args: argparse.Namespace = parser.parse_args(commands[name][1:])
        config = build_config(args)
        assert isinstance(config, ServerConfig)
        assert config.bot_queue == worker.redis  # the workers read the servers' queue
        assert config.database_url and config.database_url.startswith("postgresql+psycopg://")
        assert env["SITE_HOST"] in config.allowed_hosts
        assert args.bus.startswith("redis://") and args.workers == 2


def test_the_proxy_the_web_services_and_the_image_agree() -> None:
    services = _services()
    nginx = (DEPLOY / "nginx.conf").read_text()
    upstreams = set(re.findall(r"server (\w+):8000", nginx))
    assert upstreams == {"web1", "web2"} <= set(services)
    caddy = (DEPLOY / "Caddyfile").read_text()
    assert set(re.findall(r"(\w+):8000", caddy)) == upstreams
    proxy_ip = services["proxy"]["networks"]["site"]["ipv4_address"]
    for name in upstreams:
        assert services[name]["environment"]["FORWARDED_ALLOW_IPS"] == proxy_ip
        # the web machines share one bus secret (their messages are refused otherwise)
        assert services[name]["environment"]["POLIGNAC_BUS_SECRET"] == "${BUS_SECRET:?set " \
            "BUS_SECRET in deploy/.env}"
    assert "8080:8080" in services["proxy"]["ports"] and "listen 8080;" in nginx
    assert "proxy_set_header Upgrade $http_upgrade;" in nginx  # WebSockets pass
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    assert 'pip install ".[server,scale]"' in dockerfile and "/ready" in dockerfile


# ------------------------------------------------------------------ nginx, for real

NGINX = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if Path(p).exists()),
                                      None)


def nginx_conf(web: list[int], port: int, folder: Path) -> str:
    """deploy/nginx.conf with its upstreams on ``web`` (ports of 127.0.0.1), listening
    on 127.0.0.1:``port``, its files in ``folder``: the rest unchanged.

    Raises:
        AssertionError: the file no longer has what is replaced.
    """
    text = (DEPLOY / "nginx.conf").read_text()
    for name, web_port in zip(("web1", "web2"), web, strict=True):
        assert f"server {name}:8000 " in text
        text = text.replace(f"server {name}:8000 ", f"server 127.0.0.1:{web_port} ")
    replaced = {"listen 8080;": f"listen 127.0.0.1:{port};",
                "worker_processes auto;": "worker_processes 1;",
                "pid /tmp/nginx.pid;": f"pid {folder}/nginx.pid;",
                "access_log /dev/stdout;": "access_log off;",
                "error_log /dev/stderr warn;": f"error_log {folder}/error.log warn;"}
    for old, new in replaced.items():
        assert old in text, old
        text = text.replace(old, new)
    temp = "".join(f"    {kind}_temp_path {folder}/{kind};\n"
                   for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    return text.replace("http {\n", "http {\n" + temp, 1)


@pytest.mark.slow
@pytest.mark.redis
@pytest.mark.skipif(NGINX is None, reason="nginx is not installed (dev.py installs it)")
def test_nginx_of_deploy_in_front_of_two_machines(redis_server: Any, tmp_path: Path) -> None:
    """deploy/nginx.conf, run by nginx on loopback in front of two web processes that
    play two machines (nothing handed between them) on one SQLite database and a
    Redis bus: four tables created through the proxy, wherever creation landed, end
    up each owned by the process the proxy sends its requests to (the lease follows
    the table's hash); once a request through the proxy is no longer forwarded (the
    move done), everybody plays through the proxy and every socket is served by its
    table's owner: nothing forwarded over the bus."""
    import random
    import subprocess

    import httpx

    from .cluster_support import Proc, Viewer, new_table, owner_pid, stop_nginx, stored_events
    from .conftest import free_port
    from .test_cluster import _act
    from .waiting import wait_until

    url = f"sqlite:///{tmp_path / 'polignac.db'}"
    bus = redis_server.url(6)
    procs: list[Proc] = []
    nginx = None
    try:
        for i in range(2):  # one after the other: the first creates the schema
            procs.append(Proc(f"web{i + 1}", free_port(), url, bus, tmp_path / "data",
                              machine=f"machine{i + 1}"))
            procs[-1].wait_ready()
        folder = tmp_path / "nginx"
        folder.mkdir()
        port = free_port()
        conf = folder / "nginx.conf"
        conf.write_text(nginx_conf([p.port for p in procs], port, folder))
        assert NGINX is not None
        nginx = subprocess.Popen([NGINX, "-p", str(folder), "-c", str(conf), "-g",
                                  "daemon off;"], stderr=subprocess.PIPE)
        proxy = Proc.__new__(Proc)  # the proxy's port, as one Proc
        proxy.name, proxy.port, proxy.base, proxy.proc = "nginx", port, \
            f"http://127.0.0.1:{port}", nginx
        def proxied() -> bool:
            assert nginx.poll() is None, nginx.stderr.read().decode() if nginx.stderr else ""
            return httpx.get(proxy.base + "/ready", trust_env=False).status_code == 200

        wait_until(proxied, 20, what="nginx to answer", interval=0.1,
                   ignoring=(httpx.HTTPError,))
        # two tables created on each process (as the proxy may send a creation to
        # either): every invite, socket and request then goes through the proxy
        created = [(procs[i % 2], new_table(procs[i % 2], [proxy] * 3)) for i in range(4)]
        tables = [t for _, t in created]

        def crossed() -> dict[str, int]:
            health = [httpx.get(p.base + "/health", trust_env=False).json() for p in procs]
            return {k: sum(h["cluster"][k] for h in health) for k in health[0]["cluster"]}

        # The steady state: a request through the proxy moves each table to the process
        # the proxy sends it to; on a busy machine the move may outlast the 2 s a claim
        # waits, and meanwhile requests are forwarded (the seconds of a takeover).
        for table, _ in tables:
            def served_in_place(table: str = table) -> bool:
                before = crossed()["forwarded"]
                assert httpx.get(f"{proxy.base}/tables/{table}/record.json",
                                 trust_env=False).status_code == 200
                return bool(crossed()["forwarded"] == before)

            wait_until(served_in_place, 60,  # a bound, not a pace
                       what=f"{table} no longer forwarded", interval=0.2)
        start = crossed()
        rng = random.Random(5)
        acked = []
        for table, cookies in tables:
            players = [Viewer(table, c) for c in cookies]
            for p in players:
                p.connect([proxy])
            acked += [(table, a) for a in (_act(players, rng) for _ in range(6)) if a]
            for p in players:
                p.close()
        health = [httpx.get(p.base + "/health", trust_env=False).json() for p in procs]
        end = crossed()
        played = {k: end[k] - start[k] for k in end}  # while everybody played
        assert played["forwarded"] == played["served_forwarded"] == 0, (start, end)
        assert end["handed_over"] == 0, end  # two machines: nothing handed
        assert sum(h["owned_tables"] for h in health) == 4, health
        moved = sum(owner_pid(url, table) != creator.pid for creator, (table, _) in created)
        assert end["gave"] == moved, (end, moved)  # each table moved once at most
        assert len(acked) >= 4 * 4
        for table, (seq, seat, action) in acked:  # nothing acknowledged was lost
            stored = {s[0]: s for s in stored_events(url, table)}
            assert stored[seq][1:] == ("act", action, seat)
    finally:
        stop_nginx(nginx)
        for p in procs:
            p.kill()
