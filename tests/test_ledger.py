"""The night's money rules (bingo_hall/money/, pure): amounts in cents, percentages rounded
down, equal splits with the odd cents to the earliest claims, books, serial ranges, the jackpot,
and amounts in the reader's locale. Cases worked out by hand, and properties with Hypothesis."""

from __future__ import annotations

from datetime import UTC
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bingo_hall.money import (
    JackpotMode,
    LedgerError,
    Price,
    PrizeKind,
    PrizeRule,
    SaleMoney,
    Serials,
    book_of,
    check_currency,
    first_overlap,
    format_serials,
    jackpot_pot,
    money,
    parse_cents,
    parse_percent,
    parse_serials,
    percent_of,
    rule_from_json,
    settle,
    split,
    takings,
)

NBSP = "\u00a0"


# ---- amounts and percentages, by hand ------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "cents"),
    [("15", 1500), ("15,5", 1550), ("15.50", 1550), ("0,05", 5), ("€ 2", 200), (1999, 1999)],
)
def test_an_amount_typed_by_the_host_is_exact_cents(typed, cents):
    assert parse_cents(typed) == cents


@pytest.mark.parametrize("bad", ["-1", "-0,50", -5, "1,505", "abc", "", None, 1.5, True])
def test_a_negative_or_unreadable_amount_is_refused(bad):
    with pytest.raises(LedgerError):
        parse_cents(bad)


def test_a_negative_amount_says_so():
    with pytest.raises(LedgerError, match="cannot be negative"):
        parse_cents("-3", "price")


@pytest.mark.parametrize("bad", ["100.01", "101", "250", "-5", "x", ""])
def test_a_percentage_over_100_or_negative_is_refused(bad):
    with pytest.raises(LedgerError):
        parse_percent(bad)


def test_a_percentage_of_the_sales_is_rounded_down_to_the_cent():
    # 15 % of 10,05 € = 1,5075 € -> 1,50 €; 35 % of 60,00 € = 21,00 €; 12,5 % of 0,07 € = 0
    assert percent_of(1005, Decimal("15")) == 150
    assert percent_of(6000, Decimal("35")) == 2100
    assert percent_of(7, Decimal("12.5")) == 0
    assert percent_of(6000, parse_percent("100")) == 6000


# ---- splitting a prize ---------------------------------------------------------------------


def test_ten_euros_between_three_winners_gives_the_odd_cent_to_the_first_claim():
    assert split(1000, 3) == (334, 333, 333)
    assert split(1001, 3) == (334, 334, 333)
    assert split(1200, 2) == (600, 600)
    assert split(1, 2) == (1, 0)


@given(st.integers(0, 10**8), st.integers(1, 200))
def test_shares_add_up_to_the_prize_and_differ_by_at_most_a_cent(cents, winners):
    shares = split(cents, winners)
    assert len(shares) == winners and sum(shares) == cents
    assert max(shares) - min(shares) <= 1
    assert list(shares) == sorted(shares, reverse=True)  # earlier claims never get less


# ---- prices and books ----------------------------------------------------------------------


def test_a_book_price_sells_whole_books_only():
    assert Price(500, book=6).amount(12) == 1000
    with pytest.raises(LedgerError, match="whole books"):
        Price(500, book=6).amount(7)
    assert Price(150).amount(41) == 6150
    with pytest.raises(LedgerError):
        Price(-1)


def test_a_book_is_n_consecutive_cards_from_a_multiple_of_n_plus_one():
    assert book_of(1, 6) == Serials(1, 6)
    assert book_of(6, 6) == Serials(1, 6)
    assert book_of(7, 6) == Serials(7, 12)
    assert book_of(57, 1) == Serials(57, 57)


# ---- serial ranges -------------------------------------------------------------------------


def test_serial_ranges_as_the_host_types_them():
    assert parse_serials("1-40, 55", 60) == (Serials(1, 40), Serials(55, 55))
    assert parse_serials(" 55 ,1 - 3; 7 9", 60) == (
        Serials(1, 3),
        Serials(7, 7),
        Serials(9, 9),
        Serials(55, 55),
    )
    assert format_serials(parse_serials("55, 1-40", 60)) == "1-40, 55"


@pytest.mark.parametrize(
    ("typed", "says"),
    [
        ("1-40, 30-50", "card 30 is named twice"),
        ("0-3", "card 0 is not in the deck"),
        ("5-61", "card 61 is not in the deck"),
        ("40-1", "runs backwards"),
        ("1-4a", "is not a card number"),
        ("", "type the cards sold"),
    ],
)
def test_bad_serial_ranges_say_what_is_wrong(typed, says):
    with pytest.raises(LedgerError, match=says):
        parse_serials(typed, 60)


def test_an_overlap_with_a_sale_names_the_first_card_sold_twice():
    assert first_overlap([Serials(30, 50)], [Serials(1, 40)]) == 30
    assert first_overlap([Serials(41, 50)], [Serials(1, 40)]) is None
    assert first_overlap([Serials(45, 45), Serials(10, 10)], [Serials(1, 40)]) == 10


