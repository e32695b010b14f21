"""A game's price list over sqlite3: the prices the door chooses from (`PriceList`), set in one
transaction under the hall's write lock and logged (`store.log`); a new list is new rows."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from ...money import Price
from ...web.db import write_transaction
from ...web.errors import Conflict, RequestError
from .. import games
from .logged import PriceLogged, PricesSet
from .requests import PriceListRequest
from .store import log, publish


@dataclass(frozen=True)
class PriceItem:
    """A price on a game's list, as the door chooses it: its number (`price_id`, what a sale
    names), its name, and the pure `Price`."""

    price_id: int
    price: Price

    def to_json(self) -> dict[str, Any]:
        p = self.price
        return {"price_id": self.price_id, "label": p.label, "cents": p.cents, "book": p.book}


@dataclass(frozen=True)
class PriceList:
    """A game's price list now: the prices the door offers, in the order the host gave them
    (empty until the host sets one)."""

    game_id: int
    prices: tuple[PriceItem, ...]

    def find(self, price_id: int | None) -> PriceItem:
        """The price a sale names; left out, the list's only price. Refused in words when the
        list is empty, the number is not on it, or the list has several and none is named."""
        if not self.prices:
            raise Conflict("set the price of a card first")
        if price_id is None:
            if len(self.prices) > 1:
                raise RequestError(
                    "choose the price of this sale: %(names)s",
                    names=", ".join(i.price.label or str(i.price_id) for i in self.prices),
                )
            return self.prices[0]
        for item in self.prices:
            if item.price_id == price_id:
                return item
        raise RequestError(
            "price %(n)s is not on the price list of game %(game)s", n=price_id, game=self.game_id
        )

    def to_json(self) -> dict[str, Any]:
        return {"game_id": self.game_id, "prices": [i.to_json() for i in self.prices]}


def price_list(conn: sqlite3.Connection, gid: int) -> PriceList:
    """The game's price list: the prices of its newest list."""
    rows = conn.execute(
        "SELECT id, cents, book, label FROM ledger_prices WHERE game_id = ? AND list_id = "
        "(SELECT MAX(list_id) FROM ledger_prices WHERE game_id = ?) ORDER BY id",
        (gid, gid),
    ).fetchall()
    items = (PriceItem(r["id"], Price(r["cents"], r["book"], r["label"])) for r in rows)
    return PriceList(gid, tuple(items))


def price_names(conn: sqlite3.Connection, gid: int) -> dict[int, str]:
    """The name of every price the game ever listed, by its number (a sale keeps its price)."""
    return {
        r["id"]: r["label"]
        for r in conn.execute("SELECT id, label FROM ledger_prices WHERE game_id = ?", (gid,))
        if r["label"]
    }


def set_prices(
    conn: sqlite3.Connection, game_id: int, req: PriceListRequest, via: str | None = None
) -> PriceList:
    """A game's price list for its next sales (a single card, a book of N, a strip of six, a
    second book at a discount...), replacing the list before: a new list, the old one kept
    (each sale keeps the price it was made at)."""
    with write_transaction(conn) as tx:
        gid = write_prices(conn, game_id, req, via)
        tx.commit()
        publish(gid, "prices")
    return price_list(conn, gid)


def write_prices(
    conn: sqlite3.Connection, game_id: int, req: PriceListRequest, via: str | None = None
) -> int:
    """`set_prices`'s rows, inside the caller's transaction; the caller publishes "prices"
    for the game (its id, returned) after the commit."""
    gid = games.get_game(conn, game_id).game_id
    list_id = conn.execute("INSERT INTO ledger_price_lists (game_id) VALUES (?)", (gid,)).lastrowid
    for p in req.prices:
        conn.execute(
            "INSERT INTO ledger_prices (game_id, list_id, label, cents, book) "
            "VALUES (?, ?, ?, ?, ?)",
            (gid, list_id, p.label, p.cents, p.book),
        )
    prices = PricesSet(tuple(PriceLogged(p.label, p.cents, p.book) for p in req.prices))
    log(conn, gid, "price", prices, via)
    return gid
