"""The program in words, in Spanish and English: the printed program, `program check` and the
station's pages name each game's figure, price and prizes with these."""

from __future__ import annotations

from .. import prize_names as names
from ..errors import KitError
from .currency import money
from .prize_money import PrizeKind, PrizeRule
from .program import (
    ProgramGame,
)

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "game": "Game",
        "of": "of",
        "a_card": "%(price)s a card",
        "a_book": "%(price)s a book of %(n)s",
        "percent": "%(pct)s %% of the sales",
        "jackpot": "%(prize)s, or %(pot)s jackpot in %(n)s calls or fewer",
        "on-top": "%(prize)s, plus a %(pot)s jackpot in %(n)s calls or fewer",
        "interval": "Interval: %(n)s min",
        "then_interval": "then a %(n)s min interval",
    },
    "es": {
        "game": "Partida",
        "of": "de",
        "a_card": "%(price)s el cartón",
        "a_book": "%(price)s el libro de %(n)s",
        "percent": "%(pct)s %% de lo recaudado",
        "jackpot": "%(prize)s, o un pozo de %(pot)s en %(n)s bolas o menos",
        "on-top": "%(prize)s, más un pozo de %(pot)s en %(n)s bolas o menos",
        "interval": "Descanso: %(n)s min",
        "then_interval": "después, descanso de %(n)s min",
    },
}


def words(lang: str) -> dict[str, str]:
    if lang not in WORDS:
        raise KitError("unknown language %(lang)r; use es or en", lang=lang)
    return WORDS[lang]


def figure_name(game: ProgramGame, lang: str) -> str:
    """What the game is played for, in words: its pattern, its lines, or its prize list."""
    if game.plan.prize_list is not None:
        return game.plan.prize_list.name(lang)
    if game.specials.odd_even is not None:  # the card's own odd (even) numbers
        return names.prize_name(f"{game.specials.odd_even}_numbers", lang)
    key = game.pattern.name if game.pattern else game.plan.figure
    return names.prize_name(key, lang, game.pattern_names)


def prize_name(game: ProgramGame, key: str, lang: str) -> str:
    return names.prize_name(key, lang, game.plan.names())


def price_text(game: ProgramGame, currency: str, lang: str) -> str:
    """The price list in words: "£1.00 a card, £5.00 a book of 6"."""
    w = words(lang)
    out = []
    for price in game.prices:
        amount = money(price.cents, currency, lang)
        if price.book == 1:
            text = w["a_card"] % {"price": amount}
        else:
            text = w["a_book"] % {"price": amount, "n": price.book}
        out.append(f"{price.label}: {text}" if price.label else text)
    return ", ".join(out)


def prize_text(rule: PrizeRule, currency: str, lang: str, jackpot: bool = True) -> str:
    """A prize's money as the program prints it: "£20.00", "50 % of the sales", "£40.00, plus a
    £200.00 jackpot within 40 calls"; without its `jackpot`, the prize alone ("£40.00")."""
    w = words(lang)

    def fmt(cents: int) -> str:
        return money(cents, currency, lang)

    pct = format(rule.percent.normalize(), "f").replace(".", "," if lang == "es" else ".")
    if rule.kind == PrizeKind.FIXED:
        return fmt(rule.cents)
    if rule.kind == PrizeKind.PERCENT:
        return w["percent"] % {"pct": pct}
    parts = [fmt(rule.cents)] if rule.cents or not rule.percent else []
    if rule.percent:
        parts.append(w["percent"] % {"pct": pct})
    if not jackpot:
        return " + ".join(parts)
    return w[str(rule.mode) if rule.mode == "on-top" else "jackpot"] % {
        "prize": " + ".join(parts),
        "pot": fmt(rule.jackpot),
        "n": rule.within,
    }


def headline(game: ProgramGame, total: int, currency: str, lang: str) -> str:
    """ "Game 3 of 12 · Four Corners · £20.00 · then a 15 min interval": the display's line for
    the game in play. A jackpot is the ledger's line to tell (it knows the pot, rolled over from
    the games before: one sum, one wording), so the prize here is the prize alone."""
    w = words(lang)
    parts = [f"{w['game']} {game.number} {w['of']} {total}", game.name(lang)]
    rule = game.prizes.get(game.main_prize)
    if rule is not None:
        parts.append(prize_text(rule, currency, lang, jackpot=False))
    if game.interval:
        parts.append(w["then_interval"] % {"n": game.interval})
    return " · ".join(parts)
