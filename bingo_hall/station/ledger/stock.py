"""Paper stock of a game, when the hall counts it: serial ranges issued to each
seller (the door, a table, a volunteer by name), returned unsold, or void with a reason; a wrong
entry is cancelled by a correction with its reason, never deleted. The rules are the pure
`bingo_hall.money` (`check_issue`, `check_back`, `reconcile`); `sale_store.sell` asks
`check_sellable`, so once stock is issued a card never issued cannot be sold.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from ... import money
from ...money import Reconciled, Serials, StockKind
from ...web.db import write_transaction
from ...web.errors import Conflict, NotFound
from .. import games
from ..decks import get_deck
from ..hooks import RecordNote
from . import sale_store, store
from .logged import StockCorrected, StockLogged
from .requests import StockRequest, money_input


@dataclass(frozen=True)
class StockLine:
    """One stock entry as the ledger page lists it; `corrected` is the reason it was cancelled."""

    stock_id: int
    game_id: int
    kind: StockKind
    serials: tuple[Serials, ...]
    cards: int
    seller: str
    reason: str
    made: str
    corrected: str | None

    def to_json(self) -> dict[str, Any]:
        return {
            "stock_id": self.stock_id,
            "game_id": self.game_id,
            "kind": str(self.kind),
            "serials": money.format_serials(self.serials),
            "cards": self.cards,
            "seller": self.seller,
            "reason": self.reason,
            "at": self.made,
            "corrected": self.corrected,
        }


def lines(conn: sqlite3.Connection, gid: int) -> list[StockLine]:
    """Every stock entry of the game in order, cancelled ones included (with their reason)."""
    rows = conn.execute(
        "SELECT s.*, c.reason AS corrected FROM ledger_stock s LEFT JOIN "
        "ledger_stock_corrections c ON c.stock_id = s.id WHERE s.game_id = ? ORDER BY s.id",
        (gid,),
    )
    return [
        StockLine(
            r["id"],
            r["game_id"],
            StockKind(r["kind"]),
            sale_store.parse_stored(r["serials"]),
            r["cards"],
            r["seller"],
            r["reason"],
            r["made"],
            r["corrected"],
        )
        for r in rows
    ]


def _sold(conn: sqlite3.Connection, gid: int) -> set[int]:
    """Every card in a sale of the game not voided, for any round."""
    return money.cards_of(sale_store.sold(conn, gid, None))


def reconciled(conn: sqlite3.Connection, gid: int) -> Reconciled | None:
    """The game's stock against its sales; None when no stock was issued for it."""
    entries = sale_store.stock_entries(conn, gid)
    if not money.issued_to(entries):
        return None
    return money.reconcile(entries, _sold(conn, gid))


def record(
    conn: sqlite3.Connection, game_id: int, req: StockRequest, via: str | None = None
) -> StockLine:
    """Cards issued to a seller, returned unsold or void, checked whole before anything is
    written: a range issued twice, a return or a void of cards never issued (or sold, or back
    already) is refused in words and nothing is saved."""
    with write_transaction(conn) as tx:
        game = games.get_game(conn, game_id)
        gid = game.game_id
        deck = get_deck(conn, game.deck_id)
        entries = sale_store.stock_entries(conn, gid)
        with money_input():
            ranges = money.parse_serials(req.serials, len(deck.cards))
            if req.kind == StockKind.ISSUE:
                money.check_issue(entries, ranges)
            else:
                money.check_back(entries, ranges, _sold(conn, gid))
        seller = req.seller
        if req.kind != StockKind.ISSUE:  # back from whoever the cards were issued to
            held = money.issued_to(entries)
            seller = ", ".join(sorted({held[s] for s in money.cards_of(ranges)}))
        text = money.format_serials(ranges)
        cur = conn.execute(
            "INSERT INTO ledger_stock (game_id, kind, serials, cards, seller, reason) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (
                gid,
                str(req.kind),
                text.replace(" ", ""),
                money.count(ranges),
                seller,
                req.reason,
            ),
        )
        stock_id = cur.lastrowid
        assert stock_id is not None  # an INSERT always sets it
        detail = StockLogged(stock_id, text, seller, req.reason)
        store.log(conn, gid, f"stock {req.kind}", detail, via)
        tx.commit()
        store.publish(gid, "stock")
    return next(s for s in lines(conn, gid) if s.stock_id == stock_id)


def correct(
    conn: sqlite3.Connection, stock_id: int, reason: str, via: str | None = None
) -> StockLine:
    """Cancel a wrong stock entry, saying why (kept, with its reason). An issue whose cards have
    come back (returned or void) is cancelled after those entries."""
    with write_transaction(conn) as tx:
        row = conn.execute("SELECT * FROM ledger_stock WHERE id = ?", (stock_id,)).fetchone()
        if row is None:
            raise NotFound("there is no stock entry %(n)s", n=stock_id)
        gid = row["game_id"]
        if conn.execute(
            "SELECT 1 FROM ledger_stock_corrections WHERE stock_id = ?", (stock_id,)
        ).fetchone():
            raise Conflict("stock entry %(n)s is already corrected", n=stock_id)
        if row["kind"] == StockKind.ISSUE:
            entries = sale_store.stock_entries(conn, gid)
            back = money.came_back(entries, StockKind.RETURN) | money.came_back(
                entries, StockKind.VOID
            )
            mine = money.cards_of(sale_store.parse_stored(row["serials"]))
            if back & mine:
                raise Conflict(
                    "card %(serial)s of this issue came back: correct that entry first",
                    serial=min(back & mine),
                )
        conn.execute(
            "INSERT INTO ledger_stock_corrections (stock_id, reason) VALUES (?, ?)",
            (stock_id, reason),
        )
        store.log(conn, gid, "stock correction", StockCorrected(stock_id, reason), via)
        tx.commit()
        store.publish(gid, "stock")
    return next(s for s in lines(conn, gid) if s.stock_id == stock_id)


def round_window(
    conn: sqlite3.Connection, round_id: int
) -> tuple[int, int, str | None, str | None]:
    """(game, round number, from, until) of a round: what the ledger did while it was the game's
    current round, to the second (`until` None: it still is; `from` None for round 1, which
    holds what was done before the game's first call too)."""
    row = conn.execute(
        "SELECT game_id, number, started FROM rounds WHERE id = ?", (round_id,)
    ).fetchone()
    after = conn.execute(
        "SELECT started FROM rounds WHERE game_id = ? AND number = ?",
        (row["game_id"], row["number"] + 1),
    ).fetchone()
    start = None if row["number"] == 1 else row["started"][:19]
    return row["game_id"], row["number"], start, None if after is None else after[0][:19]


def record_notes(conn: sqlite3.Connection, round_id: int) -> list[RecordNote]:
    """The game record's notes of a round: the paper issued, returned or void meanwhile."""
    gid, _n, start, until = round_window(conn, round_id)
    out = []
    for line in lines(conn, gid):
        made = line.made[:19]
        if (start is not None and made < start) or (until is not None and made >= until):
            continue
        detail = f"{line.kind} {money.format_serials(line.serials)}"
        detail += f" ({line.seller})" if line.seller else ""
        detail += f": {line.reason}" if line.reason else ""
        detail += f"; corrected: {line.corrected}" if line.corrected else ""
        out.append(RecordNote(at=line.made, event="stock", detail=detail, player=line.seller))
    return out
