"""At the door and at the treasurer's table (issue 39), through the station's API: a price list
per game (singles and books side by side, a scan inside a sold book named in words, an old
game's one price kept as its list), paper stock issued to sellers, returned and void, reconciled
on the summary with every gap named by its serials, and the night's cash box (float, count by
denomination, cash payouts, over/short). Bad input is refused in words with nothing half-saved.
Every expected figure is worked out here by hand."""

from __future__ import annotations

import csv
import io
import sqlite3
from datetime import datetime

import pytest
from testkit import Caller

from bingo_hall.manifest import new_deck
from bingo_hall.signing import card_path

from .test_ledger_api import ledger, log_rows, ok, win_75_ball_round


@pytest.fixture(scope="module")
def deck():
    return new_deck(60, seed="ledger-door", name="Door")


@pytest.fixture
def hall(client, deck):
    return Caller(client, deck)


PRICES = [
    {"label": "Single", "amount": "1"},
    {"label": "Book of 6", "amount": "5", "book": 6},
    {"label": "Second book", "amount": "4,00", "book": 6},
]


def price_list(hall, gid) -> dict[str, int]:
    """The game's price list set to PRICES: each price's number by its name."""
    listed = ok(hall.post(f"/api/games/{gid}/ledger/prices", {"prices": PRICES}))["prices"]
    return {p["label"]: p["price_id"] for p in listed}


def sell(hall, gid, serials: str, price: int, status: int = 201):
    return hall.post(f"/api/games/{gid}/ledger/sales", {"serials": serials, "price": price})


def hall_clock(stored: str) -> str:
    """A stored UTC time as the hall's clock reads it (the station's machine time zone)."""
    return datetime.fromisoformat(stored.replace("Z", "+00:00")).astimezone().strftime("%H:%M")


def summary_rows(hall) -> list[dict[str, str]]:
    text = hall.get("/caller/ledger/summary.csv").get_data(as_text=True)
    return list(csv.DictReader(io.StringIO(text)))


# ---- the price list -------------------------------------------------------------------------


def test_singles_and_books_sell_side_by_side_each_at_the_price_it_names(hall):
    gid = hall.new_game(draw="manual")
    price = price_list(hall, gid)
    assert ok(sell(hall, gid, "1-3", price["Single"]), 201)["cents"] == 3 * 100
    assert ok(sell(hall, gid, "43-48", price["Book of 6"]), 201)["cents"] == 500
    assert ok(sell(hall, gid, "49-54", price["Second book"]), 201)["cents"] == 400
    state = ledger(hall, gid)
    assert state["round_sales"] == {"cards": 3 + 6 + 6, "cents": 300 + 500 + 400}
    assert [s["price_id"] for s in state["sales"]] == [
        price["Single"],
        price["Book of 6"],
        price["Second book"],
    ]
    assert [(p["label"], p["cents"], p["book"]) for p in state["prices"]] == [
        ("Single", 100, 1),
        ("Book of 6", 500, 6),
        ("Second book", 400, 6),
    ]


def test_a_sale_must_name_its_price_when_the_list_has_several(app, hall):
    gid = hall.new_game(draw="manual")
    price = price_list(hall, gid)
    before = log_rows(app)
    r = hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "4"})
    assert r.status_code == 400
    assert r.get_json()["error"] == "choose the price of this sale: Single, Book of 6, Second book"
    r = sell(hall, gid, "4", max(price.values()) + 1)
    assert r.status_code == 400 and "is not on the price list" in r.get_json()["error"]
    r = sell(hall, gid, "4-5", price["Book of 6"])  # two cards are not a whole book
    assert r.status_code == 400 and "book 1 is cards 1-6" in r.get_json()["error"]
    assert ledger(hall, gid)["sales"] == [] and log_rows(app) == before


