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
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .cards import Card, check_card
from .deck import check_deck, generate_deck
from .errors import DeckError
from .rng import seed_bytes
from .strips import Strip, check_strips, generate_strips, strips_of
from .tickets import COLUMNS, ROWS, Ticket, check_ticket

FORMAT = "bingo-hall-deck/1"
GAMES = (75, 90)
_DECK_ID = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
_HEX = re.compile(r"^(?:[0-9a-fA-F]{2})*$")


def new_deck_id() -> str:
    """8 upper-case base32 characters: URL-safe and QR alphanumeric-mode friendly."""
    return b32encode(secrets.token_bytes(5)).decode()


@dataclass(frozen=True)
class Deck:
    """A deck of cards plus what the station needs to trust them (the QR signing secret).

    For a 90-ball deck (`game == 90`) `cards` holds the tickets, serials 1..6n, strip by strip;
    `strips` groups them. `free_centre` is always False there.
    """

    deck_id: str
    name: str
    created: str
    seed: str | None  # hex of the seed bytes, or None for a random deck
    free_centre: bool
    secret: str  # hex, >= 32 bytes
    cards: tuple[Card | Ticket, ...] = field(repr=False)
    game: int = 75

    @property
    def strips(self) -> list[Strip]:
        """The strips of a 90-ball deck; a 75-ball deck has none."""
        return strips_of(self.cards) if self.game == 90 else []  # type: ignore[arg-type]

    def card(self, serial: int) -> Card | Ticket:
        if not 1 <= serial <= len(self.cards):
            raise DeckError(f"deck {self.name} has no card {serial} (it has 1-{len(self.cards)})")
        return self.cards[serial - 1]

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "game": self.game,
            "deck_id": self.deck_id,
            "name": self.name,
            "created": self.created,
            "seed": self.seed,
            "free_centre": self.free_centre,
            "secret": self.secret,
            "cards": [_card_dict(c) for c in self.cards],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))


def _card_dict(card: Card | Ticket) -> dict[str, Any]:
    if isinstance(card, Ticket):
        return {
            "serial": card.serial,
            "strip": card.strip,
            "rows": [list(row) for row in card.grid],
            "totals": card.totals(),
        }
    return {
        "serial": card.serial,
        "columns": [list(col) for col in card.columns],
        "totals": card.totals(),
    }


def new_strip_deck(
    strips: int,
    seed: str | bytes | int | None = None,
    name: str = "Bingo",
    progress=None,
) -> Deck:
    """Generate a 90-ball deck of `strips` strips (6 tickets each), with a fresh id and secret."""
    key = None if seed is None else seed_bytes(seed)
    made = generate_strips(strips, seed=key, progress=progress)
    return _fresh_deck(name, key, False, tuple(t for s in made for t in s.tickets), 90)


def _fresh_deck(name: str, key: bytes | None, free: bool, cards: tuple, game: int) -> Deck:
    """Wrap new cards with a fresh id, the creation time and a new signing secret."""
    return Deck(
        deck_id=new_deck_id(),
        name=name,
        created=datetime.now(UTC).isoformat(timespec="seconds"),
        seed=None if key is None else key.hex(),
        free_centre=free,
        secret=secrets.token_hex(32),
        cards=cards,
        game=game,
    )


def new_deck(
    n: int,
    seed: str | bytes | int | None = None,
    free_centre: bool = False,
    name: str = "Bingo",
    progress=None,
) -> Deck:
    """Generate a deck and wrap it with a fresh id and signing secret."""
    key = None if seed is None else seed_bytes(seed)
    cards = generate_deck(n, seed=key, free_centre=free_centre, progress=progress)
    return _fresh_deck(name, key, free_centre, tuple(cards), 75)


def _need(cond: bool, message: str) -> None:
    if not cond:
        raise DeckError(message)


