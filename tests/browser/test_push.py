"""Notifications in a real browser: a signed-in person turns them on on the account page
(permission, the service worker, the subscription sent in the page's language); when it
becomes their move at a correspondence table while they are away, the push reaches the
local receiver (``tests/server/push_receiver.py``), which checks its VAPID signature and
decrypts it as the browser would; then they turn notifications off.

Chromium cannot reach a push service from here, so ``PushManager.subscribe`` answers the
receiver's subscription (its endpoint and keys) instead of a push service's: everything
after it (the page, the server, the encryption, the POST) is the real thing.
Screenshots: ``push-*.png`` in ``$POLIGNAC_SCREENSHOTS`` or the test's tmp folder.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.browser.support import live_server, wait_until
from tests.server import push_receiver

from polignac import i18n
from polignac.server import ServerConfig

pytest.importorskip("playwright.sync_api")

PASSWORD = "correct horse battery"
STAND_IN = """
(() => {  // a push subscription kept by the browser, across pages, as a real one is
  if (typeof PushManager === "undefined") return;  // the service worker's own scope
  const sub = %s;
  const fake = () => ({ endpoint: sub.endpoint, toJSON: () => sub,
    unsubscribe: async () => { localStorage.removeItem("push-stand-in"); return true; } });
  PushManager.prototype.subscribe = async function () {
    localStorage.setItem("push-stand-in", "1");
    return fake();
  };
  PushManager.prototype.getSubscription = async function () {
    return localStorage.getItem("push-stand-in") ? fake() : null;
  };
})();
"""


@pytest.fixture
def push_server(tmp_path: Path) -> Iterator[str]:
    config = ServerConfig(data_dir=tmp_path / "data", bot_delay=0, deal_delay=0, cut_window=0,
                          trick_pause=0, push_local_endpoints=True)
    with live_server(config) as url:
        yield url


def test_turn_on_notifications_and_a_push_arrives(chromium: Any, push_server: str,
                                                  shots: Path) -> None:
    server = push_server
    with push_receiver.running() as receiver:
        context = chromium.new_context(viewport={"width": 1280, "height": 800},
                                       locale="en-US")
        context.grant_permissions(["notifications"], origin=server)
        context.add_init_script(STAND_IN % json.dumps(receiver.subscription()))
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        r = page.request.post(server + "/api/account/signup", headers={"origin": server},
                              data={"username": "Nora", "password": PASSWORD})
        assert r.ok, r.text()
        page.goto(server + "/account")
        toggle = page.locator("#push-toggle")
        toggle.wait_for()
        assert toggle.inner_text() == "Turn on notifications on this device"
        assert page.locator("#push-status").inner_text() == "Notifications are off for this device."
        toggle.click()
        wait_until(lambda: page.locator("#push-status").inner_text()
                   == "Notifications are on for this device.")
        assert toggle.inner_text() == "Turn off notifications on this device"
        assert page.evaluate("navigator.serviceWorker.controller !== null || "
                             "navigator.serviceWorker.getRegistration('/').then(r => !!r)")
        listed = page.request.get(server + "/api/push/subscriptions").json()["subscriptions"]
        assert [s["endpoint"] for s in listed] == [receiver.subscription()["endpoint"]]
        for lang in ("fr", "de", "en"):
            page.select_option("#lang", lang)
            wait_until(lambda lang=lang: page.locator("#push-panel h2").inner_text()
                       == i18n.t(lang, "account.push"))
            page.locator("#push-panel").screenshot(path=shots / f"push-panel-{lang}.png")
        page.set_viewport_size({"width": 390, "height": 844})
        page.screenshot(path=shots / "push-account-phone.png", full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= 400
        page.set_viewport_size({"width": 1280, "height": 800})

        # a correspondence table, and Nora away from it: her move comes as a push
        made = page.request.post(server + "/api/tables", headers={"origin": server}, data={
            "time_control": {"kind": "days", "days": 2},
            "seats": [{"kind": "you"}] + [{"kind": "bot", "level": "easy"}] * 3})
        assert made.ok, made.text()
        got = receiver.next()
        assert got.message["kind"] == "turn" and got.message["url"] == made.json()["url"]
        assert got.message["title"] == "Your move" and not receiver.refused

        # off: the server forgets this browser
        page.reload()
        toggle.wait_for()
        wait_until(lambda: toggle.inner_text() == "Turn off notifications on this device")
        toggle.click()
        wait_until(lambda: page.locator("#push-status").inner_text()
                   == "Notifications are off for this device.")
        assert page.request.get(server + "/api/push/subscriptions").json() == {
            "subscriptions": []}
        assert not errors, errors
        context.close()
