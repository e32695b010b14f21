"""The night's ledger through the station's API (issue 27): sales by range and by scan, prizes
paid at award time and split to the cent, the jackpot won or rolled over, a claim on a card not
sold, corrections, payouts marked paid, bad input refused whole, the summary's CSV and the
`bingo-hall ledger` command. Expected sums are worked out by hand in each test."""

from __future__ import annotations

import csv
import io
import sqlite3

import pytest
from testkit import Caller

from bingo_hall.manifest import new_deck, new_strip_deck
from bingo_hall.seventyfive.cards import LINE_CELLS
from bingo_hall.signing import card_path

NBSP = "\u00a0"


@pytest.fixture(scope="module")
def strips():
    return new_strip_deck(3, seed="ledger-90", name="Tiras")  # 18 tickets


@pytest.fixture
def hall(client, strips):
    return Caller(client, strips)


def row(deck, serial: int, r: int) -> list[int]:
    """Row r of a ticket, read off its printed grid."""
    return [n for n in deck.cards[serial - 1].grid[r] if n is not None]


def ok(resp, status: int = 200):
    assert resp.status_code == status, resp.get_json()
    return resp.get_json()


def ledger(hall, gid):
    return ok(hall.get(f"/api/games/{gid}/ledger"))


def log_rows(app) -> int:
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        return conn.execute("SELECT COUNT(*) FROM ledger_log").fetchone()[0]


def shared_line(strips):
    """Ticket 1's top row and a ticket of another strip with a row ending on the same ball."""
    a_row = row(strips, 1, 0)
    b, r = next(
        (t.serial, r)
        for t in strips.cards[6:]
        for r in range(3)
        if a_row[-1] in row(strips, t.serial, r)
    )
    return a_row, b, row(strips, b, r)


# ---- bad input ------------------------------------------------------------------------------


def test_a_sale_overlapping_another_or_outside_the_deck_is_refused_and_nothing_is_saved(app, hall):
    gid = hall.new_game(draw="manual")
    ok(hall.post(f"/api/games/{gid}/ledger/price", {"amount": "1,50"}))
    ok(hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "1-10", "round": "all"}), 201)
    before = log_rows(app)
    r = hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "12, 8-11"})  # round 1
    assert r.status_code == 409 and r.get_json()["error"] == "card 8 is already sold for round 1"
    r = hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "12, 8-11", "round": "all"})
    assert r.status_code == 409 and r.get_json()["error"] == "card 8 is already sold in this game"
    r = hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "11-19"})
    assert r.status_code == 400
    assert r.get_json()["error"] == "card 19 is not in the deck (its cards are 1 to 18)"
    r = hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "11-12", "round": 3})
    assert r.status_code == 400  # round 1 is played: sales are for round 1 or 2
    state = ledger(hall, gid)
    assert [s["serials"] for s in state["sales"]] == ["1-10"]
    assert state["round_sales"] == {"cards": 10, "cents": 1500}
    assert log_rows(app) == before


def test_a_negative_price_and_a_percentage_over_100_are_refused_and_nothing_is_saved(hall):
    gid = hall.new_game(draw="manual")
    r = hall.post(f"/api/games/{gid}/ledger/price", {"amount": "-1,50"})
    assert r.status_code == 400 and "cannot be negative" in r.get_json()["error"]
    assert ledger(hall, gid)["prices"] == []
    r = hall.post(
        f"/api/games/{gid}/ledger/prizes",
        {
            "prizes": {
                "linea": {"kind": "percent", "percent": 20},
                "bingo": {"kind": "percent", "percent": "100,5"},
            }
        },
    )
    assert r.status_code == 400 and "at most 100" in r.get_json()["error"]
    r = hall.post(
        f"/api/games/{gid}/ledger/prizes",
        {
            "prizes": {
                "linea": {"kind": "percent", "percent": 40},
                "bingo": {"kind": "percent", "percent": 61},
            }
        },
    )
    assert r.status_code == 400 and "more than 100" in r.get_json()["error"]
    assert ledger(hall, gid)["prizes"] == []  # línea's 20 % was not kept either
    half = {"linea": {"kind": "percent", "percent": 40}, "bingo": {"percent": "60,5"}}
    half["bingo"]["kind"] = "percent"
    es = hall.client.post(
        f"/api/games/{gid}/ledger/prizes?lang=es", json={"prizes": half}, headers=hall.auth
    )
    assert "100,5 %" in es.get_json()["error"]  # a Spanish page writes the decimal comma
    en = hall.post(f"/api/games/{gid}/ledger/prizes", {"prizes": half})
    assert "100.5 %" in en.get_json()["error"]
    ok(
        hall.post(
            f"/api/games/{gid}/ledger/prizes",
            {"prizes": {"linea": {"kind": "percent", "percent": 60}}},
        )
    )
    r = hall.post(
        f"/api/games/{gid}/ledger/prizes", {"prizes": {"bingo": {"kind": "percent", "percent": 50}}}
    )
    assert r.status_code == 400  # 60 % + 50 %
    ok(
        hall.post(
            f"/api/games/{gid}/ledger/prizes",
            {"prizes": {"linea": None, "bingo": {"kind": "percent", "percent": 50}}},
        )
    )
    assert [p["prize"] for p in ledger(hall, gid)["prizes"]] == ["bingo"]
    r = hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "1-3"})
    assert r.status_code == 409 and "price" in r.get_json()["error"]


