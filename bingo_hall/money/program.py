"""The night as a program: the games of a hall night in order, read from a TOML
file the host writes once (docs/program.md).

Each `[[game]]` names the game, its balls (75 or 90), its mode (Bingo Normal, Bingo de Puntos)
or its prize list (any of `prize_rules.BUILT_IN`, or a host's own), its pattern, the price of a
card (or of a book) and the money of each prize (a fixed sum, a share of the sales, a jackpot
within N calls paid on top of the prize or instead of it), and an optional interval after it.

This module holds the program as values (`Program`, `ProgramGame`, `ProgramError`) and the
file's keys; the file is read by `program_file.parse_program`, which checks it whole and names
the line of the first problem, and the program is put in words by `program_words`.

Pure: no Flask, no SQLite; the station keeps the program's progress (`station/program`), the
printer draws it (`printing/program_pdf.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from ..errors import LocatedError, untranslated
from ..prize_plan import PrizePlan
from ..seventyfive.patterns import BUILT_IN, Pattern
from ..seventyfive.specials import Setting, Specials
from ..toml_table import Table
from ..variants import Variant, variant_for
from .prices import Price
from .prize_money import PrizeRule

#: a game's special rules (bingo_hall.seventyfive.specials, docs/patterns.md "Special games")
PROGRAM_SPECIAL_KEYS = ("wild_number", "odd_even", "money_ball", "money_ball_bonus", "cards_needed")
MAX_GAMES = 60
MAX_NAME = 40
MAX_INTERVAL = 120  # minutes

GAME_KEYS = (
    "name",
    "name_es",
    "balls",
    "mode",
    "prize_list",
    "pattern",
    "mask",
    "price",
    "book",
    "prices",
    "prizes",
    "interval",
    "draw",
    *PROGRAM_SPECIAL_KEYS,
)
DRAWS = ("auto", "manual")  # the laptop draws, or the Maestro types the balls from a cage
PROGRAM_KEYS = ("name", "name_es", "currency", "lang", "patterns", "game")
PRIZE_KEYS = ("amount", "percent", "jackpot", "within", "mode")


class ProgramError(LocatedError):
    """A program file that cannot be played: the message starts with the file and the line, and
    names the game when the problem is one game's."""

    def __init__(
        self,
        template: str = "",
        /,
        *,
        source: str = "",
        line: int = 0,
        game: int = 0,
        **params: Any,
    ) -> None:
        self.game = game
        super().__init__(template, source=source, line=line, **params)

    def words(
        self,
        translate: Callable[[str], str] = untranslated,
        number: Callable[[Decimal | float], str] = str,
    ) -> str:
        words = super().words(translate, number)
        if self.game:
            words = translate("game %(n)s: %(problem)s") % {"n": self.game, "problem": words}
        return words


@dataclass(frozen=True)
class ProgramGame:
    """One game of the program, checked: everything the station needs to start it."""

    number: int
    names: Mapping[str, str]
    balls: int
    plan: PrizePlan
    pattern: Pattern | None
    prices: tuple[Price, ...]  # the game's price list (the ledger's), empty: none set
    prizes: Mapping[str, PrizeRule]
    interval: int = 0  # minutes of interval after the game
    draw: str = "auto"
    #: the game's settings as written (the station keeps them, and reads the game back from them)
    spec: Table = field(default_factory=Table, compare=False)
    #: the names of the program's own patterns (its `[patterns]` table), by key and language
    pattern_names: Mapping[str, Mapping[str, str]] = field(default_factory=dict, compare=False)
    #: the special rules (wild number, money ball, odd-even, cards needed); the money ball itself
    #: is chosen on the night, before the game's first ball
    specials: Specials = Specials()

    def name(self, lang: str) -> str:
        return self.names.get(lang) or self.names["en"]

    @property
    def variant(self) -> Variant[Any]:
        return variant_for(self.balls)

    @property
    def options(self) -> dict[str, Setting | Mapping[str, Mapping[str, str]]]:
        """The game's claims settings as the station's new game takes them."""
        special: dict[str, Setting | Mapping[str, Mapping[str, str]]] = {
            **self.specials.to_settings()
        }
        if self.pattern is None:
            return special
        if self.pattern.name not in BUILT_IN:  # drawn, or the program's own: its forms travel
            own = self.pattern_names.get(self.pattern.name)
            # and the program's own its names, so the screens and the room's announcement name
            # it as the file does, never by its key
            names = {"pattern_names": {self.pattern.name: dict(own)}} if own else {}
            return {"pattern": self.pattern.name, "mask": self.pattern.mask, **names, **special}
        return {"pattern": self.pattern.name, **special}

    @property
    def main_prize(self) -> str:
        """The prize the game is played for: its last (the full house, the bingo)."""
        return self.plan.prizes[-1]


@dataclass(frozen=True)
class Program:
    names: Mapping[str, str]
    currency: str | None
    games: tuple[ProgramGame, ...]
    source: str = field(default="", compare=False)
    #: the hall's language ("es" or "en"): what `program print` and `program check` speak and
    #: print when no --lang is given (None: the environment's, as every command)
    lang: str | None = None

    def name(self, lang: str) -> str:
        return self.names.get(lang) or self.names["en"]


# ---- the program in words (the printed program, `program check`, the station's pages) ------
