"""The card on the hall's screens is drawn by the station, as every other view of a card: a
`verdict` event names its card (`drawn`) and a screen asks GET /api/games/<id>/shown/<key> once
for its table, in its language. The route is public and read-only, so it draws only a card the
screens were shown, as they were shown it (a false claim: before its penalty), and the round's
final board ("r<n>"), even after the station restarts."""

from __future__ import annotations

import re

import pytest
from testkit import TEST_PIN

from bingo_hall.app import create_app
from bingo_hall.manifest import new_deck, new_strip_deck
from bingo_hall.seventyfive.cards import LINE_CELLS

from .hall import Hall

SQUARE = re.compile(r'<td class="sq([^"]*)" data-number="([^"]+)">([^<]*)</td>')
TOTAL = re.compile(r'<td class="tot([^"]*)" title="([^"]*)">(\d+)</td>')


@pytest.fixture
def hall(client):
    return Hall(client)


def _squares(html: str) -> dict[str, set[str]]:
    """Each square's number (or FREE) -> its classes; the text shown for FREE is kept too."""
    return {n: set(cls.split()) | {f"text:{text}"} for cls, n, text in SQUARE.findall(html)}


def _covered(html: str) -> set[int]:
    return {int(n) for n, cls in _squares(html).items() if "covered" in cls and n != "FREE"}


def _lit(html: str) -> list[int]:
    return [int(total) for cls, _title, total in TOTAL.findall(html) if "lit" in cls.split()]


def _shown(guest, gid: int) -> dict:
    r = guest.get(f"/api/games/{gid}/shown")
    assert r.status_code == 200
    return r.get_json()


def test_a_card_checked_on_the_screens_is_drawn_for_a_guest_in_their_language(app, client):
    hall = Hall(client, new_deck(8, seed="shown free", free_centre=True))
    gid = hall.new_game()
    col = hall.numbers(7, "G")
    other = hall.numbers(7, "R1")[0]  # B's square of row 1: not in column G
    hall.call(gid, *col, other)
    guest = app.test_client()  # a screen on the Wi-Fi: no PIN
    assert _shown(guest, gid) is None  # nothing on the screens yet
    assert hall.post(f"/api/games/{gid}/check/7").status_code == 200  # POST: shown to the room
    shown = _shown(guest, gid)
    assert shown["serial"] == 7 and shown["calls"] == 6 and shown["round"] == 1
    url = f"/api/games/{gid}/shown/{shown['drawn']}"
    en, es = guest.get(url + "?lang=en"), guest.get(url + "?lang=es")
    assert en.status_code == es.status_code == 200 and en.mimetype == "text/html"
    html = en.get_data(as_text=True)
    assert html.count('<table class="vcard"') == 1 and 'data-serial="7"' not in html
    assert _covered(html) == {*col, other}
    squares = _squares(html)
    assert {n for n, cls in squares.items() if "wins" in cls} == {str(n) for n in col}
    assert "last" in squares[str(other)] and "free" in squares["FREE"]
    assert _lit(html) == [sum(col)]  # the winning line's total, lit; no other
    assert "text:FREE" in squares["FREE"] and 'title="Column G"' in html
    spanish = _squares(es.get_data(as_text=True))
    assert "text:LIBRE" in spanish["FREE"] and 'title="Columna G"' in es.get_data(as_text=True)


def test_a_false_claim_is_drawn_as_it_was_claimed_before_its_penalty(app, hall):
    gid = hall.new_game()
    r5 = hall.numbers(9, "R5")
    hall.call(gid, *r5[:3])
    made = hall.post(f"/api/games/{gid}/claims", {"serial": 9, "line": "R5"}).get_json()
    assert made["penalty"] is not None
    guest = app.test_client()
    shown = _shown(guest, gid)
    assert shown["drawn"] == f"c{made['claim_id']}" and shown["calls"] == 3
    html = guest.get(f"/api/games/{gid}/shown/{shown['drawn']}").get_data(as_text=True)
    assert _covered(html) == set(r5[:3])  # the markers as the room saw them claimed
    assert _lit(html) == []
    check = hall.get(f"/api/games/{gid}/check/9").get_json()  # the card now: markers off
    assert not [c for c in check["covered"] if c in [list(x) for x in LINE_CELLS["R5"]]]


