"""server/base/agents.py: a session's browser and system read from its User-Agent header."""

from __future__ import annotations

from polignac.server.base.agents import describe, describe_all

FIREFOX_WINDOWS = ("Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 "
                   "Firefox/128.0")
SAFARI_IPHONE = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 "
                 "(KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1")
CHROME_ANDROID = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like "
                  "Gecko) Chrome/126.0.0.0 Mobile Safari/537.36")


def test_a_browser_its_system_and_device() -> None:
    assert describe(FIREFOX_WINDOWS) == {"browser": "Firefox 128", "os": "Windows 10",
                                         "device": ""}
    assert describe(SAFARI_IPHONE) == {"browser": "Mobile Safari 17", "os": "iOS 17",
                                       "device": "iPhone"}
    found = describe(CHROME_ANDROID)
    assert found["browser"] == "Chrome Mobile 126" and found["os"] == "Android 14"
    assert found["device"]  # the phone's model, as uap-core names it


def test_what_it_does_not_recognise_is_empty() -> None:
    nothing = {"browser": "", "os": "", "device": ""}
    assert describe("") == nothing
    assert describe("curl/8.5.0")["os"] == ""
    assert describe("\x00" * 1000 + "?") == nothing  # any header: no error
    assert describe_all([FIREFOX_WINDOWS, ""]) == [describe(FIREFOX_WINDOWS), nothing]
