"""The raffle over SQLite: sales, prizes, the commitment, the draws.

The rules are the pure `bingo_hall.money.raffle`; the seed and its commitment are the balls' own
(`draw.new_seed`, `draw.commitment`), and the order is `raffle.raffle_order`, the balls'
shuffle. Each change is checked whole, written in one transaction under the hall's write lock,
logged in `ledger_log` (the ledger's audit trail), and then the raffle's whole state is
published on the `raffle` channel (the big screen redraws from it).

A raffle moves on in one direction: selling (tickets and prizes) -> committed (sales closed, the
commitment on the screen, the draws) -> revealed (the seed shown; nothing changes after).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from ... import draw
from ...errors import KitError
from ...money import format_serials, raffle
from ...money.night import RaffleLine, RaffleWin
from ...money.raffle import RaffleDraw, RaffleTicket, TicketSale
from ...values import JsonValue
from ...web.db import write_transaction
from ...web.errors import Conflict, NotFound, RequestError
from ...web.instance import hall
from . import store
from .logged import (
    RaffleCommitted,
    RaffleDrawn,
    RafflePrizeListed,
    RaffleRedrawn,
    RaffleRevealed,
    RaffleSold,
    RaffleStarted,
)
from .requests import (
    RaffleCommitRequest,
    RafflePrizeRequest,
    RaffleRedrawRequest,
    RaffleSaleRequest,
    RaffleStartRequest,
)

CHANNEL = "raffle"


class Stage:
    SELLING = "selling"
    COMMITTED = "committed"
    REVEALED = "revealed"


@dataclass(frozen=True)
class Raffle:
    """A raffle as stored: its price, its commitment and what is revealed."""

    raffle_id: int
    created: str
    cents: int
    seed: str | None
    commitment: str | None
    public_input: str | None
    revealed: bool

    @property
    def stage(self) -> str:
        if self.revealed:
            return Stage.REVEALED
        return Stage.COMMITTED if self.commitment else Stage.SELLING


@dataclass(frozen=True)
class TicketLine(JsonValue):
    colour: str
    number: int


@dataclass(frozen=True)
class Redrawn(JsonValue):
    """A ticket drawn for a prize and set aside, nobody coming forward, with the reason."""

    colour: str
    number: int
    reason: str


@dataclass(frozen=True)
class SaleLine(JsonValue):
    colour: str
    numbers: str  # "1-50, 75"
    count: int


@dataclass(frozen=True)
class PrizeLine(JsonValue):
    place: int  # 1: drawn first
    name: str
    winner: TicketLine | None
    unclaimed: tuple[Redrawn, ...]


@dataclass(frozen=True)
class DrawLine(JsonValue):
    place: int  # in the committed order
    prize: int
    colour: str
    number: int
    unclaimed: str | None  # the reason it was set aside


@dataclass(frozen=True)
class RaffleState(JsonValue):
    """The raffle as the pages, the API and the big screen's stream show it; the seed only once
    revealed. `raffle_id` None: no raffle yet."""

    raffle_id: int | None
    stage: str | None
    currency: str
    price: int = 0
    tickets: int = 0
    taken: int = 0
    sales: tuple[SaleLine, ...] = ()
    prizes: tuple[PrizeLine, ...] = ()
    draws: tuple[DrawLine, ...] = ()
    next_prize: int | None = None  # the prize the next draw is for
    last: int | None = None  # the newest draw's place
    commitment: str | None = None
    public_input: str | None = None
    seed: str | None = None


def _raffle(row: sqlite3.Row) -> Raffle:
    return Raffle(
        row["id"],
        row["created"],
        row["cents"],
        row["seed"],
        row["commitment"],
        row["public_input"],
        row["revealed"] is not None,
    )


def newest(conn: sqlite3.Connection) -> Raffle | None:
    row = conn.execute("SELECT * FROM raffles ORDER BY id DESC LIMIT 1").fetchone()
    return None if row is None else _raffle(row)


def raffles(conn: sqlite3.Connection) -> list[Raffle]:
    return [_raffle(r) for r in conn.execute("SELECT * FROM raffles ORDER BY id")]


def _current(conn: sqlite3.Connection) -> Raffle:
    found = newest(conn)
    if found is None:
        raise NotFound("there is no raffle yet: start one with its price per ticket")
    return found


def sales(conn: sqlite3.Connection, raffle_id: int) -> list[TicketSale]:
    return [
        raffle.parse_sale(r["colour"], r["numbers"])
        for r in conn.execute(
            "SELECT colour, numbers FROM raffle_sales WHERE raffle_id = ? ORDER BY id",
            (raffle_id,),
        )
    ]


def taken(conn: sqlite3.Connection, raffle_id: int) -> tuple[int, int]:
    """(tickets sold, money taken in cents)."""
    row = conn.execute(
        "SELECT COALESCE(SUM(tickets), 0), COALESCE(SUM(cents), 0) FROM raffle_sales "
        "WHERE raffle_id = ?",
        (raffle_id,),
    ).fetchone()
    return int(row[0]), int(row[1])


def prizes(conn: sqlite3.Connection, raffle_id: int) -> list[str]:
    return [
        r["name"]
        for r in conn.execute(
            "SELECT name FROM raffle_prizes WHERE raffle_id = ? ORDER BY place", (raffle_id,)
        )
    ]


def draws(conn: sqlite3.Connection, raffle_id: int) -> list[RaffleDraw]:
    return [
        RaffleDraw(r["prize"], r["place"], RaffleTicket(r["colour"], r["number"]), r["reason"])
        for r in conn.execute(
            "SELECT d.prize, d.place, d.colour, d.number, u.reason FROM raffle_draws d "
            "LEFT JOIN raffle_unclaimed u ON u.draw_id = d.id WHERE d.raffle_id = ? "
            "ORDER BY d.place",
            (raffle_id,),
        )
    ]


def _order(conn: sqlite3.Connection, r: Raffle) -> tuple[RaffleTicket, ...]:
    assert r.seed is not None
    return raffle.raffle_order(
        bytes.fromhex(r.seed), raffle.tickets_sold(sales(conn, r.raffle_id)), r.public_input
    )


def state(conn: sqlite3.Connection, r: Raffle | None = None) -> RaffleState:
    """The raffle now (the newest one unless `r`)."""
    r = r if r is not None else newest(conn)
    if r is None:
        return RaffleState(None, None, store.currency(conn))
    sold, cents = taken(conn, r.raffle_id)
    made = draws(conn, r.raffle_id)
    won = raffle.winners(made)
    listed = tuple(
        PrizeLine(
            place,
            name,
            TicketLine(won[place].ticket.colour, won[place].ticket.number)
            if place in won
            else None,
            tuple(
                Redrawn(d.ticket.colour, d.ticket.number, d.unclaimed)
                for d in made
                if d.prize == place and d.unclaimed is not None
            ),
        )
        for place, name in enumerate(prizes(conn, r.raffle_id), start=1)
    )
    waiting = [p.place for p in listed if p.winner is None]
    return RaffleState(
        r.raffle_id,
        r.stage,
        store.currency(conn),
        r.cents,
        sold,
        cents,
        tuple(
            SaleLine(s.colour, format_serials(s.numbers), s.count) for s in sales(conn, r.raffle_id)
        ),
        listed,
        tuple(
            DrawLine(d.place, d.prize, d.ticket.colour, d.ticket.number, d.unclaimed) for d in made
        ),
        waiting[0] if waiting and r.stage == Stage.COMMITTED else None,
        made[-1].place if made else None,
        r.commitment,
        r.public_input,
        r.seed if r.revealed else None,
    )


def night_line(conn: sqlite3.Connection, r: Raffle) -> RaffleLine:
    """The raffle as the night's summary lists it (`bingo_hall.money.night`)."""
    sold, cents = taken(conn, r.raffle_id)
    made = draws(conn, r.raffle_id)
    won = raffle.winners(made)
    wins = tuple(
        RaffleWin(
            place,
            name,
            str(won[place].ticket) if place in won else None,
            tuple((str(d.ticket), d.unclaimed) for d in made if d.prize == place and d.unclaimed),
        )
        for place, name in enumerate(prizes(conn, r.raffle_id), start=1)
    )
    seed = r.seed if r.revealed else None
    return RaffleLine(r.raffle_id, sold, cents, r.commitment, seed, wins)


