"""Amounts written in the reader's locale ("15,00 €" in Spanish, "€15.00" in English), the
night's currency checked, and the names of the coins below the unit as treasurers write them."""

from __future__ import annotations

import re
from decimal import Decimal
from enum import StrEnum

from babel.core import Locale, UnknownLocaleError
from babel.numbers import format_currency, format_decimal, is_currency

from .amounts import LedgerError

DEFAULT_CURRENCY = "EUR"


def check_currency(code: object) -> str:
    """An ISO 4217 code Babel knows ("EUR", "GBP", "USD", "ARS"...)."""
    if not isinstance(code, str) or not re.fullmatch(r"[A-Za-z]{3}", code.strip()):
        raise LedgerError("the currency is a three-letter code such as EUR or GBP")
    code = code.strip().upper()
    if not is_currency(code):
        raise LedgerError("%(code)s is not a currency", code=code)
    return code


def money(cents: int, currency: str = DEFAULT_CURRENCY, lang: str = "en") -> str:
    """An amount as a reader of `lang` writes it: "15,00 €" in Spanish, "€15.00" in English,
    "£15.00" for pounds. Negative amounts (a night that lost money) keep their sign."""
    try:
        locale = Locale.parse(_LOCALES.get(lang, lang))
    except (UnknownLocaleError, ValueError):
        locale = Locale.parse("en_GB")
    return format_currency(Decimal(cents) / 100, currency, locale=locale)


def amount_text(cents: int, lang: str = "en") -> str:
    """An amount without its currency, as `money` writes it and `parse_cents` reads it back:
    what an input box is filled with ("2.000,00" in Spanish, "2,000.00" in English)."""
    try:
        locale = Locale.parse(_LOCALES.get(lang, lang))
    except (UnknownLocaleError, ValueError):
        locale = Locale.parse("en_GB")
    return format_decimal(Decimal(cents) / 100, format="#,##0.00", locale=locale)


class SmallUnit(StrEnum):
    """What the hundredth of a currency is called where its treasurers count it: the pages
    word "the odd cents" with it ("the odd pence" in pounds, "los céntimos" in euros in
    Spanish, "los centavos" in pesos and dollars)."""

    PENCE = "pence"  # GBP
    EURO_CENTS = "euro-cents"  # EUR: cents in English, céntimos in Spanish
    CENTS = "cents"  # USD and the other dollars: cents, centavos in Spanish
    CENTAVOS = "centavos"  # the pesos and the other currencies of Latin America


#: the currencies whose hundredth is not called a cent in English
_SMALL_UNITS = {
    "GBP": SmallUnit.PENCE,
    "EUR": SmallUnit.EURO_CENTS,
    **{c: SmallUnit.CENTAVOS for c in ("ARS", "MXN", "CLP", "COP", "UYU", "PYG", "BOB", "PEN")},
    **{c: SmallUnit.CENTAVOS for c in ("BRL", "DOP", "GTQ", "HNL", "NIO", "CUP", "PHP")},
}


def small_unit(currency: str) -> SmallUnit:
    """The name of the currency's hundredth (cents when nothing more usual is known)."""
    return _SMALL_UNITS.get(currency, SmallUnit.CENTS)


#: how a treasurer writes a coin below the unit, by currency and language: "50p" in pounds (in
#: either language: it is what the coin and the club's tally say), "50c" for euros in English
#: (as Irish clubs write it), "50 cent." in Spanish (the RAE's abbreviation of céntimo), "50¢" for
#: dollars; other currencies keep the amount as `money` writes it
_COINS = {
    ("GBP", "en"): "{n}p",
    ("GBP", "es"): "{n}p",
    ("EUR", "en"): "{n}c",
    ("EUR", "es"): "{n} cént.",
    ("USD", "en"): "{n}¢",
    ("USD", "es"): "{n} ¢",
}


def coin(cents: int, currency: str = DEFAULT_CURRENCY, lang: str = "en") -> str:
    """A note or coin of the cash count as the treasurer writes it: below the unit, in the
    currency's small unit where it has a usual short form ("50p", "20c", "5¢"); a pound, a
    euro and above, as `money` writes any amount ("£1.00", "2,00 €")."""
    form = _COINS.get((currency, lang))
    if form is None or not 0 < cents < 100:
        return money(cents, currency, lang)
    return form.format(n=cents)


#: the locale of each page language (Spain's Spanish, British English: "€15.00", "£15.00")
_LOCALES = {"es": "es_ES", "en": "en_GB"}
