"""What the station keeps on the app between requests (see `bingo_hall.web.instance`)."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from flask import Flask

from ..manifest import Deck
from ..ninety.prize_rules import PrizeList
from ..values import JsonValue
from ..web.instance import area_state

SnapshotExtender = Callable[[sqlite3.Connection, int], "dict[str, Any] | JsonValue"]
#: `fn(conn, game_id) -> None` raises a Conflict when no ball may be called now
CallGuard = Callable[[sqlite3.Connection, int], None]
#: asked before the last call is taken back: (conn, game id, that call's position in the round)
UndoGuard = Callable[[sqlite3.Connection, int, int], None]


#: card pages rendered at once; more wait their turn (see StationState.page_gate)
PAGE_RENDERS = 2


@dataclass
class StationState:
    #: parsed decks by id: a deck id never changes meaning (storing another deck under it fails)
    decks: dict[str, Deck[Any]] = field(default_factory=dict)
    decks_lock: threading.Lock = field(default_factory=threading.Lock)
    #: `fn(conn, game_id) -> dict` merged into every game snapshot (claims adds `scores`)
    snapshot_extenders: list[SnapshotExtender] = field(default_factory=list)
    #: `fn(conn, game_id)` asked before every call (drawn or entered) inside its transaction:
    #: claims refuses a ball between an award and Next round
    call_guards: list[CallGuard] = field(default_factory=list)
    undo_guards: list[UndoGuard] = field(default_factory=list)
    #: the automatic draw's tickers by game id (`autodraw.Ticker`)
    tickers: dict[int, Any] = field(default_factory=dict)
    #: the newest snapshot event of each game, as (hub events published when read, when, text)
    snapshots: dict[int, tuple[int, float, str]] = field(default_factory=dict)
    snapshots_lock: threading.Lock = field(default_factory=threading.Lock)
    #: the card pages' words for card.js, rendered once per (language, figures, prizes), their
    #: line names and the page around a card (verify/page_shell.py), once per game and language
    page_words: dict[tuple[Any, ...], Any] = field(default_factory=dict)
    #: card pages being read and rendered at once (the others wait without holding Python's
    #: lock): a join storm of phones then leaves the Maestro's draw its share of the CPU
    page_gate: threading.BoundedSemaphore = field(
        default_factory=lambda: threading.BoundedSemaphore(PAGE_RENDERS)
    )
    #: `fn(deck)` told when a deck is loaded and when a game starts on it (the card pages draw
    #: the deck's tables ahead of need: verify/card_pages.py)
    deck_listeners: list[Callable[[Deck[Any]], Any]] = field(default_factory=list)
    #: the host's own 90-ball prize lists (`prizes/*.toml`), read once at start-up
    prize_lists: tuple[PrizeList, ...] = ()


def station_state(app: Flask | None = None) -> StationState:
    return area_state("station", StationState, app)
