"""``polignac serve`` arguments, through a small parser of our own."""

from __future__ import annotations

import argparse
import gc
from pathlib import Path

import pytest

from polignac.cli.common import CliError
from polignac.cli.serve import build_config, register
from polignac.server import ServerConfig


def _parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="polignac")
    register(parser.add_subparsers(dest="command"), "run the web app")
    return parser.parse_args(argv)


def test_defaults() -> None:
    args = _parse(["serve"])
    assert (args.host, args.port, args.data, args.database_url) == (
        "127.0.0.1", 8000, "polignac-data", None)
    config = build_config(args)
    assert isinstance(config, ServerConfig)
    assert config.url().endswith("polignac-data/polignac.db")
    assert config.warm_workers and config.freeze_at_start


def test_the_app_freezes_what_it_holds_at_start_when_asked(tmp_path: Path) -> None:
    """``freeze_at_start`` (``polignac serve``): once the app has started, the objects
    the process held are out of the garbage collector's scans; without it (the
    default, for the tests' many apps) nothing is frozen."""
    from starlette.testclient import TestClient

    from polignac.server import create_app

    assert gc.get_freeze_count() == 0
    try:
        with TestClient(create_app(ServerConfig(data_dir=tmp_path / "a")),
                        base_url="http://127.0.0.1") as client:
            assert client.get("/health").status_code == 200
            assert gc.get_freeze_count() == 0
        with TestClient(create_app(ServerConfig(data_dir=tmp_path / "b",
                                                freeze_at_start=True)),
                        base_url="http://127.0.0.1") as client:
            assert client.get("/health").status_code == 200
            assert gc.get_freeze_count() > 10_000  # the modules' functions, at least
    finally:
        gc.unfreeze()


def test_options(tmp_path: Path) -> None:
    args = _parse(["serve", "--port", "9001", "--data", str(tmp_path),
                   "--database-url", "postgresql+psycopg://u@localhost/p",
                   "--allow-origin", "https://cards.example"])
    config = build_config(args)
    assert isinstance(config, ServerConfig)
    assert config.url() == "postgresql+psycopg://u@localhost/p"
    assert config.allowed_origins == ("https://cards.example",)


def test_push_contact() -> None:
    assert build_config(_parse(["serve"])).push_contact == "mailto:polignac@localhost"
    config = build_config(_parse(["serve", "--push-contact", "https://cards.example/ops"]))
    assert config.push_contact == "https://cards.example/ops"
    for bad in ("ops@cards.example", "mailto:a b@c", "http://cards.example", "mailto:"):
        with pytest.raises(CliError, match="--push-contact"):
            build_config(_parse(["serve", "--push-contact", bad]))


def test_bad_port() -> None:
    with pytest.raises(CliError):
        build_config(_parse(["serve", "--port", "70000"]))


def test_run_serve_prints_the_url(monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    import uvicorn

    seen = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: seen.update(kw))
    args = _parse(["serve", "--port", "8123", "--data", str(tmp_path)])
    assert args.func(args) == 0
    assert "http://localhost:8123/" in capsys.readouterr().out  # listens on 127.0.0.1
    assert seen["host"] == "127.0.0.1" and seen["ws_max_size"] == 64 * 1024


def test_grace_and_delays(tmp_path: Path) -> None:
    config = build_config(_parse(["serve", "--grace", "5", "--bot-delay", "0",
                                  "--deal-delay", "0.5"]))
    assert isinstance(config, ServerConfig)
    assert (config.grace_seconds, config.bot_delay, config.deal_delay) == (5, 0, 0.5)
    assert build_config(_parse(["serve"])).grace_seconds == 30  # type: ignore[attr-defined]
    paused = build_config(_parse(["serve", "--trick-pause", "0"]))
    assert paused.trick_pause == 0  # type: ignore[attr-defined]
    assert build_config(_parse(["serve"])).trick_pause == 1.5  # type: ignore[attr-defined]
    with pytest.raises(CliError, match="--trick-pause"):
        build_config(_parse(["serve", "--trick-pause", "-1"]))
    with pytest.raises(CliError):
        build_config(_parse(["serve", "--grace", "-1"]))


