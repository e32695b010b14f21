"""Decks known to the station, stored whole (manifest JSON, with its signing secret) in SQLite.

The manifest is validated on the way in (`bingo_hall.manifest.deck_from_dict`), so every deck in
the database is line-unique and its totals are right. Parsed decks are cached on the app
(`StationState.decks`): a deck id never changes meaning, because storing a different deck under
a known id is refused.
"""

from __future__ import annotations

import json
import sqlite3
from contextlib import nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from flask import has_app_context

from ..audit import deck_hash
from ..manifest import Deck, deck_from_dict
from ..values import JsonValue
from ..variants import DEFAULT_BALLS, variant_for
from ..web import book_store as book
from ..web.db import transaction
from ..web.errors import Conflict, NotFound
from .state import station_state


def store_deck(conn: sqlite3.Connection, deck: Deck[Any]) -> Deck[Any]:
    """Add a deck. Storing the same deck again is a no-op."""
    manifest = deck.to_json()
    with nullcontext() if conn.in_transaction else transaction(conn):
        return _store(conn, deck, manifest)


def _store(conn: sqlite3.Connection, deck: Deck[Any], manifest: str) -> Deck[Any]:
    row = conn.execute("SELECT manifest FROM decks WHERE deck_id = ?", (deck.deck_id,)).fetchone()
    if row is not None:
        if json.loads(row["manifest"]) != json.loads(manifest):
            raise Conflict("another deck with id %(deck)s is already loaded", deck=deck.deck_id)
        conn.execute(f"UPDATE decks SET loaded = {_NOW} WHERE deck_id = ?", (deck.deck_id,))
        _keep(deck)
        return deck
    conn.execute(
        "INSERT INTO decks (deck_id, name, free_centre, cards, manifest, loaded) "
        f"VALUES (?, ?, ?, ?, ?, {_NOW})",
        (deck.deck_id, deck.name, int(deck.free_centre), len(deck.cards), manifest),
    )
    loaded = {"deck_id": deck.deck_id, "name": deck.name, "cards": len(deck.cards)}
    book.append(
        conn, "deck", {**loaded, "balls": deck.variant.balls, "sha256": deck_hash(manifest)}
    )
    _keep(deck)  # stored and in the book: its first game need not read it again
    tell_deck_listeners(deck)
    return deck


def tell_deck_listeners(deck: Deck[Any]) -> None:
    """A deck was loaded or a game starts on it: its card pages are kept current ahead of need.
    (Not when `serve` loads its decks before the station runs: nothing listens yet.)"""
    if not has_app_context():
        return
    for listener in list(station_state().deck_listeners):
        listener(deck)


_NOW = "strftime('%Y-%m-%dT%H:%M:%SZ', 'now')"
#: a deck loaded within this time is one of tonight's (the New game form offers them first)
TONIGHT = timedelta(hours=12)


def get_deck(conn: sqlite3.Connection, deck_id: str) -> Deck[Any]:
    state = station_state()
    with state.decks_lock:
        cached = state.decks.get(deck_id)
    if cached is not None:
        return cached
    row = conn.execute("SELECT manifest FROM decks WHERE deck_id = ?", (deck_id,)).fetchone()
    if row is None:
        raise NotFound("no deck %(deck)s is loaded in this station", deck=repr(deck_id))
    return _keep(deck_from_dict(json.loads(row["manifest"])))


def _keep(deck: Deck[Any]) -> Deck[Any]:
    """Keep the deck read (`get_deck`): a deck's reading checks its every card, a fifth of a
    CPU-second for 3003 cards, which a game's start must not pay."""
    if not has_app_context():  # a deck stored by a tool with no station: none to keep it
        return deck
    state = station_state()
    with state.decks_lock:
        state.decks[deck.deck_id] = deck
    return deck


def read_tonights_decks(conn: sqlite3.Connection) -> None:
    """Read tonight's decks now (`serve`'s start, in each process that serves): their games
    then start with nothing to read, and a card's page is known on the loop."""
    for listed in list_decks(conn):
        if listed.tonight:
            get_deck(conn, listed.deck_id)


@dataclass(frozen=True)
class DeckListing(JsonValue):
    """A loaded deck as the station lists it, without its secret (that never leaves the
    station): its game (75, or 90 for strips: the manifest's `game`), its variant's key ("cards"
    or "strips") and layout (the new-game form's part for it), and when it was loaded; `tonight`
    when that was within TONIGHT."""

    deck_id: str
    name: str
    free_centre: bool
    cards: int
    game: int
    kind: str
    layout: str
    added: str
    loaded: str
    tonight: bool


def list_decks(conn: sqlite3.Connection) -> list[DeckListing]:
    """The decks, the last loaded first, without their secrets (those never leave the station).
    `tonight`: loaded (or loaded again) within TONIGHT."""
    rows = conn.execute(
        "SELECT deck_id, name, free_centre, cards, added, COALESCE(loaded, added) AS loaded, "
        "COALESCE(json_extract(manifest, '$.game'), ?) AS game "
        "FROM decks ORDER BY COALESCE(loaded, added) DESC, rowid DESC",
        (DEFAULT_BALLS,),
    ).fetchall()
    since = datetime.now(UTC) - TONIGHT
    return [
        DeckListing(
            deck_id=r["deck_id"],
            name=r["name"],
            free_centre=bool(r["free_centre"]),
            cards=r["cards"],
            game=r["game"],
            kind=variant_for(r["game"]).key,
            layout=variant_for(r["game"]).layout,
            added=r["added"],
            loaded=r["loaded"],
            tonight=datetime.fromisoformat(r["loaded"]) >= since,
        )
        for r in rows
    ]