def _publish(conn: sqlite3.Connection) -> RaffleState:
    """After the commit, still holding the write lock: the big screen redraws from the state."""
    now = state(conn)
    hall().hub.publish(CHANNEL, "snapshot", now.to_json())
    return now


def _refused(exc: KitError) -> RequestError:
    return RequestError(exc.template, **exc.params)


def start(conn: sqlite3.Connection, req: RaffleStartRequest, via: str | None) -> RaffleState:
    """A new raffle at its price per ticket (once the last one, if any, is over)."""
    cents = req.cents
    with write_transaction(conn) as tx:
        last = newest(conn)
        if last is not None and not last.revealed:
            raise Conflict("the raffle is still open: draw it and reveal its seed first")
        rid = conn.execute("INSERT INTO raffles (cents) VALUES (?)", (cents,)).lastrowid
        assert rid is not None  # an INSERT always sets it
        store.log(conn, None, "raffle", RaffleStarted(rid, cents), via)
        tx.commit()
        return _publish(conn)


def _selling(conn: sqlite3.Connection) -> Raffle:
    r = _current(conn)
    if r.stage != Stage.SELLING:
        raise Conflict("the raffle's sales are closed: its order is committed")
    return r


def sell(conn: sqlite3.Connection, req: RaffleSaleRequest, via: str | None) -> RaffleState:
    """Tickets of one colour sold by number range, at the raffle's price each."""
    with write_transaction(conn) as tx:
        r = _selling(conn)
        try:
            sale = raffle.parse_sale(req.colour, req.numbers, sales(conn, r.raffle_id))
        except KitError as exc:
            raise _refused(exc) from None
        cents = r.cents * sale.count
        numbers = format_serials(sale.numbers)
        conn.execute(
            "INSERT INTO raffle_sales (raffle_id, colour, numbers, tickets, cents, via) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (r.raffle_id, sale.colour, numbers, sale.count, cents, via),
        )
        detail = RaffleSold(r.raffle_id, sale.colour, numbers, cents)
        store.log(conn, None, "raffle-sale", detail, via)
        tx.commit()
        return _publish(conn)


