"""Amounts as a hall writes them, in either language (docs/ledger.md, "How amounts are read"):
Argentine thousands ("1.500", "2.000,00 ARS") and English ones ("1,500.50") are read, a lone
comma before three digits is refused naming both readings, and the ledger fills its boxes with
the form its pages show."""

from __future__ import annotations

import re

import pytest
from testkit import Caller, page_login

from bingo_hall.manifest import new_deck
from bingo_hall.money import LedgerError, parse_cents
from bingo_hall.money.program_file import parse_program


@pytest.mark.parametrize(
    ("typed", "cents"),
    [
        ("1.500", 150_000),
        ("1.500,50", 150_050),
        ("2000", 200_000),
        ("2000,5", 200_050),
        ("2.000,00 ARS", 200_000),
        ("1,500.50", 150_050),
        ("2,000.00", 200_000),
        ("1.000.000", 100_000_000),
    ],
)
def test_an_amount_with_thousands_marks_is_read_as_the_hall_writes_it(typed, cents):
    assert parse_cents(typed) == cents


@pytest.mark.parametrize("typed", ["1.50.0", "1.5000", "12.345,678", "1,500,50", "0.500"])
def test_marks_out_of_place_are_refused(typed):
    with pytest.raises(LedgerError, match="at most two decimals"):
        parse_cents(typed)


def test_a_lone_comma_before_three_digits_is_refused_naming_both_readings():
    with pytest.raises(LedgerError) as got:
        parse_cents("1,500")
    message = str(got.value)
    assert "1500" in message and "1.500" in message  # fifteen hundred, or 1,500 with 3 decimals
    assert "\n" not in message


ARGENTINE = """\
name = "Noche del club"
currency = "ARS"

[[game]]
name = "Cuatro esquinas"
pattern = "four_corners"
prices = [{ label = "Suelto", amount = "1.500" }, { label = "6", amount = "6.000,50", book = 6 }]
prizes = { bingo = "20.000" }
"""


def test_a_program_file_takes_argentine_amounts():
    game = parse_program(ARGENTINE, "noche.toml").games[0]
    assert [p.cents for p in game.prices] == [150_000, 600_050]
    assert game.prizes["bingo"].cents == 2_000_000


def test_the_price_box_is_filled_in_the_form_the_page_shows(client):
    deck = new_deck(10, seed="argentine amounts", name="Club")
    hall = Caller(client, deck)
    gid = hall.new_game(draw="manual")
    r = hall.post(f"/api/games/{gid}/ledger/price", {"amount": "2.000"})
    assert r.status_code == 200, r.get_json()
    page_login(client)
    for lang, shown in (("es", "2.000,00"), ("en", "2,000.00")):
        body = client.get(f"/caller/ledger?game={gid}&lang={lang}").get_data(as_text=True)
        box = re.search(r'id="price-amount"[^>]*value="([^"]*)"', body)
        assert box and box.group(1) == shown, (lang, box and box.group(0))
        assert shown in re.sub(r"<[^>]+>", " ", body.split('id="price-amount"')[0])
