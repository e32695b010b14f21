"""A hall's result: the call count of its first valid claim on the linked game's figure, or no
winner within the window.

It names the game (its id), the hall, the card that won (its deck id, serial and numbers, as the
deck file holds it) and the calls up to the claim, the moment it was made, and the book's signed
head at that moment; the station's book key signs it all. The result travels as a small JSON
file (an HTTP POST where there is a line, a USB stick or an email where there is none).

`check` is what the tally asks of one result, and each refusal is one line: the signature and
the registered key, the calls against the committed order, the call count against the calls,
and that the card holds the figure on the counted call and not before (a claim on the
completing call only: a hall whose player missed the call cannot claim it later for a lower
count, and a count that is not the completing call is not the hall's result).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum
from typing import Any

from ..audit import BookError, SignedHead
from ..errors import KitError
from ..variants import variant_for
from .game import LinkedGame, parse_utc, utc
from .keys import Signer, fingerprint_of_key, signature_holds

FORMAT = "bingo-hall-linked-result"
VERSION = 1
LABEL = b"bingo-hall linked result v1\n"
MAX_BYTES = 64_000


class Outcome(StrEnum):
    WON = "won"  # a valid claim on the figure, at `count`
    NO_WINNER = "no-winner"  # the window closed (or the balls ran out) with no valid claim


class Refusal(KitError):
    """Why the tally does not count a result, in one line."""


@dataclass(frozen=True)
class Winner:
    """The card of the hall's first valid claim: its deck, serial and numbers."""

    deck: str
    serial: int
    card: Mapping[str, Any]  # the ticket as the deck file holds it (`to_json`)


@dataclass(frozen=True)
class HallResult:
    """One hall's result as signed by its station (see the module's docstring)."""

    game: str
    hall: str
    outcome: Outcome
    count: int | None
    winner: Winner | None
    calls: tuple[int, ...]
    at: str
    book: SignedHead
    key: str  # the station's raw public key, base64
    signature: str = ""

    def to_json(self) -> dict[str, Any]:
        w = self.winner
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "hall": self.hall,
            "outcome": str(self.outcome),
            "count": self.count,
            "deck": None if w is None else w.deck,
            "serial": None if w is None else w.serial,
            "card": None if w is None else dict(w.card),
            "calls": list(self.calls),
            "at": self.at,
            "book": self.book.to_json()["head"],
            "key": self.key,
            "signature": self.signature,
        }

    @property
    def fingerprint(self) -> str:
        return fingerprint_of_key(self.key) or ""

    def text(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False) + "\n"

    def signed(self, signer: Signer) -> HallResult:
        """The result signed by `signer` (its key becomes the result's key)."""
        unsigned = HallResult(
            self.game,
            self.hall,
            self.outcome,
            self.count,
            self.winner,
            self.calls,
            self.at,
            self.book,
            signer.public_key,
        )
        return replace(unsigned, signature=signer.sign(LABEL, unsigned))

    def signature_holds(self) -> bool:
        return signature_holds(self.key, LABEL, self)


def make_result(
    game: LinkedGame,
    hall: str,
    station: Signer,
    head: SignedHead,
    calls: Sequence[int],
    at: datetime,
    deck: str | None = None,
    ticket: Any = None,
) -> HallResult:
    """The hall's signed result: won on the last of `calls` by `ticket` of `deck`, or, with no
    ticket, no winner after `calls`."""
    winner = (
        None if ticket is None or deck is None else Winner(deck, ticket.serial, ticket.to_json())
    )
    return HallResult(
        game.game_id,
        hall,
        Outcome.NO_WINNER if winner is None else Outcome.WON,
        None if winner is None else len(calls),
        winner,
        tuple(calls),
        utc(at),
        head,
        station.public_key,
    ).signed(station)


@dataclass(frozen=True)
class HallClaim:
    """A claim the hall's station judged valid: the card's serial, how many calls the round
    had when it was made, and when."""

    serial: int
    at_call: int
    at: datetime


def first_claim(
    game: LinkedGame,
    calls: Sequence[int],
    claims: Iterable[HallClaim],
    ticket_of: Callable[[int], Any],
) -> tuple[HallClaim, Any] | None:
    """The claim the hall's result reports: the first (by call, then as made) whose card holds
    the linked figure on exactly the call it was made on. A valid claim on the hall's own prize
    (a line) is not one, nor a claim made calls after its card completed (the tally would
    refuse it: `check`)."""
    figure = game.figure
    for claim in sorted(claims, key=lambda c: (c.at_call, c.at)):
        ticket = ticket_of(claim.serial)
        if figure.completed_at(ticket, calls[: claim.at_call]) == claim.at_call:
            return claim, ticket
    return None


