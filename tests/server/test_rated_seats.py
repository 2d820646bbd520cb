"""One account, one seat of a rated table (``tables/hub.py:Hub.check_one_account``): a
second browser signed in to the same account is refused the invite seat; a casual
table lets it sit; another account sits."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from .helpers import sibling
from .test_accounts import PASSWORD, post, signup

ORIGIN = {"origin": "http://testserver"}


def _table(client: TestClient, rated: bool) -> str:
    r = post(client, "/api/tables", {
        "preset": "polignac", "rated": rated,
        "seats": [{"kind": "you"}, {"kind": "open"}, {"kind": "bot", "level": "random"},
                  {"kind": "bot", "level": "random"}]})
    assert r.status_code == 200, r.text
    url: str = r.json()["invites"][0]["url"]
    return url


def _join(browser: TestClient, invite: str, name: str) -> object:
    return browser.post(invite, json={"name": name}, headers=ORIGIN, follow_redirects=False)


@pytest.mark.parametrize("rated", [True, False])
def test_one_account_holds_one_seat_of_a_rated_table(client: TestClient, rated: bool) -> None:
    signup(client, "twoseats")
    invite = _table(client, rated)
    second = sibling(client)  # another browser of the same person, signed in
    r = post(second, "/api/account/signin", {"username": "twoseats", "password": PASSWORD})
    assert r.status_code == 200, r.text
    answer = _join(second, invite, "Me again")
    if rated:
        assert answer.status_code == 409, answer.text  # type: ignore[attr-defined]
        assert "one account plays one seat" in answer.text  # type: ignore[attr-defined]
        other = sibling(client)
        signup(other, "someone")
        assert _join(other, invite, "Someone").status_code == 303  # type: ignore[attr-defined]
    else:
        assert answer.status_code == 303  # type: ignore[attr-defined]
