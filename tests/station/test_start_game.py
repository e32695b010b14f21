"""One `start_game` for the caller's form and the JSON API (issue 25): a hall plays one game at a
time, so a new game, once accepted, ends the running one and reveals its seed; a refused request
changes nothing. The request is parsed at the route into a `NewGame` before the service runs."""

from __future__ import annotations

import pytest
from testkit import Caller

from bingo_hall.station.model import DrawMethod
from bingo_hall.station.requests import NewClaim, NewGame, Undo
from bingo_hall.web.errors import RequestError


@pytest.fixture
def hall(client):
    return Caller(client)


def _status(hall, gid: int) -> str:
    return hall.get(f"/api/games/{gid}").get_json()["status"]


def test_a_new_game_from_the_api_ends_the_running_one_and_reveals_its_seed(hall):
    first = hall.new_game()
    hall.post(f"/api/games/{first}/draw", {})
    second = hall.new_game(mode="points")
    assert (_status(hall, first), _status(hall, second)) == ("ended", "active")
    revealed = hall.get(f"/api/games/{first}/record").get_json()["rounds"][0]["seed"]
    assert revealed is not None and len(revealed) == 64
    assert [
        g["game_id"] for g in hall.get("/api/games").get_json()["games"] if g["status"] == "active"
    ] == [second]


@pytest.mark.parametrize(
    "bad",
    [
        {"mode": "doble"},
        {"draw": "cage"},
        {"free_centre": "yes"},
        {"options": [1]},
        {"deck_id": 7},
        {"pattern": "x"},  # a setting of the round, not of the new game
        {"prizes": "tambola"},  # a 90-ball game's plan is its mode
    ],
)
def test_a_refused_new_game_leaves_the_running_one_playing(hall, bad):
    first = hall.new_game()
    payload = {"deck_id": hall.deck.deck_id, **bad}
    r = hall.post("/api/games", payload)
    assert r.status_code == 400 and r.get_json()["error"]
    assert _status(hall, first) == "active"


def test_a_field_a_new_game_does_not_take_is_named_in_the_refusal(hall):
    r = hall.post("/api/games", {"deck_id": hall.deck.deck_id, "mode": "normal", "patern": "x"})
    assert r.status_code == 400
    assert r.get_json()["error"].startswith("patern: not a field of a new game; it takes deck_id")
    es = hall.client.post(
        "/api/games?lang=es", json={"deck_id": hall.deck.deck_id, "Mode": "x"}, headers=hall.auth
    )
    assert es.get_json()["error"].startswith("Mode: no es un campo de una partida nueva")


def test_the_caller_form_and_the_api_read_the_same_new_game():
    form = NewGame.from_form(
        {"deck_id": "ABCDEFGH", "mode": "points", "draw": "manual", "free_centre": "on"}
    )
    api = NewGame.from_json(
        {"deck_id": "ABCDEFGH", "mode": "points", "draw": "manual", "free_centre": True}
    )
    assert form == api
    assert form.draw is DrawMethod.MANUAL and form.options == {}


@pytest.mark.parametrize(
    ("parse", "message"),
    [
        (lambda: NewGame.from_json({}), "deck_id is required"),
        (lambda: NewGame.from_json({"deck_id": "D", "public_input": "x" * 201}), "at most 200"),
        (lambda: NewClaim.from_json({"serial": "7²"}), "whole number printed on the card"),
        (lambda: NewClaim.from_json({"serial": 3, "player": 5}), "a name is text"),
        (lambda: Undo.from_json({"reason": "  "}), "say why the call is undone"),
        (lambda: Undo.from_json({"reason": "typo", "seq": "3"}), "expect_seq must be a whole"),
    ],
)
def test_a_request_of_the_wrong_shape_is_refused_at_the_route_naming_the_field(parse, message):
    with pytest.raises(RequestError) as refused:
        parse()
    assert message in refused.value.message()


