"""A 75-ball hall's special games, as rules of the game (docs/patterns.md, "Special games").

* **Wild number.** The first ball's last digit is the wild digit: every number of the game's
  range ending in it counts as called from then on (first ball 43: 3, 13, 23, 33, 53, 63 and 73).
  The first ball is itself a normal call (every hall glossary reads it so), a first ball of 10,
  20, ... makes 0 the wild digit, and a wild number drawn later is called as usual: it is drawn
  and shown, but it covered its square already, so it completes nothing.
* **Money ball (hot ball).** A ball chosen before the game's first ball: typed by the Maestro, or
  drawn from the round's committed seed (`drawn_money_ball`, so the revealed seed shows it was not
  picked). A bingo whose winning call is that ball pays as the program says: double, or a bonus
  on top. Once it is known no more cards are sold for the game (unsealed paper could be picked
  knowing it); the station's door refuses them.
* **Odd-even.** A full card that counts only the odd numbers, or only the even ones: the card
  wins when every number of that parity printed on it is called. The centre square counts as
  covered when it is FREE (printed so, or the free-centre option), as in any pattern.
* **Cards needed.** The game's pattern must be on N cards of one book (the cards sold together):
  the claim names one card of the book, and the book is judged; the verdict lists its cards that
  complete the figure.

Each special game also has its one-line wording in English and Spanish (`rule_lines`), for the
caller page, /display, the printed program and the phones. Pure: no Flask, no SQLite.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from typing import TypeVar

from ..errors import KitError
from ..rng import SeededStream
from .cards import BALLS, CENTRE, SIZE, Card

Cell = tuple[int, int]
T = TypeVar("T")
#: a special game's setting as the game's options keep it (JSON)
Setting = bool | int | str

MAX_CARDS_NEEDED = 12


class Parity(StrEnum):
    """Which numbers an odd-even game counts; the member is the program's and the API's word."""

    ODD = "odd"
    EVEN = "even"


class MoneyBallPay(StrEnum):
    """How a bingo on the money ball pays: its prize twice, or its prize and a bonus."""

    DOUBLE = "double"
    BONUS = "bonus"


# ---- wild number ---------------------------------------------------------------------------


def wild_digit(calls: Sequence[int]) -> int | None:
    """The wild digit of a wild-number game: the first ball's last digit (None before it)."""
    return calls[0] % 10 if calls else None


def wild_numbers(calls: Sequence[int], balls: int = BALLS) -> frozenset[int]:
    """The numbers the wild digit makes count as called: every 1..balls ending in it."""
    digit = wild_digit(calls)
    if digit is None:
        return frozenset()
    return frozenset(n for n in range(1, balls + 1) if n % 10 == digit)


def counted_calls(calls: Sequence[int], wild: bool, balls: int = BALLS) -> frozenset[int]:
    """Every number that counts as called: the calls, and the wild numbers in a wild game."""
    return frozenset(calls) | (wild_numbers(calls, balls) if wild else frozenset())


def call_positions(calls: Sequence[int], wild: bool, balls: int = BALLS) -> dict[int, int]:
    """Each counted number and the position (0-based) of the call from which it counts: a wild
    number counts from the first call, until it is drawn itself (a square cleared by a false
    claim is covered again only by a ball drawn after it, so a wild number's own call is what
    can cover it again)."""
    out = dict.fromkeys(wild_numbers(calls, balls) if wild else (), 0)
    out.update({ball: i for i, ball in enumerate(calls)})
    return out


# ---- odd-even ------------------------------------------------------------------------------


def parity(value: object) -> Parity:
    """The program's or the game's odd_even word. KitError for any other."""
    if isinstance(value, str) and value in tuple(Parity):
        return Parity(value)
    raise KitError("odd_even is odd or even, not %(value)r", value=value)