def test_only_a_card_the_screens_showed_can_be_drawn_and_reading_changes_nothing(app, hall):
    gid = hall.new_game()
    hall.call(gid, *hall.numbers(3, "R1")[:2])
    guest = app.test_client()
    assert hall.get(f"/api/games/{gid}/check/3").status_code == 200  # a GET check only reads
    assert _shown(guest, gid) is None
    for key in ("k1", "c1", "r1", "x", "r", "k1'--", "r99999999"):
        r = guest.get(f"/api/games/{gid}/shown/{key}?lang=es")
        assert r.status_code == 404, key
        assert r.get_json()["error"] == "ese cartón no está en las pantallas de la sala"
    hall.post(f"/api/games/{gid}/check/3")
    key = _shown(guest, gid)["drawn"]
    assert guest.get(f"/api/games/{gid + 1}/shown/{key}").status_code == 404  # another game
    first = guest.get(f"/api/games/{gid}/shown/{key}").get_data(as_text=True)
    again = guest.get(f"/api/games/{gid}/shown/{key}").get_data(as_text=True)
    assert first == again and _shown(guest, gid)["drawn"] == key
    assert guest.post(f"/api/games/{gid}/shown/{key}").status_code == 405


def test_the_final_board_is_drawn_again_after_the_station_restarts(app, hall, tmp_path):
    gid = hall.new_game()
    col = hall.numbers(12, "O")
    hall.call(gid, *col)
    hall.post(f"/api/games/{gid}/claims", {"serial": 12})
    assert hall.post(f"/api/games/{gid}/award").status_code == 200
    board = app.test_client().get(f"/api/games/{gid}/shown/r1").get_data(as_text=True)
    assert _covered(board) == set(col) and _lit(board) == [sum(col)]
    restarted = create_app(
        {
            "TESTING": True,
            "DATABASE": app.config["DATABASE"],
            "SECRET_KEY": "test-secret",
            "CALLER_PIN": TEST_PIN,
        },
        instance_path=str(tmp_path),
    )
    guest = restarted.test_client()
    assert _shown(guest, gid) is None  # the checks shown are forgotten...
    assert guest.get(f"/api/games/{gid}/shown/r1").get_data(as_text=True) == board  # ...not this
    assert guest.get(f"/api/games/{gid}/shown/r2").status_code == 404  # no such round yet
    Hall(restarted.test_client()).post(f"/api/games/{gid}/rounds")
    assert guest.get(f"/api/games/{gid}/shown/r1").status_code == 404  # its board is down


def test_a_ticket_on_the_screens_lights_its_complete_rows(app, client):
    strips = new_strip_deck(2, seed="shown-90", name="Tiras")
    hall = Hall(client, strips)
    gid = hall.new_game(draw="manual")
    ticket = strips.card(2)
    top = [n for n in ticket.grid[0] if n is not None]
    hall.call(gid, *top)
    assert hall.post(f"/api/games/{gid}/check/2").status_code == 200
    guest = app.test_client()
    shown = _shown(guest, gid)
    html = guest.get(f"/api/games/{gid}/shown/{shown['drawn']}").get_data(as_text=True)
    assert html.count('<table class="vcard ticket90"') == 1 and html.count("<tr") == 3
    assert html.count('<td class="sq blank">') == 12
    assert _covered(html) == set(top)
    assert re.findall(r'<td class="tot( lit)?">(\d+)</td>', html) == [
        (" lit" if r == 0 else "", str(sum(n for n in row if n is not None)))
        for r, row in enumerate(ticket.grid)
    ]
