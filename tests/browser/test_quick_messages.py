"""Quick messages in real browsers: a player sends one, a spectator (another browser, in
German) sees the bubble by the player's seat and the line in the live region; the
spectator has no buttons, mutes the seat (the bubble goes, the next message does not show)
and the mute survives a reload."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.browser.support import wait_until

from polignac import i18n

pytest.importorskip("playwright.sync_api")


def test_a_bubble_by_the_seat_in_each_language_and_a_mute(chromium: Any, server: str,
                                                         shots: Path) -> None:
    errors: list[str] = []
    player = chromium.new_context(viewport={"width": 1280, "height": 800}).new_page()
    player.on("pageerror", lambda exc: errors.append(str(exc)))
    r = player.request.post(server + "/api/tables", data={
        "preset": "polignac", "private": False,
        "seats": [{"kind": "you"}] + [{"kind": "bot", "level": "easy"}] * 3})
    assert r.ok, r.text()
    url = server + r.json()["url"]
    player.goto(url + "?lang=en")
    player.wait_for_selector("#hand .card")
    watcher = chromium.new_context(viewport={"width": 1280, "height": 800}).new_page()
    watcher.on("pageerror", lambda exc: errors.append(str(exc)))
    watcher.goto(url + "?lang=de")
    watcher.wait_for_selector("#chat-mutes input[data-seat='0']")
    assert watcher.locator("#chat-buttons").is_hidden()  # spectators only listen
    assert watcher.locator("#chat-mutes input").count() == 1  # bots say nothing: no mute
    assert player.locator("#chat-box").get_attribute("open") is None  # nobody else plays
    assert player.locator("#chat-mutes input").count() == 0
    player.click("#chat-box summary")

    player.click("#chat-buttons button[data-message='well-played']")
    bubble = watcher.locator(".ring .seat[data-seat='0'] .chat-bubble")
    bubble.wait_for()
    assert bubble.inner_text() == i18n.t("de", "chat.well-played")
    assert watcher.locator("#chat-log p").last.inner_text().endswith(
        i18n.t("de", "chat.well-played"))
    assert watcher.locator("#chat-log").get_attribute("aria-live") == "polite"
    mine = player.locator(".ring .seat[data-seat='0'] .chat-bubble")
    mine.wait_for()
    assert mine.inner_text() == i18n.t("en", "chat.well-played")
    seat = watcher.locator(".ring .seat[data-seat='0']").bounding_box()
    box = bubble.bounding_box()
    assert seat and box
    assert abs((box["x"] + box["width"] / 2) - (seat["x"] + seat["width"] / 2)) < 2
    assert box["y"] + box["height"] <= seat["y"] + 1  # above the bottom seat
    watcher.screenshot(path=shots / "quick-message-de-1280.png")
    player.click("#chat-buttons button[data-message='hurry-up']")  # a long one, on a phone
    watcher.set_viewport_size({"width": 390, "height": 844})
    watcher.locator(".ring .seat[data-seat='0'] .chat-bubble[data-message='hurry-up']").wait_for()
    watcher.screenshot(path=shots / "quick-message-de-390.png")
    watcher.set_viewport_size({"width": 1280, "height": 800})

    watcher.check("#chat-mutes input[data-seat='0']")
    wait_until(lambda: bubble.count() == 0)
    assert watcher.locator("#chat-log p").count() == 0
    before = player.locator("#chat-log p").count()
    for message in ("thanks", "bye", "oops", "sorry"):  # four at once: over 3 in 10 s
        player.click(f"#chat-buttons button[data-message='{message}']")
    player.locator("#toast").wait_for()
    assert player.locator("#toast").inner_text() == i18n.t("en", "error.chat-rate")
    wait_until(lambda: player.locator("#chat-log p").count() > before)
    assert player.locator("#chat-log p").count() < before + 4
    assert watcher.locator(".chat-bubble").count() == 0
    assert watcher.locator("#chat-log p").count() == 0

    watcher.reload()
    watcher.wait_for_selector("#chat-mutes input[data-seat='0']")
    assert watcher.locator("#chat-mutes input[data-seat='0']").is_checked()
    assert watcher.locator("#chat-box").get_attribute("open") is not None  # a person plays
    assert not errors, errors
