"""The deck file (`<name>.deck.json`, format bingo-hall-deck/1) that the printer and station read.

A deck plays one game, named by its `game` field: 75 (the 1933 cards, 5x5 under B I N G O) or 90
(strips of six 3x9 tickets). Files written before 90-ball decks existed have no `game` field and
load as 75-ball decks.

Parsing validates everything: the format tag, every card's ranges, line uniqueness across the
deck, and that the printed totals match the numbers, so a hand-edited or truncated file is
refused with an error that names the card and the problem.
"""

from __future__ import annotations

import json
import re
import secrets
from base64 import b32encode
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Generic, TypeVar

from .errors import DeckError
from .ninety.strips import Strip
from .ninety.tickets import Ticket
from .rng import seed_bytes
from .seventyfive.cards import Card
from .variants import CARDS, DEFAULT_BALLS, STRIPS, Variant, variant_for

FORMAT = "bingo-hall-deck/1"
T = TypeVar("T", Card, Ticket)
_DECK_ID = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
_HEX = re.compile(r"^(?:[0-9a-fA-F]{2})*$")


def is_deck_id(text: str) -> bool:
    """Is `text` shaped as a deck id (as a deck file's `deck_id` must be)?"""
    return bool(_DECK_ID.match(text))


def new_deck_id() -> str:
    """8 upper-case base32 characters: URL-safe and QR alphanumeric-mode friendly."""
    return b32encode(secrets.token_bytes(5)).decode()


@dataclass(frozen=True)
class Deck(Generic[T]):
    """A deck of cards plus what the station needs to trust them (the QR signing secret).

    `game` names the deck's variant (`bingo_hall.variants`): 75 for 1933 cards, 90 for strips,
    whose `cards` are the tickets, serials 1..6n, strip by strip (`strips` groups them).
    """

    deck_id: str
    name: str
    created: str
    seed: str | None  # hex of the seed bytes, or None for a random deck
    free_centre: bool
    secret: str  # hex, >= 32 bytes
    cards: tuple[T, ...] = field(repr=False)
    game: int = DEFAULT_BALLS

    @property
    def variant(self) -> Variant[T]:
        """The kind of game the deck plays: everything that differs between 75 and 90 balls."""
        return variant_for(self.game)

    @property
    def strips(self) -> list[Strip]:
        """The strips of a deck of 90-ball tickets; a deck of cards has none."""
        return self.variant.strips(self.cards)

    def card(self, serial: int) -> T:
        if not 1 <= serial <= len(self.cards):
            raise DeckError(
                "deck %(name)s has no card %(serial)s (it has 1-%(count)s)",
                name=self.name,
                serial=serial,
                count=len(self.cards),
            )
        return self.cards[serial - 1]

    def to_json(self) -> str:
        """The deck file's text."""
        data = {
            "format": FORMAT,
            "game": self.game,
            "deck_id": self.deck_id,
            "name": self.name,
            "created": self.created,
            "seed": self.seed,
            "free_centre": self.free_centre,
            "secret": self.secret,
            "cards": [c.to_json() for c in self.cards],
        }
        return json.dumps(data, separators=(",", ":"))


def new_variant_deck(
    variant: Variant[T],
    n: int,
    seed: str | bytes | int | None = None,
    free_centre: bool = False,
    name: str = "Bingo",
    progress: Callable[[int], None] | None = None,
) -> Deck[T]:
    """Generate a deck of the variant's tickets (`n` cards, or `n` strips) and wrap it with a
    fresh id, the creation time and a new signing secret."""
    key = None if seed is None else seed_bytes(seed)
    cards = variant.generate(n, key, free_centre, progress)
    return Deck(
        deck_id=new_deck_id(),
        name=name,
        created=datetime.now(UTC).isoformat(timespec="seconds"),
        seed=None if key is None else key.hex(),
        free_centre=free_centre,
        secret=secrets.token_hex(32),
        cards=cards,
        game=variant.balls,
    )


def new_strip_deck(
    strips: int,
    seed: str | bytes | int | None = None,
    name: str = "Bingo",
    progress: Callable[[int], None] | None = None,
) -> Deck[Ticket]:
    """Generate a 90-ball deck of `strips` strips (6 tickets each), with a fresh id and secret."""
    return new_variant_deck(STRIPS, strips, seed, False, name, progress)


