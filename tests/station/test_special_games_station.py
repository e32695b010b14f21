"""The special games through the station's API (docs/patterns.md, "Special games"): the door
refuses cards once the money ball is known, a bingo on the money ball pays as the program says
and the ledger and the book record it, a wild-number and an odd-even game are judged with their
rules, and a game that needs its pattern on two cards of one book judges the book."""

from __future__ import annotations

import json
import sqlite3

import pytest
from testkit import Caller, page_login

from bingo_hall.draw import committed_order
from bingo_hall.manifest import new_deck
from bingo_hall.seventyfive.cards import LINE_CELLS
from bingo_hall.web import book_store as book
from bingo_hall.web.db import get_db, transaction


@pytest.fixture(scope="module")
def deck():
    return new_deck(60, seed="special games", name="Especial")


@pytest.fixture
def hall(client, deck):
    return Caller(client, deck)


def ok(resp, status: int = 200):
    assert resp.status_code == status, resp.get_json()
    return resp.get_json()


def column_b(deck, serial: int) -> list[int]:
    card = deck.card(serial)
    return [card.columns[0][r] for r in range(5)]


def book_entries(app, kind: str) -> list[dict]:
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        rows = conn.execute("SELECT data FROM book WHERE kind = ? ORDER BY seq", (kind,))
        return [json.loads(r[0]) for r in rows]


def set_prices(hall, gid, listed: list[dict]) -> dict[str, int]:
    """The game's price list set to `listed`: each price's number by its name."""
    got = ok(hall.post(f"/api/games/{gid}/ledger/prices", {"prices": listed}))["prices"]
    return {p["label"]: p["price_id"] for p in got}


def money_game(hall, pays: str) -> int:
    gid = hall.new_game(draw="manual", options={"money_ball_pays": pays})
    bingo = {"bingo": {"kind": "fixed", "amount": "20"}}
    ok(hall.post(f"/api/games/{gid}/ledger/prizes", {"prizes": bingo}))
    return gid


def test_the_door_sells_no_card_once_the_money_ball_is_known_and_says_why(hall):
    gid = money_game(hall, "double")
    single = set_prices(hall, gid, [{"label": "Single", "amount": "1"}])["Single"]
    ok(hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "1-3", "price": single}), 201)
    ok(hall.post(f"/api/games/{gid}/money-ball", {"ball": 61}))
    refused = hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "4", "price": single})
    assert refused.status_code == 409
    assert "money ball" in refused.get_json()["error"] and "61" in refused.get_json()["error"]
    es = hall.client.post(
        f"/api/games/{gid}/ledger/sales?lang=es",
        json={"serials": "4", "price": single},
        headers={**hall.auth, "Accept-Language": "es"},
    )
    assert es.status_code == 409 and "bola premiada" in es.get_json()["error"]
    sold = ok(hall.get(f"/api/games/{gid}/ledger"))["sales"]
    assert [s["serials"] for s in sold] == ["1-3"]  # nothing half-saved


def test_the_money_ball_is_chosen_once_and_before_the_first_ball(hall, deck):
    gid = money_game(hall, "double")
    assert hall.post(f"/api/games/{gid}/money-ball", {"ball": 76}).status_code == 400
    ok(hall.post(f"/api/games/{gid}/money-ball", {"ball": 5}))
    again = hall.post(f"/api/games/{gid}/money-ball", {"ball": 6})
    assert again.status_code == 409 and "already 5" in again.get_json()["error"]
    late = money_game(hall, "double")
    hall.call(late, 1)
    assert hall.post(f"/api/games/{late}/money-ball", {"draw": True}).status_code == 409
    plain = hall.new_game(draw="manual")
    assert hall.post(f"/api/games/{plain}/money-ball", {"ball": 5}).status_code == 409


def test_a_drawn_money_ball_is_the_first_of_the_rounds_seed_shuffled_under_its_label(hall, app):
    gid = money_game(hall, "bonus:500")
    drawn = ok(hall.post(f"/api/games/{gid}/money-ball", {"draw": True}))
    assert drawn["drawn"] is True
    ended = ok(hall.post(f"/api/games/{gid}/end"))
    seed = bytes.fromhex(ended["seed"])
    assert drawn["money_ball"] == committed_order(seed, range(1, 76), b"money ball")[0]
    (entry,) = book_entries(app, "money_ball")
    assert entry["money_ball"] == drawn["money_ball"] and entry["drawn"] is True