ranges = st.lists(st.tuples(st.integers(1, 80), st.integers(0, 10)), max_size=6).map(
    lambda xs: [Serials(a, a + n) for a, n in xs]
)


@given(ranges, ranges)
def test_overlap_is_exactly_a_card_in_both_or_named_twice(new, sold):
    taken = [s for r in sold for s in range(r.first, r.last + 1)]
    named = [s for r in new for s in range(r.first, r.last + 1)]
    twice = {s for s in named if named.count(s) > 1} | (set(named) & set(taken))
    assert first_overlap(new, sold) == (min(twice) if twice else None)


# ---- prizes and the jackpot ----------------------------------------------------------------


def test_a_jackpot_within_its_calls_pays_the_pot_split_between_the_winners():
    rule = PrizeRule(PrizeKind.JACKPOT, cents=1000, within=40, jackpot=5000)
    won = settle(rule, sales=6000, pot=15000, at_call=40, winners=2)
    assert won.jackpot and won.cents == 15000 and won.shares == (7500, 7500)


def test_a_jackpot_missed_pays_the_normal_prize_and_the_pot_rolls_over():
    rule = PrizeRule(PrizeKind.JACKPOT, cents=1000, percent=Decimal(10), within=40, jackpot=5000)
    missed = settle(rule, sales=6000, pot=5000, at_call=41, winners=1)
    assert not missed.jackpot and missed.cents == 1000 + 600
    # the next game adds its 50,00 € to the 50,00 € not won: 100,00 €
    assert jackpot_pot([5000, 5000], paid=[]) == 10000
    assert jackpot_pot([5000, 5000, 2000], paid=[6000, 4000]) == 2000


def test_fixed_and_percentage_prizes_pay_what_they_say():
    assert settle(PrizeRule(PrizeKind.FIXED, cents=1500), 0, 0, 10, 1).cents == 1500
    pct = rule_from_json({"kind": "percent", "percent": "35"})
    assert settle(pct, 6150, 0, 10, 2).shares == (1076, 1076)  # 35 % of 61,50 € = 21,525 -> 21,52
    assert settle(pct, 6180, 0, 10, 2).shares == (1082, 1081)  # 35 % of 61,80 € = 21,63


@pytest.mark.parametrize(
    "spec",
    [
        {"kind": "percent", "percent": 101},
        {"kind": "percent"},
        {"kind": "fixed", "amount": "-5"},
        {"kind": "jackpot", "within": 0, "jackpot": "10"},
        {"kind": "lottery"},
        "fixed",
    ],
)
def test_a_bad_prize_rule_is_refused(spec):
    with pytest.raises(LedgerError):
        rule_from_json(spec)


# ---- formatting ----------------------------------------------------------------------------


def test_amounts_are_written_as_each_language_writes_them():
    assert money(1500, "EUR", "es") == f"15,00{NBSP}€"
    assert money(5250, "EUR", "es") == f"52,50{NBSP}€"
    assert money(1500, "GBP", "en") == "£15.00"
    assert money(123456, "EUR", "en") == "€1,234.56"
    assert money(-250, "EUR", "es") == f"-2,50{NBSP}€"


def test_the_currency_is_an_iso_code():
    assert check_currency("gbp") == "GBP"
    for bad in ("EURO", "XXQ", "", 5):
        with pytest.raises(LedgerError):
            check_currency(bad)


def test_a_game_started_after_midnight_belongs_to_the_evening_before():
    from datetime import timedelta, timezone

    from bingo_hall.money.night import night_of

    utc, madrid = UTC, timezone(timedelta(hours=1))
    assert night_of("2026-11-24T20:00:00Z", utc) == "2026-11-24"
    assert night_of("2026-11-25T01:30:00Z", utc) == "2026-11-24"
    assert night_of("2026-11-25T05:30:00Z", madrid) == "2026-11-25"  # 06:30 in Madrid


# ---- issue 33: rules the ledger broke ------------------------------------------------------


def test_a_sale_for_the_whole_game_counts_its_money_once_in_the_round_it_was_made():
    sales = [
        SaleMoney(None, made_in=1, cards=10, cents=10000),  # cards 1-10 for the whole game
        SaleMoney(2, made_in=1, cards=2, cents=2000),  # sold during round 1 for round 2
        SaleMoney(None, made_in=2, cards=1, cents=1000),  # the whole game, sold in round 2
        SaleMoney(1, made_in=1, cards=3, cents=3000, void=True),  # voided: not counted
    ]
    assert takings(sales) == {1: (10, 10000), 2: (3, 3000)}
    # 60 % bingo in each of two rounds: 60,00 + 18,00 on 130,00 taken, never more
    bingo = PrizeRule(PrizeKind.PERCENT, percent=Decimal(60))
    paid = sum(bingo.normal(cents) for _cards, cents in takings(sales).values())
    assert paid == 6000 + 1800 <= 13000


