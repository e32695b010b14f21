"""The book's entries of the draw and the claims, as values: what `replay` reads from an entry's
`data` (the JSON the station wrote, `Entry.data`), each field by name and with its type. An entry
whose data lacks a field or holds the wrong type cannot be read (KeyError, TypeError), which
`replay` reports as an entry that cannot be replayed.

The kinds and their fields are those the station appends (docs/audit.md): a round opened with
its commitment, its public input, its seed revealed, a call and an undo, a claim, a 75-ball
award and a 90-ball prize with its winners.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


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


@dataclass(frozen=True)
class RoundOpened:
    """A round begins: the commitment to its seed, and the public input mixed into it."""

    game_id: int
    round: int
    commitment: str
    public_input: str | None

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> RoundOpened:
        return cls(
            _int(d["game_id"], "game_id"),
            _int(d["round"], "round"),
            _str(d["commitment"], "commitment"),
            _text_or_none(d.get("public_input"), "public_input"),
        )


@dataclass(frozen=True)
class PublicInputSet:
    """The round's public input, set before its first ball."""

    game_id: int
    round: int
    public_input: str | None

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> PublicInputSet:
        return cls(
            _int(d["game_id"], "game_id"),
            _int(d["round"], "round"),
            _text_or_none(d.get("public_input"), "public_input"),
        )


@dataclass(frozen=True)
class SeedRevealed:
    """The round's seed, revealed once the round is over (hex)."""

    game_id: int
    round: int
    seed: str

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> SeedRevealed:
        return cls(
            _int(d["game_id"], "game_id"), _int(d["round"], "round"), _str(d["seed"], "seed")
        )


@dataclass(frozen=True)
class Called:
    """A ball called: its place in the round (`seq`), and whether the station drew it
    (`source` "auto") or the Maestro entered it."""

    game_id: int
    round: int
    seq: int
    ball: int
    source: str

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Called:
        return cls(
            _int(d["game_id"], "game_id"),
            _int(d["round"], "round"),
            _int(d["seq"], "seq"),
            _int(d["ball"], "ball"),
            _str(d["source"], "source"),
        )


@dataclass(frozen=True)
class Undone:
    """A call taken back (the round's last, by its `seq` and ball)."""

    game_id: int
    round: int
    seq: int
    ball: int

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Undone:
        return cls(
            _int(d["game_id"], "game_id"),
            _int(d["round"], "round"),
            _int(d["seq"], "seq"),
            _int(d["ball"], "ball"),
        )


@dataclass(frozen=True)
class Claimed:
    """A claim: its card or ticket, and how many calls it saw; in a game that needs its pattern
    on N cards of one book, the book it named (its first and last serials)."""

    game_id: int
    round: int
    claim_id: int
    serial: int
    at_call: int
    book: tuple[int, int] | None = None

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Claimed:
        book = d.get("book")
        if book is not None and not (isinstance(book, list) and len(book) == 2):
            raise TypeError("book is not a pair of serials")
        return cls(
            _int(d["game_id"], "game_id"),
            _int(d["round"], "round"),
            _int(d["claim_id"], "claim_id"),
            _int(d["serial"], "serial"),
            _int(d["at_call"], "at_call"),
            None if book is None else (_int(book[0], "book"), _int(book[1], "book")),
        )


@dataclass(frozen=True)
class Awarded:
    """A 75-ball round's award: the claim it rests on, its card, and the kind of bingo."""

    game_id: int
    round: int
    claim_id: int
    serial: int
    kind: str

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Awarded:
        return cls(
            _int(d["game_id"], "game_id"),
            _int(d["round"], "round"),
            _int(d["claim_id"], "claim_id"),
            _int(d["serial"], "serial"),
            _str(d["kind"], "kind"),
        )


@dataclass(frozen=True)
class Seat:
    """A winner of a 90-ball prize: the claim and the ticket."""

    claim_id: int
    serial: int

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Seat:
        return cls(_int(d["claim_id"], "claim_id"), _int(d["serial"], "serial"))


@dataclass(frozen=True)
class PrizeSettled:
    """A 90-ball prize awarded on a call, shared by its winners."""

    game_id: int
    round: int
    prize: str
    at_call: int
    winners: tuple[Seat, ...]

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> PrizeSettled:
        winners = d["winners"]
        if not isinstance(winners, list):
            raise TypeError("winners is not a list")
        return cls(
            _int(d["game_id"], "game_id"),
            _int(d["round"], "round"),
            _str(d["prize"], "prize"),
            _int(d["at_call"], "at_call"),
            tuple(Seat.from_json(w) for w in winners),
        )