@pytest.mark.parametrize(
    ("pays", "cents", "bonus"), [("double", 4000, 2000), ("bonus:500", 2500, 500)]
)
def test_a_bingo_on_the_money_ball_pays_as_the_program_says_and_the_book_records_it(
    hall, deck, app, pays, cents, bonus
):
    gid = money_game(hall, pays)
    line = column_b(deck, 7)
    ok(hall.post(f"/api/games/{gid}/money-ball", {"ball": line[-1]}))
    hall.call(gid, *line)
    made = ok(hall.post(f"/api/games/{gid}/claims", {"serial": 7}), 201)
    assert made["verdict"]["money_ball"] is True
    ok(hall.post(f"/api/games/{gid}/award"))
    (payout,) = ok(hall.get(f"/api/games/{gid}/ledger"))["payouts"]
    assert (payout["cents"], payout["money_ball"], payout["money_ball_bonus"]) == (
        cents,
        line[-1],
        bonus,
    )
    (paid,) = book_entries(app, "payout")
    assert (paid["cents"], paid["money_ball"], paid["money_ball_bonus"]) == (cents, line[-1], bonus)
    page = hall.client.get("/caller/ledger?lang=es", headers=hall.auth).get_data(as_text=True)
    assert f"bola premiada {line[-1]}: " in page


def test_a_bingo_not_on_the_money_ball_pays_the_prize_alone(hall, deck):
    gid = money_game(hall, "double")
    line = column_b(deck, 8)
    ok(hall.post(f"/api/games/{gid}/money-ball", {"ball": line[0]}))
    hall.call(gid, *line)  # the money ball came first: the bingo is on the last
    ok(hall.post(f"/api/games/{gid}/claims", {"serial": 8}), 201)
    ok(hall.post(f"/api/games/{gid}/award"))
    (payout,) = ok(hall.get(f"/api/games/{gid}/ledger"))["payouts"]
    assert (payout["cents"], payout["money_ball"], payout["money_ball_bonus"]) == (2000, None, 0)


def test_a_wild_number_game_wins_a_line_with_the_numbers_of_the_first_balls_digit(hall, deck):
    card = deck.card(9)
    row = [card.columns[c][0] for c in range(5)]
    # a first ball off the card whose last digit is one of the row's: that number counts
    digit_of = {n % 10 for n in row[1:]}
    first = next(b for b in range(1, 76) if b % 10 in digit_of and b not in card.numbers)
    wild = {n for n in row if n % 10 == first % 10}
    rest = [n for n in row if n not in wild]
    gid = hall.new_game(draw="manual", options={"wild_number": True})
    hall.call(gid, first, *rest)
    made = ok(hall.post(f"/api/games/{gid}/claims", {"serial": 9}), 201)
    assert made["valid"] and "R1" in made["verdict"]["winning"]
    assert wild <= set(made["verdict"]["marked"])
    plain = hall.new_game(draw="manual")
    hall.call(plain, first, *rest)
    assert not ok(hall.post(f"/api/games/{plain}/claims", {"serial": 9}), 201)["valid"]
    snap = ok(hall.get(f"/api/games/{gid}"))
    (line,) = snap["specials"]["lines"]
    assert line["text"]["en"].startswith(f"Wild number: {first % 10} ")


def test_an_odd_game_wins_when_every_odd_number_of_the_card_is_called(hall, deck):
    card = deck.card(10)
    odd = sorted(n for n in card.numbers if n % 2)
    gid = hall.new_game(draw="manual", options={"odd_even": "odd"})
    hall.call(gid, *odd[:-1])
    assert not ok(hall.get(f"/api/games/{gid}/check/10"))["bingo"]  # the check costs nothing
    hall.call(gid, odd[-1])
    made = ok(hall.post(f"/api/games/{gid}/claims", {"serial": 10}), 201)
    assert made["valid"] and made["verdict"]["winning"] == ["odd_numbers"]
    assert sorted(made["verdict"]["lines"][0]["numbers"]) == odd