def test_a_jackpot_is_played_on_the_full_house_only(hall):
    gid = hall.new_game(draw="manual")
    r = hall.post(
        f"/api/games/{gid}/ledger/prizes",
        {"prizes": {"linea": {"kind": "jackpot", "within": 10, "jackpot": "50"}}},
    )
    assert r.status_code == 400 and "full house" in r.get_json()["error"]


def test_ledger_changes_are_caller_actions(client, hall):
    gid = hall.new_game(draw="manual")
    r = client.post(f"/api/games/{gid}/ledger/price", json={"amount": "2"})
    assert r.status_code == 401
    with client.session_transaction() as s:  # a logged-in page, but no CSRF token sent
        s["caller"] = True
    r = client.post(f"/api/games/{gid}/ledger/price", json={"amount": "2"})
    assert r.status_code in (401, 403)
    assert ledger(hall, gid)["prices"] == []


# ---- sales ----------------------------------------------------------------------------------


def test_a_scanned_card_sells_its_whole_book_and_a_forged_code_sells_nothing(hall, strips):
    gid = hall.new_game(draw="manual")
    ok(hall.post(f"/api/games/{gid}/ledger/price", {"amount": "5", "book": 6}))
    url = "http://hall.local" + card_path(strips.secret, strips.deck_id, 8)
    sale = ok(hall.post(f"/api/games/{gid}/ledger/sales", {"scan": url}), 201)
    assert sale["serials"] == "7-12" and sale["cents"] == 500 and sale["method"] == "scan"
    forged = url[:-2] + ("00" if not url.endswith("00") else "11")
    r = hall.post(f"/api/games/{gid}/ledger/sales", {"scan": forged.replace("/8/", "/2/")})
    assert r.status_code == 400
    r = hall.post(f"/api/games/{gid}/ledger/sales", {"scan": url})
    assert r.status_code == 409  # the book is sold already
    r = hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "1-7"})
    assert r.status_code in (400, 409)  # 7 cards are not whole books (and 7 is sold)
    assert len(ledger(hall, gid)["sales"]) == 1


def test_a_corrected_sale_is_voided_with_its_reason_and_its_cards_can_be_sold_again(hall):
    gid = hall.new_game(draw="manual")
    ok(hall.post(f"/api/games/{gid}/ledger/price", {"cents": 200}))
    sale = ok(hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "1-5"}), 201)
    r = hall.post(f"/api/ledger/sales/{sale['sale_id']}/correct", {"reason": ""})
    assert r.status_code == 400
    ok(hall.post(f"/api/ledger/sales/{sale['sale_id']}/correct", {"reason": "typed 5, sold 4"}))
    r = hall.post(f"/api/ledger/sales/{sale['sale_id']}/correct", {"reason": "again"})
    assert r.status_code == 409
    ok(hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "1-4"}), 201)
    state = ledger(hall, gid)
    assert [(s["serials"], s["void"]) for s in state["sales"]] == [
        ("1-5", "typed 5, sold 4"),
        ("1-4", None),
    ]
    assert state["round_sales"] == {"cards": 4, "cents": 800}
    trail = ok(hall.get("/api/ledger/log"))["log"]
    assert [e["action"] for e in trail] == ["price", "sale", "correction", "sale"]
    assert trail[2]["detail"]["reason"] == "typed 5, sold 4" and trail[2]["via"] == "token"


