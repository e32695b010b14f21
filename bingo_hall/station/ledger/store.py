"""The ledger's sales, prices, prize rules and currency over sqlite3 (issue 27).

The money rules are the pure `bingo_hall.ledger`; this module checks a request whole before it
writes anything, writes it in one transaction under the hall's write lock, logs the action
(`ledger_log`, the audit trail) and publishes a `ledger` event after the commit, as
`games.publish` does for calls. Nothing is deleted: a wrong sale is voided by a correction with
its reason, a new price or prize rule is a new row.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from ... import ledger as money
from ...errors import KitError
from ...ledger import LedgerError, Price, PrizeKind, PrizeRule, Serials
from ...signing import signature_is_valid
from ...web import book
from ...web.db import transaction
from ...web.errors import Conflict, NotFound, RequestError
from ...web.instance import hall
from .. import games
from ..decks import get_deck
from ..events import LedgerChanged
from ..model import Game
from ..variants import prize_plan

MAX_REASON = 200


@contextmanager
def money_input() -> Iterator[None]:
    """A pure rule's refusal (`LedgerError`) becomes a 400 with the same translatable text."""
    try:
        yield
    except LedgerError as exc:
        raise RequestError(exc.template, **exc.params) from None


def game_prizes(game: Game) -> tuple[str, ...]:
    """The prizes a game plays, in the order they are won: a 75-ball round has one ("bingo");
    a 90-ball game plays línea then bingo, or one line, two lines, full house. The only place
    the ledger asks what a game plays: the game's variant answers (its prize plan)."""
    return prize_plan(game).prizes


def jackpot_prize(game: Game) -> str:
    """The prize a jackpot can be played on: the full house, the round's last prize."""
    return game_prizes(game)[-1]


def log(conn: sqlite3.Connection, gid: int | None, action: str, detail: dict, via: str | None):
    conn.execute(
        "INSERT INTO ledger_log (game_id, action, detail, via) VALUES (?, ?, ?, ?)",
        (gid, action, json.dumps(detail, ensure_ascii=False), via),
    )
    book.append(conn, "ledger." + action, {"game_id": gid, **detail})


