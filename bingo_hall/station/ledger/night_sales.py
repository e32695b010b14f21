"""Night sales: cards sold once for several games of the night's program (a book for the whole
night, a "night ticket"), counted once in the night's takings, playing in every game they cover.

A night sale covers a run of the program's games, by their numbers: from the game in play (or a
game still waiting) to a later one, or to the program's last ("night"). Its money is shared
over those games (`bingo_hall.money.night_shares`: equal shares, the odd cents to the
first game); each game counts its share in its takings (`sale_store.sales` lists the share among the
game's sales), so a percentage prize of any covered game is a share of its part, and the games'
takings add up to the sale. A game not started yet holds its share from Next game on
(`sale_store.start_night_shares`); until then, or if it is skipped, the share is in the night's
takings as "night sales for games not played" (`summary`). See docs/ledger.md.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from ... import money
from ...money import Price, Serials
from ...money.night import night_of
from ...values import JsonValue
from ...web.db import write_transaction
from ...web.errors import Conflict, NotFound, RequestError
from .. import games
from ..decks import get_deck
from ..program import store as program
from ..program.states import Entry
from . import correction_store, price_store, sale_store, store
from .logged import NightSaleLogged, NightSaleVoided
from .requests import NightSaleRequest, money_input


def _still_open(conn: sqlite3.Connection, entry: Entry) -> bool:
    """Whether a night sale can still cover a program game: a game waiting, or the game in
    play while balls can still be drawn in it (once its last prize is won, a share of a night
    sale would land in a game that is over)."""
    if entry.status == "waiting":
        return True
    if entry.status != "playing" or entry.game_id is None:
        return False
    return games.draw_open_part(conn, entry.game_id).draw_open


@dataclass(frozen=True)
class Share(JsonValue):
    """A covered game's part of a night sale: its program number (when sold), the station
    game once started, its money and the round of that game the money counts in."""

    number: int
    game_id: int | None
    cents: int
    round: int


@dataclass(frozen=True)
class NightSale:
    """A night sale as the door and the API see it."""

    night_sale_id: int
    games: str  # "1-4"
    serials: tuple[Serials, ...]
    cards: int
    cents: int
    price: Price
    method: str
    made: str
    shares: tuple[Share, ...]
    void: str | None

    def to_json(self) -> dict[str, Any]:
        return {
            "night_sale_id": self.night_sale_id,
            "games": self.games,
            "serials": money.format_serials(self.serials),
            "cards": self.cards,
            "cents": self.cents,
            "label": self.price.label,
            "price": self.price.cents,
            "book": self.price.book,
            "method": self.method,
            "at": self.made,
            "shares": [s.to_json() for s in self.shares],
            "void": self.void,
        }


def night_sales(conn: sqlite3.Connection, date: str | None = None) -> list[NightSale]:
    """The night sales of the loaded program (of the night `date` when given), oldest first."""
    if date is None:
        now = program.loaded(conn)
        if now is None:
            return []
        rows = conn.execute(
            "SELECT * FROM ledger_night_sales WHERE program_id = ? ORDER BY id", (now["id"],)
        ).fetchall()
    else:
        rows = [
            r
            for r in conn.execute("SELECT * FROM ledger_night_sales ORDER BY id")
            if night_of(r["made"]) == date
        ]
    return [_read(conn, r) for r in rows]


def get(conn: sqlite3.Connection, night_sale_id: int) -> NightSale:
    row = conn.execute("SELECT * FROM ledger_night_sales WHERE id = ?", (night_sale_id,)).fetchone()
    if row is None:
        raise NotFound("there is no night sale %(n)s", n=night_sale_id)
    return _read(conn, row)


def _read(conn: sqlite3.Connection, row: sqlite3.Row) -> NightSale:
    shares = tuple(
        Share(s["place"], s["game_id"], s["cents"], s["made_in"])
        for s in conn.execute(
            "SELECT s.place, s.cents, s.made_in, e.game_id FROM ledger_night_shares s "
            "JOIN program_games e ON e.id = s.entry_id WHERE s.night_sale_id = ? "
            "ORDER BY s.place",
            (row["id"],),
        )
    )
    void = conn.execute(
        "SELECT reason FROM ledger_night_voids WHERE night_sale_id = ?", (row["id"],)
    ).fetchone()
    return NightSale(
        row["id"],
        sale_store.games_span([s.number for s in shares]),
        sale_store.parse_stored(row["serials"]),
        row["cards"],
        row["cents"],
        Price(row["price"], row["book"], row["label"]),
        row["method"],
        row["made"],
        shares,
        None if void is None else void["reason"],
    )


def unplayed(conn: sqlite3.Connection, date: str) -> int:
    """The money of the night's night sales (voided ones left out) whose games were not
    started (still waiting, or skipped): in the night's takings, in no game's."""
    return sum(
        s.cents
        for sale in night_sales(conn, date)
        if sale.void is None
        for s in sale.shares
        if s.game_id is None
    )


def repeated_cards(conn: sqlite3.Connection, date: str) -> int:
    """How many more cards the night's games count than the night sold (`Night.repeated_cards`):
    each night sale's cards are in every started game it covers, and were sold once."""
    return sum(
        sale.cards * (sum(1 for s in sale.shares if s.game_id is not None) - 1)
        for sale in night_sales(conn, date)
        if sale.void is None
    )