def test_a_whole_game_sale_plays_every_round_and_its_money_counts_once_in_its_round(app, client):
    deck = new_deck(20, seed="ledger-rounds", name="Club")
    hall = Caller(client, deck)
    gid = hall.new_game(draw="manual")
    ok(hall.post(f"/api/games/{gid}/ledger/price", {"amount": "2"}))
    whole = {"serials": "1-5", "round": "all"}  # every round; its money counts in round 1
    ok(hall.post(f"/api/games/{gid}/ledger/sales", whole), 201)
    ok(hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "6-7"}), 201)  # blank: round 1
    r = hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "5-6", "round": 2})
    assert r.status_code == 409 and r.get_json()["error"] == "card 5 is already sold for round 2"
    ok(hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "6", "round": 2}), 201)
    assert [s["round"] for s in ledger(hall, gid)["sales"]] == [None, 1, 2]
    ok(
        hall.post(
            f"/api/games/{gid}/ledger/prizes",
            {"prizes": {"bingo": {"kind": "percent", "percent": 50}}},
        )
    )
    # round 1 took cards 1-7, 14,00 €, so the prize is 7,00 €
    assert ledger(hall, gid)["round_sales"] == {"cards": 7, "cents": 1400}
    assert ledger(hall, gid)["prizes"][0]["amount"] == 700
    ok(hall.post(f"/api/games/{gid}/rounds"), 201)
    # round 2 took card 6 only (2,00 €): 1,00 €. Cards 1-5 play, but their money was round 1's
    assert ledger(hall, gid)["round_sales"] == {"cards": 1, "cents": 200}
    assert ledger(hall, gid)["prizes"][0]["amount"] == 100
    assert "warning" not in ok(hall.post(f"/api/games/{gid}/claims", {"serial": 3}), 201)
    claim = ok(hall.post(f"/api/games/{gid}/claims", {"serial": 7}), 201)
    assert claim["unsold"] == {"serial": 7, "round": 2}
    # the money is counted once: 10,00 + 4,00 in round 1, 2,00 in round 2
    night = ok(hall.get("/api/ledger/summary"))
    assert (night["cards"], night["taken"]) == (8, 1600)


# ---- claims and payouts ---------------------------------------------------------------------


def test_a_claim_on_a_card_not_sold_for_the_round_warns_and_is_recorded(hall, strips):
    gid = hall.new_game(draw="manual")
    ok(hall.post(f"/api/games/{gid}/ledger/price", {"amount": "1"}))
    ok(hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "1-6"}), 201)
    hall.call(gid, *row(strips, 1, 0))
    sold = ok(hall.post(f"/api/games/{gid}/claims", {"serial": 1}), 201)
    assert "warning" not in sold
    unsold = ok(hall.post(f"/api/games/{gid}/claims", {"serial": 17}), 201)
    assert unsold["warning"] == "Card 17 was not sold for this round"
    es = hall.client.post(
        f"/api/games/{gid}/claims?lang=es", json={"serial": 16}, headers=hall.auth
    ).get_json()
    assert es["warning"] == "El cartón 16 no se vendió para esta ronda"
    assert [w["serial"] for w in ledger(hall, gid)["warnings"]] == [17, 16]
    rec = ok(hall.get(f"/api/games/{gid}/record"))
    assert [n["serial"] for n in rec["rounds"][0]["notes"]] == [17, 16]
    rows = csv.DictReader(
        io.StringIO(hall.get(f"/api/games/{gid}/record.csv").get_data(as_text=True))
    )
    assert [r["serial"] for r in rows if r["event"] == "warning"] == ["17", "16"]


def test_two_winners_on_the_same_call_split_a_percentage_prize_to_the_cent(hall, strips):
    a_row, b, b_row = shared_line(strips)
    gid = hall.new_game(draw="manual")
    ok(hall.post(f"/api/games/{gid}/ledger/price", {"amount": "1,50"}))
    ok(hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "1-18"}), 201)  # 27,00 €
    ok(
        hall.post(
            f"/api/games/{gid}/ledger/prizes",
            {"prizes": {"linea": {"kind": "percent", "percent": 35}}},
        )
    )
    hall.call(gid, *[n for n in a_row + b_row if n != a_row[-1]], a_row[-1])
    ok(hall.post(f"/api/games/{gid}/claims", {"serial": 1, "player": "Ana"}), 201)
    ok(hall.post(f"/api/games/{gid}/claims", {"serial": b, "player": "Luis"}), 201)
    ok(hall.post(f"/api/games/{gid}/award", {"prize": "linea"}))
    # 35 % of 27,00 € = 9,45 €: 4,73 € to the first claim (Ana), 4,72 € to Luis
    paid = [(p["serial"], p["player"], p["cents"]) for p in ledger(hall, gid)["payouts"]]
    assert paid == [(1, "Ana", 473), (b, "Luis", 472)]
    calls = len(set(a_row + b_row))
    assert {p["at_call"] for p in ledger(hall, gid)["payouts"]} == {calls}