def audit_log(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """The audit trail: every ledger action of the Maestro, in order."""
    return [
        {
            "game_id": r["game_id"],
            "action": r["action"],
            "detail": json.loads(r["detail"]),
            "via": r["via"],
            "at": r["made"],
        }
        for r in conn.execute("SELECT * FROM ledger_log ORDER BY id")
    ]


def _publish(gid: int, what: str) -> None:
    """Tell the game's screens the prizes may have changed (they fetch them again). Called
    after the commit, holding the write lock, as every service publishes."""
    games.publish(LedgerChanged(gid, what))


# ---- currency ------------------------------------------------------------------------------


def currency(conn: sqlite3.Connection) -> str:
    row = conn.execute("SELECT value FROM ledger_settings WHERE key = 'currency'").fetchone()
    return row[0] if row else money.DEFAULT_CURRENCY


def set_currency(conn: sqlite3.Connection, value: Any, via: str | None = None) -> dict[str, Any]:
    with money_input():
        code = money.check_currency(value)
    with hall().write_lock:
        with transaction(conn):
            conn.execute(
                "INSERT INTO ledger_settings (key, value) VALUES ('currency', ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (code,),
            )
            log(conn, None, "currency", {"currency": code}, via)
        gid = games.newest_active_game(conn)
        if gid is not None:
            _publish(gid, "currency")
    return {"currency": code}


# ---- prices --------------------------------------------------------------------------------


def price_of(conn: sqlite3.Connection, gid: int) -> Price | None:
    row = conn.execute(
        "SELECT cents, book FROM ledger_prices WHERE game_id = ? ORDER BY id DESC LIMIT 1", (gid,)
    ).fetchone()
    return None if row is None else Price(row["cents"], row["book"])


def set_price(
    conn: sqlite3.Connection, game_id: int, data: dict[str, Any], via: str | None = None
) -> dict[str, Any]:
    """The price of a card (`book` 1) or of a book of N cards, for the game's next sales."""
    with money_input():
        price = money.parse_price(data.get("cents", data.get("amount")), data.get("book", 1))
    with hall().write_lock:
        with transaction(conn):
            gid = games.get_game(conn, game_id).game_id
            conn.execute(
                "INSERT INTO ledger_prices (game_id, cents, book) VALUES (?, ?, ?)",
                (gid, price.cents, price.book),
            )
            log(conn, gid, "price", {"cents": price.cents, "book": price.book}, via)
    return {"game_id": gid, "cents": price.cents, "book": price.book}


# ---- prize rules ---------------------------------------------------------------------------


def listed_amounts(game: Game) -> dict[str, PrizeRule]:
    """What the game's prize list says each prize pays (`amount = "500"` in a host's prize
    file, docs/claims.md): a fixed sum, until the ledger sets the prize another rule."""
    try:
        listed = prize_plan(game).prize_list
    except KitError:  # the host's list left the prizes folder: the ledger's own rules stand
        return {}
    if listed is None:
        return {}
    return {
        p.key: PrizeRule(PrizeKind.FIXED, cents=p.amount_cents)
        for p in listed.prizes
        if p.amount_cents is not None
    }


def rules_of(conn: sqlite3.Connection, gid: int) -> dict[str, PrizeRule]:
    """The game's prize rules now: the newest row of each prize, else the sum its prize list
    names."""
    out: dict[str, PrizeRule] = listed_amounts(games.get_game(conn, gid))
    for row in conn.execute(
        "SELECT prize, rule FROM ledger_prizes WHERE game_id = ? ORDER BY id", (gid,)
    ):
        rule = json.loads(row["rule"])
        if rule is None:  # set back to no money prize
            out.pop(row["prize"], None)
        else:
            out[row["prize"]] = money.rule_from_json(rule)
    return out


def set_prizes(
    conn: sqlite3.Connection, game_id: int, data: dict[str, Any], via: str | None = None
) -> dict[str, Any]:
    """`{"prizes": {"linea": {"kind": "percent", "percent": 20}, "bingo": {...}}}`: the rules
    of some or all of the game's prizes, all checked before any is saved; `null` sets a prize
    back to no money prize."""
    game = games.get_game(conn, game_id)
    given = data.get("prizes")
    if not isinstance(given, dict) or not given:
        raise RequestError('send {"prizes": {"<prize>": {"kind": ...}}}')
    plays = game_prizes(game)
    new: dict[str, PrizeRule | None] = {}
    for prize, spec in given.items():
        if prize not in plays:
            raise RequestError(
                "this game plays %(prizes)s, not %(prize)s", prizes=", ".join(plays), prize=prize
            )
        if spec is None:  # no money prize (any rule it had is superseded, not deleted)
            new[prize] = None
            continue
        with money_input():
            rule = new[prize] = money.rule_from_json(spec)
        if rule.kind == PrizeKind.JACKPOT and prize != jackpot_prize(game):
            raise RequestError(
                "a jackpot is played on the full house (%(prize)s), the round's last prize",
                prize=jackpot_prize(game),
            )
    with hall().write_lock:
        with transaction(conn):
            rules = {**rules_of(conn, game.game_id), **new}
            kept = {p: r for p, r in rules.items() if r is not None}
            share = sum(r.percent for r in kept.values())
            if share > 100:
                raise RequestError(
                    "the prizes would share %(pct)s %% of the sales, more than 100 %%",
                    pct=share,
                )
            specs = {p: None if r is None else r.to_json() for p, r in new.items()}
            for prize, spec in specs.items():
                conn.execute(
                    "INSERT INTO ledger_prizes (game_id, prize, rule) VALUES (?, ?, ?)",
                    (game.game_id, prize, json.dumps(spec)),
                )
            log(conn, game.game_id, "prizes", specs, via)
        _publish(game.game_id, "prizes")
    return {"game_id": game.game_id, "prizes": {p: r.to_json() for p, r in kept.items()}}


# ---- sales ---------------------------------------------------------------------------------


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
        }


