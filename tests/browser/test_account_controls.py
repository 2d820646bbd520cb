"""The account page's controls (issue 31) in Chromium: passkeys named after the browser,
renamed and removed (Chromium's virtual authenticator, DevTools' WebAuthn domain); the
password changed with the current one, the other session ended, then a sign-in with the
new one; a passkey asked for on 127.0.0.1 says, in the page's language, to open
localhost.  Screenshots ``docs/screenshots/account-controls-{en,fr,de}-{390,1280}.png``
(with ``POLIGNAC_SCREENSHOTS``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .support import open_page, screenshots, wait_until

PASSWORD = "a long enough secret"
NEW_PASSWORD = "another long secret"


def _authenticator(page: Any, cdp: Any = None) -> Any:
    """A new platform authenticator (a device) that holds passkeys and verifies the user
    at once, the only one of ``page``; the DevTools session."""
    if cdp is None:
        cdp = page.context.new_cdp_session(page)
        cdp.send("WebAuthn.enable")
    for old in getattr(cdp, "authenticators", []):
        cdp.send("WebAuthn.removeVirtualAuthenticator", {"authenticatorId": old})
    cdp.authenticators = [cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
        "hasUserVerification": True, "isUserVerified": True}})["authenticatorId"]]
    return cdp


def _names(page: Any) -> list[str]:
    return [n.strip() for n in page.locator("#passkeys .passkey-name").all_inner_texts()]


def test_passkeys_renamed_removed_and_the_password_changed(quick_server: str, chromium: Any,
                                                             shots: Path) -> None:
    server = quick_server.replace("127.0.0.1", "localhost")  # an IP is no WebAuthn RP id
    page, errors = open_page(chromium)
    cdp = _authenticator(page)
    page.goto(server + "/account")
    page.fill("#signup-form input[name=username]", "Ines_keys")
    page.fill("#signup-form input[name=password]", PASSWORD)
    page.click("#signup-form button[type=submit]")
    page.wait_for_selector("#codes li")
    wait_until(lambda: "No passkey yet." in page.inner_text("#passkeys"))

    # two passkeys (two devices: one holds one passkey an account), named after the
    # browser that made them
    for n in (1, 2):
        if n == 2:
            _authenticator(page, cdp)
        page.click("#passkey-add")
        wait_until(lambda n=n: len(_names(page)) == n,
                   what=lambda n=n: f"passkey {n}: {page.inner_text('#error')!r}")
    assert all(" · Linux" in name for name in _names(page)), _names(page)

    # rename the first: a bad name is refused in words, then Enter saves a good one
    page.locator("#passkeys li").first.locator(".passkey-rename").click()
    field = page.locator("#passkeys input[name=name]")
    assert field.evaluate("node => node === document.activeElement")
    field.fill("   ")
    field.press("Enter")
    wait_until(lambda: "1 to 64 characters" in page.inner_text("#error"))
    field.fill("  Zoé’s laptop ")
    field.press("Enter")
    wait_until(lambda: _names(page)[0] == "Zoé’s laptop")
    assert not page.inner_text("#error")
    # Escape leaves a rename as it was
    page.locator("#passkeys li").nth(1).locator(".passkey-rename").click()
    page.fill("#passkeys input[name=name]", "never saved")
    page.press("#passkeys input[name=name]", "Escape")
    wait_until(lambda: page.locator("#passkeys input").count() == 0)
    assert "never saved" not in _names(page)

    # the passkey list and the password form in three languages, desktop and phone
    page.reload()  # the recovery codes shown once are gone
    page.wait_for_selector("#passkeys .passkey-name")
    screenshots(page, shots, "account-controls")
    for width, height in ((390, 844), (1280, 800)):
        page.set_viewport_size({"width": width, "height": height})
        assert page.evaluate("document.documentElement.scrollWidth") <= width + 10
    page.set_viewport_size({"width": 1280, "height": 800})

    # remove the second: a question first; Cancel keeps it, Remove removes it
    page.locator("#passkeys li").nth(1).locator(".passkey-remove").click()
    page.wait_for_selector("#confirm")
    page.click("#confirm-no")
    assert len(_names(page)) == 2
    page.locator("#passkeys li").nth(1).locator(".passkey-remove").click()
    assert "will no longer sign you in" in page.inner_text("#confirm-text")
    page.click("#confirm-yes")
    wait_until(lambda: _names(page) == ["Zoé’s laptop"])
    stored = page.request.get(server + "/api/account/passkeys").json()["passkeys"]
    assert [k["name"] for k in stored] == ["Zoé’s laptop"]

    # another browser signed in; a wrong current password is refused in words
    other = chromium.new_page()
    other.goto(server + "/account")
    other.fill("#signin-form input[name=username]", "ines_keys")
    other.fill("#signin-form input[name=password]", PASSWORD)
    other.click("#signin-form button[type=submit]")
    other.wait_for_selector("#sessions li")
    page.fill("#password-form input[name=password]", "not my password")
    page.fill("#password-form input[name=new_password]", NEW_PASSWORD)
    page.click("#password-form button[type=submit]")
    wait_until(lambda: page.inner_text("#error") == "Wrong password.")
    page.fill("#password-form input[name=password]", PASSWORD)
    page.fill("#password-form input[name=new_password]", NEW_PASSWORD)
    page.click("#password-form button[type=submit]")
    wait_until(lambda: "Password changed" in page.inner_text("#password-done"))
    assert not page.inner_text("#error")
    assert page.input_value("#password-form input[name=password]") == ""
    wait_until(lambda: page.locator("#sessions li").count() == 1)
    assert other.request.get(server + "/api/account").json() == {"signed_in": False}

    # sign out, then in with the new password
    page.click("#signout")
    page.wait_for_selector("#signin-form", state="visible")
    page.fill("#signin-form input[name=username]", "ines_keys")
    page.fill("#signin-form input[name=password]", NEW_PASSWORD)
    page.click("#signin-form button[type=submit]")
    page.wait_for_selector("#signed-in", state="visible")
    assert "Ines_keys" in page.inner_text("#who")
    assert page.request.get(server + "/api/account").json()["username"] == "Ines_keys"
    assert not errors, errors


def test_a_passkey_on_an_ip_address_says_to_open_localhost(quick_server: str,
                                                           chromium: Any) -> None:
    """On http://127.0.0.1:PORT/ a browser refuses passkeys ("This is an invalid
    domain."); the page says, in its language, to open localhost instead."""
    port = quick_server.rsplit(":", 1)[1].strip("/")
    page, errors = open_page(chromium)
    _authenticator(page)
    for lang, words in (("en", "Passkeys need the site’s name"),
                        ("fr", "Les clés d’accès demandent le nom du site"),
                        ("de", "Passkeys brauchen den Namen der Seite")):
        page.goto(f"{quick_server}/account?lang={lang}")
        page.wait_for_selector("#passkey-signin", state="visible")
        page.click("#passkey-signin")
        wait_until(lambda: page.inner_text("#error") != "")
        text = page.inner_text("#error")
        assert words in text and f"http://localhost:{port}/account" in text, text
        assert "invalid domain" not in text
    assert not errors, errors