def test_a_jackpot_missed_rolls_over_and_the_next_game_wins_it(hall, strips):
    ticket = strips.cards[0]
    house = [n for r in ticket.grid for n in r if n is not None]
    jackpot = {"kind": "jackpot", "within": 20, "jackpot": "50", "amount": "10"}
    g1 = hall.new_game(draw="manual")
    ok(hall.post(f"/api/games/{g1}/ledger/prizes", {"prizes": {"bingo": jackpot}}))
    others = [n for n in range(1, 91) if n not in house][:6]
    hall.call(g1, *(house[:5] + others + house[5:]))  # the full house on call 21: too late
    ok(hall.post(f"/api/games/{g1}/claims", {"serial": 1}), 201)
    ok(hall.post(f"/api/games/{g1}/award", {"prize": "linea"}))
    ok(hall.post(f"/api/games/{g1}/claims", {"serial": 1}), 201)
    ok(hall.post(f"/api/games/{g1}/award", {"prize": "bingo"}))
    first = ledger(hall, g1)["payouts"]
    assert [(p["prize"], p["cents"], p["jackpot"], p["at_call"]) for p in first] == [
        ("bingo", 1000, False, 21)
    ]
    ok(hall.post(f"/api/games/{g1}/end"))
    g2 = hall.new_game(draw="manual")
    ok(
        hall.post(
            f"/api/games/{g2}/ledger/prizes", {"prizes": {"bingo": {**jackpot, "jackpot": "30"}}}
        )
    )
    assert ledger(hall, g2)["prizes"][0]["pot"] == 8000  # 50 rolled over + 30 of this game
    hall.call(g2, *house)  # 15 calls: within 20
    ok(hall.post(f"/api/games/{g2}/claims", {"serial": 1}), 201)
    ok(hall.post(f"/api/games/{g2}/award", {"prize": "linea"}))
    ok(hall.post(f"/api/games/{g2}/claims", {"serial": 1}), 201)
    ok(hall.post(f"/api/games/{g2}/award", {"prize": "bingo"}))
    second = ledger(hall, g2)["payouts"]
    assert [(p["cents"], p["jackpot"]) for p in second] == [(8000, True)]
    night = ok(hall.get("/api/ledger/summary"))
    assert night["carried"] == 0 and night["awarded"] == 9000


def test_a_75_ball_round_pays_its_winner_and_the_payout_is_marked_paid_once(client):
    deck = new_deck(20, seed="ledger-75", name="Fiesta")
    hall = Caller(client, deck)
    gid = hall.new_game(draw="manual")
    ok(hall.post(f"/api/games/{gid}/ledger/price", {"amount": "2"}))
    ok(hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "1-20"}), 201)
    ok(
        hall.post(
            f"/api/games/{gid}/ledger/prizes",
            {"prizes": {"bingo": {"kind": "percent", "percent": "50"}}},
        )
    )
    card = deck.card(3)
    line = [n for r, c in LINE_CELLS["B"] if (n := card.columns[c][r]) is not None]
    hall.call(gid, *line)
    ok(hall.post(f"/api/games/{gid}/claims", {"serial": 3, "player": '=HYPERLINK("x")'}), 201)
    ok(hall.post(f"/api/games/{gid}/award"))
    (p,) = ledger(hall, gid)["payouts"]
    assert (p["serial"], p["cents"], p["at_call"], p["paid"]) == (3, 2000, len(line), None)
    ok(hall.post(f"/api/ledger/payouts/{p['payout_id']}/paid", {}))
    assert hall.post(f"/api/ledger/payouts/{p['payout_id']}/paid", {}).status_code == 409
    assert ledger(hall, gid)["payouts"][0]["paid"] is not None
    rows = list(
        csv.DictReader(io.StringIO(hall.get("/caller/ledger/summary.csv").get_data(as_text=True)))
    )
    payout = next(r for r in rows if r["row"] == "payout")
    assert payout["player"] == '\'=HYPERLINK("x")' and payout["paid"] == "yes"
    totals = {r["row"]: int(r["cents"]) for r in rows if r["row"].startswith("total")}
    assert totals == {
        "total taken": 4000,
        "total awarded": 2000,
        "total paid": 2000,
        "total brought": 0,
        "total carried": 0,
        "total left": 2000,
    }