def new_deck(
    n: int,
    seed: str | bytes | int | None = None,
    free_centre: bool = False,
    name: str = "Bingo",
    progress: Callable[[int], None] | None = None,
) -> Deck[Card]:
    """Generate a deck and wrap it with a fresh id and signing secret."""
    return new_variant_deck(CARDS, n, seed, free_centre, name, progress)


def _need(cond: bool, template: str, /, **params: Any) -> None:
    if not cond:
        raise DeckError(template, **params)


def deck_from_dict(data: Any) -> Deck[Any]:
    """Validate a parsed manifest and build the Deck. Raises DeckError naming the problem."""
    _need(isinstance(data, dict), "not a deck file: expected a JSON object")
    _need(  # said in words: a Spanish page must not read "el formato es None"
        data.get("format") is not None,
        "not a deck file: it has no format (expected %(expected)r)",
        expected=FORMAT,
    )
    _need(
        data.get("format") == FORMAT,
        "not a deck file: format is %(found)r, expected %(expected)r",
        found=data.get("format"),
        expected=FORMAT,
    )
    deck_id, name = data.get("deck_id"), data.get("name")
    _need(
        isinstance(deck_id, str) and bool(_DECK_ID.match(deck_id)),
        "deck_id must be 8-64 URL-safe characters (letters, digits, - or _)",
    )
    _need(isinstance(name, str) and name.strip() != "", "the deck needs a name")
    created = data.get("created")
    _need(
        isinstance(created, str),
        "created must be an ISO 8601 date, not %(created)r",
        created=created,
    )
    try:
        datetime.fromisoformat(created)
    except ValueError:
        raise DeckError(
            "created must be an ISO 8601 date, not %(created)r", created=created
        ) from None
    seed = data.get("seed")
    _need(
        seed is None or (isinstance(seed, str) and bool(_HEX.match(seed))),
        "seed must be hex or null",
    )
    free = data.get("free_centre")
    _need(isinstance(free, bool), "free_centre must be true or false")
    secret = data.get("secret")
    _need(
        isinstance(secret, str) and len(secret) >= 64 and bool(_HEX.match(secret)),
        "secret must be at least 32 bytes of hex",
    )
    game = data.get("game", DEFAULT_BALLS)
    variant = variant_for(game)
    _need(
        variant.free_centre or free is False,
        "a %(balls)s-ball deck has no FREE square: free_centre is false",
        balls=variant.balls,
    )
    raw_cards = data.get("cards")
    _need(isinstance(raw_cards, list) and len(raw_cards) > 0, "the deck has no cards")
    cards = variant.tickets_from_dicts(raw_cards, free)
    return Deck(deck_id, name, created, seed, free, secret.lower(), cards, game=variant.balls)


def parse_deck(text: str | bytes) -> Deck[Any]:
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as exc:
        raise DeckError("not a deck file: invalid JSON (%(reason)s)", reason=exc) from None
    return deck_from_dict(data)


def load_deck(path: str | Path) -> Deck[Any]:
    """Read and validate a deck file."""
    p = Path(path)
    try:
        text = p.read_bytes()
    except OSError as exc:
        raise DeckError(
            "cannot read %(path)s: %(reason)s", path=p, reason=exc.strerror or exc
        ) from None
    try:
        return parse_deck(text)
    except DeckError as exc:
        raise DeckError("%(path)s: %(reason)s", path=p, reason=exc) from None


def save_deck(deck: Deck[Any], path: str | Path) -> Path:
    """Write a deck file atomically (a crash never leaves half a file), readable by its owner
    only: it holds the secret that signs the cards' QR codes."""
    p = Path(path)
    tmp = p.with_name(p.name + ".tmp")
    try:
        tmp.touch(mode=0o600)
        tmp.chmod(0o600)
        tmp.write_text(deck.to_json(), encoding="utf-8")
        tmp.replace(p)
    except OSError as exc:
        if tmp.parent.exists():
            tmp.unlink(missing_ok=True)
        raise DeckError(
            "cannot write %(path)s: %(reason)s", path=p, reason=exc.strerror or exc
        ) from None
    return p