def test_a_card_scanned_inside_a_sold_book_says_which_book_and_when(hall, deck):
    gid = hall.new_game(draw="manual")
    price = price_list(hall, gid)
    book = ok(sell(hall, gid, "43-48", price["Book of 6"]), 201)
    url = "http://hall.local" + card_path(deck.secret, deck.deck_id, 45)
    says = f"card 45 is in book 8 (43-48), sold at {hall_clock(book['at'])}"
    for chosen in ("Single", "Book of 6"):  # whichever price the door has chosen
        r = hall.post(f"/api/games/{gid}/ledger/sales", {"scan": url, "price": price[chosen]})
        assert r.status_code == 409 and r.get_json()["error"] == says
    # a single of the book, typed, is refused too: whole books stay whole
    r = sell(hall, gid, "44", price["Single"])
    assert r.status_code == 409 and r.get_json()["error"].startswith("card 44 is in book 8")
    r = hall.client.post(
        f"/api/games/{gid}/ledger/sales?lang=es",
        json={"scan": url, "price": price["Single"]},
        headers=hall.auth,
    )
    assert r.get_json()["error"] == (
        f"el cartón 45 está en el libro 8 (43-48), vendido a las {hall_clock(book['at'])}"
    )
    assert len(ledger(hall, gid)["sales"]) == 1


def test_a_book_is_not_sold_over_a_single_already_sold(hall):
    gid = hall.new_game(draw="manual")
    price = price_list(hall, gid)
    ok(sell(hall, gid, "45", price["Single"]), 201)
    r = sell(hall, gid, "43-48", price["Book of 6"])
    assert r.status_code == 409 and r.get_json()["error"] == "card 45 is already sold for round 1"


def test_an_old_games_one_price_becomes_its_one_price_list(tmp_path):
    """A database from before price lists (step 3) keeps its price and its sales' prices."""
    from bingo_hall.station.ledger import schema
    from bingo_hall.web.db import migrate

    conn = sqlite3.connect(tmp_path / "old.sqlite")
    conn.executescript(
        "CREATE TABLE games (id INTEGER PRIMARY KEY); CREATE TABLE rounds (id INTEGER PRIMARY KEY);"
    )
    migrate(conn, {"ledger": schema.MIGRATIONS[:3]})
    conn.execute("INSERT INTO games (id) VALUES (1)")
    conn.execute(
        "INSERT INTO ledger_prices (id, game_id, cents, book, made) "
        "VALUES (7, 1, 150, 1, '2026-11-20T19:00:00.000Z')"
    )
    conn.execute(
        "INSERT INTO ledger_prices (id, game_id, cents, book, made) "
        "VALUES (9, 1, 500, 6, '2026-11-20T20:00:00.000Z')"
    )
    conn.execute(
        "INSERT INTO ledger_sales (game_id, round, serials, cards, cents, price, book, method, "
        "made) VALUES (1, 1, '1-2', 2, 300, 150, 1, 'range', '2026-11-20T19:30:00.000Z')"
    )
    conn.commit()
    migrate(conn, {"ledger": schema.MIGRATIONS})
    newest = conn.execute(
        "SELECT id, label, cents, book FROM ledger_prices WHERE list_id = "
        "(SELECT MAX(list_id) FROM ledger_prices WHERE game_id = 1)"
    ).fetchall()
    assert newest == [(9, "", 500, 6)]  # the newest price is the game's list of one
    assert conn.execute("SELECT price_id FROM ledger_sales").fetchall() == [(7,)]
    assert conn.execute("SELECT COUNT(*) FROM ledger_prices").fetchone() == (2,)  # none lost


def test_a_price_list_with_no_price_is_refused_and_the_old_list_stands(app, hall):
    gid = hall.new_game(draw="manual")
    price_list(hall, gid)
    before = log_rows(app)
    for bad in (
        {"prices": []},
        {"prices": [{"label": "Single"}]},  # no amount
        {"prices": [{"label": "Single", "amount": "1"}, {"label": "single", "amount": "2"}]},
        {"prices": [{"label": "Single", "amount": "1"}, {"label": "Book", "amount": "-5"}]},
        {"prices": "1,00"},
    ):
        r = hall.post(f"/api/games/{gid}/ledger/prices", bad)
        assert r.status_code == 400, bad
        assert r.get_json()["error"] and "Traceback" not in r.get_json()["error"]
    assert [p["label"] for p in ledger(hall, gid)["prices"]] == [p["label"] for p in PRICES]
    assert log_rows(app) == before


# ---- paper stock ----------------------------------------------------------------------------


