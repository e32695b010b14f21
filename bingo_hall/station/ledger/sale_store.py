"""The ledger's sales over sqlite3: cards sold by serial range or scanned at the door, for a
round or the whole game, at a price of the game's list, checked against what is sold and the
paper stock, and a night sale's share of each game it covers."""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ... import money
from ...money import Serials
from ...signing import signature_is_valid
from ...values import JsonValue
from ...web.db import write_transaction
from ...web.errors import Conflict, RequestError
from .. import games
from ..decks import get_deck
from ..model import Game
from .logged import NightShareLogged, SaleLogged
from .price_store import price_list
from .requests import SaleRequest, money_input
from .store import log, publish


@dataclass(frozen=True)
class Sale:
    sale_id: int
    game_id: int
    round: int | None  # None: the whole game, every round
    serials: tuple[Serials, ...]
    cards: int
    cents: int
    method: str
    made: str
    void: str | None  # the correction's reason
    made_in: int = 1  # the round being played when it was made
    book: int = 1  # the cards in a book at its price (1: a price per card)
    price_id: int | None = None  # the price of the game's list it was made at
    night: NightRef | None = None  # a game's share of a night sale (then `sale_id` is its id)

    def counted(self) -> money.SaleMoney:
        """What the pure `takings` counts: the round whose takings hold this sale's money."""
        return money.SaleMoney(self.round, self.made_in, self.cards, self.cents, bool(self.void))

    def to_json(self) -> dict[str, Any]:
        return {
            "sale_id": self.sale_id,
            "game_id": self.game_id,
            "round": self.round,
            "serials": money.format_serials(self.serials),
            "cards": self.cards,
            "cents": self.cents,
            "method": self.method,
            "at": self.made,
            "void": self.void,
            "book": self.book,
            "price_id": self.price_id,
            "night_sale": None if self.night is None else self.night.to_json(),
        }


@dataclass(frozen=True)
class NightRef(JsonValue):
    """What a game's share of a night sale says of the sale: its number, the program's games
    it covers (their numbers when it was made, "1-4"), its whole money and its price's name."""

    night_sale_id: int
    games: str
    total: int
    label: str


def games_span(places: list[int]) -> str:
    """The program numbers a night sale covers, as the door says them: "1-4", or "3"."""
    first, last = min(places), max(places)
    return str(first) if first == last else f"{first}-{last}"


def night_shares(conn: sqlite3.Connection, gid: int) -> list[Sale]:
    """Game `gid`'s shares of the night sales that cover it (through its program entry): the
    cards play every round of the game, the share's money counts in the round `made_in`."""
    return _shares(conn, "e.game_id = ?", gid, gid)


def entry_night_shares(conn: sqlite3.Connection, entry_id: int) -> list[Sale]:
    """The night sales covering a program game not started yet (`game_id` 0 in each)."""
    return _shares(conn, "s.entry_id = ?", entry_id, 0)


def _shares(conn: sqlite3.Connection, where: str, arg: int, gid: int) -> list[Sale]:
    rows = conn.execute(
        "SELECT n.*, s.cents AS share, s.made_in, v.reason, "
        "(SELECT group_concat(a.place) FROM ledger_night_shares a "
        " WHERE a.night_sale_id = n.id) AS places "
        "FROM ledger_night_shares s JOIN program_games e ON e.id = s.entry_id "
        "JOIN ledger_night_sales n ON n.id = s.night_sale_id "
        "LEFT JOIN ledger_night_voids v ON v.night_sale_id = n.id "
        f"WHERE {where} ORDER BY n.id",
        (arg,),
    ).fetchall()
    return [
        Sale(
            r["id"],
            gid,
            None,
            parse_stored(r["serials"]),
            r["cards"],
            r["share"],
            r["method"],
            r["made"],
            r["reason"],
            r["made_in"],
            r["book"],
            None,
            NightRef(
                r["id"],
                games_span([int(p) for p in str(r["places"]).split(",")]),
                r["cents"],
                r["label"],
            ),
        )
        for r in rows
    ]