def add_prize(conn: sqlite3.Connection, req: RafflePrizeRequest, via: str | None) -> RaffleState:
    """A prize at the end of the list (drawn in that order); listed before the commitment."""
    name = req.name
    with write_transaction(conn) as tx:
        r = _selling(conn)
        listed = prizes(conn, r.raffle_id)
        if len(listed) >= raffle.MAX_PRIZES:
            raise RequestError("a raffle has at most %(n)s prizes", n=raffle.MAX_PRIZES)
        conn.execute(
            "INSERT INTO raffle_prizes (raffle_id, place, name) VALUES (?, ?, ?)",
            (r.raffle_id, len(listed) + 1, name),
        )
        store.log(conn, None, "raffle-prize", RafflePrizeListed(r.raffle_id, name), via)
        tx.commit()
        return _publish(conn)


def commit(conn: sqlite3.Connection, req: RaffleCommitRequest, via: str | None) -> RaffleState:
    """Close the sales and commit the order: a fresh seed, its SHA-256 on the screen."""
    public_input = req.public_input
    with write_transaction(conn) as tx:
        r = _selling(conn)
        if taken(conn, r.raffle_id)[0] == 0:
            raise Conflict("no ticket is sold yet: sell tickets before the draw")
        if not prizes(conn, r.raffle_id):
            raise Conflict("list the prizes before the draw")
        seed = draw.new_seed()
        conn.execute(
            "UPDATE raffles SET seed = ?, commitment = ?, public_input = ?, "
            "committed = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?",
            (seed.hex(), draw.commitment(seed), public_input, r.raffle_id),
        )
        committed = RaffleCommitted(r.raffle_id, draw.commitment(seed))
        store.log(conn, None, "raffle-commit", committed, via)
        tx.commit()
        return _publish(conn)