def odd_even_form(card: Card, which: Parity, free_centre: bool) -> frozenset[Cell]:
    """The squares an odd-even game needs on `card`: every number of the parity, and the centre
    when it is FREE (so the FREE square counts, and a false claim's penalty clears it too)."""
    rest = 1 if which == Parity.ODD else 0
    cells = {
        (r, c)
        for r in range(SIZE)
        for c in range(SIZE)
        if (n := card.number_at(r, c)) is not None and n % 2 == rest
    }
    if card.number_at(*CENTRE) is None or free_centre:
        cells.add(CENTRE)
    return frozenset(cells)


# ---- money ball ----------------------------------------------------------------------------


@dataclass(frozen=True)
class MoneyBallRule:
    """What the program says a bingo on the money ball pays: `double`, or `bonus` cents more."""

    pays: MoneyBallPay
    bonus: int = 0

    def __post_init__(self) -> None:
        if self.pays == MoneyBallPay.BONUS and self.bonus <= 0:
            raise KitError("a money ball bonus is an amount above zero")
        if self.pays == MoneyBallPay.DOUBLE and self.bonus:
            raise KitError("a money ball pays double or a bonus, not both")

    def extra(self, prize_cents: int) -> int:
        """What a bingo on the money ball is paid on top of its prize of `prize_cents`."""
        return prize_cents if self.pays == MoneyBallPay.DOUBLE else self.bonus

    def extras(self, shares: Sequence[int]) -> tuple[int, ...]:
        """What each winner of a bingo on the money ball gets on top of their share: their share
        again (double), or an equal part of the bonus, the odd cents to the first winners (as
        the prize itself is shared)."""
        if self.pays == MoneyBallPay.DOUBLE:
            return tuple(shares)
        base, odd = divmod(self.bonus, len(shares))
        return tuple(base + 1 if i < odd else base for i in range(len(shares)))

    @property
    def word(self) -> str:
        """How the game's settings keep it: "double", or the bonus in cents ("bonus:500")."""
        return "double" if self.pays == MoneyBallPay.DOUBLE else f"bonus:{self.bonus}"

    @classmethod
    def from_word(cls, word: object) -> MoneyBallRule:
        if word == "double":
            return cls(MoneyBallPay.DOUBLE)
        if isinstance(word, str) and word.startswith("bonus:") and word[6:].isdigit():
            return cls(MoneyBallPay.BONUS, int(word[6:]))
        raise KitError("money_ball_pays is double or bonus:CENTS, not %(value)r", value=word)


def on_money_ball(calls: Sequence[int], money_ball: int | None) -> bool:
    """The winning call (the last of `calls`) is the money ball."""
    return money_ball is not None and bool(calls) and calls[-1] == money_ball


def drawn_money_ball(seed: bytes, balls: int = BALLS) -> int:
    """The money ball the station draws for a round: the first ball of the round's committed seed
    shuffled under its own label, so it is fixed by the commitment published before it and anyone
    checks it once the seed is revealed (and it is not the round's first ball by construction)."""
    order = list(range(1, balls + 1))  # draw.committed_order's shuffle, under its own label
    SeededStream(seed, b"money ball").shuffle(order)
    return order[0]


def check_money_ball(ball: object, balls: int = BALLS) -> int:
    if isinstance(ball, bool) or not isinstance(ball, int) or not 1 <= ball <= balls:
        raise KitError(
            "the money ball is a whole number from 1 to %(balls)s, not %(ball)r",
            balls=balls,
            ball=ball,
        )
    return ball


# ---- cards needed --------------------------------------------------------------------------


