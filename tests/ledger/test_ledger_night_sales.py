"""A club's 90-ball night sold at the door once, through the station's API: books of 6 and
singles sold for the whole night (or a run of the program's games) play in every game they
cover and are counted once; each covered game's percentage prize is a share of its part of the
sale; the same cards cannot be sold again for a covered game; a night sale is voided whole,
and not once a covered game has paid a share of its takings; the night's payouts are one list.
Every expected figure is worked out here by hand."""

from __future__ import annotations

import pytest
from testkit import Caller

from bingo_hall.manifest import new_strip_deck
from bingo_hall.signing import card_path

from .test_ledger_api import ok

GAME = """
[[game]]
name = "{name}"
balls = 90
prize_list = "house"
draw = "manual"
prices = [
  {{ label = "Single", amount = "0.50" }},
  {{ label = "Book of 6", amount = "3", book = 6 }},
]
[game.prizes]
full-house = {prize}
"""

PROGRAM = 'name = "Eyes down"\ncurrency = "GBP"\n' + "".join(
    GAME.format(name=name, prize=prize)
    for name, prize in (
        ("Early doors", "{ percent = 50 }"),
        ("Snowball", '"10"'),
        ("Half and half", "{ percent = 50 }"),
        ("Last house", '"5"'),
    )
)


@pytest.fixture(scope="module")
def strips():
    return new_strip_deck(3, seed="club-night", name="Club strips")


@pytest.fixture
def hall(client, strips):
    h = Caller(client, strips)
    r = h.post("/api/program", {"text": PROGRAM, "source": "club.toml"})
    assert r.status_code == 200, r.get_json()
    return h


def next_game(hall) -> int:
    r = hall.post("/api/program/next", {"confirm": True})
    assert r.status_code == 200, r.get_json()
    return r.get_json()["game_id"]


def prices(hall, gid) -> dict[str, int]:
    listed = hall.get(f"/api/games/{gid}/ledger").get_json()["prices"]
    return {p["label"]: p["price_id"] for p in listed}


def night_sale(hall, serials: str, games: str, price, status: int = 201) -> dict:
    r = hall.post("/api/ledger/night-sales", {"serials": serials, "games": games, "price": price})
    assert r.status_code == status, r.get_json()
    return r.get_json()


def house(hall, strips, gid: int, serial: int) -> None:
    """Ticket `serial` completes its full house and is awarded it."""
    numbers = [n for row in strips.cards[serial - 1].grid for n in row if n is not None]
    hall.call(gid, *numbers)
    r = hall.post(f"/api/games/{gid}/claims", {"serial": serial, "prize": "full-house"})
    assert r.status_code == 201 and r.get_json()["valid"] is True, r.get_json()
    assert hall.post(f"/api/games/{gid}/award", {"prize": "full-house"}).status_code == 200


def summary(hall) -> dict:
    return ok(hall.get("/api/ledger/summary"))