def start_night_shares(conn: sqlite3.Connection, entry_id: int, gid: int) -> bool:
    """Next game started program entry `entry_id` as game `gid`: its shares of the night sales
    covering it now count in its round 1, and the book says so (`ledger.night_share`, what
    `book verify` adds to the game's takings). Inside the caller's transaction; True when the
    game has any (the caller publishes "sale" after the commit)."""
    found = False
    for share in entry_night_shares(conn, entry_id):
        if share.void is not None:
            continue
        place = conn.execute(
            "SELECT place FROM ledger_night_shares WHERE night_sale_id = ? AND entry_id = ?",
            (share.sale_id, entry_id),
        ).fetchone()["place"]
        log_share(conn, gid, share.sale_id, place, share)
        found = True
    return found


def log_share(
    conn: sqlite3.Connection,
    gid: int,
    night_sale_id: int,
    place: int,
    share: Sale,
    via: str | None = "program",
) -> None:
    """The book's entry of a game's share of a night sale (and the ledger's audit trail)."""
    serials = money.format_serials(share.serials)
    detail = NightShareLogged(
        night_sale_id, place, serials, share.cards, share.cents, share.made_in
    )
    log(conn, gid, "night_share", detail, via)


def parse_stored(text: str) -> tuple[Serials, ...]:
    out = []
    for part in text.split(","):
        a, _, b = part.strip().partition("-")
        out.append(Serials(int(a), int(b or a)))
    return tuple(out)


def sales(conn: sqlite3.Connection, gid: int, rnd: int | None = None) -> list[Sale]:
    """The game's sales in order, voided ones included; with `rnd`, the cards playing in that
    round: its own sales and the sales for the whole game."""
    sql = (
        "SELECT s.*, c.reason FROM ledger_sales s LEFT JOIN ledger_corrections c "
        "ON c.sale_id = s.id WHERE s.game_id = ?"
    )
    args: tuple[int, ...] = (gid,)
    if rnd is not None:
        sql, args = sql + " AND (s.round = ? OR s.round IS NULL)", (gid, rnd)
    own = [
        Sale(
            r["id"],
            r["game_id"],
            r["round"],
            parse_stored(r["serials"]),
            r["cards"],
            r["cents"],
            r["method"],
            r["made"],
            r["reason"],
            r["made_in"] or 1,
            r["book"],
            r["price_id"],
        )
        for r in conn.execute(sql + " ORDER BY s.id", args)
    ]
    # a night sale's cards play every round of each game it covers: they are among its sales
    return sorted(own + night_shares(conn, gid), key=lambda s: s.made)


def sold(conn: sqlite3.Connection, gid: int, rnd: int | None) -> list[Serials]:
    """The cards sold for a round, whole-game sales included; with `rnd` None, every card sold
    for any round of the game (voided sales left out)."""
    return [r for s in sales(conn, gid, rnd) if s.void is None for r in s.serials]


def book_of_card(
    conn: sqlite3.Connection, gid: int, rnd: int, serial: int
) -> tuple[int, int] | None:
    """The book (first, last serial) a card was sold in for the round: the sale that holds it at
    a book price (None: not sold, or sold as a single card)."""
    for s in sales(conn, gid, rnd):
        if s.void is None and s.book > 1 and any(serial in r for r in s.serials):
            whole = money.book_of(serial, s.book)
            return (whole.first, whole.last)
    return None


def money_ball_known(game: Game) -> int | None:
    """The game's money ball once it is known (typed, or drawn as the game started)."""
    ball = game.options.get("money_ball")
    return ball if isinstance(ball, int) and not isinstance(ball, bool) else None