def test_each_night_has_its_own_summary_and_a_jackpot_not_won_is_brought_to_the_next(app, hall):
    last_week = hall.new_game(draw="manual")
    ok(hall.post(f"/api/games/{last_week}/ledger/price", {"amount": "2"}))
    ok(hall.post(f"/api/games/{last_week}/ledger/sales", {"serials": "1-10"}), 201)
    jackpot = {"kind": "jackpot", "within": 30, "jackpot": "15"}
    ok(hall.post(f"/api/games/{last_week}/ledger/prizes", {"prizes": {"bingo": jackpot}}))
    ok(hall.post(f"/api/games/{last_week}/end"))
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        conn.execute("UPDATE games SET created = '2026-11-17T20:00:00Z' WHERE id = ?", (last_week,))
    tonight = hall.new_game(draw="manual")
    ok(hall.post(f"/api/games/{tonight}/ledger/price", {"amount": "1"}))
    ok(hall.post(f"/api/games/{tonight}/ledger/sales", {"serials": "1-6"}), 201)
    ok(
        hall.post(
            f"/api/games/{tonight}/ledger/prizes",
            {"prizes": {"bingo": {**jackpot, "jackpot": "0"}}},
        )
    )
    night = ok(hall.get("/api/ledger/summary"))
    # tonight: 6,00 € taken, the 15,00 € of last week's jackpot still in the pot: brought in and
    # carried on, so 6,00 € is left for the cause
    assert (night["taken"], night["brought"], night["carried"], night["left"]) == (
        600,
        1500,
        1500,
        600,
    )
    old = ok(hall.get("/api/ledger/summary?night=2026-11-17"))
    # last week: 20,00 € taken, 15,00 € set aside for the jackpot: 5,00 € left
    assert (old["taken"], old["brought"], old["carried"], old["left"]) == (2000, 0, 1500, 500)
    r = hall.get("/api/ledger/summary?night=2026-01-01")
    assert r.status_code == 404 and "2026-01-01" in r.get_json()["error"]


# ---- the command line ----------------------------------------------------------------------


def test_bingo_hall_ledger_prints_the_summary_and_refuses_bad_input_in_one_line(
    app, hall, kit_cli, tmp_path
):
    gid = hall.new_game(draw="manual")
    ok(hall.post("/api/ledger/currency", {"currency": "GBP"}))
    ok(hall.post(f"/api/games/{gid}/ledger/price", {"amount": "1.25"}))
    ok(hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "1-8"}), 201)
    code, out, err = kit_cli(
        ["ledger", "--db", app.config["DATABASE"], "--pdf", str(tmp_path / "n.pdf")]
    )
    assert code == 0, err
    assert "Tickets sold 8 · Money taken £10.00" in out
    assert "Left for the cause: £10.00" in out
    assert (tmp_path / "n.pdf").read_bytes().startswith(b"%PDF")
    code, out, err = kit_cli(["ledger", "--db", app.config["DATABASE"], "--lang", "es"])
    assert code == 0 and "Recaudado: 10,00" in out  # Spain writes pounds "10,00 GBP"
    for argv in (
        ["--db", str(tmp_path / "none.sqlite")],
        ["--db", app.config["DATABASE"], "--lang", "fr"],
        ["--db", app.config["DATABASE"], "--night", "1999-01-01"],
    ):
        code, out, err = kit_cli(["ledger", *argv])
        assert code == 2 and err.startswith("bingo-hall: error: ") and err.count("\n") == 1
    r = hall.post("/api/ledger/currency", {"currency": "EURO"})
    assert r.status_code == 400


