"""The snapshot a screen draws itself from (sent first on every live stream's connect): the
game, its deck, its round as it stands and what the station's areas add to it, and the
`snapshot` event's text, built once per change for every screen that (re)connects."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..round_state import RoundState
from ..values import JsonValue, as_json
from ..web.hub import sse
from ..web.instance import hall
from . import phrases
from .decks import get_deck
from .model import Game
from .round_load import load_round
from .specials_view import specials_shown
from .spoken import call_label, spoken_both
from .state import station_state


@dataclass(frozen=True)
class DeckLine(JsonValue):
    """The snapshot's `deck`: the deck a game is played on, without its secret."""

    deck_id: str
    name: str
    cards: int
    free_centre: bool
    game: int


@dataclass(frozen=True)
class Snapshot:
    """Everything a screen needs to draw itself from nothing: the game, its deck, its round as
    it stands (calls, undos, the seeds revealed), the last call in words, and what the station's
    areas add (`add_snapshot_extender`: the ledger's, the program's, the autodraw's...).
    `to_json()` is the page's and the `snapshot` event's data."""

    game: Game
    deck: DeckLine
    state: RoundState
    spoken: Mapping[str, str] | None
    parts: tuple[JsonValue | Mapping[str, Any], ...] = ()  # the extenders', in order

    @property
    def round(self) -> int:
        return self.state.round

    def to_json(self) -> dict[str, Any]:
        n, state = self.game.balls, self.state
        calls = [
            {"seq": c.seq, "ball": c.ball, "call": call_label(c.ball, n), "at": c.at}
            for c in state.calls
        ]
        snap = {
            **self.game.to_json(),
            "deck": self.deck.to_json(),
            "round": state.round,
            "commitment": state.commitment,
            "public_input": state.public_input,
            "calls": calls,
            "last": calls[-1] if calls else None,
            "spoken": None if self.spoken is None else dict(self.spoken),
            "last_seq": state.last_seq,
            "count": len(calls),
            "left": state.left,
            "undone": [
                {
                    "seq": u.seq,
                    "ball": u.ball,
                    "call": call_label(u.ball, n),
                    "reason": u.reason,
                    "at": u.at,
                }
                for u in state.undone
            ],
            "revealed": [r.to_json() for r in state.revealed],
            "specials": specials_shown(self.game, state.balls_called).to_json(),
        }
        for part in self.parts:
            snap.update(as_json(part))
        return snap


def snapshot(conn: sqlite3.Connection, game_id: int) -> Snapshot:
    """Everything a screen needs to draw itself from nothing (sent first on every SSE connect)."""
    loaded = load_round(conn, game_id, revealed=True)
    game, state = loaded.game, loaded.state
    deck = get_deck(conn, game.deck_id)
    last = state.last
    return Snapshot(
        game,
        DeckLine(deck.deck_id, deck.name, len(deck.cards), deck.free_centre, deck.game),
        state,
        spoken_both(last.ball, game.balls, phrases.current(conn)) if last else None,
        tuple(extend(conn, game.game_id) for extend in list(station_state().snapshot_extenders)),
    )


#: a snapshot kept for reuse is read again after this long even when nothing was published
#: (a change no event tells, such as the hall's call phrases, shows within this time)
SNAPSHOT_MAX_AGE_S = 5.0


def _current(kept: tuple[int, float, str], published: int, now: float) -> bool:
    """A kept snapshot may be given: no event since it was read, and younger than
    SNAPSHOT_MAX_AGE_S."""
    return kept[0] == published and now - kept[1] < SNAPSHOT_MAX_AGE_S


def kept_snapshot_event(app: Any, game_id: int) -> str | None:
    """The `snapshot` event's text as `snapshot_event` would give it now, if it is kept and
    current; None when it must be read (no SQL here: the server's event loop asks it, and the
    caller subscribes first, as for `snapshot_event`)."""
    state, hub = station_state(app), hall(app).hub
    kept = state.snapshots.get(game_id)
    if kept is None or not _current(kept, hub.published, time.monotonic()):
        return None
    return kept[2]


def snapshot_event(connect: Callable[[], sqlite3.Connection], game_id: int) -> str:
    """The `snapshot` event's text for a screen that (re)connects, built once per change, not
    once per screen: a thousand phones coming back from a Wi-Fi blip share one.

    `connect()` gives the database connection, asked for only when the snapshot must be read.
    The caller subscribes first. The kept text is reused only while no event has been published
    since it was read (the hub's count is taken before reading, so a change committed meanwhile
    is published after, and both reach the screen: snapshots and events are idempotent)."""
    state, hub = station_state(), hall().hub
    seen = hub.published
    with state.snapshots_lock:
        kept = state.snapshots.get(game_id)
        now = time.monotonic()
        if kept is not None and _current(kept, seen, now):
            return kept[2]
        # one reader builds it; the others wait for it here instead of reading it too
        text = sse("snapshot", snapshot(connect(), game_id).to_json())
        if hub.published == seen:
            state.snapshots[game_id] = (seen, now, text)
        return text
