"""The caller page's device box in real Chromium: it follows the device's state live (issue 6:
"the caller page shows the device's state: connected, retrying, or its last error")."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import expect
from testkit import Caller, scripts_ran, watch_csp

from firmware_bridge.embedded import register as start_in_station

pytestmark = pytest.mark.browser


def test_the_caller_page_shows_the_board_going_away_and_coming_back(
    page, app, client, serve, emulator
):
    emu = emulator("combo")
    bridge = start_in_station(app, emu.path)  # as `bingo-hall serve --device` does
    game = Caller(client).new_game(draw="manual")  # the app's first request
    server = serve(app)
    blocked = watch_csp(page)  # the box's script and style are static files (issue 20)
    try:
        page.goto(f"{server.url}/caller/login?lang=en&next=/caller/games/{game}")
        page.fill("input[name=pin]", app.config["CALLER_PIN"])
        page.click("button[type=submit]")
        scripts_ran(page)
        box = page.locator("#bhp-device")
        expect(box).to_have_class("bhp-device state-connected")
        expect(box.locator(".bhp-detail")).to_contain_text("combo bhk-emu 1.0")
        box.scroll_into_view_if_needed()
        page.screenshot(path=os.environ.get("BHP_SHOT", "/tmp/bhp-connected.png"))
        page.click("#bhp-drop")  # the machine releases a ball; it becomes the call
        expect(page.locator(".tabla .ball.called")).to_have_count(1)
        emu.unplug()
        expect(box).to_have_class("bhp-device state-retrying")
        expect(box.locator(".bhp-state")).to_have_text("retrying")
        emu.replug()
        expect(box).to_have_class("bhp-device state-connected")
        assert blocked == []
    finally:
        bridge.stop()