def test_a_book_sold_for_the_whole_night_is_counted_once_and_shared_over_its_games(hall, strips):
    g1 = next_game(hall)
    book = prices(hall, g1)["Book of 6"]
    # two books for the whole night (games 1-4) at £3.00 a book: £6.00 once, £1.50 a game
    sold = night_sale(hall, "1-12", "night", book)
    assert sold["games"] == "1-4" and sold["cents"] == 600
    assert [s["cents"] for s in sold["shares"]] == [150, 150, 150, 150]
    # six singles for games 1-2 at 50p: £3.00, £1.50 a game; card 7, in a book sold for the
    # night, is refused and nothing of the sale is saved
    single = prices(hall, g1)["Single"]
    refused = night_sale(hall, "7, 13-18", "1-2", single, 409)
    assert refused["error"].startswith("card 7 is sold for games 1-4 of the program in night sale")
    sold = night_sale(hall, "13-18", "1-2", single)
    assert [s["cents"] for s in sold["shares"]] == [150, 150]
    first = hall.get(f"/api/games/{g1}/ledger").get_json()
    assert first["round_sales"] == {"cards": 18, "cents": 300}  # £1.50 + £1.50
    house(hall, strips, g1, 3)  # 50 % of game 1's £3.00
    g2 = next_game(hall)
    # game 2 started after the sale: its cards play in it, its share counts in its round 1
    second = hall.get(f"/api/games/{g2}/ledger").get_json()
    assert second["round_sales"] == {"cards": 18, "cents": 300}
    night = summary(hall)
    assert night["taken"] == 600 + 300  # each sale once: £6.00 and £3.00
    assert [g["taken"] for g in night["games"]] == [300, 300]
    # 18 tickets play in each game; the night sold 18, once
    assert [g["cards"] for g in night["games"]] == [18, 18] and night["cards"] == 18
    # games 3 and 4 are not played yet: their £3.00 is the night's, in no game's
    assert night["unplayed"] == 300
    assert sum(g["taken"] for g in night["games"]) + night["unplayed"] == night["taken"]
    (paid,) = ok(hall.get("/api/ledger/payouts"))["payouts"]
    assert (paid["number"], paid["serial"], paid["cents"]) == (1, 3, 150)


def test_the_odd_pence_of_a_night_sale_go_to_its_first_games(hall):
    g1 = next_game(hall)
    single = prices(hall, g1)["Single"]
    # seven singles at 50p for the four games: £3.50 is 88p, 88p, 87p, 87p
    sold = night_sale(hall, "1-7", "1-4", single)
    assert [s["cents"] for s in sold["shares"]] == [88, 88, 87, 87]
    assert hall.get(f"/api/games/{g1}/ledger").get_json()["round_sales"]["cents"] == 88


def test_a_card_of_a_night_sale_is_refused_for_a_covered_game_naming_the_night_sale(hall):
    g1 = next_game(hall)
    book = prices(hall, g1)["Book of 6"]
    night_sale(hall, "7-12", "1-3", book)
    r = hall.post(f"/api/games/{g1}/ledger/sales", {"serials": "9", "price": book})
    assert r.status_code == 409
    assert r.get_json()["error"].startswith(
        "card 9 is sold for games 1-3 of the program in night sale 1 (cards 7-12, at "
    )
    # a game not started yet is known by its number: game 3 is covered, game 4 is not
    r = hall.post("/api/ledger/night-sales", {"serials": "7-12", "games": "3", "price": 2})
    assert r.status_code == 409 and "night sale 1" in r.get_json()["error"]
    assert night_sale(hall, "7-12", "4", 2)["games"] == "4"  # "Book of 6": the 2nd on its list
    g2 = next_game(hall)
    r = hall.post(
        f"/api/games/{g2}/ledger/sales", {"serials": "12", "price": prices(hall, g2)["Single"]}
    )
    assert r.status_code == 409 and "night sale 1" in r.get_json()["error"]


def test_a_claim_on_a_card_of_a_night_sale_is_a_claim_on_a_sold_card(hall, strips):
    g1 = next_game(hall)
    night_sale(hall, "1-6", "night", prices(hall, g1)["Book of 6"])
    next_game(hall)
    g2 = hall.get("/api/program").get_json()["games"][1]["game_id"]
    numbers = [n for row in strips.cards[1].grid for n in row if n is not None]
    hall.call(g2, *numbers)
    r = hall.post(f"/api/games/{g2}/claims", {"serial": 2, "prize": "full-house"})
    assert r.status_code == 201 and "unsold" not in r.get_json()
    r = hall.post(f"/api/games/{g2}/claims", {"serial": 8, "prize": "full-house"})
    assert r.get_json()["unsold"] == {"serial": 8, "round": 1}


