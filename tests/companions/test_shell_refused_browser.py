"""Real Chromium: a table's phone whose live stream the station refuses (503, as a full station
answers a guest over its connection budget) says "Reconnecting…", tries again by itself (live.js,
with a growing random wait) and shows the table as it is now once a stream is let through."""

from __future__ import annotations

import pytest
import requests
from playwright.sync_api import expect
from testkit import refuse_streams, stream_refused

pytestmark = pytest.mark.browser
SLOW = 15_000  # ms: the first retries wait below 1 s, then 2 s, on a busy shared machine
BACK = 30_000  # ms: the retry after two or three refusals waits below 4 or 8 s


def hand(down: int) -> dict:
    return {"puras": 0, "impuras": 0, "closed": False, "muerto": "not_taken", "down": down}


def test_a_table_phone_refused_by_a_full_station_tries_again_and_catches_up(
    companions_app, serve, phone
):
    server = serve(companions_app)
    made = requests.post(f"{server.url}/t/new/burako", json={"teams": [["Ana"], ["Beto"]]})
    code = made.json()["code"]
    gate = refuse_streams(phone, f"/t/{code}/events")
    with phone.expect_response(stream_refused):
        phone.goto(f"{server.url}/t/{code}?lang=en")
    live = phone.locator("#live")
    expect(live).to_have_attribute("data-state", "offline", timeout=SLOW)
    expect(live).to_contain_text("Reconnecting")
    # another phone enters a hand meanwhile: this one learns it from its next stream only
    r = requests.post(f"{server.url}/t/{code}/entries", json={"teams": [hand(40), hand(0)]})
    assert r.status_code == 201, r.text
    with phone.expect_response(stream_refused, timeout=SLOW):  # refused again: it tried again
        pass
    gate["refuse"] = False
    expect(live).to_have_attribute("data-state", "live", timeout=BACK)
    expect(phone.locator('[data-total="0"]')).to_have_text("-60")
    expect(phone.locator('[data-total="1"]')).to_have_text("-100")
