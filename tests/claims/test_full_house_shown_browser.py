"""A full house checked in front of the room says how many numbers the ticket still lacks, and
which they are where few: a check of a ticket at call 21 showed "No Full house yet · missing 54,
63 (Row L3)", the two of its nearest row, when it lacked 11."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from testkit import Caller, scripts_ran

from bingo_hall.manifest import new_strip_deck

pytestmark = pytest.mark.browser
SLOW = 15_000


def test_a_full_house_check_names_how_many_numbers_are_missing_and_which_when_few(
    client, live_server, page
):
    strips = new_strip_deck(2, seed="full house shown", name="Club")
    hall = Caller(client, strips)
    gid = hall.new_game("lines-house", "manual")
    ticket = strips.card(1)
    top, middle, bottom = (list(r) for r in ticket.rows)
    # one line and two lines won by ticket 1, and two numbers of its bottom row called
    hall.call(gid, *top)
    for prize, balls in (("one-line", []), ("two-lines", middle)):
        hall.call(gid, *balls)
        assert hall.post(f"/api/games/{gid}/claims", {"serial": 1}).status_code == 201
        assert hall.post(f"/api/games/{gid}/award", {"prize": prize}).status_code == 200
    hall.call(gid, *bottom[:2])
    page.goto(f"{live_server.url}/display/{gid}?lang=en")
    scripts_ran(page)
    head = page.locator("#claim-show .show-head")

    # ticket 2 (the same strip: none of ticket 1's numbers) lacks all 15 but what was called
    other = strips.card(2)
    called = set(top + middle + bottom[:2])
    lacks = [n for r in other.rows for n in r if n not in called]
    assert len(lacks) > 4
    assert hall.post(f"/api/games/{gid}/check/2").status_code == 200
    expect(head).to_contain_text(f"{len(lacks)} more needed", timeout=SLOW)
    expect(head).not_to_contain_text("missing")

    # ticket 1 lacks three: they are named
    assert hall.post(f"/api/games/{gid}/check/1").status_code == 200
    expect(head).to_contain_text("Ticket 1", timeout=SLOW)
    expect(head).to_contain_text(f"3 more needed ({', '.join(map(str, sorted(bottom[2:])))})")