def test_a_night_sale_spans_only_the_game_in_play_and_the_games_to_come(hall):
    r = hall.post("/api/ledger/night-sales", {"serials": "1-6", "games": "1-5", "price": 2})
    assert r.status_code == 400
    assert r.get_json()["error"] == "the program has 4 games: a night sale covers games 1 to 4"
    next_game(hall)
    next_game(hall)
    r = hall.post("/api/ledger/night-sales", {"serials": "1-6", "games": "1-4", "price": 2})
    assert r.status_code == 409
    assert r.get_json()["error"] == (
        "game 1 of the program is already played: a night sale covers the game in play and "
        "the games still to come (from game 2)"
    )
    r = hall.post("/api/ledger/night-sales", {"serials": "1-6", "games": "soon", "price": 2})
    assert r.status_code == 400 and "night" in r.get_json()["error"]
    assert hall.get("/api/ledger/night-sales").get_json()["night_sales"] == []


def test_a_night_sale_before_the_first_game_names_its_price_by_the_programs_list(hall):
    sold = night_sale(hall, "1-6", "night", "Book of 6")
    assert (sold["games"], sold["cents"]) == ("1-4", 300)
    r = hall.post("/api/ledger/night-sales", {"serials": "7-12", "games": "night", "price": 9})
    assert r.status_code == 400
    assert r.get_json()["error"] == (
        "choose the price of this sale on game 1's list: 1 (Single), 2 (Book of 6)"
    )
    g1 = next_game(hall)
    assert hall.get(f"/api/games/{g1}/ledger").get_json()["round_sales"]["cents"] == 75


def test_a_scanned_card_sold_for_the_night_sells_its_whole_book(hall, strips):
    g1 = next_game(hall)
    code = "http://hall.local" + card_path(strips.secret, strips.deck_id, 8)
    r = hall.post(
        "/api/ledger/night-sales",
        {"scan": code, "games": "night", "price": prices(hall, g1)["Book of 6"]},
    )
    assert r.status_code == 201, r.get_json()
    assert (r.get_json()["serials"], r.get_json()["method"]) == ("7-12", "scan")


def test_a_night_sale_is_voided_whole_with_its_reason(hall):
    g1 = next_game(hall)
    sold = night_sale(hall, "1-6", "night", prices(hall, g1)["Book of 6"])
    sid = sold["night_sale_id"]
    r = hall.post(f"/api/ledger/night-sales/{sid}/void", {"reason": ""})
    assert r.status_code == 400
    r = hall.post(f"/api/ledger/night-sales/{sid}/void", {"reason": "wrong books"})
    assert r.status_code == 200 and r.get_json()["void"] == "wrong books"
    assert hall.get(f"/api/games/{g1}/ledger").get_json()["round_sales"]["cents"] == 0
    assert summary(hall)["taken"] == 0 and summary(hall)["unplayed"] == 0
    # the cards can be sold again, for the night or for a game
    assert night_sale(hall, "1-6", "night", prices(hall, g1)["Book of 6"])["cents"] == 300
    actions = [e["action"] for e in ok(hall.get("/api/ledger/log"))["log"]]
    assert actions.count("night_sale") == 2 and actions.count("night_void") == 1


def test_a_night_sale_cannot_be_voided_once_a_covered_game_paid_a_share_of_its_takings(
    hall, strips
):
    g1 = next_game(hall)
    sid = night_sale(hall, "1-6", "night", prices(hall, g1)["Book of 6"])["night_sale_id"]
    house(hall, strips, g1, 2)  # game 1 pays 50 % of its takings: the sale's 75p is in them
    r = hall.post(f"/api/ledger/night-sales/{sid}/void", {"reason": "too late"})
    assert r.status_code == 409
    assert r.get_json()["error"] == (
        f"night sale {sid} cannot be voided: game 1 of the program already paid a prize in "
        "round 1 as a share of the money it took, this sale's share included"
    )
    assert summary(hall)["taken"] == 300