def stock(hall, gid, kind: str, **body):
    return hall.post(f"/api/games/{gid}/ledger/stock/{kind}", body)


def test_once_stock_is_issued_only_cards_issued_and_still_out_are_sold(app, hall):
    gid = hall.new_game(draw="manual")
    price = price_list(hall, gid)
    ok(stock(hall, gid, "issue", serials="1-30", seller="Ana"), 201)
    ok(stock(hall, gid, "issue", serials="31-60", seller="the door"), 201)
    ok(sell(hall, gid, "5-10", price["Single"]), 201)
    ok(sell(hall, gid, "31-36, 37-42", price["Book of 6"]), 201)
    ok(stock(hall, gid, "return", serials="25-30"), 201)
    ok(stock(hall, gid, "void", serials="24", reason="torn"), 201)
    before = log_rows(app)
    r = sell(hall, gid, "25", price["Single"])
    assert r.status_code == 400
    assert r.get_json()["error"] == "card 25 came back unsold from Ana: it cannot be sold"
    r = sell(hall, gid, "24", price["Single"])
    assert r.get_json()["error"] == "card 24 is void: it cannot be sold"
    assert log_rows(app) == before
    # the summary: Ana had 1-30: sold 5-10 (6), returned 25-30 (6), void 24 (1): 1-4 and 11-23
    # are out (17); the door had 31-60: sold 31-42 (12): 43-60 are out (18)
    night = ok(hall.get("/api/ledger/summary"))
    (game,) = [g for g in night["games"] if g["game_id"] == gid]
    assert game["stock"] == {
        "issued": 60,
        "sold": 6 + 12,
        "returned": 6,
        "void": 1,
        "missing": 17 + 18,
    }
    rows = [r for r in summary_rows(hall) if r["game"] == str(gid)]
    gaps = [(r["player"], r["detail"], r["cards"]) for r in rows if r["row"] == "gap"]
    assert gaps == [("Ana", "1-4, 11-23", "17"), ("the door", "43-60", "18")]
    text = hall.get("/caller/ledger/summary.csv?lang=es").get_data(as_text=True)
    assert "entregados 60 = vendidos 18 + devueltos 6 + anulados 1" in text
    record = ok(hall.get(f"/api/games/{gid}/record"))
    notes = [n["detail"] for r in record["rounds"] for n in r["notes"] if n["event"] == "stock"]
    assert notes == [
        "issue 1-30 (Ana)",
        "issue 31-60 (the door)",
        "return 25-30 (Ana)",
        "void 24 (Ana): torn",
    ]


def test_a_hall_that_does_not_count_paper_is_never_asked(hall):
    gid = hall.new_game(draw="manual")
    price = price_list(hall, gid)
    ok(sell(hall, gid, "55", price["Single"]), 201)
    night = ok(hall.get("/api/ledger/summary"))
    assert next(g for g in night["games"] if g["game_id"] == gid)["stock"] is None
    assert not any(r["row"] in ("stock", "gap") for r in summary_rows(hall))


def test_a_range_issued_twice_or_a_return_never_issued_is_refused_and_nothing_is_saved(app, hall):
    gid = hall.new_game(draw="manual")
    price = price_list(hall, gid)
    ok(stock(hall, gid, "issue", serials="1-30", seller="Ana"), 201)
    ok(sell(hall, gid, "1-6", price["Book of 6"]), 201)
    before = (log_rows(app), ledger(hall, gid)["stock"])
    cases = [
        ("issue", {"serials": "28-35", "seller": "Luis"}, "card 28 is already issued to Ana"),
        ("return", {"serials": "29-33"}, "card 31 was never issued for this game"),
        ("void", {"serials": "40", "reason": "lost"}, "card 40 was never issued for this game"),
        ("return", {"serials": "5"}, "card 5 is sold: void its sale first, then return it"),
        ("void", {"serials": "12"}, None),  # a void says why
        ("issue", {"serials": "31-40"}, None),  # an issue says to whom
        ("issue", {"serials": "61", "seller": "Luis"}, "card 61 is not in the deck"),
    ]
    for kind, body, says in cases:
        r = stock(hall, gid, kind, **body)
        assert r.status_code == 400, (kind, body, r.get_json())
        if says:
            assert r.get_json()["error"].startswith(says), r.get_json()
    r = sell(hall, gid, "31", price["Single"])
    assert r.status_code == 400 and r.get_json()["error"] == (
        "card 31 was never issued to a seller for this game, so it cannot be sold"
    )
    assert (log_rows(app), ledger(hall, gid)["stock"]) == before


