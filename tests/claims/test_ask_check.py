"""A claim without shouting (issue 36 item 4): a card's own page asks the Maestro for a check. The
request is judged at once and listed for the Maestro with the card's verdict; it is not a claim
(nothing recorded, no penalty); one per card per call, 3 per card and 10 per address a minute,
each refused in words; only from the card's signed page, with a JSON body from the same origin."""

from __future__ import annotations

import pytest

from bingo_hall.signing import card_path

from .hall import Hall

JSON = {"Content-Type": "application/json"}


@pytest.fixture
def hall(client):
    return Hall(client)


def _ask(hall: Hall, serial: int, headers=None, address: str = "10.0.0.7", sig_deck=None):
    deck = sig_deck or hall.deck
    path = card_path(deck.secret, deck.deck_id, serial) + "/ask"
    return hall.client.post(
        path,
        data="{}",
        headers=JSON if headers is None else headers,
        environ_base={"REMOTE_ADDR": address},
    )


def _not_on(hall: Hall, serial: int, count: int) -> list[int]:
    mine = {n for col in hall.deck.card(serial).columns for n in col if n is not None}
    return [n for n in range(1, 76) if n not in mine][:count]


def test_a_phone_asks_for_a_check_and_the_maestro_sees_it_with_the_verdict(hall):
    gid = hall.new_game()
    hall.call(gid, *hall.numbers(4, "B"))
    r = _ask(hall, 4)
    assert r.status_code == 201, r.get_json()
    assert r.get_json()["valid"] is True
    assert r.get_json()["at_call"] == 5
    listed = hall.get(f"/api/games/{gid}/asks").get_json()["asks"]
    assert [(a["serial"], a["valid"], a["round"]) for a in listed] == [(4, True, 1)]
    assert "B" in listed[0]["verdict"]["winning"]
    # a card without a bingo is listed with its verdict too
    assert _ask(hall, 9).get_json()["valid"] is False
    # not a claim: nothing recorded, no penalty, the round is not won
    scores = hall.get(f"/api/games/{gid}/scores").get_json()
    assert scores["claims"] == []
    assert hall.get(f"/api/games/{gid}/record").get_json()["rounds"][0]["claims"] == []


def test_one_request_per_card_per_call_and_three_a_minute_in_words(hall):
    gid = hall.new_game()
    other = _not_on(hall, 4, 4)
    hall.call(gid, other[0])
    assert _ask(hall, 4).status_code == 201
    again = _ask(hall, 4)
    assert again.status_code == 429
    assert again.get_json()["error"] == (
        "card 4 has already asked for a check on this call: the Maestro has it; ask again after "
        "the next call"
    )
    hall.call(gid, other[1])
    assert _ask(hall, 4).status_code == 201
    hall.call(gid, other[2])
    assert _ask(hall, 4).status_code == 201
    hall.call(gid, other[3])
    fourth = _ask(hall, 4)
    assert fourth.status_code == 429
    assert fourth.get_json()["error"] == (
        "card 4 has asked for a check 3 times in a minute: wait a minute"
    )
    # one line for the card, its request still open: updated, not repeated
    listed = hall.get(f"/api/games/{gid}/asks").get_json()["asks"]
    assert [(a["serial"], a["at_call"], a["times"]) for a in listed] == [(4, 3, 3)]


def test_a_card_asking_again_while_its_request_is_open_updates_it_instead_of_adding_a_line(hall):
    gid = hall.new_game()
    other = _not_on(hall, 4, 3)
    hall.call(gid, other[0])
    assert _ask(hall, 4).status_code == 201
    assert _ask(hall, 9).status_code == 201
    hall.call(gid, *hall.numbers(4, "B"))
    again = _ask(hall, 4)
    assert again.status_code == 201 and again.get_json()["times"] == 2
    listed = hall.get(f"/api/games/{gid}/asks").get_json()["asks"]
    assert [(a["serial"], a["at_call"], a["times"], a["valid"], a["seen"]) for a in listed] == [
        (4, 6, 2, True, False),
        (9, 1, 1, False, False),
    ]
    # the Maestro looks at it: it is closed; a later request is a new line
    seen = hall.post(f"/api/games/{gid}/asks/4/seen")
    assert seen.status_code == 200, seen.get_json()
    assert [(a["serial"], a["seen"]) for a in seen.get_json()["asks"]] == [(4, True), (9, False)]
    hall.call(gid, other[1])
    assert _ask(hall, 4).status_code == 201
    listed = hall.get(f"/api/games/{gid}/asks").get_json()["asks"]
    assert [(a["serial"], a["at_call"], a["seen"]) for a in listed] == [
        (4, 6, True),
        (9, 1, False),
        (4, 7, False),
    ]