def test_a_payout_marked_paid_by_mistake_is_marked_not_paid_with_its_reason(client):
    """Nothing is deleted: a mistaken "paid" is corrected by a new mark that says why, kept in
    the audit trail; the summary stops counting it paid, and it can be paid again later."""
    deck = new_deck(20, seed="ledger-unpaid", name="Fiesta")
    hall = Caller(client, deck)
    gid = hall.new_game(draw="manual")
    prizes = {"prizes": {"bingo": {"kind": "fixed", "amount": "15"}}}
    ok(hall.post(f"/api/games/{gid}/ledger/prizes", prizes))
    card = deck.card(7)
    hall.call(gid, *[n for r, c in LINE_CELLS["B"] if (n := card.columns[c][r]) is not None])
    ok(hall.post(f"/api/games/{gid}/claims", {"serial": 7, "player": "Ana"}), 201)
    ok(hall.post(f"/api/games/{gid}/award"))
    (p,) = ledger(hall, gid)["payouts"]
    path = f"/api/ledger/payouts/{p['payout_id']}"
    # not paid yet: there is nothing to take back
    assert hall.post(f"{path}/unpaid", {"reason": "wrong row"}).status_code == 409
    ok(hall.post(f"{path}/paid", {}))
    for bad in ({}, {"reason": "  "}, {"reason": "x" * 201}, {"reason": 5}):
        refused = hall.post(f"{path}/unpaid", bad)
        assert refused.status_code == 400 and "say why" in refused.get_json()["error"], bad
    assert ledger(hall, gid)["payouts"][0]["paid"] is not None  # a refusal changes nothing
    ok(hall.post(f"{path}/unpaid", {"reason": "Ana was not at the table"}))
    now = ledger(hall, gid)["payouts"][0]
    assert (now["paid"], now["unpaid"]) == (None, "Ana was not at the table")
    assert ok(hall.get("/api/ledger/summary"))["paid"] == 0
    ok(hall.post(f"{path}/paid", {}))  # paid for real, later
    assert ledger(hall, gid)["payouts"][0]["paid"] is not None
    trail = [e for e in ok(hall.get("/api/ledger/log"))["log"] if e["action"] in ("paid", "unpaid")]
    assert [e["action"] for e in trail] == ["paid", "unpaid", "paid"]
    assert trail[1]["detail"]["reason"] == "Ana was not at the table"
    assert client.post(f"{path}/unpaid", json={"reason": "x"}).status_code in (401, 403)


def test_marks_made_before_the_correction_existed_still_count_as_paid(tmp_path):
    """A night's database from the first ledger (step 1: one `ledger_paid` row per payout) keeps
    its payouts paid after the upgrade."""
    from bingo_hall.station.ledger import schema
    from bingo_hall.web.db import migrate

    conn = sqlite3.connect(tmp_path / "old.sqlite")
    conn.executescript(
        "CREATE TABLE games (id INTEGER PRIMARY KEY); CREATE TABLE rounds (id INTEGER PRIMARY KEY);"
    )
    migrate(conn, {"ledger": schema.MIGRATIONS[:1]})
    conn.execute("INSERT INTO games (id) VALUES (1)")
    conn.execute("INSERT INTO rounds (id) VALUES (1)")
    for pid in (1, 2):
        conn.execute(
            "INSERT INTO ledger_payouts (id, game_id, round_id, prize, claim_id, serial, at_call,"
            " cents) VALUES (?, 1, 1, 'bingo', ?, ?, 20, 500)",
            (pid, pid, pid),
        )
    conn.execute("INSERT INTO ledger_paid (payout_id) VALUES (2)")
    conn.commit()
    migrate(conn, {"ledger": schema.MIGRATIONS})
    marks = conn.execute("SELECT payout_id, paid FROM ledger_paid_marks").fetchall()
    assert marks == [(2, 1)]


# ---- issue 33: money and prizes the treasurer and the room can trust -------------------------


def win_75_ball_round(hall, deck, gid, serial: int) -> None:
    """Call card `serial`'s B column, claim it and award the round."""
    card = deck.card(serial)
    hall.call(gid, *[n for r, c in LINE_CELLS["B"] if (n := card.columns[c][r]) is not None])
    ok(hall.post(f"/api/games/{gid}/claims", {"serial": serial}), 201)
    ok(hall.post(f"/api/games/{gid}/award"))


def test_a_game_never_pays_out_more_than_it_took_in_percentage_prizes(client):
    """The reported night: bingo at 60 %, cards 1-10 at 10,00 for the whole game (100,00), two
    rounds played. Each round paid 60,00: 120,00 awarded on 100,00 taken."""
    deck = new_deck(20, seed="ledger-60", name="Club")
    hall = Caller(client, deck)
    gid = hall.new_game(draw="manual")
    ok(hall.post(f"/api/games/{gid}/ledger/price", {"amount": "10"}))
    ok(hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "1-10", "round": "all"}), 201)
    bingo = {"bingo": {"kind": "percent", "percent": 60}}
    ok(hall.post(f"/api/games/{gid}/ledger/prizes", {"prizes": bingo}))
    win_75_ball_round(hall, deck, gid, 3)
    ok(hall.post(f"/api/games/{gid}/rounds"), 201)
    assert ledger(hall, gid)["prizes"][0]["amount"] == 0  # round 2 took nothing of its own
    win_75_ball_round(hall, deck, gid, 4)
    assert [p["cents"] for p in ledger(hall, gid)["payouts"]] == [6000, 0]  # 60 % of 100,00
    night = ok(hall.get("/api/ledger/summary"))
    assert (night["taken"], night["awarded"], night["left"]) == (10000, 6000, 4000)
    text = hall.get("/caller/ledger/summary.csv").get_data(as_text=True)
    rounds = [r for r in csv.DictReader(io.StringIO(text)) if r["row"] == "round"]
    assert [(r["round"], r["cents"]) for r in rounds] == [("1", "10000"), ("2", "0")]