def test_a_wrong_stock_entry_is_cancelled_with_its_reason_and_kept(hall):
    gid = hall.new_game(draw="manual")
    issue = ok(stock(hall, gid, "issue", serials="1-12", seller="Ana"), 201)
    back = ok(stock(hall, gid, "return", serials="7-12"), 201)
    r = hall.post(f"/api/ledger/stock/{issue['stock_id']}/correct", {"reason": "wrong box"})
    assert r.status_code == 409  # its cards came back: that entry is corrected first
    assert hall.post(f"/api/ledger/stock/{back['stock_id']}/correct", {}).status_code == 400
    ok(hall.post(f"/api/ledger/stock/{back['stock_id']}/correct", {"reason": "still out"}))
    ok(hall.post(f"/api/ledger/stock/{issue['stock_id']}/correct", {"reason": "wrong box"}))
    entries = ledger(hall, gid)["stock"]
    assert [(e["kind"], e["corrected"]) for e in entries] == [
        ("issue", "wrong box"),
        ("return", "still out"),
    ]
    ok(stock(hall, gid, "issue", serials="1-12", seller="Luis"), 201)  # issued again, rightly
    assert ledger(hall, gid)["reconciled"]["issued"] == 12


# ---- cash -----------------------------------------------------------------------------------


def test_the_cash_box_is_short_of_float_plus_takings_less_cash_payouts(client):
    """Float 50,00 £; 20 cards at 2,00 £ (40,00 £); bingo 25 % (10,00 £) paid in cash: the box
    should hold 50 + 40 - 10 = 80,00 £. Counted 3 x 20 £ + 1 x 10 £ + 4 x 2 £ = 78,00 £: 2,00 £
    short."""
    deck = new_deck(20, seed="ledger-cash", name="Club")
    hall = Caller(client, deck)
    ok(hall.post("/api/ledger/currency", {"currency": "GBP"}))
    ok(hall.post("/api/ledger/cash/float", {"amount": "50"}), 201)
    gid = hall.new_game(draw="manual")
    ok(hall.post(f"/api/games/{gid}/ledger/prices", {"prices": [{"amount": "2"}]}))
    ok(hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "1-20"}), 201)
    bingo = {"bingo": {"kind": "percent", "percent": 25}}
    ok(hall.post(f"/api/games/{gid}/ledger/prizes", {"prizes": bingo}))
    win_75_ball_round(hall, deck, gid, 3)
    (payout,) = ledger(hall, gid)["payouts"]
    ok(hall.post(f"/api/ledger/payouts/{payout['payout_id']}/paid", {"cash": True}))
    counted = {"2000": 3, "1000": 1, "200": 4}
    ok(hall.post("/api/ledger/cash/count", {"pieces": counted}), 201)
    night = ok(hall.get("/api/ledger/summary"))
    assert night["cash"] == {
        "float": 5000,
        "counted": 3 * 2000 + 1000 + 4 * 200,
        "pieces": counted,
        "paid_cash": 1000,
        "expected": 5000 + 4000 - 1000,
        "over_short": -200,
    }
    totals = {r["row"]: int(r["cents"]) for r in summary_rows(hall) if r["row"].startswith("total")}
    assert totals["total over/short"] == -200 and totals["total counted"] == 7800
    text = hall.get("/caller/ledger/summary.csv").get_data(as_text=True)
    assert "3 x 2000" in text
    audit = [e["action"] for e in ok(hall.get("/api/ledger/log"))["log"]]
    assert "cash float" in audit and "cash count" in audit
    # and in the game's record (JSON and CSV), the float given before its first call included
    record = ok(hall.get(f"/api/games/{gid}/record"))
    notes = [n["detail"] for r in record["rounds"] for n in r["notes"] if n["event"] == "cash"]
    assert notes == ["float £50.00", "count £78.00 (3 x £20.00, 1 x £10.00, 4 x £2.00)"]
    rows = csv.DictReader(
        io.StringIO(hall.get(f"/api/games/{gid}/record.csv").get_data(as_text=True))
    )
    assert [r["detail"] for r in rows if r["event"] == "cash"] == notes