def deck_from_dict(data: Any) -> Deck:
    """Validate a parsed manifest and build the Deck. Raises DeckError naming the problem."""
    _need(isinstance(data, dict), "not a deck file: expected a JSON object")
    _need(
        data.get("format") == FORMAT,
        f"not a deck file: format is {data.get('format')!r}, expected {FORMAT!r}",
    )
    deck_id, name = data.get("deck_id"), data.get("name")
    _need(
        isinstance(deck_id, str) and bool(_DECK_ID.match(deck_id)),
        "deck_id must be 8-64 URL-safe characters (letters, digits, - or _)",
    )
    _need(isinstance(name, str) and name.strip() != "", "the deck needs a name")
    created = data.get("created")
    try:
        datetime.fromisoformat(created)
    except (TypeError, ValueError):
        raise DeckError(f"created must be an ISO 8601 date, not {created!r}") from None
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
    game = data.get("game", 75)
    _need(game in GAMES and not isinstance(game, bool), f"game must be 75 or 90, not {game!r}")
    _need(game == 75 or free is False, "a 90-ball deck has no FREE square: free_centre is false")
    raw_cards = data.get("cards")
    _need(isinstance(raw_cards, list) and len(raw_cards) > 0, "the deck has no cards")
    if game == 90:
        tickets = tuple(_ticket_from_dict(i, raw) for i, raw in enumerate(raw_cards, start=1))
        check_strips(strips_of(tickets))
        return Deck(deck_id, name, created, seed, free, secret.lower(), tickets, game=90)

    cards = []
    for i, raw in enumerate(raw_cards, start=1):
        _need(isinstance(raw, dict), f"card #{i} is not an object")
        serial = raw.get("serial")
        _need(serial == i, f"card #{i}: serial is {serial!r}, expected {i} (serials count from 1)")
        cols = raw.get("columns")
        _need(
            isinstance(cols, list)
            and len(cols) == 5
            and all(isinstance(c, list) and len(c) == 5 for c in cols),
            f"card {i}: columns must be 5 lists of 5 numbers",
        )
        card = Card(serial=i, columns=tuple(tuple(c) for c in cols))
        check_card(card)
        totals = raw.get("totals")
        if totals != card.totals():
            raise DeckError(f"card {i}: the printed totals do not match its numbers")
        cards.append(card)
    check_deck(cards, free)
    return Deck(deck_id, name, created, seed, free, secret.lower(), tuple(cards))


def _ticket_from_dict(i: int, raw: Any) -> Ticket:
    _need(isinstance(raw, dict), f"ticket #{i} is not an object")
    serial, strip = raw.get("serial"), raw.get("strip")
    _need(serial == i, f"ticket #{i}: serial is {serial!r}, expected {i} (serials count from 1)")
    want = (i - 1) // 6 + 1
    _need(strip == want, f"ticket {i}: strip is {strip!r}, expected {want} (6 tickets a strip)")
    rows = raw.get("rows")
    _need(
        isinstance(rows, list)
        and len(rows) == ROWS
        and all(isinstance(r, list) and len(r) == COLUMNS for r in rows),
        f"ticket {i}: rows must be 3 lists of 9 cells (null for a blank)",
    )
    ticket = Ticket(serial=i, strip=want, grid=tuple(tuple(r) for r in rows))
    check_ticket(ticket)
    if raw.get("totals") != ticket.totals():
        raise DeckError(f"ticket {i}: the printed row totals do not match its numbers")
    return ticket


def parse_deck(text: str | bytes) -> Deck:
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as exc:
        raise DeckError(f"not a deck file: invalid JSON ({exc})") from None
    return deck_from_dict(data)


def load_deck(path: str | Path) -> Deck:
    """Read and validate a deck file."""
    p = Path(path)
    try:
        text = p.read_bytes()
    except OSError as exc:
        raise DeckError(f"cannot read {p}: {exc.strerror or exc}") from None
    try:
        return parse_deck(text)
    except DeckError as exc:
        raise DeckError(f"{p}: {exc}") from None


def save_deck(deck: Deck, path: str | Path) -> Path:
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
        raise DeckError(f"cannot write {p}: {exc.strerror or exc}") from None
    return p