def test_a_game_of_two_cards_of_one_book_judges_the_book_the_claim_names(hall, deck):
    gid = hall.new_game(draw="manual", options={"pattern": "four_corners", "cards_needed": 2})
    books = [{"label": "Book of 6", "amount": "5", "book": 6}]
    book_price = set_prices(hall, gid, books)["Book of 6"]
    ok(hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "7-12", "price": book_price}), 201)

    def corners(serial: int) -> list[int]:
        c = deck.card(serial).columns
        return [c[0][0], c[4][0], c[0][4], c[4][4]]

    hall.call(gid, *corners(8))
    # a claim too early costs the named card's markers (card 11's), not the book's others
    one = ok(hall.post(f"/api/games/{gid}/claims", {"serial": 11}), 201)
    assert not one["valid"] and one["verdict"]["book"]["complete"] == [8]
    hall.call(gid, *[n for n in corners(12) if n not in corners(8)])
    two = ok(hall.post(f"/api/games/{gid}/claims", {"serial": 11}), 201)
    assert two["valid"]
    assert two["verdict"]["book"] == {"serials": [7, 12], "complete": [8, 12], "needed": 2}
    ok(hall.post(f"/api/games/{gid}/award"))


def test_a_card_not_sold_in_a_book_cannot_claim_a_game_of_cards_of_one_book(hall):
    gid = hall.new_game(draw="manual", options={"pattern": "four_corners", "cards_needed": 2})
    refused = hall.post(f"/api/games/{gid}/claims", {"serial": 3})
    assert refused.status_code == 409 and "book" in refused.get_json()["error"]


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"odd_even": "prime"}, "odd_even"),
        ({"wild_number": "yes"}, "wild_number"),
        ({"cards_needed": 13}, "cards_needed"),
        ({"money_ball": 17}, "money_ball_pays"),
        ({"money_ball_pays": "triple"}, "money_ball_pays"),
        ({"odd_even": "odd", "pattern": "x"}, "odd_even"),
    ],
)
def test_a_special_game_with_a_bad_setting_is_refused_in_words(hall, options, words):
    r = hall.post("/api/games", {"deck_id": hall.deck.deck_id, "draw": "manual",
                                 "options": options})  # fmt: skip
    assert r.status_code == 400 and words in r.get_json()["error"]


def test_the_special_games_are_the_games_own_and_not_changed_by_the_settings(hall):
    gid = hall.new_game(draw="manual")
    r = hall.post(f"/api/games/{gid}/settings", {"wild_number": True})
    assert r.status_code == 400 and "new game" in r.get_json()["error"]


def test_the_new_game_form_starts_a_special_game_and_its_pages_show_one_line_each(hall, client):
    token = page_login(client)
    form = {
        "csrf_token": token,
        "deck_id": hall.deck.deck_id,
        "mode": "normal",
        "draw": "manual",
        "wild_number": "on",
        "money_ball_pays": "bonus",
        "money_ball_bonus": "5,00",
    }
    r = client.post("/caller/new", data=form)
    assert r.status_code == 302, r.get_data(as_text=True)[:300]
    gid = int(r.headers["Location"].rstrip("/").rsplit("/", 1)[-1])
    game = ok(hall.get(f"/api/games/{gid}"))
    assert game["options"] == {"wild_number": True, "money_ball_pays": "bonus:500"}
    es = client.get(f"/caller/games/{gid}?lang=es").get_data(as_text=True)
    assert "Número comodín: la última cifra de la primera bola" in es
    assert (
        "Bola premiada: se elige antes de la primera bola — un bingo con esa bola paga 5,00 más"
        in es
    )
    assert 'id="money-ball"' in es  # the money ball's own form, before the first ball
    hall.call(gid, 43)
    display = client.get(f"/display/{gid}?lang=en").get_data(as_text=True)
    assert "Wild number: 3 — every number ending in 3 counts as called" in display
    ok(hall.post(f"/api/games/{gid}/money-ball", {"ball": 70}, auth=True), 409)  # after a ball
    record = ok(hall.get(f"/api/games/{gid}/record", auth=False))
    assert record["specials"] == {"wild_number": True, "money_ball_pays": "bonus:500"}
    bad = client.post("/caller/new", data={**form, "money_ball_bonus": "cinco"})
    assert bad.status_code == 400 and "bonus" in bad.get_data(as_text=True)


def verify_book(app, kit_cli, tmp_path, deck) -> tuple[int, str]:
    book = tmp_path / "night.book.jsonl"
    assert kit_cli(["book", "export", "--db", app.config["DATABASE"], "-o", str(book)])[0] == 0
    path = tmp_path / "deck.json"
    path.write_text(deck.to_json(), encoding="utf-8")
    code, out, err = kit_cli(["book", "verify", str(book), "--deck", str(path)])
    return code, out + err