def test_a_payout_paid_otherwise_leaves_the_box_alone(client):
    deck = new_deck(20, seed="ledger-cheque", name="Club")
    hall = Caller(client, deck)
    ok(hall.post("/api/ledger/cash/float", {"amount": "20"}), 201)
    gid = hall.new_game(draw="manual")
    ok(hall.post(f"/api/games/{gid}/ledger/price", {"amount": "1"}))
    ok(hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "1-10"}), 201)
    ok(
        hall.post(
            f"/api/games/{gid}/ledger/prizes",
            {"prizes": {"bingo": {"kind": "fixed", "amount": "5"}}},
        )
    )
    win_75_ball_round(hall, deck, gid, 2)
    (payout,) = ledger(hall, gid)["payouts"]
    ok(hall.post(f"/api/ledger/payouts/{payout['payout_id']}/paid", {"cash": False}))
    ok(hall.post("/api/ledger/cash/count", {"amount": "30,00"}), 201)
    cash = ok(hall.get("/api/ledger/summary"))["cash"]
    assert (cash["paid_cash"], cash["expected"], cash["over_short"]) == (0, 2000 + 1000, 0)


@pytest.mark.parametrize(
    ("path", "body", "says"),
    [
        ("count", {"pieces": {"300": 1}}, "300 is not a note or coin of GBP"),
        ("count", {"pieces": {"50000": 1}}, "50000 is not a note or coin of GBP"),
        ("count", {"amount": "lots"}, "write an amount with at most two decimals"),
        ("count", {"amount": "12,345"}, "write an amount with at most two decimals"),
        ("count", {"pieces": {"2000": -1}}, "how many of 2000"),
        ("count", {"pieces": {"2000": 1.5}}, "how many of 2000"),
        ("count", {}, "give the cash counted"),
        ("count", {"amount": "5", "pieces": {"2000": 1}}, "give the cash counted as a total"),
        ("float", {"amount": "-5"}, "an amount cannot be negative"),
        ("float", {"amount": "ten"}, "write an amount with at most two decimals"),
    ],
)
def test_a_count_that_is_not_money_or_a_note_the_currency_lacks_is_refused(
    app, hall, path, body, says
):
    ok(hall.post("/api/ledger/currency", {"currency": "GBP"}))
    before = log_rows(app)
    r = hall.post(f"/api/ledger/cash/{path}", body)
    assert r.status_code == 400 and r.get_json()["error"].startswith(says), r.get_json()
    assert log_rows(app) == before


def test_a_figure_given_again_says_why_and_the_newest_counts(hall):
    ok(hall.post("/api/ledger/cash/float", {"amount": "50"}), 201)
    r = hall.post("/api/ledger/cash/float", {"amount": "60"})
    assert r.status_code == 400 and "say why" in r.get_json()["error"]
    ok(hall.post("/api/ledger/cash/float", {"amount": "60", "reason": "a 10 note found"}), 201)
    hall.new_game(draw="manual")
    assert ok(hall.get("/api/ledger/summary"))["cash"]["float"] == 6000


def test_stock_and_cash_are_caller_actions(client, hall):
    gid = hall.new_game(draw="manual")
    for path, body in (
        (f"/api/games/{gid}/ledger/prices", {"prices": PRICES}),
        (f"/api/games/{gid}/ledger/stock/issue", {"serials": "1-6", "seller": "Ana"}),
        ("/api/ledger/cash/float", {"amount": "5"}),
        ("/api/ledger/cash/count", {"amount": "5"}),
    ):
        assert client.post(path, json=body).status_code == 401
        with client.session_transaction() as s:  # a logged-in page, but no CSRF token sent
            s["caller"] = True
        assert client.post(path, json=body).status_code in (401, 403)
        with client.session_transaction() as s:
            s.clear()
    state = ledger(hall, gid)
    assert state["prices"] == [] and state["stock"] == []
