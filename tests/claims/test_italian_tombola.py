"""Italian Tombola on the station (issue 37 item 3): the prizes one after another (ambo, terno,
quaterna, cinquina on one row, then tombola), each closing when awarded, judged through the
check and claim routes; their names in Italian with English and Spanish words on the screens,
and the display's board drawn as the tabellone. The calls come from the deck's printed grids
(tambolakit), counted here, never from the code under test."""

from __future__ import annotations

import re

import pytest
from tambolakit import numbers, row
from testkit import Caller

from bingo_hall.manifest import new_strip_deck

ORDER = ["ambo", "terno", "quaterna", "cinquina", "tombola"]


@pytest.fixture(scope="module")
def strips():
    return new_strip_deck(2, seed="tombola", name="Tombola di Natale")


@pytest.fixture
def hall(client, strips):
    return Caller(client, strips)


def check(hall, gid, serial, prize):
    r = hall.get(f"/api/games/{gid}/check/{serial}?prize={prize}")
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def claim_and_award(hall, gid, serial, prize):
    r = hall.post(f"/api/games/{gid}/claims", {"serial": serial, "prize": prize})
    assert r.status_code == 201 and r.get_json()["valid"], r.get_json()
    r = hall.post(f"/api/games/{gid}/award", {"prize": prize})
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def test_an_italian_tombola_game_plays_its_five_prizes_in_order(hall):
    gid = hall.new_game(mode="tombola", draw="manual")
    prizes = hall.get(f"/api/games/{gid}").get_json()["prizes"]
    assert prizes["order"] == "sequence" and prizes["sequence"] == ORDER
    assert prizes["open"] == ["ambo"] and prizes["tabellone"] is True
    assert prizes["names"]["terno"] == {
        "en": "Terno (three in a row)",
        "es": "Terno (tres en una fila)",
    }


def test_each_prize_is_judged_by_counting_one_row_and_closes_when_won(hall, strips):
    """Ticket 1's top row called one number at a time: 2 called is ambo, 3 terno, 4 quaterna,
    5 cinquina; each check of the next prize fails one call before and holds on its call."""
    gid = hall.new_game(mode="tombola", draw="manual")
    top = row(strips, 1, 0)
    middle, bottom = row(strips, 1, 1), row(strips, 1, 2)
    hall.call(gid, top[0], middle[0], bottom[0])  # one on each row: 3 numbers, no ambo
    first = check(hall, gid, 1, "ambo")
    assert first["valid"] is False and first["still_needed"] == 1
    for count, prize in zip(range(2, 6), ORDER[:4], strict=True):
        hall.call(gid, top[count - 1])  # now `count` called on the top row
        verdict = check(hall, gid, 1, prize)
        assert verdict["valid"] is True, (prize, verdict)
        won = claim_and_award(hall, gid, 1, prize)
        assert [w["serial"] for w in won["winners"]] == [1]
        assert won["open"] == [ORDER[count - 1]]  # the next prize, and only it
        assert check(hall, gid, 1, prize)["open"] is False  # closed once won
    # tombola: all 15 of ticket 1
    assert check(hall, gid, 1, "tombola")["valid"] is False
    hall.call(gid, *[n for n in numbers(strips, 1) if n not in (*top, middle[0], bottom[0])])
    assert check(hall, gid, 1, "tombola")["valid"] is True
    claim_and_award(hall, gid, 1, "tombola")
    assert hall.get(f"/api/games/{gid}").get_json()["prizes"]["finished"] is True


def test_a_prize_not_yet_open_is_refused_though_the_ticket_holds_it(hall, strips):
    gid = hall.new_game(mode="tombola", draw="manual")
    hall.call(gid, *row(strips, 1, 0)[:3])  # 3 on the top row: it holds ambo and terno
    terno = check(hall, gid, 1, "terno")
    assert terno["open"] is False  # the check says it holds it, and that terno is not open
    r = hall.post(f"/api/games/{gid}/claims", {"serial": 1, "prize": "terno"})
    assert r.status_code == 409 and "not the prize being played" in r.get_json()["error"]


def test_the_display_draws_the_tabellone_and_names_the_prizes_in_spanish(hall):
    gid = hall.new_game(mode="tombola", draw="manual")
    page = hall.client.get(f"/display/{gid}?lang=es", headers={"Accept-Language": "es"})
    html = page.get_data(as_text=True)
    assert re.search(r'class="tabla tabla-90 tabellone"', html)
    assert "Ambo (dos en una fila)" in html and "Tombola (los 15)" in html


def test_the_caller_page_draws_the_tabellone_too(hall):
    gid = hall.new_game(mode="tombola", draw="manual")
    html = hall.client.get(f"/caller/games/{gid}", headers=hall.auth).get_data(as_text=True)
    assert 'class="tabla tabla-90 tabellone"' in html
    assert "Quaterna (four in a row)" in html


def test_a_line_then_bingo_game_keeps_the_plain_board(hall):
    gid = hall.new_game(mode="linea-bingo", draw="manual")
    html = hall.client.get(f"/display/{gid}").get_data(as_text=True)
    assert 'tabla tabla-90"' in html and ' tabellone"' not in html


def test_a_refused_prize_is_named_once_in_words_a_reader_can_follow(hall, strips):
    """The refusal names the asked prize and the one being played by their room names, each
    once, with the key a request names it by: no parentheses after parentheses."""
    gid = hall.new_game(mode="tombola", draw="manual")
    hall.call(gid, *row(strips, 1, 0)[:3])
    error = hall.post(f"/api/games/{gid}/claims", {"serial": 1, "prize": "terno"}).get_json()[
        "error"
    ]
    assert error.count("Terno (three in a row)") == 1 and "Ambo (two in a row)" in error, error
    assert ") (" not in error and "((" not in error and "))" not in error, error