@pytest.mark.parametrize(
    ("typed", "says"),
    [
        ("2-7", "book 1 is cards 1-6, and this sale has only part of it"),
        ("13-15, 22-24", "book 3 is cards 13-18, and this sale has only part of it"),
        ("7-12, 19", "book 4 is cards 19-24"),
    ],
)
def test_a_sale_at_a_book_price_is_whole_books(typed, says):
    price = Price(500, book=6)
    with pytest.raises(LedgerError, match=says):
        price.of_sale(parse_serials(typed, 60))
    assert price.of_sale(parse_serials("1-6, 13-18", 60)) == 1000  # two whole books
    assert Price(150).of_sale(parse_serials("2-7", 60)) == 900  # per card: any cards


def test_a_jackpot_paid_on_top_pays_the_prize_and_the_pot():
    rule = rule_from_json(
        {"kind": "jackpot", "within": 40, "jackpot": "20", "percent": 50, "mode": "on-top"}
    )
    won = settle(rule, sales=6500, pot=2000, at_call=21, winners=1)  # 50 % of 65,00 = 32,50
    assert won.jackpot and won.cents == 3250 + 2000 and won.from_pot == (2000,)
    assert rule.if_jackpot(6500, 2000) == 5250


def test_a_jackpot_on_top_shared_is_shared_as_one_prize_the_shares_differ_by_a_cent_at_most():
    """The pot and the prize it is paid on top of are one prize for its winners: 5,73 of prize and
    13,09 of pot between two winners is 9,41 each (a random night of the ledger's property test
    found 9,42 and 9,40: each part's odd cent went to the first winner)."""
    rule = rule_from_json({"kind": "jackpot", "within": 83, "jackpot": "13.09", "cents": 573,
                           "mode": "on-top"})  # fmt: skip
    won = settle(rule, sales=0, pot=1309, at_call=20, winners=2)
    assert won.cents == 1882 and won.shares == (941, 941)
    assert sum(won.from_pot) == 1309 and all(p <= s for p, s in zip(won.from_pot, won.shares))
    for sales, pot, winners in [(6180, 1001, 3), (6150, 999, 4), (100, 1, 2), (0, 7, 5)]:
        shares = settle(rule, sales, pot, 20, winners).shares
        assert max(shares) - min(shares) <= 1 and sum(shares) == 573 + pot


def test_a_jackpot_instead_never_pays_less_than_the_prize_it_replaces():
    rule = rule_from_json({"kind": "jackpot", "within": 40, "jackpot": "20", "percent": 50})
    assert rule.mode == JackpotMode.INSTEAD  # the default
    # the reported night: a £20.00 jackpot instead of £32.50 paid £20.00; now the larger
    small = settle(rule, sales=6500, pot=2000, at_call=21, winners=1)
    assert small.cents == 3250 and not small.jackpot and small.from_pot == (0,)  # pot stays
    big = settle(rule, sales=6500, pot=5000, at_call=21, winners=2)
    assert big.cents == 5000 and big.jackpot and big.shares == big.from_pot == (2500, 2500)
    assert rule.if_jackpot(6500, 5000) == 5000 and rule.if_jackpot(6500, 2000) == 3250


@pytest.mark.parametrize(
    "call",
    [
        lambda: PrizeRule(PrizeKind.FIXED, cents=15.5),  # type: ignore[arg-type]
        lambda: PrizeRule(PrizeKind.PERCENT, percent=35.5),  # type: ignore[arg-type]
        lambda: PrizeRule(PrizeKind.JACKPOT, within=40, jackpot=20.0),  # type: ignore[arg-type]
        lambda: Price(150.0),  # type: ignore[arg-type]
        lambda: Price(150, book=6.0),  # type: ignore[arg-type]
        lambda: split(1000.0, 3),  # type: ignore[arg-type]
        lambda: split(1000, 3.0),  # type: ignore[arg-type]
    ],
)
def test_the_pure_ledger_refuses_floats_called_directly(call):
    with pytest.raises(TypeError, match="not"):
        call()


@pytest.mark.parametrize("pct", [0.0, 0, "0", "0,0", "0 %"])
def test_a_zero_percent_prize_is_refused_like_a_negative_one(pct):
    with pytest.raises(LedgerError):
        rule_from_json({"kind": "percent", "percent": pct})
    with pytest.raises(LedgerError, match="more than 0"):
        PrizeRule(PrizeKind.PERCENT, percent=Decimal(0))
    # a jackpot's normal prize may leave its share out
    assert rule_from_json({"kind": "jackpot", "within": 9, "percent": "0"}).percent == 0


@pytest.mark.parametrize(
    ("typed", "first_outside"),
    [("55-70", 61), ("58-60, 62", 62), ("70, 55-65", 61), ("61-65", 61), ("0-3", 0)],
)
def test_the_out_of_deck_error_names_the_first_card_outside_the_deck(typed, first_outside):
    with pytest.raises(LedgerError) as refused:
        parse_serials(typed, 60)
    assert refused.value.params["serial"] == first_outside
