"""deploy/: the compose file's commands are what ``polignac`` accepts, with the example
settings, and the proxy, the web processes and the image agree with each other.

Docker does not run here: docs/deploy.md says what was run by hand instead."""

from __future__ import annotations

import argparse
import re
import shlex
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
    assert "8080:8080" in services["proxy"]["ports"] and "listen 8080;" in nginx
    assert "proxy_set_header Upgrade $http_upgrade;" in nginx  # WebSockets pass
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    assert 'pip install ".[server,scale]"' in dockerfile and "/ready" in dockerfile