def test_several_processes_options(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """--workers N web processes, --bus, --lease-seconds, --name; --job-workers is the
    replay/score-pad pool that --workers used to be. A shared bus needs its secret."""
    monkeypatch.delenv("POLIGNAC_BUS_SECRET", raising=False)
    with pytest.raises(CliError, match="shared secret"):
        build_config(_parse(["serve", "--bus", "redis://127.0.0.1:6379/1"]))
    monkeypatch.setenv("POLIGNAC_BUS_SECRET", "a" * 32)
    config = build_config(_parse(["serve", "--job-workers", "3"]))
    assert isinstance(config, ServerConfig)
    assert config.workers == 3 and config.bus_url == "memory://" and not config.clustered
    config = build_config(_parse(["serve", "--bus", "redis://127.0.0.1:6379/1",
                                  "--lease-seconds", "3", "--name", "web-a"]))
    assert isinstance(config, ServerConfig)
    assert (config.bus_url, config.lease_seconds, config.process_name) == (
        "redis://127.0.0.1:6379/1", 3.0, "web-a")
    assert config.clustered
    pg = "postgresql+psycopg://u@localhost/p"
    config = build_config(_parse(["serve", "--workers", "2", "--database-url", pg]))
    assert isinstance(config, ServerConfig)
    assert config.bus_url == pg  # PostgreSQL's LISTEN/NOTIFY joins the processes
    assert ServerConfig.from_json(config.to_json()) == config


@pytest.mark.parametrize("argv, message", [
    (["--workers", "2"], "memory:// joins nothing"),
    (["--bus", "kafka://h"], "--bus: bus 'kafka://h'"),
    (["--lease-seconds", "0.1"], "--lease-seconds 0.1"),
    (["--workers", "0"], "--workers 0"),
    (["--job-workers", "0"], "--job-workers 0"),
])
def test_several_processes_refusals(argv: list[str], message: str) -> None:
    with pytest.raises(CliError, match=message.replace("?", r"\?")):
        build_config(_parse(["serve", *argv]))


def test_run_serve_with_workers_migrates_once_then_starts_them(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from polignac.server.cluster import multiproc

    seen: dict[str, object] = {}
    monkeypatch.setattr(multiproc, "run_workers",
                        lambda config, host, port, workers: seen.update(
                            config=config, workers=workers, port=port))
    args = _parse(["serve", "--workers", "3", "--bus", "redis://127.0.0.1:1/0", "--data",
                   str(tmp_path), "--port", "8124"])
    assert args.func(args) == 0
    assert seen["workers"] == 3 and seen["port"] == 8124
    assert (tmp_path / "polignac.db").exists()  # migrated before the processes start


def test_find_players_countdown_and_bot_waits() -> None:
    config = build_config(_parse(["serve"]))
    assert isinstance(config, ServerConfig)
    assert (config.seek_countdown, config.seek_bot_waits) == (5.0, (30, 60, 120))
    config = build_config(_parse(["serve", "--seek-countdown", "0",
                                  "--seek-bot-waits", " 90,15 ,3600"]))
    assert isinstance(config, ServerConfig)
    assert (config.seek_countdown, config.seek_bot_waits) == (0.0, (15, 90, 3600))
    assert ServerConfig.from_json(config.to_json()).seek_bot_waits == (15, 90, 3600)


def test_find_players_caps_per_address_and_network() -> None:
    config = build_config(_parse(["serve"]))
    assert isinstance(config, ServerConfig)
    assert (config.seek_per_address, config.seek_per_network) == (5, 20)
    config = build_config(_parse(["serve", "--seek-per-address", "2",
                                  "--seek-per-network", "300"]))
    assert isinstance(config, ServerConfig)
    assert (config.seek_per_address, config.seek_per_network) == (2, 300)


@pytest.mark.parametrize(("argv", "message"), [
    (["--seek-countdown", "-1"], "--seek-countdown -1.0: choose from 0 to 120.0 seconds"),
    (["--seek-per-address", "0"], "--seek-per-address 0: choose from 1 to 100000"),
    (["--seek-per-network", "100001"], "--seek-per-network 100001: choose from 1 to 100000"),
    (["--seek-countdown", "121"], "--seek-countdown 121.0: choose from 0 to 120.0 seconds"),
    (["--seek-countdown", "nan"], "--seek-countdown nan: choose from 0 to 120.0 seconds"),
    (["--seek-bot-waits", ""], "--seek-bot-waits '': give 1 to 6 waits in seconds, "
     "comma-separated (e.g. 30,60,120)"),
    (["--seek-bot-waits", "1,2,3,4,5,6,7"], "--seek-bot-waits '1,2,3,4,5,6,7': give 1 "
     "to 6 waits in seconds, comma-separated (e.g. 30,60,120)"),
    (["--seek-bot-waits", "30,0"], "--seek-bot-waits '30,0': wait 2 ('0'): give whole "
     "seconds from 1 to 3600"),
    (["--seek-bot-waits", "30,3601"], "--seek-bot-waits '30,3601': wait 2 ('3601'): give "
     "whole seconds from 1 to 3600"),
    (["--seek-bot-waits", "1.5"], "--seek-bot-waits '1.5': wait 1 ('1.5'): give whole "
     "seconds from 1 to 3600"),
    (["--seek-bot-waits", "30,,60"], "--seek-bot-waits '30,,60': wait 2 (''): give whole "
     "seconds from 1 to 3600"),
    (["--seek-bot-waits", "٣٠"], "--seek-bot-waits '٣٠': wait 1 ('٣٠'): give whole "
     "seconds from 1 to 3600"),
    (["--seek-bot-waits", "60,60"], "--seek-bot-waits '60,60': a wait is given twice in "
     "'60,60'"),
])
def test_find_players_options_out_of_range_are_refused(argv: list[str], message: str
                                                       ) -> None:
    with pytest.raises(CliError) as caught:
        build_config(_parse(["serve", *argv]))
    assert str(caught.value) == message


def test_find_players_options_are_in_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        _parse(["serve", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert "--seek-countdown SECONDS" in shown and "0 to 120 (default 5)" in shown
    assert "--seek-bot-waits SECONDS,..." in shown and "(default 30,60,120)" in shown


def test_the_printed_url_names_localhost_on_loopback() -> None:
    """Passkeys need a site's name: on loopback the URL printed is localhost's."""
    from polignac.cli.serve import shown_url
    assert shown_url("127.0.0.1", 8000) == "http://localhost:8000/"
    assert shown_url("::1", 8001) == "http://localhost:8001/"
    assert shown_url("0.0.0.0", 80) == "http://0.0.0.0:80/"
    assert shown_url("2001:db8::1", 8000) == "http://[2001:db8::1]:8000/"
