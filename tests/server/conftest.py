"""Fixtures: an app on a fresh SQLite database, bots without delay."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")

from starlette.testclient import TestClient  # noqa: E402

from polignac.server import ServerConfig, create_app  # noqa: E402


@pytest.fixture
def config(tmp_path: Path) -> ServerConfig:
    """A config on a fresh data folder, with bots and dealer acting at once."""
    return ServerConfig(data_dir=tmp_path / "data", bot_delay=0.0, deal_delay=0.0,
                        rate_per_second=10000, rate_burst=10000)


@pytest.fixture
def client(config: ServerConfig) -> Iterator[TestClient]:
    """A test client with the app started (lifespan run)."""
    with TestClient(create_app(config), base_url="http://testserver") as c:
        yield c