def test_a_card_shown_to_the_room_or_claimed_has_its_request_seen_to(hall):
    gid = hall.new_game()
    hall.call(gid, *hall.numbers(4, "B"))
    assert _ask(hall, 4).status_code == 201
    assert _ask(hall, 9).status_code == 201
    assert hall.post(f"/api/games/{gid}/check/4").status_code == 200
    assert hall.post(f"/api/games/{gid}/claims", {"serial": 9}).status_code == 201
    listed = hall.get(f"/api/games/{gid}/asks").get_json()["asks"]
    assert [(a["serial"], a["seen"]) for a in listed] == [(4, True), (9, True)]


def test_only_the_maestro_closes_a_request(hall, client):
    gid = hall.new_game()
    hall.call(gid, *hall.numbers(4, "B"))
    assert _ask(hall, 4).status_code == 201
    assert client.post(f"/api/games/{gid}/asks/4/seen", json={}).status_code == 401


def test_ten_requests_per_address_a_minute_in_spanish_too(hall):
    gid = hall.new_game()
    hall.call(gid, 1)
    for serial in range(1, 11):
        assert _ask(hall, serial, address="10.0.0.9").status_code == 201, serial
    refused = hall.client.post(
        card_path(hall.deck.secret, hall.deck.deck_id, 11) + "/ask?lang=es",
        data="{}",
        headers=JSON,
        environ_base={"REMOTE_ADDR": "10.0.0.9"},
    )
    assert refused.status_code == 429
    assert refused.get_json()["error"] == (
        "este celular ya pidió 10 revisiones en un minuto: espere un minuto"
    )
    assert _ask(hall, 11, address="10.0.0.10").status_code == 201  # another phone may


def test_only_the_cards_own_signed_page_may_ask(hall):
    gid = hall.new_game()
    hall.call(gid, 1)
    form = _ask(
        hall,
        4,
        headers={"Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"},
    )
    assert form.status_code == 400
    assert form.get_json()["error"] == "a check is asked for from the card's own page"
    other_site = _ask(hall, 4, headers={**JSON, "Sec-Fetch-Site": "cross-site"})
    assert other_site.status_code == 403
    foreign = _ask(hall, 4, headers={**JSON, "Origin": "http://evil.example"})
    assert foreign.status_code == 403
    same = _ask(hall, 4, headers={**JSON, "Sec-Fetch-Site": "same-origin"})
    assert same.status_code == 201
    path = card_path(hall.deck.secret, hall.deck.deck_id, 5)
    forged = path[: -len(path.rsplit("/", 1)[1])] + "A" * len(path.rsplit("/", 1)[1])
    r = hall.client.post(forged + "/ask", data="{}", headers=JSON)
    assert r.status_code == 404
    assert r.get_json()["error"] == "not a card of this hall"


def test_no_request_without_a_game_or_a_call_and_the_list_is_the_maestros(hall, client):
    r = _ask(hall, 4)
    assert r.status_code == 409
    assert r.get_json()["error"] == "no game is being played with this card now"
    gid = hall.new_game()
    r = _ask(hall, 4)
    assert r.status_code == 409
    assert r.get_json()["error"] == "no ball has been called in this round yet"
    assert client.get(f"/api/games/{gid}/asks").status_code == 401


def test_a_ninety_ball_ticket_asks_with_its_prizes_verdict(client):
    from bingo_hall.manifest import new_strip_deck

    strips = new_strip_deck(2, seed="ask strips", name="Tiras")
    hall = Hall(client, strips)
    gid = hall.new_game()
    first_row = [n for n in strips.card(3).rows[0] if n is not None]
    hall.call(gid, *first_row[:4])
    assert _ask(hall, 3).get_json()["valid"] is False  # one number short of the Línea
    hall.call(gid, first_row[4])  # the first row complete: the Línea
    r = _ask(hall, 3)
    assert r.status_code == 201, r.get_json()
    assert r.get_json()["valid"] is True