def _ranges(text: str) -> tuple[Serials, ...]:
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
    return [
        Sale(
            r["id"],
            r["game_id"],
            r["round"],
            _ranges(r["serials"]),
            r["cards"],
            r["cents"],
            r["method"],
            r["made"],
            r["reason"],
            r["made_in"] or 1,
        )
        for r in conn.execute(sql + " ORDER BY s.id", args)
    ]


def sold(conn: sqlite3.Connection, gid: int, rnd: int | None) -> list[Serials]:
    """The cards sold for a round, whole-game sales included; with `rnd` None, every card sold
    for any round of the game (voided sales left out)."""
    return [r for s in sales(conn, gid, rnd) if s.void is None for r in s.serials]


def in_use(conn: sqlite3.Connection, gid: int) -> bool:
    """Whether the host keeps the game's ledger (a price or a sale is recorded)."""
    return bool(
        conn.execute(
            "SELECT 1 FROM ledger_prices WHERE game_id = ? UNION ALL "
            "SELECT 1 FROM ledger_sales WHERE game_id = ? LIMIT 1",
            (gid, gid),
        ).fetchone()
    )


_CARD_PATH = re.compile(r"/c/([A-Za-z0-9_-]+)/(\d{1,6})/([0-9A-Za-z]{1,64})/?(?:[?#].*)?$", re.I)


def _scanned(conn: sqlite3.Connection, game: Game, data: dict[str, Any]) -> int:
    """The serial of a scanned card: its QR's URL (a USB scanner types it, the camera reads it)
    must be a card of this game's deck with a signature that verifies."""
    text = data.get("scan")
    m = _CARD_PATH.search(text.strip()) if isinstance(text, str) and len(text) < 500 else None
    if m is None:
        raise RequestError("that is not the code of a bingo card")
    deck = get_deck(conn, game.deck_id)
    deck_id, serial, sig = m.group(1), int(m.group(2)), m.group(3)
    if deck_id != deck.deck_id:
        raise RequestError(
            "this card is from another deck, not the one of game %(n)s", n=game.game_id
        )
    if not 1 <= serial <= len(deck.cards) or not signature_is_valid(
        deck.secret, deck.deck_id, serial, sig
    ):
        raise RequestError("this card's code does not verify: it was not printed by this hall")
    return serial


#: what a request gives as the round for a sale for the whole game (its cards play every round)
WHOLE_GAME = "all"


def _round_of(data: dict[str, Any], game: Game, current: int) -> int | None:
    """The round a sale is for: the current one when none is given (blank, the default); a
    round number, up to the next one while the game is played (sold at the door during this
    one); or "all" (None): the whole game, every round."""
    value = data.get("round")
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


