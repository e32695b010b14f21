"""What the station keeps on the app between requests (see `bingo_hall.web.instance`)."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..manifest import Deck
from ..prize_rules import PrizeList
from ..web.instance import area_state

SnapshotExtender = Callable[[sqlite3.Connection, int], dict[str, Any]]


@dataclass
class StationState:
    #: parsed decks by id: a deck id never changes meaning (storing another deck under it fails)
    decks: dict[str, Deck] = field(default_factory=dict)
    decks_lock: threading.Lock = field(default_factory=threading.Lock)
    #: `fn(conn, game_id) -> dict` merged into every game snapshot (claims adds `scores`)
    snapshot_extenders: list[SnapshotExtender] = field(default_factory=list)
    #: the host's own 90-ball prize lists (`prizes/*.toml`), read once at start-up
    prize_lists: tuple[PrizeList, ...] = ()


def station_state() -> StationState:
    return area_state("station", StationState)