def test_the_books_replay_judges_special_games_as_the_station_did(app, hall, deck, kit_cli,
                                                                   tmp_path):  # fmt: skip
    # a wild-number game won on a row that lacks its wild numbers
    card = deck.card(9)
    row = [card.columns[c][0] for c in range(5)]
    first = next(b for b in range(1, 76) if b % 10 in {n % 10 for n in row[1:]}
                 and b not in card.numbers)  # fmt: skip
    wild = hall.new_game(draw="manual", options={"wild_number": True})
    hall.call(wild, first, *[n for n in row if n % 10 != first % 10])
    ok(hall.post(f"/api/games/{wild}/claims", {"serial": 9}), 201)
    ok(hall.post(f"/api/games/{wild}/award"))
    # a money ball drawn from the seed, and a bingo on it paid double
    gid = money_game(hall, "double")
    ball = ok(hall.post(f"/api/games/{gid}/money-ball", {"draw": True}))["money_ball"]
    serial, cells = next(
        (s, cells)
        for s in range(1, 61)
        for cells in LINE_CELLS.values()
        if ball in [deck.card(s).columns[c][r] for r, c in cells]
    )
    numbers = [n for r, c in cells if (n := deck.card(serial).columns[c][r]) is not None]
    line = [n for n in numbers if n != ball] + [ball]
    hall.call(gid, *line)
    ok(hall.post(f"/api/games/{gid}/claims", {"serial": serial}), 201)
    ok(hall.post(f"/api/games/{gid}/award"))
    # two cards of one book
    books = hall.new_game(draw="manual", options={"pattern": "four_corners", "cards_needed": 2})
    price = set_prices(hall, books, [{"label": "Book", "amount": "5", "book": 6}])["Book"]
    ok(hall.post(f"/api/games/{books}/ledger/sales", {"serials": "1-6", "price": price}), 201)
    corners = {
        n
        for s in (2, 5)
        for n in (
            deck.card(s).columns[0][0],
            deck.card(s).columns[4][0],
            deck.card(s).columns[0][4],
            deck.card(s).columns[4][4],
        )
    }
    hall.call(books, *sorted(corners))
    assert ok(hall.post(f"/api/games/{books}/claims", {"serial": 3}), 201)["valid"]
    ok(hall.post(f"/api/games/{books}/award"))
    ok(hall.post(f"/api/games/{books}/end"))
    code, said = verify_book(app, kit_cli, tmp_path, deck)
    assert code == 0, said


SPECIAL_NIGHT = """\
name = "Special night"
currency = "GBP"

[[game]]
name = "Wild"
price = "1.00"
prizes = { bingo = "20" }
wild_number = true
money_ball_bonus = "5"

[[game]]
name = "Evens"
price = "1.00"
prizes = { bingo = "20" }
odd_even = "even"
"""


def test_the_programs_next_game_starts_with_its_special_rules(hall):
    loaded = hall.post("/api/program", {"text": SPECIAL_NIGHT, "source": "special.toml"})
    assert loaded.status_code == 200, loaded.get_json()
    gid = ok(hall.post("/api/program/next"))["game_id"]
    game = ok(hall.get(f"/api/games/{gid}"))
    assert game["options"] == {"wild_number": True, "money_ball_pays": "bonus:500"}
    assert [line["key"] for line in game["specials"]["lines"]] == ["wild_number", "money_ball"]
    gid = ok(hall.post("/api/program/next"))["game_id"]
    assert ok(hall.get(f"/api/games/{gid}"))["options"] == {"odd_even": "even"}


def test_the_books_replay_finds_a_card_sold_after_the_money_ball_was_known(
    app, hall, deck, kit_cli, tmp_path
):
    gid = money_game(hall, "double")
    single = set_prices(hall, gid, [{"label": "Single", "amount": "1"}])["Single"]
    ok(hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "1", "price": single}), 201)
    ok(hall.post(f"/api/games/{gid}/money-ball", {"ball": 9}))
    # a station that let one through (the door refuses it): the sale as the ledger writes one
    sale = {"sale_id": 99, "round": None, "serials": "2", "cents": 100, "method": "range"}
    sold = {"price_id": single, "cards": 1, "price": 100, "book": 1, "made_in": 1}
    with app.app_context():
        conn = get_db()
        with transaction(conn):
            book.append(conn, "ledger.sale", {"game_id": gid, **sale, **sold})
    code, said = verify_book(app, kit_cli, tmp_path, deck)
    assert code != 0 and "a card sold after the game's money ball (9) was known" in said
