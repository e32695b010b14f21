"""Real Chromium: a phone's card page follows the game from the events (issue 24). A new call is
marked and "shout!" said without the page asking the station for anything (the requests are
counted); after its stream drops, the page comes back by itself and is current again; a second
visit takes its scripts and styles from the cache; a 90-ball ticket marks its rows the same way."""

import pytest
from playwright.sync_api import expect
from testkit import Caller

from bingo_hall.manifest import new_strip_deck
from bingo_hall.signing import card_path
from bingo_hall.station import games
from bingo_hall.web.instance import hall as hall_state

from .hall import Hall


def _asked(page) -> list[str]:
    """Every request the page makes from now on (the list fills as it goes)."""
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    return asked


def _drop_streams(app, gid: int) -> None:
    """Every live stream of the game ends at once, as when the Wi-Fi drops them."""
    with app.app_context():
        hall_state().hub.end(games.channel(gid))


@pytest.mark.browser
def test_the_card_marks_a_call_and_says_shout_without_fetching_the_card(client, live_server, phone):
    hall = Hall(client)
    gid = hall.new_game()
    phone.add_init_script(
        "window.__buzz = []; navigator.vibrate = (p) => { window.__buzz.push(p); return true; };"
    )
    b = hall.numbers(5, "B")
    hall.call(gid, *b[:3])
    phone.goto(live_server.url + card_path(hall.deck.secret, hall.deck.deck_id, 5))
    expect(phone.locator("#verify")).to_have_attribute("data-live", "yes")
    asked = _asked(phone)
    hall.call(gid, b[3])
    expect(phone.locator(f'td.sq[data-number="{b[3]}"]')).to_have_class("sq covered last")
    expect(phone.locator(".vfacts").first).to_contain_text("4 calls")
    expect(phone.locator(".missing")).to_contain_text(f"Column B lacks {b[4]}")
    expect(phone.locator(".shout")).to_have_count(0)
    hall.call(gid, b[4])
    expect(phone.locator(".shout")).to_have_text("Your card has BINGO: press “Claim”.")
    expect(phone.locator(".verdict-head")).to_have_text("BINGO!")  # English: no "¡"
    expect(phone.locator("td.sq.wins")).to_have_count(5)
    assert phone.evaluate("window.__buzz.length") == 1
    assert asked == [], asked  # marked from the events alone: nothing fetched
    hall.call(gid, *[n for n in range(1, 76) if n not in hall.deck.card(5).numbers][:1])
    expect(phone.locator(".vfacts").first).to_contain_text("6 calls")
    expect(phone.locator(".shout")).to_have_text(
        "Your card has BINGO: press “Claim”."
    )  # still a bingo
    assert asked == [], asked


@pytest.mark.browser
def test_after_a_dropped_stream_the_card_comes_back_current(app, client, live_server, phone):
    hall = Hall(client)
    gid = hall.new_game()
    g = hall.numbers(7, "G")
    hall.call(gid, g[0])
    phone.goto(live_server.url + card_path(hall.deck.secret, hall.deck.deck_id, 7))
    verify = phone.locator("#verify")
    expect(verify).to_have_attribute("data-live", "yes")
    asked = _asked(phone)
    _drop_streams(app, gid)
    expect(verify).to_have_attribute("data-live", "no")
    hall.call(gid, g[1], g[2])  # while the phone is away: only its reconnect's snapshot has them
    expect(verify).to_have_attribute("data-live", "yes")
    expect(phone.locator(f'td.sq[data-number="{g[2]}"]')).to_have_class("sq covered last")
    expect(phone.locator(f'td.sq[data-number="{g[1]}"]')).to_have_class("sq covered")
    expect(phone.locator(".vfacts").first).to_contain_text("3 calls")
    assert [u for u in asked if "/events" not in u] == [], asked  # the stream alone, again
    hall.post(f"/api/games/{gid}/rounds")  # a new round reaches it as data too
    expect(phone.locator("td.sq.covered")).to_have_count(0)
    assert [u for u in asked if "/events" not in u] == [], asked


@pytest.mark.browser
def test_a_second_visit_takes_the_scripts_and_styles_from_the_cache(client, live_server, phone):
    hall = Hall(client)
    hall.new_game()
    url = live_server.url + card_path(hall.deck.secret, hall.deck.deck_id, 3)
    phone.goto(url)
    expect(phone.locator("#verify")).to_have_attribute("data-live", "yes")
    phone.goto(url)
    expect(phone.locator("#verify")).to_have_attribute("data-live", "yes")
    cached = phone.evaluate(
        "() => performance.getEntriesByType('resource')"
        ".filter(e => /\\.(js|css)/.test(e.name)).map(e => [e.name, e.transferSize])"
    )
    names = {u.split("?")[0].rsplit("/", 1)[1] for u, _ in cached}
    # one script: card.js with the modules it imports inlined (static_files.ONE_SCRIPT); one
    # stylesheet: station.css and verify.css joined (static_files.ONE_STYLESHEET)
    assert names == {"card.js", "card.css"}, names
    assert all(size == 0 for _, size in cached), cached  # from the cache, not even a 304


@pytest.mark.browser
def test_a_ninety_ball_ticket_marks_its_rows_from_the_events(client, live_server, phone):
    strips = new_strip_deck(1, seed="follow-90")
    maestro = Caller(client, strips)
    gid = maestro.new_game(draw="manual")
    ticket = strips.cards[1]
    top = [n for n in ticket.grid[0] if n is not None]
    phone.goto(live_server.url + card_path(strips.secret, strips.deck_id, ticket.serial))
    expect(phone.locator("#verify")).to_have_attribute("data-live", "yes")
    asked = _asked(phone)
    maestro.call(gid, *top[:4])
    expect(phone.locator(f'td.sq[data-number="{top[3]}"]')).to_have_class("sq covered last")
    expect(phone.locator('li[data-line="L1"]')).to_contain_text(f"missing {top[4]}")
    maestro.call(gid, top[4])
    expect(phone.locator('tr[data-row="L1"]')).to_have_class("complete")
    expect(phone.locator(".vcard-wrap")).to_have_attribute("data-valid", "yes")
    expect(phone.locator(".verdict-head")).to_contain_text("Line!")
    assert asked == [], asked


@pytest.mark.browser
def test_a_pattern_chosen_after_the_page_opened_is_the_one_it_follows(client, live_server, phone):
    hall = Hall(client)
    gid = hall.new_game()
    card = hall.deck.card(9)
    phone.goto(live_server.url + card_path(hall.deck.secret, hall.deck.deck_id, 9))
    expect(phone.locator("#verify")).to_have_attribute("data-live", "yes")
    asked = _asked(phone)
    hall.post(f"/api/games/{gid}/settings", {"pattern": "four_corners"})
    expect(phone.locator("td.sq.need")).to_have_count(4)
    corners = [card.number_at(r, c) for r, c in ((0, 0), (0, 4), (4, 0), (4, 4))]
    hall.call(gid, *hall.numbers(9, "R1"))  # a whole row is no bingo now
    expect(phone.locator(".vfacts").first).to_contain_text("5 calls")
    expect(phone.locator(".shout")).to_have_count(0)
    hall.call(gid, corners[2], corners[3])
    expect(phone.locator(".shout")).to_have_text("Your card has BINGO: press “Claim”.")
    expect(phone.locator(".verdict-head .kind")).to_have_text("Pattern complete")
    expect(phone.locator("td.sq.wins")).to_have_count(4)
    assert asked == [], asked
