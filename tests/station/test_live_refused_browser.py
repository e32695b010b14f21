"""Real Chromium: a station page whose live stream the station refuses (503, as a full station
answers a guest over its connection budget) tries again by itself (live.js, with a growing random
wait), shows #offline and data-live="no" meanwhile, and is current again from the snapshot of the
stream that is let through."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from testkit import refuse_streams, stream_refused

pytestmark = pytest.mark.browser
SLOW = 15_000  # ms: the first retries wait below 1 s, then 2 s, on a busy shared machine
BACK = 30_000  # ms: the retry after two or three refusals waits below 4 or 8 s


def test_a_display_refused_by_a_full_station_tries_again_and_catches_up(
    page, live_server, client, caller
):
    gid = caller.new_game()
    gate = refuse_streams(page, f"/api/games/{gid}/events")
    with page.expect_response(stream_refused):
        page.goto(f"{live_server.url}/display/{gid}?lang=en")
    expect(page.locator("#offline")).to_be_visible(timeout=SLOW)
    expect(page.locator("#station")).to_have_attribute("data-live", "no")
    missed = [client.post(f"/api/games/{gid}/draw", headers=caller.auth).get_json() for _ in "ab"]
    with page.expect_response(stream_refused, timeout=SLOW):  # refused again: it tried again
        pass
    gate["refuse"] = False
    expect(page.locator("#station")).to_have_attribute("data-live", "yes", timeout=BACK)
    expect(page.locator("#offline")).to_be_hidden()
    expect(page.locator(".tabla .ball.called")).to_have_count(2)
    expect(page.locator("#last-call .number")).to_have_text(str(missed[-1]["ball"]))