def refuse_after_money_ball(game: Game) -> None:
    """The door sells no card for a game whose money ball is known: paper that is not sealed
    could be picked knowing it (docs/patterns.md, "Money ball")."""
    ball = money_ball_known(game)
    if ball is not None:
        raise Conflict(
            "the money ball of game %(game)s is %(ball)s: no more cards are sold for it, "
            "since a card could be chosen knowing the ball",
            game=game.game_id,
            ball=ball,
        )


def in_use(conn: sqlite3.Connection, gid: int) -> bool:
    """Whether the host keeps the game's ledger (a price or a sale is recorded)."""
    return bool(
        conn.execute(
            "SELECT 1 FROM ledger_prices WHERE game_id = ? UNION ALL "
            "SELECT 1 FROM ledger_sales WHERE game_id = ? UNION ALL "
            "SELECT 1 FROM ledger_night_shares s JOIN program_games e ON e.id = s.entry_id "
            "WHERE e.game_id = ? LIMIT 1",
            (gid, gid, gid),
        ).fetchone()
    )


_CARD_PATH = re.compile(r"/c/([A-Za-z0-9_-]+)/(\d{1,6})/([0-9A-Za-z]{1,64})/?(?:[?#].*)?$", re.I)


def _scanned(conn: sqlite3.Connection, game: Game, text: str) -> int:
    """The serial of a scanned card: its QR's URL (a USB scanner types it, the camera reads it)
    must be a card of this game's deck with a signature that verifies."""
    return scanned_serial(conn, game.deck_id, text, game.game_id)


def scanned_serial(conn: sqlite3.Connection, deck_id: str, text: str, game_no: int) -> int:
    """A scanned card's serial in deck `deck_id`, the deck of game `game_no` (named in the
    refusal of a card of another deck)."""
    m = _CARD_PATH.search(text.strip()) if len(text) < 500 else None
    if m is None:
        raise RequestError("that is not the code of a bingo card")
    deck = get_deck(conn, deck_id)
    deck_id, serial, sig = m.group(1), int(m.group(2)), m.group(3)
    if deck_id != deck.deck_id:
        raise RequestError("this card is from another deck, not the one of game %(n)s", n=game_no)
    if not 1 <= serial <= len(deck.cards) or not signature_is_valid(
        deck.secret, deck.deck_id, serial, sig
    ):
        raise RequestError("this card's code does not verify: it was not printed by this hall")
    return serial


#: what a request gives as the round for a sale for the whole game (its cards play every round)
WHOLE_GAME = "all"


def _round_of(value: object, game: Game, current: int) -> int | None:
    """The round a sale is for: the current one when none is given (blank, the default); a
    round number, up to the next one while the game is played (sold at the door during this
    one); or "all" (None): the whole game, every round."""
    if isinstance(value, str) and value.strip().lower() == WHOLE_GAME:
        return None
    if value is None or (isinstance(value, str) and not value.strip()):
        return current
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    last = current + 1 if game.active else current
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= last:
        raise RequestError(
            'the round is 1 to %(n)s (blank: the current one), or "all" for the whole game',
            n=last,
        )
    return value


def clock(made: str) -> str:
    """A stored time (ISO 8601 UTC) as the hall's clock shows it: "20:14"."""
    return datetime.fromisoformat(made.replace("Z", "+00:00")).astimezone().strftime("%H:%M")