def test_a_typed_serial_and_a_sent_number_make_the_same_claim():
    assert NewClaim.from_json({"serial": " 12 "}) == NewClaim.from_json({"serial": 12})


def test_a_started_game_answers_its_prizes_as_its_variants_data(client, hall):
    """What the ledger (issue 27) asks: the prizes of a game, in order, named as the API does."""
    from bingo_hall.manifest import new_strip_deck
    from bingo_hall.station.games import get_game
    from bingo_hall.station.variants import prize_plan
    from bingo_hall.web.db import get_db

    puntos = hall.new_game(mode="points")
    hall.deck = hall.load_deck(new_strip_deck(1, seed="plan", name="Tiras"))
    uk = hall.new_game(mode="lines-house")
    with client.application.app_context():
        plans = [prize_plan(get_game(get_db(), gid)) for gid in (puntos, uk)]
    assert [(p.mode, p.prizes, str(p.order)) for p in plans] == [
        ("points", ("bingo",), "sequence"),
        ("lines-house", ("one-line", "two-lines", "full-house"), "sequence"),
    ]


def test_a_shown_verdict_says_how_the_screens_draw_its_card(app, client, hall, monkeypatch):
    """The `verdict` event names its layout (the variant's): the display draws a 5x5 card or a
    3x9 ticket from it, without testing the number of balls."""
    from bingo_hall.manifest import new_strip_deck
    from bingo_hall.web.instance import hall as hall_state

    hub = hall_state(app).hub
    original = hub.publish
    shown: list[tuple[str, int]] = []

    def spy(channel, event, data, text=None):
        if event == "verdict":
            shown.append((data["layout"], len(data["verdict"]["rows"][0])))
        return original(channel, event, data, text)

    monkeypatch.setattr(hub, "publish", spy)
    cards = hall.new_game()
    assert hall.post(f"/api/games/{cards}/check/1").status_code == 200
    hall.deck = hall.load_deck(new_strip_deck(1, seed="layout", name="Tiras"))
    strips = hall.new_game()
    assert hall.post(f"/api/games/{strips}/claims", {"serial": 2}).status_code == 201
    assert shown == [("card", 5), ("ticket", 9)]


def test_every_variant_reports_the_prizes_won_in_a_round_in_one_shape(app, client, hall):
    """What the ledger (issue 27) pays: the prize, the call it was won on and the winners, the
    same for a 75-ball round (one bingo) and a 90-ball round (its prizes in the order won)."""
    from bingo_hall.manifest import new_strip_deck
    from bingo_hall.station.games import current_round, get_game
    from bingo_hall.station.verify.variants import claims_kind
    from bingo_hall.web.db import get_db

    cards = hall.new_game(draw="manual")
    row = [n for n in hall.deck.card(2).rows[0] if n is not None]
    hall.call(cards, *row)
    assert (
        hall.post(f"/api/games/{cards}/claims", {"serial": 2, "player": "Ana"}).status_code == 201
    )
    assert hall.post(f"/api/games/{cards}/award", {}).status_code == 200
    strips = hall.load_deck(new_strip_deck(1, seed="won", name="Tiras"))
    hall.deck = strips
    tickets = hall.new_game(draw="manual")
    hall.call(tickets, *strips.card(4).rows[2])
    assert hall.post(f"/api/games/{tickets}/claims", {"serial": 4}).status_code == 201
    assert hall.post(f"/api/games/{tickets}/award", {"prize": "linea"}).status_code == 200

    def won(gid):
        with app.app_context():
            conn = get_db()
            game = get_game(conn, gid)
            found = claims_kind(game).prizes_won(conn, current_round(conn, gid).round_id)
        return [(p.prize, p.at_call, [(w.serial, w.player) for w in p.winners]) for p in found]

    assert won(cards) == [("bingo", 5, [(2, "Ana")])]
    assert won(tickets) == [("linea", 5, [(4, None)])]