def _drawing(conn: sqlite3.Connection) -> Raffle:
    r = _current(conn)
    if r.stage == Stage.SELLING:
        raise Conflict("close the sales first: the order is committed before the first draw")
    if r.stage == Stage.REVEALED:
        raise Conflict("the raffle is over: its seed is revealed")
    return r


def _draw_next(conn: sqlite3.Connection, r: Raffle) -> RaffleDraw | None:
    try:
        nxt = raffle.next_draw(
            _order(conn, r), len(prizes(conn, r.raffle_id)), draws(conn, r.raffle_id)
        )
    except KitError as exc:
        raise Conflict(exc.template, **exc.params) from None
    if nxt is not None:
        conn.execute(
            "INSERT INTO raffle_draws (raffle_id, place, prize, colour, number) "
            "VALUES (?, ?, ?, ?, ?)",
            (r.raffle_id, nxt.place, nxt.prize, nxt.ticket.colour, nxt.ticket.number),
        )
    return nxt


def draw_next(conn: sqlite3.Connection, via: str | None) -> RaffleState:
    """The next prize to the next ticket of the committed order."""
    with write_transaction(conn) as tx:
        r = _drawing(conn)
        nxt = _draw_next(conn, r)
        if nxt is None:
            raise Conflict("every prize has its winner: reveal the seed to end the raffle")
        store.log(conn, None, "raffle-draw", RaffleDrawn(r.raffle_id, str(nxt.ticket)), via)
        tx.commit()
        return _publish(conn)


def unclaimed(conn: sqlite3.Connection, req: RaffleRedrawRequest, via: str | None) -> RaffleState:
    """Nobody claims the ticket just drawn: it is set aside with the reason, and its prize is
    redrawn at once, to the next ticket of the committed order."""
    reason = req.reason
    with write_transaction(conn) as tx:
        r = _drawing(conn)
        made = draws(conn, r.raffle_id)
        if not made or made[-1].unclaimed is not None:
            raise Conflict("no ticket is waiting for its winner: draw a prize first")
        last = made[-1]
        row = conn.execute(
            "SELECT id FROM raffle_draws WHERE raffle_id = ? AND place = ?",
            (r.raffle_id, last.place),
        ).fetchone()
        conn.execute(
            "INSERT INTO raffle_unclaimed (draw_id, reason) VALUES (?, ?)",
            (row["id"], " ".join(reason.split())),
        )
        nxt = _draw_next(conn, r)
        detail = RaffleRedrawn(r.raffle_id, str(last.ticket), reason, str(nxt and nxt.ticket))
        store.log(conn, None, "raffle-redraw", detail, via)
        tx.commit()
        return _publish(conn)


def reveal(conn: sqlite3.Connection, via: str | None) -> RaffleState:
    """End the raffle: the seed is revealed, so anyone can recompute the order."""
    with write_transaction(conn) as tx:
        r = _drawing(conn)
        conn.execute(
            "UPDATE raffles SET revealed = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?",
            (r.raffle_id,),
        )
        store.log(conn, None, "raffle-reveal", RaffleRevealed(r.raffle_id, r.seed), via)
        tx.commit()
        return _publish(conn)
