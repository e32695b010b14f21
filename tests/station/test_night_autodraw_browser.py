"""Issue 26, item 10 in real Chromium: the Maestro starts the automatic draw on the caller page,
balls come by themselves, Space pauses and resumes it, a reloaded page shows the station's state,
and checking a claim pauses it."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from testkit import TEST_PIN, Caller, eventually

pytestmark = pytest.mark.browser
SLOW = 20_000  # ms: the first ball comes 3 s after the start, on a busy shared machine


def test_the_automatic_draw_runs_pauses_with_space_and_survives_a_reload(client, live_server, page):
    hall = Caller(client)
    gid = hall.new_game(draw="auto")
    page.goto(f"{live_server.url}/caller/login?lang=en&next=/caller/games/{gid}")
    page.fill("input[name=pin]", TEST_PIN)
    page.press("input[name=pin]", "Enter")
    page.wait_for_url(f"**/caller/games/{gid}")
    expect(page.locator("#station")).to_have_attribute("data-live", "yes")
    page.fill("#autodraw-every", "3")
    page.locator("#autodraw-start button").click()
    status = page.locator("#autodraw-status")
    expect(status).to_contain_text("a ball every 3 s")
    expect(page.locator(".tabla .ball.called")).to_have_count(1, timeout=SLOW)
    page.locator("body").click(position={"x": 5, "y": 5})  # the keyboard is the page's
    page.keyboard.press("Space")  # pauses: no ball is drawn by the key
    expect(status).to_contain_text("paused: press Resume or Space")
    expect(page.locator("#autodraw")).to_have_attribute("data-state", "paused")
    drawn = page.locator(".tabla .ball.called").count()
    page.reload()
    expect(page.locator("#station")).to_have_attribute("data-live", "yes")
    expect(status).to_contain_text("paused: press Resume or Space")
    assert page.locator(".tabla .ball.called").count() == drawn
    expect(page.locator("#autodraw-toggle")).to_contain_text("Resume")
    page.keyboard.press("Space")  # resumes
    expect(status).to_contain_text(re.compile(r"a ball every 3 s · next in \d s"))
    expect(page.locator(".tabla .ball.called")).to_have_count(drawn + 1, timeout=SLOW)
    page.fill("#claim-serial", "5")
    page.click("#claim-check")
    expect(status).to_contain_text("a claim is being checked")
    page.click("#autodraw-stop")
    expect(page.locator("#autodraw-start")).to_be_visible()
    assert hall.get(f"/api/games/{gid}").get_json()["autodraw"]["state"] == "off"


def _card_1_has_bingo_and_the_draw_runs(client, live_server, page):
    """A game drawn until card 1 has a bingo, its caller page open with the automatic draw
    started (a ball every 60 s: none comes by itself during a test). (Caller, game id, the
    automatic draw's status line)."""
    hall = Caller(client)
    gid = hall.new_game(draw="auto")
    while not hall.get(f"/api/games/{gid}/check/1?quiet=1").get_json()["bingo"]:
        hall.post(f"/api/games/{gid}/draw", {})
    page.goto(f"{live_server.url}/caller/login?lang=en&next=/caller/games/{gid}")
    page.fill("input[name=pin]", TEST_PIN)
    page.press("input[name=pin]", "Enter")
    page.wait_for_url(f"**/caller/games/{gid}")
    expect(page.locator("#station")).to_have_attribute("data-live", "yes")
    page.fill("#autodraw-every", "60")
    page.locator("#autodraw-start button").click()
    status = page.locator("#autodraw-status")
    expect(status).to_contain_text("a ball every 60 s")
    return hall, gid, status


def test_the_caller_page_follows_a_won_round_draw_dims_and_next_round_asks_for_resume(
    client, live_server, page
):
    hall, gid, status = _card_1_has_bingo_and_the_draw_runs(client, live_server, page)
    draw = page.locator("#draw")
    expect(draw).to_have_attribute("data-refused", "no")
    # the Maestro awards card 1's bingo (from another tab, or the API): the page follows
    assert hall.post(f"/api/games/{gid}/claims", {"serial": 1}).status_code == 201
    assert hall.post(f"/api/games/{gid}/award").status_code == 200
    expect(status).to_contain_text("the round is won")
    # the station refuses a ball until Next round: Draw is dim, and a press says why
    expect(draw).to_have_attribute("data-refused", "yes")
    assert float(draw.evaluate("b => getComputedStyle(b).opacity")) < 0.6
    draw.click()
    expect(page.locator("#message")).to_contain_text("Next round")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#next-round")
    expect(status).to_contain_text("the new round is ready")
    expect(status).not_to_contain_text("Next round")
    expect(draw).to_have_attribute("data-refused", "no")
    page.keyboard.press("Space")  # resumes in the new round
    expect(status).to_contain_text(re.compile(r"a ball every 60 s · next in \d+ s"))
    page.click("#autodraw-stop")


def test_a_snapshot_read_before_the_pause_for_a_won_round_does_not_undo_it_on_the_caller_page(
    client, live_server, page
):
    """After an award the caller page asks for the game's snapshot again (the award's events
    say nothing of whether a ball may be drawn). The automatic draw pauses for the won round
    just after the award's own events, so a snapshot read in between still says "a claim is
    being checked". The page was told of the pause while that snapshot was on its way: the
    snapshot must not undo it (the Maestro saw "a claim is being checked" for good)."""
    hall, gid, status = _card_1_has_bingo_and_the_draw_runs(client, live_server, page)
    station = page.locator("#station")
    assert hall.post(f"/api/games/{gid}/claims", {"serial": 1}).status_code == 201
    expect(status).to_contain_text("a claim is being checked")
    before_the_pause = hall.get(f"/api/games/{gid}").get_json()["autodraw"]
    held = []  # the page's requests for the snapshot, answered when the test says
    page.route(f"**/api/games/{gid}", lambda route: held.append(route))
    assert hall.post(f"/api/games/{gid}/award").status_code == 200
    expect(status).to_contain_text("the round is won")  # the pause's event

    def asked() -> bool:
        """The page asked for the snapshot (its award's events did; it is still waiting)."""
        page.evaluate("0")  # Playwright hands a held request over while it runs a call
        return bool(held)

    eventually(asked)
    seen = station.get_attribute("data-snapshots")
    for route in held:
        snapshot = route.fetch().json()  # the game after the award ...
        snapshot["autodraw"] = before_the_pause  # ... read before the automatic draw paused
        route.fulfill(json=snapshot)
    expect(station).not_to_have_attribute("data-snapshots", seen or "")  # applied
    expect(status).to_contain_text("the round is won")
    expect(page.locator("#draw")).to_have_attribute("data-refused", "yes")
