"""The special games of a 75-ball game on the hall's screens: the snapshot's `specials` part,
which the caller page and /display (static/specials.js) draw as one line per special game and
use to mark the wild numbers on the Tabla Confrontadora. The rules and their words are the pure
`seventyfive.specials`'s; this reads the game's settings and calls (games.Snapshot adds it)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..seventyfive.specials import Specials, money_words, rule_lines, wild_words
from ..values import JsonValue
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
    #: the money ball's line with "{b}" for the ball (None: no money ball): a phone's card page
    #: fills it in when it hears of the ball, as it asks the station for nothing
    money_words: Mapping[str, str] | None = None


def game_specials(game: Game) -> Specials:
    """The game's special rules, as it was started with them (a game of strips takes none)."""
    return Specials.from_json(game.options, game.balls)


def specials_shown(game: Game, calls: Sequence[int]) -> SpecialsShown:
    """The snapshot's `specials`, from the game and its round's calls as the snapshot has them
    (no query of its own: every screen's snapshot carries it)."""
    special = game_specials(game)
    lines = rule_lines(special, calls if special.wild_number else ())
    return SpecialsShown(
        tuple(SpecialLine(line.key, line.text) for line in lines),
        special.wild_number,
        {"before": wild_words(None), "digit": wild_words("{d}")} if special.wild_number else None,
        special.money_ball,
        game.balls,
        None if special.money_ball_rule is None else money_words(special.money_ball_rule, "{b}"),
    )
