"""The caller page of a linked game that follows the organiser live (docs/linked.md): its balls
come from the organiser's stream, so the cage's box is put away with a line that says why (a ball
typed then would be off the code's order, and the tally would refuse the hall's result); when the
Maestro stops following, the box is back for the balls of the code."""

from __future__ import annotations

import json
import threading

import pytest
from layout import LAPTOP, assert_layout
from playwright.sync_api import expect
from station.helpers import order_from_document
from testkit import TEST_PIN, Caller, eventually, scripts_ran

from bingo_hall.manifest import new_strip_deck
from bingo_hall.station.linked.organiser import organiser_app, serve
from bingo_hall.web import book_store as book
from linked.hall import around_now, organise, station_keys

pytestmark = pytest.mark.browser

DECK = new_strip_deck(6, seed="linked cage", name="Linked cage")


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("es", "Para cantar una bola a mano, primero deje de seguir al organizador"),
        ("en", "To enter a ball yourself, stop following first"),
    ],
)
def test_a_linked_game_following_live_puts_the_cage_box_away_until_it_goes_on_from_the_code(
    app, client, live_server, page, tmp_path, lang, words
):
    with app.app_context():
        key = book.station_key(app)
    org = organise([key, *station_keys(1)], ["North"], balls=90, window=around_now())
    hall = Caller(client, DECK)
    organiser = serve(
        organiser_app(org.game, org.code, tmp_path / "organiser", 0.5), "127.0.0.1", 0
    )
    threading.Thread(target=organiser.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{organiser.server_address[1]}"
        r = hall.post(
            "/api/linked/games",
            {
                "linked": json.loads(org.game.text()),
                "organiser": url,
                "follow": True,
                "game": {"deck_id": DECK.deck_id, "mode": "house"},
            },
        )
        assert r.status_code == 201, r.get_json()
        gid = r.get_json()["game_id"]
        page.goto(f"{live_server.url}/caller/login?lang={lang}")
        page.fill("input[name=pin]", TEST_PIN)
        page.press("input[name=pin]", "Enter")
        page.wait_for_url("**/caller/**")
        page.goto(f"{live_server.url}/caller/games/{gid}?lang={lang}")
        scripts_ran(page)
        expect(page.locator("#linked-live [data-when=following]")).to_be_visible()
        expect(page.locator("#manual-ball")).to_be_hidden()
        expect(page.locator("#manual-following")).to_contain_text(words)
        eventually(lambda: len(hall.get(f"/api/games/{gid}").get_json()["calls"]) >= 1)
        order = order_from_document(org.seed, "", 90)
        balls = lambda: [c["ball"] for c in hall.get(f"/api/games/{gid}").get_json()["calls"]]  # noqa: E731
        made = len(balls())
        off = next(n for n in reversed(order))  # the code's last ball: off its order for long
        page.locator(f'.tabla .ball[data-ball="{off}"]').click()  # no ball by hand meanwhile
        eventually(lambda: len(balls()) >= made + 2)  # the organiser's next calls came in
        calls = balls()
        assert calls == order[: len(calls)], calls
        assert_layout(page, (LAPTOP,))

        page.click("#linked-stop")
        expect(page.locator("#linked-live [data-when=code]")).to_be_visible()
        expect(page.locator("#manual-ball")).to_be_visible()
        expect(page.locator("#manual-following")).to_be_hidden()
    finally:
        organiser.shutdown()
