"""The cards the hall's screens were shown, kept so that a screen draws each one with the card
pages' own drawer (templates/verify/_vcard.html) instead of a second one in JavaScript.

A `verdict` event (a check the Maestro put on the screens, a claim recorded) names its card by a
key (`drawn`): "k<n>" for the game's n-th check shown, "c<id>" for claim <id>. The screens ask
`GET /api/games/<id>/shown/<key>` once per card shown and get the table as the page draws it, in
their language. What is kept is the judged value itself (`Checked`), as it was shown: a false
claim's card as it was when claimed, before its penalty. Only what the screens were shown can be
asked for, so the route is public and reveals nothing the big screen did not show; a GET changes
nothing.

The keep is bounded (the newest `KEEP` cards of the newest `GAMES` games) and lives on the app
(`area_state`), not in a module global; a station that restarts forgets it, and the round's
final board is then judged again (`find`).
"""

from __future__ import annotations

import sqlite3
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from ...web.inputs import is_ascii_number
from ...web.instance import area_state
from .. import games
from . import store
from .judged import Checked
from .variants import ClaimsKind, Shown, claims_kind

#: cards kept per game, and games kept
KEEP = 32
GAMES = 8


@dataclass(frozen=True)
class OnShow:
    """A card as the screens were shown it, with what tells whether it is still up: the round
    and the number of calls it was judged on (a call, an undo or a new round takes it down)."""

    key: str
    kind: ClaimsKind[Any, Any]
    checked: Checked
    shown: Shown | None  # the `verdict` event's data (None: judged again, never shown)
    calls: int

    def to_json(self) -> dict[str, Any]:
        return {**(self.shown.to_json() if self.shown else {}), "calls": self.calls}


@dataclass
class ShownCards:
    """The cards shown per game, newest last."""

    games: OrderedDict[int, OrderedDict[str, OnShow]] = field(default_factory=OrderedDict)
    checks: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def key(self, claim_id: int | None) -> str:
        """A new card's key: its claim's, or the next check's."""
        if claim_id is not None:
            return f"c{claim_id}"
        with self.lock:
            self.checks += 1
            return f"k{self.checks}"

    def put(self, game_id: int, on: OnShow) -> None:
        with self.lock:
            cards = self.games.pop(game_id, None) or OrderedDict()
            self.games[game_id] = cards
            cards.pop(on.key, None)
            cards[on.key] = on
            while len(cards) > KEEP:
                cards.popitem(last=False)
            while len(self.games) > GAMES:
                self.games.popitem(last=False)

    def get(self, game_id: int, key: str) -> OnShow | None:
        with self.lock:
            return self.games.get(game_id, OrderedDict()).get(key)

    def newest(self, game_id: int) -> OnShow | None:
        with self.lock:
            cards = self.games.get(game_id)
            return next(reversed(cards.values())) if cards else None


def shown_cards() -> ShownCards:
    return area_state("verify.shown", ShownCards)


def show(
    game_id: int,
    kind: ClaimsKind[Any, Any],
    checked: Checked,
    shown: Shown,
    calls: int,
    claim_id: int | None = None,
) -> Shown:
    """Keep a card the screens are about to be shown; the event's data, with its key."""
    keep = shown_cards()
    key = keep.key(claim_id)
    data = shown.kept_as(key)
    keep.put(game_id, OnShow(key, kind, checked, data, calls))
    return data


def find(conn: sqlite3.Connection, game_id: int, key: str) -> OnShow | None:
    """A card the game's screens were shown, by its key, or "r<n>": the card that won round n
    (its final board), as its claim was shown or, once the station has forgotten it (a
    restart), judged again while its round is the game's current one (no ball is called after
    the award, so it is judged on the same calls). None for anything else."""
    kept = shown_cards().get(game_id, key)
    if kept is not None or not (key.startswith("r") and is_ascii_number(key[1:], 6)):
        return kept
    row = conn.execute(
        "SELECT a.claim_id, a.serial, r.id = (SELECT MAX(id) FROM rounds WHERE game_id = ?) "
        "AS current FROM awards a JOIN rounds r ON r.id = a.round_id "
        "WHERE a.game_id = ? AND r.number = ?",
        (game_id, game_id, int(key[1:])),
    ).fetchone()
    if row is None:
        return None
    kept = shown_cards().get(game_id, f"c{row['claim_id']}")
    if kept is not None or not row["current"]:
        return kept
    game = games.get_game(conn, game_id)
    kind = claims_kind(game)
    checked = kind.check(conn, game, store.game_card(conn, game, row["serial"])[1])
    return OnShow(key, kind, checked, None, checked.verdict_value().to_json()["calls"])
