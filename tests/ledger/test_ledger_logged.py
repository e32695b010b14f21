"""What a ledger action logs (the audit trail, the book's `ledger.*` entry) is a value whose JSON
keeps the keys the book has always had: a key is left out where the action has nothing to say.
The expected details are written from the ledger's rules, not read back from the code."""

from bingo_hall.money import PrizeKind, PrizeRule
from bingo_hall.station.ledger.logged import (
    CashCounted,
    NightSaleLogged,
    PayoutMarked,
    PrizesSet,
    SaleLogged,
    StockLogged,
)


def test_a_payout_marked_not_paid_says_why_and_nothing_of_cash():
    assert PayoutMarked(7, 1500, None, "paid by mistake").to_json() == {
        "payout_id": 7,
        "cents": 1500,
        "reason": "paid by mistake",
    }
    assert PayoutMarked(7, 1500, False, None).to_json() == {
        "payout_id": 7,
        "cents": 1500,
        "cash": False,
    }


def test_a_cash_count_by_pieces_names_each_denomination_and_a_first_count_gives_no_reason():
    counted = CashCounted("2026-12-05", 4250, ((2000, 2), (50, 5)), None)
    assert counted.to_json() == {
        "night": "2026-12-05",
        "cents": 4250,
        "pieces": {"2000": 2, "50": 5},
    }
    assert CashCounted("2026-12-05", 100, (), "counted again").to_json() == {
        "night": "2026-12-05",
        "cents": 100,
        "reason": "counted again",
    }


def test_stock_back_without_a_reason_logs_no_reason():
    assert StockLogged(3, "1-10", "Ana", None).to_json() == {
        "stock_id": 3,
        "serials": "1-10",
        "seller": "Ana",
    }


def test_a_sale_logs_its_price_and_the_round_it_counts_in_in_the_audit_trails_order():
    sale = SaleLogged(4, None, "1-6", 500, "cash", 2, 6, 500, 6, 1)
    assert list(sale.to_json().items()) == [
        ("sale_id", 4),
        ("round", None),
        ("serials", "1-6"),
        ("cents", 500),
        ("method", "cash"),
        ("price_id", 2),
        ("cards", 6),
        ("price", 500),
        ("book", 6),
        ("made_in", 1),
    ]


def test_a_night_sale_lists_its_games_and_shares():
    sold = NightSaleLogged(1, (2, 3), "1-6", 6, 301, (151, 150), 301, 6, None, "cash")
    assert sold.to_json()["games"] == [2, 3] and sold.to_json()["shares"] == [151, 150]


def test_a_prize_no_longer_paid_is_logged_as_none():
    rule = PrizeRule(PrizeKind.FIXED, cents=1000)
    logged = PrizesSet((("line", rule), ("full-house", None))).to_json()
    assert logged == {"line": rule.to_json(), "full-house": None}