def test_a_sale_with_no_round_is_for_the_current_round_as_the_guide_says(client):
    deck = new_deck(20, seed="ledger-blank", name="Club")
    hall = Caller(client, deck)
    gid = hall.new_game(draw="manual")
    ok(hall.post(f"/api/games/{gid}/ledger/price", {"amount": "1"}))
    assert ok(hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "1-2"}), 201)["round"] == 1
    ok(hall.post(f"/api/games/{gid}/rounds"), 201)
    blank = {"serials": "1-2", "round": ""}  # the page's choice "this round"
    assert ok(hall.post(f"/api/games/{gid}/ledger/sales", blank), 201)["round"] == 2
    whole = ok(hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "5", "round": "all"}), 201)
    assert whole["round"] is None
    # the whole-game sale made in round 2 counts in round 2: 2,00 + 1,00
    assert ledger(hall, gid)["round_sales"] == {"cards": 3, "cents": 300}
    r = hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "6", "round": "every"})
    assert r.status_code == 400 and "all" in r.get_json()["error"]


def test_a_sale_at_a_book_price_is_whole_books_and_refused_in_words_naming_the_book(app, client):
    hall = Caller(client, new_deck(30, seed="ledger-books", name="Club"))
    gid = hall.new_game(draw="manual")
    ok(hall.post(f"/api/games/{gid}/ledger/price", {"amount": "5", "book": 6}))
    before = log_rows(app)
    r = hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "2-7"})
    assert r.status_code == 400 and r.get_json()["error"] == (
        "cards are sold in whole books of 6: book 1 is cards 1-6, and this sale has only part of it"
    )
    r = hall.client.post(
        f"/api/games/{gid}/ledger/sales?lang=es",
        json={"serials": "13-15, 22-24"},
        headers=hall.auth,
    )
    assert r.status_code == 400 and r.get_json()["error"] == (
        "los cartones se venden en libros enteros de 6: el libro 3 son los cartones 13-18, "
        "y esta venta solo tiene parte de él"
    )
    assert ledger(hall, gid)["sales"] == [] and log_rows(app) == before
    # card 1 can still be sold, in its whole book
    assert ok(hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "1-6"}), 201)["cents"] == 500


def prize_line(hall, gid, lang="en") -> str:
    import re

    html = hall.get(f"/ledger/games/{gid}/prizes?lang={lang}").get_data(as_text=True)
    html = re.sub(r"<span[^>]* hidden>[^<]*</span>", "", html)  # what the room does not see
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html)).strip().replace(NBSP, " ")


@pytest.mark.parametrize(
    ("mode", "pot", "says", "paid"),
    [
        ("on-top", "20", "Bingo £32.50 · Jackpot £20.00 more: Bingo in 40 calls or fewer", 5250),
        (
            "instead",
            "50",
            "Bingo £32.50 · Jackpot £50.00 instead: Bingo in 40 calls or fewer",
            5000,
        ),
        (
            "instead",
            "20",
            "Bingo £32.50 · in 40 calls or fewer: still £32.50, more than the jackpot (£20.00)",
            3250,
        ),
    ],
)
def test_the_room_is_told_exactly_what_the_winner_gets(client, mode, pot, says, paid):
    """The reported night: bingo 50 % of £65.00 sold, a jackpot within 40 calls, won in 15."""
    deck = new_deck(20, seed="ledger-room", name="Club")
    hall = Caller(client, deck)
    ok(hall.post("/api/ledger/currency", {"currency": "GBP"}))
    gid = hall.new_game(draw="manual")
    ok(hall.post(f"/api/games/{gid}/ledger/price", {"amount": "5"}))
    ok(hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "1-13"}), 201)  # £65.00
    jackpot = {"kind": "jackpot", "within": 40, "jackpot": pot, "percent": 50, "mode": mode}
    ok(hall.post(f"/api/games/{gid}/ledger/prizes", {"prizes": {"bingo": jackpot}}))
    assert prize_line(hall, gid) == says
    win_75_ball_round(hall, deck, gid, 3)
    (p,) = ledger(hall, gid)["payouts"]
    assert p["cents"] == paid
    words = f"£{paid // 100}.{paid % 100:02d} awarded"
    # a pot the award did not pay (the prize was larger) stays in the pot, and the room hears it
    rolls = f" · jackpot not won: £{int(pot)}.00 rolls over"
    assert prize_line(hall, gid) == f"Bingo {words}" + (" (the jackpot)" if p["jackpot"] else rolls)


