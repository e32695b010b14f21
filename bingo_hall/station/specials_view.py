"""The special games of a 75-ball game on the hall's screens: the snapshot's `specials` part,
which the caller page and /display (static/specials.js) draw as one line per special game and
use to mark the wild numbers on the Tabla Confrontadora. The rules and their words are the pure
`bingo_hall.specials`'s; this reads the game's settings and calls."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass

from ..specials import Specials, rule_lines, specials_from, wild_words
from ..values import JsonValue
from .games import called_balls, get_game
from .model import Game


@dataclass(frozen=True)
class SpecialLine(JsonValue):
    key: str
    text: Mapping[str, str]


@dataclass(frozen=True)
class SpecialsShown(JsonValue):
    """What the screens show of a game's special rules: their lines (empty: none), whether the
    first ball's digit is wild (and the line's words before the first ball and with "{d}" for
    the digit), the money ball
    once known, and the game's balls (the wild numbers are the ones of 1..balls)."""

    lines: tuple[SpecialLine, ...]
    wild_number: bool
    wild_words: Mapping[str, Mapping[str, str]] | None  # "before" the first ball, "digit"
    money_ball: int | None
    balls: int


@dataclass(frozen=True)
class SpecialsPart(JsonValue):
    """The snapshot's `specials`."""

    specials: SpecialsShown


def game_specials(game: Game) -> Specials:
    """The game's special rules, as it was started with them (a 90-ball game plays none)."""
    if game.balls != 75:
        return Specials()
    return specials_from(game.options, game.balls)


def specials_part(conn: sqlite3.Connection, game_id: int) -> SpecialsPart:
    game = get_game(conn, game_id)
    special = game_specials(game)
    lines = rule_lines(special, called_balls(conn, game_id) if special.wild_number else ())
    return SpecialsPart(
        SpecialsShown(
            tuple(SpecialLine(line.key, line.text) for line in lines),
            special.wild_number,
            {"before": wild_words(None), "digit": wild_words("{d}")}
            if special.wild_number
            else None,
            special.money_ball,
            game.balls,
        )
    )