def check_cards_needed(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise KitError("cards_needed is a whole number from 1 to %(n)s", n=MAX_CARDS_NEEDED)
    if not 1 <= value <= MAX_CARDS_NEEDED:
        raise KitError("cards_needed is a whole number from 1 to %(n)s", n=MAX_CARDS_NEEDED)
    return value


@dataclass(frozen=True)
class BookVerdict:
    """A book judged for a game that needs its pattern on `needed` cards of one book: the book's
    serials, those that complete the figure (in serial order), and whether that is enough."""

    serials: tuple[int, ...]
    complete: tuple[int, ...]
    needed: int

    @property
    def bingo(self) -> bool:
        return len(self.complete) >= self.needed


def judge_book(serials: Iterable[int], wins: Mapping[int, bool], needed: int) -> BookVerdict:
    """The book's verdict from each card's own (`wins[serial]`: the card completes the game's
    figure on the claim's calls)."""
    book = tuple(sorted(serials))
    return BookVerdict(book, tuple(s for s in book if wins.get(s)), needed)


# ---- wording -------------------------------------------------------------------------------


def _money(cents: int, lang: str) -> str:
    """An amount as the reader writes it: 5,000.00 in English, 5.000,00 in Spanish."""
    text = f"{Decimal(cents) / 100:,.2f}"
    return text.translate(str.maketrans(",.", ".,")) if lang == "es" else text


@dataclass(frozen=True)
class RuleLine:
    """One special game in words, as the screens and the printed program show it."""

    key: str
    text: Mapping[str, str]  # by language: "en", "es"

    def words(self, lang: str) -> str:
        return self.text.get(lang) or self.text["en"]


@dataclass(frozen=True)
class Specials:
    """The special rules a 75-ball game is played with (all off by default)."""

    wild_number: bool = False
    odd_even: Parity | None = None
    money_ball: int | None = None  # None: none, or not known yet
    money_ball_rule: MoneyBallRule | None = None
    cards_needed: int = 1

    @property
    def any(self) -> bool:
        return self != Specials()

    @property
    def judged(self) -> bool:
        """A rule that changes which cards win (the money ball only changes what one pays)."""
        return self.wild_number or self.odd_even is not None or self.cards_needed > 1

    @classmethod
    def from_json(cls, settings: Mapping[str, object], balls: int = BALLS) -> Specials:
        """The special rules a game's settings describe (keys absent or None: off). A money ball of
        "draw" is refused: the station replaces it with the drawn ball as the game starts."""

        def get(key: str, check: Callable[[object], T]) -> T | None:
            value = settings.get(key)
            if value is None:
                return None
            try:
                return check(value)
            except KitError as exc:
                raise SpecialSettingError(key, exc) from None

        def flag(value: object) -> bool:
            if not isinstance(value, bool):
                raise KitError("wild_number is true or false")
            return value

        def ball(value: object) -> int:
            if value == "draw":
                raise KitError("the station draws the money ball as a game starts; type a ball now")
            return check_money_ball(value, balls)

        out = cls(
            wild_number=get("wild_number", flag) or False,
            odd_even=get("odd_even", parity),
            money_ball=get("money_ball", ball),
            money_ball_rule=get("money_ball_pays", MoneyBallRule.from_word),
            cards_needed=get("cards_needed", check_cards_needed) or 1,
        )
        if out.money_ball is not None and out.money_ball_rule is None:
            raise SpecialSettingError(
                "money_ball_pays", KitError("a money ball needs what it pays: double or a bonus")
            )
        return out

    def to_settings(self) -> dict[str, Setting]:
        """The game's settings for these rules (the keys `from_json` reads), none when off:
        what a new game's options carry, as JSON."""
        out: dict[str, Setting] = {}
        if self.wild_number:
            out["wild_number"] = True
        if self.odd_even is not None:
            out["odd_even"] = str(self.odd_even)
        if self.money_ball is not None:
            out["money_ball"] = self.money_ball
        if self.money_ball_rule is not None:
            out["money_ball_pays"] = self.money_ball_rule.word
        if self.cards_needed > 1:
            out["cards_needed"] = self.cards_needed
        return out


#: the game settings (the station's options, the book's game entry) the special rules take;
#: `money_ball` is the ball once known, or "draw" at a new game for the station to draw it
SPECIAL_KEYS = ("wild_number", "odd_even", "money_ball", "money_ball_pays", "cards_needed")


class SpecialSettingError(KitError):
    """A special game's setting that cannot be played: `key` names it, `problem` says why."""

    def __init__(self, key: str, problem: KitError) -> None:
        self.key = key
        self.problem = problem
        super().__init__("the setting %(key)s: %(problem)s", key=key, problem=problem)


def wild_words(digit: str | None) -> Mapping[str, str]:
    """The wild number's line in English and Spanish, before the first ball (`digit` None) or
    with its digit (a page that follows the calls fills in "{d}" itself)."""
    if digit is None:
        return {
            "en": "Wild number: the first ball's last digit — every number ending in it "
            "counts as called",
            "es": "Número comodín: la última cifra de la primera bola — todo número "
            "terminado en ella cuenta como cantado",
        }
    d = digit
    return {
        "en": f"Wild number: {d} — every number ending in {d} counts as called",
        "es": f"Número comodín: {d} — todo número terminado en {d} cuenta como cantado",
    }


def money_words(rule: MoneyBallRule, ball: str | None) -> Mapping[str, str]:
    """The money ball's line in English and Spanish, before it is known (`ball` None) or with
    it (a page that hears of the ball fills in "{b}" itself)."""
    en_ball = "drawn before the first ball" if ball is None else ball
    es_ball = "se elige antes de la primera bola" if ball is None else ball
    en_on = "that ball" if ball is None else ball
    es_on = "esa bola" if ball is None else f"el {ball}"
    if rule.pays == MoneyBallPay.DOUBLE:
        en_pay, es_pay = "pays double", "paga el doble"
    else:
        en_pay = f"pays {_money(rule.bonus, 'en')} more"
        es_pay = f"paga {_money(rule.bonus, 'es')} más"
    return {
        "en": f"Money ball: {en_ball} — a bingo on {en_on} {en_pay}",
        "es": f"Bola premiada: {es_ball} — un bingo con {es_on} {es_pay}",
    }


def money_ball_won_words(rule: MoneyBallRule, ball: int) -> Mapping[str, str]:
    """What the room is told of a bingo won on the money ball, after the bingo's own words."""
    if rule.pays == MoneyBallPay.DOUBLE:
        en_pay, es_pay = "its prize paid double", "el premio se paga doble"
    else:
        en_pay = f"{_money(rule.bonus, 'en')} more"
        es_pay = f"{_money(rule.bonus, 'es')} más"
    return {
        "en": f"on the money ball, {ball}: {en_pay}",
        "es": f"con la bola premiada, el {ball}: {es_pay}",
    }


def rule_lines(specials: Specials, calls: Sequence[int] = ()) -> tuple[RuleLine, ...]:
    """One line per special game, in English and Spanish; `calls` names the wild digit once the
    first ball is out."""
    out = []
    if specials.wild_number:
        d = wild_digit(calls)
        out.append(RuleLine("wild_number", wild_words(None if d is None else str(d))))
    rule = specials.money_ball_rule
    if rule is not None:
        ball = specials.money_ball
        out.append(RuleLine("money_ball", money_words(rule, None if ball is None else str(ball))))
    if specials.odd_even == Parity.ODD:
        out.append(
            RuleLine(
                "odd_even",
                {
                    "en": "Odd numbers: every odd number on the card, FREE counts",
                    "es": "Impares: todos los números impares del cartón, el centro libre cuenta",
                },
            )
        )
    elif specials.odd_even == Parity.EVEN:
        out.append(
            RuleLine(
                "odd_even",
                {
                    "en": "Even numbers: every even number on the card, FREE counts",
                    "es": "Pares: todos los números pares del cartón, el centro libre cuenta",
                },
            )
        )
    if specials.cards_needed > 1:
        n = specials.cards_needed
        out.append(
            RuleLine(
                "cards_needed",
                {
                    "en": f"On {n} cards of one book — the pattern must be on {n} cards "
                    "sold together",
                    "es": f"En {n} cartones de un libro — la figura tiene que estar en {n} "
                    "cartones vendidos juntos",
                },
            )
        )
    return tuple(out)