def test_a_covered_game_paying_a_share_later_still_keeps_the_sale(hall, strips):
    """Game 2 pays a fixed prize: the sale can still be voided after it; once game 3 (50 %)
    pays, it cannot."""
    g1 = next_game(hall)
    sid = night_sale(hall, "1-6", "2-4", prices(hall, g1)["Book of 6"])["night_sale_id"]
    g2 = next_game(hall)
    house(hall, strips, g2, 1)  # a fixed £10.00
    g3 = next_game(hall)
    house(hall, strips, g3, 4)  # 50 % of game 3's £1.00 share
    assert ok(hall.get(f"/api/games/{g3}/ledger"))["payouts"][0]["cents"] == 50
    r = hall.post(f"/api/ledger/night-sales/{sid}/void", {"reason": "late"})
    assert r.status_code == 409 and "game 3 of the program" in r.get_json()["error"]


def test_the_payouts_of_the_night_are_one_list_marked_paid_from_it(hall, strips):
    g1 = next_game(hall)
    night_sale(hall, "1-18", "night", prices(hall, g1)["Book of 6"])
    house(hall, strips, g1, 5)
    g2 = next_game(hall)
    house(hall, strips, g2, 6)
    listed = ok(hall.get("/api/ledger/payouts"))["payouts"]
    assert [(p["number"], p["name"], p["serial"], p["cents"], p["paid"]) for p in listed] == [
        (1, "Early doors", 5, 112, None),  # 50 % of £2.25 (a quarter of £9.00), rounded down
        (2, "Snowball", 6, 1000, None),
    ]
    assert hall.post(f"/api/ledger/payouts/{listed[1]['payout_id']}/paid").status_code == 200
    listed = ok(hall.get("/api/ledger/payouts"))["payouts"]
    assert [p["paid"] is not None for p in listed] == [False, True]


def test_once_the_game_in_plays_house_is_won_the_night_starts_at_the_next_game(hall, strips):
    """A late arrival between games buys a book for the night: its money goes to the games
    still to be played, none to the game just won."""
    g1 = next_game(hall)
    house(hall, strips, g1, 1)
    sold = night_sale(hall, "7-12", "night", "Book of 6")
    assert (sold["games"], [s["cents"] for s in sold["shares"]]) == ("2-4", [100, 100, 100])
    r = hall.post("/api/ledger/night-sales", {"serials": "13-18", "games": "1-4", "price": 2})
    assert r.status_code == 409
    assert r.get_json()["error"] == (
        "game 1 of the program is already played: a night sale covers the game in play and "
        "the games still to come (from game 2)"
    )
    assert hall.get(f"/api/games/{g1}/ledger").get_json()["round_sales"]["cents"] == 0


def test_a_voided_night_sale_is_in_the_corrections_log_with_its_reason(hall):
    g1 = next_game(hall)
    sid = night_sale(hall, "1-6", "night", prices(hall, g1)["Book of 6"])["night_sale_id"]
    assert (
        hall.post(f"/api/ledger/night-sales/{sid}/void", {"reason": "a refund"}).status_code == 200
    )
    page = hall.get("/caller/ledger?lang=en").get_data(as_text=True)
    assert f"Night sale {sid} (1-6, £3.00) voided: a refund" in page
    assert summary(hall)["taken"] == 0


def test_the_ledger_page_of_a_night_with_night_sales_is_all_spanish(hall, strips):
    from test_spanish import english_shown, page_text

    g1 = next_game(hall)
    night_sale(hall, "1-6", "night", prices(hall, g1)["Book of 6"])
    sid = night_sale(hall, "7-12", "1-2", prices(hall, g1)["Book of 6"])["night_sale_id"]
    assert hall.post(f"/api/ledger/night-sales/{sid}/void", {"reason": "otra"}).status_code == 200
    house(hall, strips, g1, 2)
    text = page_text(hall.get(f"/caller/ledger?game={g1}&lang=es").get_data(as_text=True))
    assert "Ventas de la noche" in text and "Pagos de la noche" in text
    # the host's own words (its price names, its game's name) stay as the host wrote them
    for own in ("Single", "Book of 6", "Early doors"):
        text = text.replace(own, "")
    assert english_shown({"ledger": text}) == {}