def test_the_room_hears_the_jackpot_in_spanish_too(client):
    deck = new_deck(20, seed="ledger-room", name="Club")
    hall = Caller(client, deck)
    gid = hall.new_game(draw="manual")
    ok(hall.post(f"/api/games/{gid}/ledger/price", {"amount": "5"}))
    ok(hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "1-13"}), 201)  # 65,00 €
    jackpot = {"kind": "jackpot", "within": 40, "jackpot": "20", "percent": 50, "mode": "on-top"}
    ok(hall.post(f"/api/games/{gid}/ledger/prizes", {"prizes": {"bingo": jackpot}}))
    said = "Bingo 32,50 € · Pozo de 20,00 € más: Bingo en 40 bolas o menos"
    assert prize_line(hall, gid, "es") == said


@pytest.mark.parametrize(
    "spec",
    [
        {"kind": "percent", "percent": 0.0},
        {"kind": "percent", "percent": 0},
        {"kind": "percent", "percent": "0"},
        {"kind": "jackpot", "within": 9, "jackpot": "5", "mode": "sometimes"},
    ],
)
def test_a_zero_percent_prize_or_an_unknown_jackpot_mode_is_refused(app, hall, spec):
    gid = hall.new_game(draw="manual")
    before = log_rows(app)
    r = hall.post(f"/api/games/{gid}/ledger/prizes", {"prizes": {"bingo": spec}})
    assert r.status_code == 400 and r.get_json()["error"]
    assert ledger(hall, gid)["prizes"] == [] and log_rows(app) == before


def test_a_sale_cannot_be_voided_once_its_rounds_share_was_paid(hall, strips):
    """Cards 1-18 at 1,50 (27,00) and the línea at 35 %: paid 9,45 on call of the línea. Voiding
    the sale of cards 7-18 then would leave round 1 having paid 9,45 as 35 % of 9,00 taken."""
    gid = hall.new_game(draw="manual")
    ok(hall.post(f"/api/games/{gid}/ledger/price", {"amount": "1,50"}))
    ok(hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "1-6"}), 201)
    late = ok(hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "7-18"}), 201)
    percent = {"linea": {"kind": "percent", "percent": 35}}
    ok(hall.post(f"/api/games/{gid}/ledger/prizes", {"prizes": percent}))
    hall.call(gid, *row(strips, 1, 0))
    ok(hall.post(f"/api/games/{gid}/claims", {"serial": 1, "player": "Ana"}), 201)
    ok(hall.post(f"/api/games/{gid}/award", {"prize": "linea"}))
    assert [p["cents"] for p in ledger(hall, gid)["payouts"]] == [945]
    r = hall.post(f"/api/ledger/sales/{late['sale_id']}/correct", {"reason": "typed twice"})
    assert r.status_code == 409
    assert r.get_json()["error"] == (
        f"sale {late['sale_id']} cannot be voided: round 1 already paid a prize as a share of "
        "the money it took, this sale's included"
    )
    es = hall.client.post(
        f"/api/ledger/sales/{late['sale_id']}/correct",
        json={"reason": "dos veces"},
        headers={**hall.auth, "Accept-Language": "es"},
    )
    assert es.status_code == 409 and es.get_json()["error"].startswith(
        f"la venta {late['sale_id']} no se puede anular: la ronda 1 ya pagó un premio"
    )
    state = ledger(hall, gid)
    assert [s["void"] for s in state["sales"]] == [None, None]  # nothing was voided
    assert state["round_sales"] == {"cards": 18, "cents": 2700}


def test_a_sale_can_still_be_voided_when_its_round_paid_fixed_prizes_only(hall, strips):
    gid = hall.new_game(draw="manual")
    ok(hall.post(f"/api/games/{gid}/ledger/price", {"amount": "1,50"}))
    sale = ok(hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "1-6"}), 201)
    fixed = {"linea": {"kind": "fixed", "cents": 500}}
    ok(hall.post(f"/api/games/{gid}/ledger/prizes", {"prizes": fixed}))
    hall.call(gid, *row(strips, 1, 0))
    ok(hall.post(f"/api/games/{gid}/claims", {"serial": 1}), 201)
    ok(hall.post(f"/api/games/{gid}/award", {"prize": "linea"}))
    ok(hall.post(f"/api/ledger/sales/{sale['sale_id']}/correct", {"reason": "typed twice"}))