def _covered(conn: sqlite3.Connection, req: NightSaleRequest) -> list[Entry]:
    """The program's games the sale covers, checked: a program is loaded, the numbers are
    its games, and every game covered is the one in play or one still to come."""
    listed = program.entries(conn)
    if not listed:
        raise Conflict("no program is loaded: a night sale covers games of the program")
    open_games = [e for e in listed if _still_open(conn, e)]
    if not open_games:
        raise Conflict("every game of the program has been played")
    first = req.games.first if req.games.first is not None else open_games[0].position
    last = req.games.last if req.games.last is not None else listed[-1].position
    if last > len(listed):
        raise RequestError(
            "the program has %(n)s games: a night sale covers games 1 to %(n)s", n=len(listed)
        )
    covered = [e for e in listed if first <= e.position <= last]
    done = next((e for e in covered if not _still_open(conn, e)), None)
    if done is not None and done.status == "skipped":
        raise Conflict(
            "game %(n)s of the program was skipped: a night sale covers the game in play and "
            "the games still to come (from game %(next)s)",
            n=done.position,
            next=open_games[0].position,
        )
    if done is not None:
        raise Conflict(
            "game %(n)s of the program is already played: a night sale covers the game in "
            "play and the games still to come (from game %(next)s)",
            n=done.position,
            next=open_games[0].position,
        )
    return covered


def _deck_of(conn: sqlite3.Connection, entry: Entry) -> str:
    if entry.game_id is not None:
        return games.get_game(conn, entry.game_id).deck_id
    return program.deck_for(conn, entry.game)


def _price(conn: sqlite3.Connection, entry: Entry, given: int | str | None) -> Price:
    """The sale's price: of the first covered game's list (`NightSaleRequest`)."""
    if entry.game_id is not None:
        if isinstance(given, str):
            raise RequestError("the price of a sale is the number of a price on the game's list")
        return price_store.price_list(conn, entry.game_id).find(given).price
    listed = entry.game.prices
    if not listed:
        raise Conflict("game %(n)s of the program has no price list", n=entry.position)
    if given is None and len(listed) == 1:
        return listed[0]
    for place, price in enumerate(listed, start=1):
        if given == place or (isinstance(given, str) and given.lower() == price.label.lower()):
            return price
    raise RequestError(
        "choose the price of this sale on game %(n)s's list: %(names)s",
        n=entry.position,
        names=", ".join(f"{i} ({p.label})" if p.label else str(i) for i, p in enumerate(listed, 1)),
    )


def _refuse_sold(
    conn: sqlite3.Connection, entry: Entry, ranges: tuple[Serials, ...], asked: int
) -> None:
    """A card of the sale already sold in a covered game is refused in words: the game in
    play's own sales (any round) and every night sale covering the game."""
    if entry.game_id is not None:
        clash = money.first_overlap(ranges, sale_store.sold(conn, entry.game_id, None))
        if clash is not None:
            raise sale_store.already_sold(conn, entry.game_id, None, clash, asked)
        return
    held = [s for s in sale_store.entry_night_shares(conn, entry.entry_id) if s.void is None]
    clash = money.first_overlap(ranges, [r for s in held for r in s.serials])
    if clash is not None:
        holder = next(s for s in held if any(clash in r for r in s.serials))
        assert holder.night is not None  # a share of a night sale
        raise Conflict(
            "card %(serial)s is sold for games %(games)s of the program in night sale %(n)s "
            "(cards %(cards)s, at %(time)s)",
            serial=clash,
            games=holder.night.games,
            n=holder.night.night_sale_id,
            cards=money.format_serials(holder.serials),
            time=sale_store.clock(holder.made),
        )


