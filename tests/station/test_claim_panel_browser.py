"""The claim panel the Maestro decides from never mixes two tickets: after an award, the panel
shows the ticket of the next claim, even when the award's own refresh of the ticket before comes
back after it (a Tambola night showed "Top Line · not valid" over the previous winner's rows).
The award-then-new-claim sequence is played ten times (two Tambola games of five prizes), each
time with the refresh of the ticket before held until the new claim's ticket is shown."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from tambolakit import numbers
from testkit import TEST_PIN, Caller, doc_shot, scripts_ran

from bingo_hall.manifest import new_strip_deck

pytestmark = pytest.mark.browser
SLOW = 15_000
PRIZES = ("early-five", "top-line", "middle-line", "bottom-line", "four-corners", "full-house")


def test_the_claim_panel_shows_the_claimed_ticket_after_every_award(
    client, live_server, page, tmp_path
):
    strips = new_strip_deck(2, seed="claim panel", name="Club")
    hall = Caller(client, strips)
    page.goto(f"{live_server.url}/caller/login?lang=en")
    page.fill("input[name=pin]", TEST_PIN)
    page.press("input[name=pin]", "Enter")
    page.wait_for_url("**/caller/**")
    page.on("dialog", lambda d: d.accept())
    panel = page.locator("#claim-result")
    held: list = []  # the refreshes of ticket 1 held on their way
    rounds = 0
    for _game in range(2):
        gid = hall.new_game("tambola", "manual")
        hall.call(gid, *numbers(strips, 1))  # ticket 1 holds every prize
        page.goto(f"{live_server.url}/caller/games/{gid}?lang=en")
        scripts_ran(page)
        for i, prize in enumerate(PRIZES[:5]):
            page.select_option("#claim-prize", prize)
            page.fill("#claim-serial", "1")
            page.click("#claim-submit")
            expect(panel.locator("[data-serial]").first).to_have_attribute("data-serial", "1")
            held.clear()
            page.route("**/check/1?*", lambda route: held.append(route))
            page.click("#award")  # its refresh of ticket 1 is held on its way
            expect(page.locator(f'#prize-steps li[data-prize="{prize}"]')).to_have_class(
                "done", timeout=SLOW
            )
            other = str(7 + i)  # a ticket of the other strip, claiming the next prize
            page.select_option("#claim-prize", PRIZES[i + 1])
            page.fill("#claim-serial", other)
            page.click("#claim-submit")
            expect(panel.locator("[data-serial]").first).to_have_attribute(
                "data-serial", other, timeout=SLOW
            )
            dropped = int(panel.get_attribute("data-dropped") or 0)
            for route in held:  # the old ticket's answer comes back last
                route.continue_()
            page.unroute("**/check/1?*")
            # the page has dealt with it: dropped as stale, or (the fault) shown
            page.wait_for_function(
                """n => { const box = document.getElementById('claim-result');
                  return Number(box.dataset.dropped || 0) >= n
                    || !!box.querySelector('[data-serial="1"]'); }""",
                arg=dropped + len(held),
                timeout=SLOW,
            )
            assert held, "the award refreshed no ticket: the race was not made"
            serials = panel.locator("[data-serial]").evaluate_all(
                "els => els.map(e => e.dataset.serial)"
            )
            assert set(serials) == {other}, (prize, serials)
            if rounds == 0:
                page.locator("#claims").screenshot(
                    path=doc_shot("claim-panel-after-award.png", tmp_path)
                )
            rounds += 1
    assert rounds == 10