def sell(
    conn: sqlite3.Connection, game_id: int, data: dict[str, Any], via: str | None = None
) -> dict[str, Any]:
    """Record cards sold for the game (`round` blank) or one round: `{"serials": "1-40, 55"}`
    (by range) or `{"scan": url}` (one scanned card; at a book price, its whole book). Checked
    whole first: a card already sold (for the same round, or for the whole game), a card
    outside the deck, a price not set, or not whole books is refused and nothing is written."""
    with hall().write_lock:
        with transaction(conn):
            game = games.get_game(conn, game_id)
            gid = game.game_id
            deck = get_deck(conn, game.deck_id)
            current = games.current_round(conn, gid).number
            rnd = _round_of(data, game, current)
            price = price_of(conn, gid)
            if price is None:
                raise Conflict("set the price of a card first")
            if "scan" in data:
                method = "scan"
                ranges: tuple[Serials, ...] = (
                    money.book_of(_scanned(conn, game, data), price.book),
                )
                if ranges[0].last > len(deck.cards):
                    raise RequestError("the book of this card is not whole in the deck")
            else:
                method = "range"
                with money_input():
                    ranges = money.parse_serials(data.get("serials"), len(deck.cards))
            clash = money.first_overlap(ranges, sold(conn, gid, rnd))
            if clash is not None and rnd is None:
                raise Conflict("card %(serial)s is already sold in this game", serial=clash)
            if clash is not None:
                raise Conflict(
                    "card %(serial)s is already sold for round %(round)s", serial=clash, round=rnd
                )
            cards = money.count(ranges)
            with money_input():
                cents = price.of_sale(ranges)
            text = money.format_serials(ranges)
            cur = conn.execute(
                "INSERT INTO ledger_sales (game_id, round, serials, cards, cents, price, book, "
                "method, made_in) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
                ),
            )
            detail = {"sale_id": cur.lastrowid, "round": rnd, "serials": text, "cents": cents}
            sold_as = {"cards": cards, "price": price.cents, "book": price.book, "made_in": current}
            log(conn, gid, "sale", {**detail, "method": method, **sold_as}, via)
        _publish(gid, "sale")
    return {**detail, "game_id": gid, "cards": cards, "method": method}


def correction_reason(reason: Any, template: str) -> str:
    """The reason a correction gives (a sale voided, a payout not paid after all): required, at
    most MAX_REASON characters; `template` says what must be explained."""
    if not isinstance(reason, str) or not reason.strip() or len(reason) > MAX_REASON:
        raise RequestError(template, n=MAX_REASON)
    return reason.strip()


def correct(
    conn: sqlite3.Connection, sale_id: int, reason: Any, via: str | None = None
) -> dict[str, Any]:
    """Void a sale, saying why (kept in the corrections log); sell the right cards again."""
    reason = correction_reason(reason, "say why the sale is corrected (at most %(n)s characters)")
    with hall().write_lock:
        with transaction(conn):
            row = conn.execute("SELECT * FROM ledger_sales WHERE id = ?", (sale_id,)).fetchone()
            if row is None:
                raise NotFound("there is no sale %(sale)s", sale=sale_id)
            if conn.execute(
                "SELECT 1 FROM ledger_corrections WHERE sale_id = ?", (sale_id,)
            ).fetchone():
                raise Conflict("sale %(sale)s is already corrected", sale=sale_id)
            conn.execute(
                "INSERT INTO ledger_corrections (sale_id, reason) VALUES (?, ?)",
                (sale_id, reason),
            )
            log(
                conn,
                row["game_id"],
                "correction",
                {"sale_id": sale_id, "reason": reason},
                via,
            )
        _publish(row["game_id"], "correction")
    return {"sale_id": sale_id, "game_id": row["game_id"], "reason": reason}


def corrections(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """The corrections log of the night, oldest first: sales voided (`kind` "sale") and payouts
    marked not paid after all (`kind` "payout"), each with its reason."""
    rows = conn.execute(
        "SELECT 'sale' AS kind, c.sale_id, NULL AS payout_id, c.reason, c.made AS made, s.game_id,"
        " s.round, s.serials, NULL AS serial, s.cents "
        "FROM ledger_corrections c JOIN ledger_sales s ON s.id = c.sale_id "
        "UNION ALL "
        "SELECT 'payout', NULL, m.payout_id, m.reason, m.made, p.game_id, r.number, NULL,"
        " p.serial, p.cents "
        "FROM ledger_paid_marks m JOIN ledger_payouts p ON p.id = m.payout_id "
        "JOIN rounds r ON r.id = p.round_id WHERE m.paid = 0 "
        "ORDER BY made"
    )
    return [dict(r) for r in rows]