def already_sold(
    conn: sqlite3.Connection, gid: int, rnd: int | None, serial: int, asked: int
) -> Conflict:
    """The refusal of a card already sold: a card of a book sold whole names its book, its
    cards and when it was sold ("card 45 is in book 8 (43-48), sold at 20:14"); `asked` is the
    card the door named (a scanned card), `serial` the first card of the sale already sold."""
    holder = next(
        (
            s
            for s in sales(conn, gid, rnd)
            if s.void is None and any(serial in r for r in s.serials)
        ),
        None,
    )
    if holder is not None and holder.night is not None:
        return Conflict(
            "card %(serial)s is sold for games %(games)s of the program in night sale %(n)s "
            "(cards %(cards)s, at %(time)s)",
            serial=serial,
            games=holder.night.games,
            n=holder.night.night_sale_id,
            cards=money.format_serials(holder.serials),
            time=clock(holder.made),
        )
    if holder is not None and holder.book > 1:
        card = asked if any(asked in r for r in holder.serials) else serial
        whole = money.book_of(card, holder.book)
        return Conflict(
            "card %(serial)s is in book %(n)s (%(cards)s), sold at %(time)s",
            serial=card,
            n=(whole.first - 1) // holder.book + 1,
            cards=str(whole),
            time=clock(holder.made),
        )
    if rnd is None:
        return Conflict("card %(serial)s is already sold in this game", serial=serial)
    return Conflict("card %(serial)s is already sold for round %(round)s", serial=serial, round=rnd)


def stock_entries(conn: sqlite3.Connection, gid: int) -> tuple[money.StockEntry, ...]:
    """The game's paper stock movements, corrected ones left out (`bingo_hall.money`)."""
    rows = conn.execute(
        "SELECT s.* FROM ledger_stock s WHERE s.game_id = ? AND NOT EXISTS "
        "(SELECT 1 FROM ledger_stock_corrections c WHERE c.stock_id = s.id) ORDER BY s.id",
        (gid,),
    )
    return tuple(
        money.StockEntry(
            money.StockKind(r["kind"]), parse_stored(r["serials"]), r["seller"], r["reason"]
        )
        for r in rows
    )


def sell(conn: sqlite3.Connection, game_id: int, req: SaleRequest, via: str | None = None) -> Sale:
    """Record cards sold for the game (`round` blank) or one round, at a price of its list:
    by range ("1-40, 55") or one scanned card (at a book price, its whole book). Checked whole
    first: a card already sold (for the same round, or for the whole game), a card outside the
    deck, a price not on the list, not whole books, or, once paper is issued for the game, a
    card not issued is refused and nothing is written."""
    with write_transaction(conn) as tx:
        game = games.get_game(conn, game_id)
        gid = game.game_id
        refuse_after_money_ball(game)
        deck = get_deck(conn, game.deck_id)
        current = games.current_round(conn, gid).number
        rnd = _round_of(req.round, game, current)
        item = price_list(conn, gid).find(req.price_id)
        price = item.price
        if req.scan is not None:
            method = "scan"
            asked = _scanned(conn, game, req.scan)
            ranges: tuple[Serials, ...] = (money.book_of(asked, price.book),)
            if ranges[0].last > len(deck.cards):
                raise RequestError("the book of this card is not whole in the deck")
        else:
            method = "range"
            with money_input():
                ranges = money.parse_serials(req.serials, len(deck.cards))
            asked = ranges[0].first
        clash = money.first_overlap(ranges, sold(conn, gid, rnd))
        if clash is not None:
            raise already_sold(conn, gid, rnd, clash, asked)
        cards = money.count(ranges)
        with money_input():
            cents = price.of_sale(ranges)
            money.check_sellable(stock_entries(conn, gid), ranges)
        text = money.format_serials(ranges)
        cur = conn.execute(
            "INSERT INTO ledger_sales (game_id, round, serials, cards, cents, price, book, "
            "method, made_in, price_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                gid,
                rnd,
                text.replace(" ", ""),
                cards,
                cents,
                price.cents,
                price.book,
                method,
                current,
                item.price_id,
            ),
        )
        sale_id = cur.lastrowid
        assert sale_id is not None  # an INSERT always sets it
        detail = SaleLogged(
            sale_id,
            rnd,
            text,
            cents,
            method,
            item.price_id,
            cards,
            price.cents,
            price.book,
            current,
        )
        log(conn, gid, "sale", detail, via)
        tx.commit()
        publish(gid, "sale")
    return next(s for s in sales(conn, gid) if s.sale_id == sale_id and s.night is None)
