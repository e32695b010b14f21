"""The raffle through the station's API (issue 37 item 4): tickets sold by colour and range and
counted in the ledger, the prizes listed, sales closed before the commitment, each prize drawn
to the next ticket of the committed order (so no ticket wins twice), a prize nobody claims
redrawn with its reason, the seed revealed at the end and the order recomputed here from it
(raffle_audit), the Maestro's PIN and CSRF token on every change, and bad input refused."""

from __future__ import annotations

import pytest
from raffle_audit import commitment, raffle_order
from testkit import page_login


def ok(resp, status: int = 200):
    assert resp.status_code == status, resp.get_json()
    return resp.get_json()


def refused(resp, status: int, words: str) -> None:
    assert resp.status_code == status, resp.get_json()
    assert words in resp.get_json()["error"], resp.get_json()


@pytest.fixture
def sold(caller):
    """A raffle at 2.50 a ticket: red 1-20 and blue 101-105 sold, three prizes listed."""
    ok(caller.post("/api/raffle", {"price": "2.50"}), 201)
    ok(caller.post("/api/raffle/sales", {"colour": "Red", "numbers": "1-20"}), 201)
    ok(caller.post("/api/raffle/sales", {"colour": "blue", "numbers": "101-105"}), 201)
    for name in ("Hamper", "Bottle of wine", "Cinema tickets"):
        ok(caller.post("/api/raffle/prizes", {"name": name}), 201)
    return caller


def test_the_takings_are_the_tickets_sold_times_the_price(sold):
    state = ok(sold.get("/api/raffle"))
    assert state["tickets"] == 20 + 5 and state["taken"] == 25 * 250
    assert [(s["colour"], s["numbers"], s["count"]) for s in state["sales"]] == [
        ("red", "1-20", 20),
        ("blue", "101-105", 5),
    ]
    assert [p["name"] for p in state["prizes"]] == ["Hamper", "Bottle of wine", "Cinema tickets"]


def test_a_ticket_is_sold_once_per_colour(sold):
    refused(sold.post("/api/raffle/sales", {"colour": "red", "numbers": "15-30"}), 400, "red 15")
    ok(sold.post("/api/raffle/sales", {"colour": "green", "numbers": "15-30"}), 201)


def test_the_draws_follow_the_committed_order_and_a_redraw_takes_the_next_ticket(sold):
    drawn = sold.post("/api/raffle/draw")
    refused(drawn, 409, "close the sales first")
    committed = ok(sold.post("/api/raffle/commit", {"public_input": "Fiesta de la parroquia"}))
    assert committed["stage"] == "committed" and committed["seed"] is None
    refused(sold.post("/api/raffle/sales", {"colour": "red", "numbers": "50"}), 409, "closed")
    refused(sold.post("/api/raffle/prizes", {"name": "Late prize"}), 409, "closed")
    ok(sold.post("/api/raffle/draw"))
    ok(sold.post("/api/raffle/unclaimed", {"reason": "nobody came forward"}))  # prize 1 again
    ok(sold.post("/api/raffle/draw"))
    ok(sold.post("/api/raffle/draw"))
    refused(sold.post("/api/raffle/draw"), 409, "every prize has its winner")
    end = ok(sold.post("/api/raffle/reveal"))
    assert commitment(end["seed"]) == committed["commitment"]
    tickets = [("red", n) for n in range(1, 21)] + [("blue", n) for n in range(101, 106)]
    order = raffle_order(end["seed"], tickets, "Fiesta de la parroquia")
    drawn = [(d["colour"], d["number"]) for d in end["draws"]]
    assert drawn == order[:4]  # one ticket each, in the order: none can win twice
    assert [d["prize"] for d in end["draws"]] == [1, 1, 2, 3]
    assert end["draws"][0]["unclaimed"] == "nobody came forward"
    winners = [(p["winner"]["colour"], p["winner"]["number"]) for p in end["prizes"]]
    assert winners == order[1:4]
    assert end["prizes"][0]["unclaimed"] == [
        {"colour": order[0][0], "number": order[0][1], "reason": "nobody came forward"}
    ]
    refused(sold.post("/api/raffle/draw"), 409, "over")


def test_every_change_needs_the_maestro(sold):
    refused(sold.post("/api/raffle/draw", auth=False), 401, "PIN")
    refused(
        sold.post("/api/raffle/sales", {"colour": "red", "numbers": "90"}, auth=False), 401, "PIN"
    )
    assert sold.get("/api/raffle", auth=False).status_code == 200  # the room may look


def test_a_logged_in_page_needs_the_csrf_token(client, caller):
    csrf = page_login(client)
    refused(client.post("/api/raffle", json={"price": "1"}), 403, "CSRF")
    ok(client.post("/api/raffle", json={"price": "1"}, headers={"X-CSRF-Token": csrf}), 201)


@pytest.mark.parametrize(
    ("payload", "words"),
    [
        ({"colour": "", "numbers": "1-5"}, "colour"),
        ({"colour": "red", "numbers": "5-1"}, "ticket numbers"),
        ({"colour": "red", "numbers": "abc"}, "ticket numbers"),
        ({"colour": "red", "numbers": "0-3"}, "ticket numbers"),
        ({"colour": 7, "numbers": "1"}, "colour"),
    ],
)
def test_a_bad_sale_is_refused_in_words(sold, payload, words):
    refused(sold.post("/api/raffle/sales", payload), 400, words)


def test_bad_prices_reasons_and_an_empty_raffle_are_refused(caller):
    refused(caller.post("/api/raffle/draw"), 404, "no raffle")
    refused(caller.post("/api/raffle", {"price": "-1"}), 400, "negative")
    refused(caller.post("/api/raffle", {"price": "lots"}), 400, "amount")
    ok(caller.post("/api/raffle", {"price": "1"}), 201)
    refused(caller.post("/api/raffle", {"price": "1"}), 409, "still open")
    refused(caller.post("/api/raffle/commit", {}), 409, "no ticket")
    ok(caller.post("/api/raffle/sales", {"colour": "red", "numbers": "1"}), 201)
    refused(caller.post("/api/raffle/commit", {}), 409, "prizes")
    refused(caller.post("/api/raffle/prizes", {"name": " "}), 400, "name the prize")
    ok(caller.post("/api/raffle/prizes", {"name": "A cake"}), 201)
    ok(caller.post("/api/raffle/prizes", {"name": "A kettle"}), 201)
    ok(caller.post("/api/raffle/commit", {}))
    refused(caller.post("/api/raffle/unclaimed", {"reason": "gone"}), 409, "draw a prize first")
    ok(caller.post("/api/raffle/draw"))
    refused(caller.post("/api/raffle/unclaimed", {}), 400, "say why")
    # one ticket sold and two prizes: the redraw finds no ticket left
    refused(caller.post("/api/raffle/unclaimed", {"reason": "gone"}), 409, "every ticket sold")
