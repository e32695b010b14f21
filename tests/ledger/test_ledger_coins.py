"""Money in the currency's words: the cash count's coins below the unit written as the
currency's treasurers write them ("50p", not "£0.50"), and the odd cents of a shared prize
named by the currency's small unit (pence, céntimos, centavos), in English and Spanish."""

from __future__ import annotations

import pytest
from testkit import Caller

from bingo_hall.money import SmallUnit, coin, small_unit

from .test_ledger_api import ok


@pytest.mark.parametrize(
    ("cents", "currency", "lang", "written"),
    [
        (50, "GBP", "en", "50p"),
        (1, "GBP", "en", "1p"),
        (20, "GBP", "es", "20p"),
        (200, "GBP", "en", "£2.00"),  # a pound and above: as any amount
        (5000, "GBP", "en", "£50.00"),
        (50, "EUR", "en", "50c"),
        (2, "EUR", "es", "2 cént."),
        (100, "EUR", "es", "1,00\xa0€"),
        (25, "USD", "en", "25¢"),
        (50, "ARS", "es", "0,50\xa0ARS"),  # no usual short form: the amount as written
    ],
)
def test_a_coin_below_the_unit_is_written_in_the_currencys_small_unit(
    cents, currency, lang, written
):
    assert coin(cents, currency, lang) == written


def test_each_currency_names_its_hundredth():
    assert small_unit("GBP") == SmallUnit.PENCE
    assert small_unit("EUR") == SmallUnit.EURO_CENTS
    assert small_unit("ARS") == small_unit("MXN") == SmallUnit.CENTAVOS
    assert small_unit("USD") == SmallUnit.CENTS


def page(hall, lang: str = "en") -> str:
    return hall.get(f"/caller/ledger?lang={lang}").get_data(as_text=True)


def test_the_cash_count_of_a_pound_night_reads_50p_20p_1p(client):
    hall = Caller(client)
    ok(hall.post("/api/ledger/currency", {"currency": "GBP"}))
    text = page(hall)
    for label in ("50p", "20p", "1p", "£5.00"):
        assert f'<label class="short">{label} <input' in text, label
    assert "£0.50" not in text and "£0.01" not in text
    assert 'aria-label="How many of 50p"' in text


def test_the_odd_cents_are_named_by_the_currencys_small_unit_in_both_languages(client):
    hall = Caller(client)
    hall.new_game()
    ok(hall.post("/api/ledger/currency", {"currency": "GBP"}))
    assert "the odd pence go to the earliest claims" in page(hall)
    assert "los peniques que sobren van a los cantos más tempranos" in page(hall, "es")
    ok(hall.post("/api/ledger/currency", {"currency": "EUR"}))
    assert "the odd euro cents go to the earliest claims" in page(hall)
    assert "los céntimos de euro que sobren" in page(hall, "es")
    ok(hall.post("/api/ledger/currency", {"currency": "ARS"}))
    assert "los centavos que sobren" in page(hall, "es")
    assert "the odd centavos go" in page(hall)
