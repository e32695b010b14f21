"""A phone on the hall's plain-http Wi-Fi (real Chromium): no service worker runs there, so the
page says it keeps no offline copy, and when the network drops the open tab keeps the last
scores with "Reconnecting…" in view over them, then catches up by itself.

127.0.0.1 and localhost are secure contexts to a browser (service workers run there), so the
phone opens the station by a name, hall.test, that this test's own Chromium maps to 127.0.0.1
(--host-resolver-rules): an ordinary http origin, as a station's Wi-Fi address is."""

from __future__ import annotations

import pytest
import requests
from _browser import ARGS, CHROMIUM
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


@pytest.fixture
def hall_phone(browser_type):
    browser = browser_type.launch(
        executable_path=CHROMIUM, args=[*ARGS, "--host-resolver-rules=MAP hall.test 127.0.0.1"]
    )
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    yield context
    context.close()
    browser.close()


def test_on_plain_http_the_page_says_there_is_no_offline_copy_and_keeps_the_last_scores(
    panel_app, serve, hall_phone
):
    server = serve(panel_app)
    code = requests.post(
        f"{server.url}/t/new/rummy", json={"players": ["Ana", "Luis", "Caro", "Tom"]}, timeout=10
    ).json()["code"]
    played = {"closed_by": "Ana", "racks": {"Luis": 106, "Caro": 67, "Tom": 38}}
    assert requests.post(f"{server.url}/t/{code}/entries", json=played, timeout=10).ok
    page = hall_phone.new_page()
    page.goto(f"http://hall.test:{server.port}/t/{code}?lang=en")
    assert page.evaluate("window.isSecureContext") is False
    expect(page.locator("#live")).to_have_attribute("data-state", "live")
    expect(page.locator("#offline-note")).to_be_visible()
    expect(page.locator("#offline-note")).to_contain_text("no offline copy")

    # the Wi-Fi drops while the player looks at the bottom of the page
    page.locator("#offline-note").scroll_into_view_if_needed()
    hall_phone.set_offline(True)
    live = page.locator("#live")
    expect(live).to_have_attribute("data-state", "offline")
    expect(live).to_have_text("Reconnecting…")
    expect(live).to_be_in_viewport()
    expect(page.locator('[data-total="1"]')).to_have_text("106")  # the last scores, kept

    # the network comes back, and an entry made meanwhile by another phone arrives by itself
    again = {"closed_by": "Luis", "racks": {"Ana": 5, "Caro": 7, "Tom": 9}}
    assert requests.post(f"{server.url}/t/{code}/entries", json=again, timeout=10).ok
    hall_phone.set_offline(False)
    expect(live).to_have_attribute("data-state", "live", timeout=30_000)
    expect(page.locator('[data-total="0"]')).to_have_text("5")


def test_where_the_browser_keeps_an_offline_copy_the_page_says_nothing(panel_app, serve, browser):
    server = serve(panel_app)
    page = browser.new_page()
    page.goto(f"{server.url}/t/?lang=en")  # 127.0.0.1: a secure context, the worker runs
    expect(page.locator("h2").first).to_be_visible()
    page.wait_for_function("() => window.isSecureContext")
    expect(page.locator("#offline-note")).to_be_hidden()
    page.close()