def read_result(text: str) -> HallResult:
    """A result file as received; Refusal in one line when it is not one."""
    if len(text) > MAX_BYTES:
        raise Refusal("it is not a result: it is larger than any result (%(n)s bytes)", n=len(text))
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        raise Refusal("it is not a result: it is not JSON") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise Refusal("it is not a result of a linked game (it names no result)")
    if data.get("version") != VERSION:
        raise Refusal(
            "it is a result of version %(v)r; this kit reads version 1", v=data.get("version")
        )
    try:
        outcome = Outcome(data["outcome"])
        calls = data["calls"]
        if not isinstance(calls, list) or not all(type(c) is int for c in calls):
            raise TypeError
        count = data["count"]
        if count is not None and type(count) is not int:
            raise TypeError
        winner = None
        if data["card"] is not None or data["deck"] is not None:
            deck, serial, card = data["deck"], data["serial"], data["card"]
            if not isinstance(deck, str) or type(serial) is not int or not isinstance(card, dict):
                raise TypeError
            winner = Winner(deck, serial, card)
        book = SignedHead.from_json({"head": data["book"]})
        fields = (data["game"], data["hall"], data["at"], data["key"], data["signature"])
        if not all(isinstance(f, str) for f in fields):
            raise TypeError
    except (KeyError, TypeError, ValueError, BookError):
        raise Refusal(
            "it is not a result of a linked game: a field is missing or malformed"
        ) from None
    game, hall, at, key, signature = fields
    return HallResult(game, hall, outcome, count, winner, tuple(calls), at, book, key, signature)


def check(game: LinkedGame, order: Sequence[int], result: HallResult) -> None:
    """Raise the Refusal that keeps `result` out of the tally, or return when it counts (a late
    result counts as late: `is_late`)."""
    if result.game != game.game_id:
        raise Refusal("it is a result of another game (%(id)s)", id=result.game[:12])
    fingerprint = result.fingerprint
    hall = game.hall_by_key(fingerprint)
    if hall is None:
        raise Refusal(
            "it is signed by key %(fp)s, which no hall of this game registered",
            fp=fingerprint or "(none)",
        )
    if not result.signature_holds():
        raise Refusal(
            "its signature does not hold for %(hall)s's key: forged, or changed after signing",
            hall=hall.name,
        )
    if result.hall != hall.name:
        raise Refusal(
            "it names the hall %(named)s but is signed by %(hall)s's key",
            named=result.hall,
            hall=hall.name,
        )
    if not result.book.valid() or result.book.fingerprint != fingerprint:
        raise Refusal("its book's head is not signed by %(hall)s's station key", hall=hall.name)
    at = parse_utc(result.at)
    if at is None:
        raise Refusal("its time %(at)r is not a moment in UTC", at=result.at)
    if at < game.window.start:
        raise Refusal(
            "it was made at %(at)s, before the window opened (%(start)s)",
            at=result.at,
            start=utc(game.window.start),
        )
    _check_calls(order, result.calls)
    if result.outcome == Outcome.NO_WINNER:
        if result.count is not None or result.winner is not None:
            raise Refusal("it says no winner but gives a call count or a card")
        return
    _check_win(game, result)


def is_late(game: LinkedGame, result: HallResult) -> bool:
    """Made after the window's latest end (a state of its own: the result is not counted)."""
    at = parse_utc(result.at)
    return at is not None and at > game.window.end


def _check_calls(order: Sequence[int], calls: Sequence[int]) -> None:
    if len(calls) > len(order):
        raise Refusal(
            "it lists %(n)s calls; the game has %(balls)s balls", n=len(calls), balls=len(order)
        )
    for i, (called, due) in enumerate(zip(calls, order, strict=False), start=1):
        if called != due:
            raise Refusal(
                "its call %(i)s is %(called)s, but the committed order's call %(i)s is %(due)s",
                i=i,
                called=called,
                due=due,
            )


def _check_win(game: LinkedGame, result: HallResult) -> None:
    count, winner = result.count, result.winner
    if count is None or winner is None:
        raise Refusal("it says won but gives no call count or no card")
    if count != len(result.calls):
        raise Refusal(
            "it claims at call %(count)s but lists %(n)s calls", count=count, n=len(result.calls)
        )
    variant = variant_for(game.balls)
    try:
        ticket = variant.ticket_from_dict(winner.serial, winner.card)
    except KitError as exc:
        raise Refusal("its card is not a card of this game: %(why)s", why=exc) from None
    figure = game.figure
    done = figure.completed_at(ticket, result.calls)
    if done is None:
        missing = " ".join(str(n) for n in figure.missing(ticket, result.calls))
        raise Refusal(
            "its card %(serial)s does not hold the %(pattern)s at call %(count)s: it lacks "
            "%(missing)s",
            serial=winner.serial,
            pattern=figure.name,
            count=count,
            missing=missing,
        )
    if done < count:
        raise Refusal(
            "its card %(serial)s held the %(pattern)s at call %(done)s, before the claim at "
            "call %(count)s (a linked game counts the completing call)",
            serial=winner.serial,
            pattern=figure.name,
            done=done,
            count=count,
        )