def sell(conn: sqlite3.Connection, req: NightSaleRequest, via: str | None = None) -> NightSale:
    """Record a night sale, checked whole first (nothing is written when any check refuses):
    the games are the program's, the game in play or still to come, all played on the same
    deck; the price is on the first game's list and the sale is whole books; no card is
    already sold in a covered game; once paper is issued for the game in play, its cards were
    issued."""
    with write_transaction(conn) as tx:
        covered = _covered(conn, req)
        for entry in covered:  # the game in play, once its money ball is known
            if entry.game_id is not None:
                sale_store.refuse_after_money_ball(games.get_game(conn, entry.game_id))
        first = covered[0]
        deck_id = _deck_of(conn, first)
        other = next((e for e in covered[1:] if _deck_of(conn, e) != deck_id), None)
        if other is not None:
            raise Conflict(
                "game %(n)s of the program is not played with the cards of game "
                "%(first)s: a night sale's cards play in every game it covers",
                n=other.position,
                first=first.position,
            )
        deck = get_deck(conn, deck_id)
        price = _price(conn, first, req.price)
        if req.scan is not None:
            method = "scan"
            asked = sale_store.scanned_serial(conn, deck_id, req.scan, first.position)
            ranges: tuple[Serials, ...] = (money.book_of(asked, price.book),)
            if ranges[0].last > len(deck.cards):
                raise RequestError("the book of this card is not whole in the deck")
        else:
            method = "range"
            with money_input():
                ranges = money.parse_serials(req.serials, len(deck.cards))
            asked = ranges[0].first
        for entry in covered:
            _refuse_sold(conn, entry, ranges, asked)
        with money_input():
            cents = price.of_sale(ranges)
            for entry in covered:
                if entry.game_id is not None:
                    money.check_sellable(sale_store.stock_entries(conn, entry.game_id), ranges)
            parts = money.night_shares(cents, len(covered))
        text = money.format_serials(ranges)
        loaded = program.loaded(conn)
        assert loaded is not None  # _covered found its games
        cur = conn.execute(
            "INSERT INTO ledger_night_sales (program_id, deck_id, serials, cards, cents, "
            "price, book, label, method) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                loaded["id"],
                deck_id,
                text.replace(" ", ""),
                money.count(ranges),
                cents,
                price.cents,
                price.book,
                price.label,
                method,
            ),
        )
        sale_id = int(cur.lastrowid or 0)
        started: list[int] = []
        for entry, part in zip(covered, parts, strict=True):
            made_in = 1
            if entry.game_id is not None:
                made_in = games.current_round(conn, entry.game_id).number
                started.append(entry.game_id)
            conn.execute(
                "INSERT INTO ledger_night_shares (night_sale_id, entry_id, place, cents, "
                "made_in) VALUES (?, ?, ?, ?, ?)",
                (sale_id, entry.entry_id, entry.position, part, made_in),
            )
        detail = NightSaleLogged(
            sale_id,
            tuple(e.position for e in covered),
            text,
            money.count(ranges),
            cents,
            tuple(parts),
            price.cents,
            price.book,
            price.label,
            method,
        )
        store.log(conn, None, "night_sale", detail, via)
        for gid in started:
            share = next(s for s in sale_store.night_shares(conn, gid) if s.sale_id == sale_id)
            place = next(e.position for e in covered if e.game_id == gid)
            sale_store.log_share(conn, gid, sale_id, place, share, via)
        tx.commit()
        for gid in started:
            store.publish(gid, "sale")
    return get(conn, sale_id)


def void(
    conn: sqlite3.Connection, night_sale_id: int, reason: str, via: str | None = None
) -> NightSale:
    """Void a night sale whole, saying why. Refused once any covered game has paid a prize as
    a share of the takings its share counts in (`correction_store.share_paid`), as a sale of one
    game is."""
    with write_transaction(conn) as tx:
        sale = get(conn, night_sale_id)
        if sale.void is not None:
            raise Conflict("night sale %(n)s is already voided", n=night_sale_id)
        for s in sale.shares:
            if s.game_id is not None and correction_store.share_paid(conn, s.game_id, s.round):
                raise Conflict(
                    "night sale %(n)s cannot be voided: game %(game)s of the program "
                    "already paid a prize in round %(round)s as a share of the money it "
                    "took, this sale's share included",
                    n=night_sale_id,
                    game=s.number,
                    round=s.round,
                )
        conn.execute(
            "INSERT INTO ledger_night_voids (night_sale_id, reason) VALUES (?, ?)",
            (night_sale_id, reason),
        )
        store.log(conn, None, "night_void", NightSaleVoided(night_sale_id, reason), via)
        tx.commit()
        for s in sale.shares:
            if s.game_id is not None:
                store.publish(s.game_id, "correction")
    return get(conn, night_sale_id)


@dataclass(frozen=True)
class Door:
    """What the door form offers for a night sale on game `game_id`'s ledger page: the game is
    the program's game in play, number `number` of `last`; a night sale covers it and the next
    games, up to any of them."""

    number: int
    last: int


def door(conn: sqlite3.Connection, gid: int) -> Door | None:
    """The night sales the door can make from game `gid`'s page (None: it is not the program's
    game in play, or the program's last game)."""
    try:
        listed = program.entries(conn)
    except Conflict:
        return None
    entry = next((e for e in listed if e.game_id == gid and e.status == "playing"), None)
    if entry is None or entry.position == len(listed) or not _still_open(conn, entry):
        return None
    return Door(entry.position, len(listed))
