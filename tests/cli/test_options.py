"""Option ranges of ``polignac serve`` and ``polignac bot-worker``: one check
(:func:`polignac.cli.common.within`), one form of message, through ``main(argv)``."""

from __future__ import annotations

import argparse

import pytest

from polignac.cli.common import CliError, within
from polignac.cli.main import main


def test_within_names_the_option_its_value_and_the_range() -> None:
    args = argparse.Namespace(heavy_jobs=0, claim_after=0.5, ping=0.0)
    within(args, "heavy_jobs", 0, 256)  # both ends belong to the range
    within(args, "claim_after", 0.5, 3600, " seconds")
    with pytest.raises(CliError) as caught:
        within(args, "heavy_jobs", 1, 256)
    assert str(caught.value) == "--heavy-jobs 0: choose from 1 to 256"
    with pytest.raises(CliError) as caught:
        within(args, "claim_after", 0.1, 0.4, " seconds")
    assert str(caught.value) == "--claim-after 0.5: choose from 0.1 to 0.4 seconds"
    with pytest.raises(CliError) as caught:  # above: the low end is left out
        within(args, "ping", 0, 3600, " seconds", above=True)
    assert str(caught.value) == "--ping 0.0: choose from above 0 to 3600 seconds"
    assert caught.value.status == 2


WORKER = ["bot-worker", "--redis", "redis://127.0.0.1:1/0"]


@pytest.mark.parametrize(("argv", "message"), [
    (WORKER + ["--jobs", "0"], "--jobs 0: choose from 1 to 256"),
    (WORKER + ["--jobs", "257"], "--jobs 257: choose from 1 to 256"),
    (WORKER + ["--heavy-jobs", "-1"], "--heavy-jobs -1: choose from 0 to 256"),
    (WORKER + ["--heavy-jobs", "257"], "--heavy-jobs 257: choose from 0 to 256"),
    (WORKER + ["--claim-after", "0.1"], "--claim-after 0.1: choose from 0.5 to 3600 seconds"),
    (WORKER + ["--claim-after", "3601"],
     "--claim-after 3601.0: choose from 0.5 to 3600 seconds"),
    (["serve", "--workers", "0"], "--workers 0: choose from 1 to 256"),
    (["serve", "--grace", "-1"], "--grace -1.0: choose from 0 to 3600 seconds"),
    (["serve", "--ping", "0"], "--ping 0.0: choose from above 0 to 3600 seconds"),
    (["serve", "--lease-seconds", "0.1"],
     "--lease-seconds 0.1: choose from 0.5 to 3600 seconds"),
])
def test_an_option_out_of_range_is_refused(capsys: pytest.CaptureFixture[str],
                                           argv: list[str], message: str) -> None:
    """``polignac bot-worker`` and ``polignac serve`` (no Redis, no server started)."""
    if argv[0] == "serve":
        pytest.importorskip("uvicorn")  # the server's extra
    assert main(argv) == 2
    assert capsys.readouterr().err.strip() == f"polignac: {message}"
