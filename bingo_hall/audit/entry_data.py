"""The book's entries of the draw and the claims, as values: what `replay` reads from an entry's
`data` (the JSON the station wrote, `Entry.data`), each field by name and with its type. An entry
whose data lacks a field or holds the wrong type cannot be read (KeyError, TypeError), which
`replay` reports as an entry that cannot be replayed.

The kinds and their fields are those the station appends (docs/audit.md): a game opened, a
round opened with its commitment, its public input, its seed revealed, the money ball chosen, a
call and an undo, a claim, a 75-ball award and a 90-ball prize with its winners; and the
ledger's night sales (a sale for several games of the program, each game's share, a sale
voided).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, Self

from ..variants import DEFAULT_BALLS


def _int(value: object, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{key} is not a whole number")
    return value


def _str(value: object, key: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{key} is not text")
    return value


def _text_or_none(value: object, key: str) -> str | None:
    if value is not None and not isinstance(value, str):
        raise TypeError(f"{key} is not text")
    return value


def _bool(value: object, key: str) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{key} is not true or false")
    return value


def _ints(value: object, key: str) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise TypeError(f"{key} is not a list")
    return tuple(_int(v, key) for v in value)


#: how a field is read, by its annotation (a string: this module's annotations are postponed)
_READERS = {
    "int": _int,
    "str": _str,
    "str | None": _text_or_none,
    "bool": _bool,
    "tuple[int, ...]": _ints,
}


@dataclass(frozen=True)
class _Entry:
    """What every entry's value shares: read from its data (`from_json`), each field by its name,
    checked by its type (a field that may be None may be absent)."""

    @classmethod
    def from_json(cls, d: Mapping[str, Any], **given: Any) -> Self:
        """`given`: the fields a kind reads otherwise (a claim's book, a prize's seats)."""
        values = dict(given)
        for f in fields(cls):
            if f.name not in values:
                kind = str(f.type)
                values[f.name] = _READERS[kind](
                    d.get(f.name) if kind.endswith("| None") else d[f.name], f.name
                )
        return cls(**values)


@dataclass(frozen=True)
class GameOpened(_Entry):
    """A game begins: its deck, its mode, whether its centre is free, its options (its pattern,
    its special game...); its balls and its 90-ball prize plan (a book from before the 90-ball
    game has neither: 75 balls), and a host's own prize list, as recorded (TOML)."""

    game_id: int
    deck_id: str
    mode: str
    free_centre: bool
    balls: int
    prizes: str | None
    prize_list: str | None
    options: Mapping[str, Any]

    @classmethod
    def from_json(cls, d: Mapping[str, Any], **given: Any) -> GameOpened:
        options = d.get("options") or {}
        if not isinstance(options, dict):
            raise TypeError("options is not an object")
        balls = _int(d.get("balls") or DEFAULT_BALLS, "balls")
        return super().from_json(
            d, free_centre=bool(d["free_centre"]), balls=balls, options=options
        )


@dataclass(frozen=True)
class MoneyBallChosen(_Entry):
    """The game's money ball, chosen before its round's first ball: typed, or drawn from the
    round's seed (checked when the seed is revealed)."""

    game_id: int
    round: int
    money_ball: int
    drawn: bool


@dataclass(frozen=True)
class RoundOpened(_Entry):
    """A round begins: the commitment to its seed, and the public input mixed into it."""

    game_id: int
    round: int
    commitment: str
    public_input: str | None


@dataclass(frozen=True)
class PublicInputSet(_Entry):
    """The round's public input, set before its first ball."""

    game_id: int
    round: int
    public_input: str | None


@dataclass(frozen=True)
class SeedRevealed(_Entry):
    """The round's seed, revealed once the round is over (hex)."""

    game_id: int
    round: int
    seed: str


@dataclass(frozen=True)
class Called(_Entry):
    """A ball called: its place in the round (`seq`), and whether the station drew it
    (`source` "auto") or the Maestro entered it."""

    game_id: int
    round: int
    seq: int
    ball: int
    source: str


@dataclass(frozen=True)
class Undone(_Entry):
    """A call taken back (the round's last, by its `seq` and ball)."""

    game_id: int
    round: int
    seq: int
    ball: int


@dataclass(frozen=True)
class Claimed(_Entry):
    """A claim: its card or ticket, and how many calls it saw; in a game that needs its pattern
    on N cards of one book, the book it named (its first and last serials)."""

    game_id: int
    round: int
    claim_id: int
    serial: int
    at_call: int
    book: tuple[int, int] | None = None

    @classmethod
    def from_json(cls, d: Mapping[str, Any], **given: Any) -> Claimed:
        book = d.get("book")
        if book is not None and not (isinstance(book, list) and len(book) == 2):
            raise TypeError("book is not a pair of serials")
        pair = None if book is None else (_int(book[0], "book"), _int(book[1], "book"))
        return super().from_json(d, book=pair)


@dataclass(frozen=True)
class Awarded(_Entry):
    """A 75-ball round's award: the claim it rests on, its card, and the kind of bingo."""

    game_id: int
    round: int
    claim_id: int
    serial: int
    kind: str


@dataclass(frozen=True)
class Seat(_Entry):
    """A winner of a 90-ball prize: the claim and the ticket."""

    claim_id: int
    serial: int


@dataclass(frozen=True)
class PrizeSettled(_Entry):
    """A 90-ball prize awarded on a call, shared by its winners."""

    game_id: int
    round: int
    prize: str
    at_call: int
    winners: tuple[Seat, ...]

    @classmethod
    def from_json(cls, d: Mapping[str, Any], **given: Any) -> PrizeSettled:
        winners = d["winners"]
        if not isinstance(winners, list):
            raise TypeError("winners is not a list")
        return super().from_json(d, winners=tuple(Seat.from_json(w) for w in winners))


@dataclass(frozen=True)
class NightSold(_Entry):
    """A night sale: cards sold once for several games of the program (`games`, by their place
    in it), at a price of `price` cents per `book` cards, its `cents` shared over the games
    (`shares`, in the order of `games`)."""

    night_sale_id: int
    serials: str
    cards: int
    cents: int
    price: int
    book: int
    games: tuple[int, ...]
    shares: tuple[int, ...]


@dataclass(frozen=True)
class NightShared(_Entry):
    """A game's share of a night sale, as the game (in its `place` in the program) started: its
    cents, the sale's cards, and the round the share counts in (`made_in`)."""

    game_id: int
    night_sale_id: int
    place: int
    cards: int
    cents: int
    made_in: int


@dataclass(frozen=True)
class NightVoided(_Entry):
    """A night sale voided, with the reason."""

    night_sale_id: int
    reason: str | None
