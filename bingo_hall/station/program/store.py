"""The night's program over sqlite3: load a program, start its next game with
everything set (the game's mode or prize list and pattern, the ledger's price and prizes), skip
a game, insert one. The program's games and the game in play are rows (`schema.py`), so a
station restarted mid-night goes on from the game in play.

The rules of the file are the pure `bingo_hall.money.program`; starting a game is
`games.start_game`, the money is the ledger's (`ledger.store`). Next game writes the game, its
program entry and its money in one transaction under the hall's write lock, so a crash leaves all or
none.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace
from typing import Any

from ...errors import KitError
from ...money.program import Program, ProgramError, ProgramGame
from ...money.program_file import parse_game, parse_program
from ...money.program_words import headline
from ...toml_table import Table
from ...variants import variant_for
from ...web import book_store as book
from ...web.db import transaction
from ...web.errors import Conflict, NotFound, RequestError
from ...web.instance import hall
from .. import games
from ..decks import get_deck, list_decks, tell_deck_listeners
from ..ledger import price_store, prize_store, sale_store
from ..ledger import store as ledger
from ..ledger.requests import PriceListRequest, PrizesRequest
from ..model import DrawMethod
from ..prize_lists import host_plans
from ..requests import NewGame
from ..variants import PLAY
from .requests import InsertRequest
from .states import Entry, InPlay, Inserted, ProgramName, ProgramState, Skipped, Started

VIA = "program"
MAX_TEXT = 200_000


class NeedsConfirm(Conflict):
    """Next game asked while a game is in play: it says what ends, and waits for a confirm."""


def in_play(conn: sqlite3.Connection, lang: str = "en") -> InPlay | None:
    """The game Next game would end while it is still being played: calls in its round and
    the draw still open (no prize of the round's last won yet); None when nothing would be
    lost."""
    gid = games.newest_active_game(conn)
    if gid is None:
        return None
    calls = len(games.called_balls(conn, gid))
    if not calls or not games.draw_open_part(conn, gid).draw_open:
        return None
    entry = next((e for e in entries(conn) if e.game_id == gid), None)
    if entry is None:
        return InPlay(gid, None, None, calls)
    return InPlay(gid, entry.position, entry.game.name(lang), calls)


def _extra_lists() -> tuple[Any, ...]:
    """The station's prize plans beyond the kit's own (a host's lists from `prizes/`)."""
    every = tuple(plan for kind in PLAY.entries.values() for plan in kind.plans(host_plans()))
    return tuple(p for p in every if p.prize_list is not None and p.prize_list.source)


def _refused(exc: KitError) -> RequestError:
    return RequestError("%(problem)s", problem=exc)


def loaded(conn: sqlite3.Connection) -> sqlite3.Row | None:
    """The night's program: the newest loaded."""
    row: sqlite3.Row | None = conn.execute(
        "SELECT * FROM programs ORDER BY id DESC LIMIT 1"
    ).fetchone()
    return row


def entries(conn: sqlite3.Connection, program_id: int | None = None) -> list[Entry]:
    """The program's games in order (the night's program when `program_id` is None)."""
    if program_id is None:
        row = loaded(conn)
        if row is None:
            return []
        program_id = row["id"]
    extra = _extra_lists()
    out = []
    for r in conn.execute(
        "SELECT * FROM program_games WHERE program_id = ? ORDER BY position", (program_id,)
    ):
        try:
            game = parse_game(Table.from_json(json.loads(r["spec"])), r["position"], extra)
        except KitError as exc:  # a host's prize list that left the prizes folder
            raise Conflict(
                "game %(n)s of the program cannot be played: %(problem)s",
                n=r["position"],
                problem=exc,
            ) from None
        out.append(
            Entry(r["id"], r["position"], r["status"], r["game_id"], bool(r["inserted"]), game)
        )
    return out


def load(conn: sqlite3.Connection, text: object, source: str) -> ProgramState:
    """Load a program (the file's text). The same text as the program already loaded goes on
    where it was (a station restarted with `--program` resumes); another becomes the night's
    program, its games all waiting."""
    if not isinstance(text, str) or not text.strip():
        raise RequestError("choose a program file (.toml) first")
    if len(text) > MAX_TEXT:
        raise RequestError("a program file is at most %(n)s characters", n=MAX_TEXT)
    try:
        program: Program = parse_program(text, source, _extra_lists())
    except ProgramError as exc:
        raise _refused(exc) from None
    with hall().write_lock:
        now = loaded(conn)
        if now is not None and now["text"] == text:
            return replace(state(conn), resumed=True)
        with transaction(conn):
            cur = conn.execute(
                "INSERT INTO programs (name, name_es, source, text) VALUES (?, ?, ?, ?)",
                (program.name("en"), program.name("es"), source, text),
            )
            pid = cur.lastrowid
            for game in program.games:
                conn.execute(
                    "INSERT INTO program_games (program_id, position, spec) VALUES (?, ?, ?)",
                    (pid, game.number, json.dumps(game.spec.to_json())),
                )
            book.append(conn, "program", {"program_id": pid, "source": source, "text": text})
        if program.currency:
            ledger.set_currency(conn, program.currency, VIA)
    return replace(state(conn), resumed=False)


def state(conn: sqlite3.Connection, lang: str = "en") -> ProgramState:
    row = loaded(conn)
    if row is None:
        return ProgramState(None)
    listed = entries(conn, row["id"])
    playing = next((e for e in listed if e.status == "playing"), None)
    waiting = next((e for e in listed if e.status == "waiting"), None)
    return ProgramState(
        ProgramName(row["name_es"] if lang == "es" else row["name"], row["source"]),
        tuple(e.line(lang) for e in listed),
        None if playing is None else playing.position,
        None if waiting is None else waiting.position,
        in_play=in_play(conn, lang),
    )


def deck_for(conn: sqlite3.Connection, game: ProgramGame) -> str:
    """The deck a game is played on: the newest loaded of its kind (tonight's first)."""
    decks = sorted(list_decks(conn), key=lambda d: not d.tonight)
    for d in decks:
        if variant_for(d.game) is game.variant:
            return d.deck_id
    raise Conflict(
        "game %(n)s is played with %(balls)s balls: load a deck of them first",
        n=game.number,
        balls=game.balls,
    )


def next_game(conn: sqlite3.Connection, confirm: bool = False) -> Started:
    """Start the program's next waiting game with everything set: the game in play (if any)
    is marked played and ends; the new game gets its mode or prize list, its pattern, and the
    ledger's price and prizes. While a game is still being played (`in_play`), only with
    `confirm`: NeedsConfirm says what would end, as End game asks first."""
    with hall().write_lock:
        listed = entries(conn)
        if not listed:
            raise Conflict("no program is loaded: load a program file first")
        waiting = [e for e in listed if e.status == "waiting"]
        if not waiting:
            raise Conflict("every game of the program has been played")
        entry = waiting[0]
        game = entry.game
        playing = in_play(conn)
        if playing is not None and not confirm:
            raise NeedsConfirm(
                "game %(n)s is still being played (%(calls)s calls, its prize not won yet): "
                "Next game ends it for good, and an ended game cannot be restarted. Confirm "
                "to end it and start game %(next)s",
                n=playing.label(),
                calls=playing.calls,
                next=entry.position,
            )
        new = NewGame(
            deck_id=deck_for(conn, game),
            mode=game.plan.mode,
            draw=DrawMethod(game.draw),
            options=game.options,
        )
        with transaction(conn):  # the game, its program entry, its price and prizes: all or none
            created = games.write_new_game(conn, new)
            gid = created.game_id
            conn.execute(
                "UPDATE program_games SET status = 'played' WHERE status = 'playing' AND "
                "program_id = (SELECT program_id FROM program_games WHERE id = ?)",
                (entry.entry_id,),
            )
            conn.execute(
                "UPDATE program_games SET status = 'playing', game_id = ? WHERE id = ?",
                (gid, entry.entry_id),
            )
            book.append(conn, "program.next", {"game_id": gid, "number": entry.position})
            if game.prices:
                price_store.write_prices(conn, gid, PriceListRequest(game.prices), VIA)
            if game.prizes:
                prize_store.write_prizes(conn, gid, PrizesRequest(tuple(game.prizes.items())), VIA)
            # the night sales sold for this game before it started now play in it
            shared = sale_store.start_night_shares(conn, entry.entry_id, gid)
        games.game_started(conn, created)  # ends the game in play
        if game.prices:
            ledger.publish(gid, "prices")
        if game.prizes:
            ledger.publish(gid, "prizes")
        if shared:
            ledger.publish(gid, "sale")
    tell_deck_listeners(get_deck(conn, new.deck_id))
    return Started(gid, entry.position, game.name("en"))


def skip(conn: sqlite3.Connection) -> Skipped:
    """Skip the game in play (before its first ball) and start the next; with no game in
    play, skip the next waiting one."""
    with hall().write_lock:
        listed = entries(conn)
        playing = next((e for e in listed if e.status == "playing"), None)
        target = playing or next((e for e in listed if e.status == "waiting"), None)
        if target is None:
            raise Conflict("there is no game left to skip")
        if playing is not None and playing.game_id is not None:
            if games.called_balls(conn, playing.game_id):
                raise Conflict(
                    "game %(n)s already has calls: it is played, not skipped; press Next game",
                    n=playing.position,
                )
        with transaction(conn):
            conn.execute(
                "UPDATE program_games SET status = 'skipped' WHERE id = ?", (target.entry_id,)
            )
            book.append(conn, "program.skip", {"number": target.position})
        left = any(e.status == "waiting" and e.entry_id != target.entry_id for e in listed)
        if left:
            started = next_game(conn)
        else:
            if playing is not None and playing.game_id is not None:
                if games.get_game(conn, playing.game_id).active:
                    games.end_game(conn, playing.game_id)
            started = None
    return Skipped(target.position, started)


def insert(conn: sqlite3.Connection, req: InsertRequest) -> Inserted:
    """Insert a game after the game in play (or before the next one): a copy of game `copy`
    of the program, with its own `name` if given."""
    with hall().write_lock:
        listed = entries(conn)
        if not listed:
            raise Conflict("no program is loaded: load a program file first")
        source = next((e for e in listed if e.position == req.copy), None)
        if source is None:
            raise RequestError("choose the game to copy: a number from 1 to %(n)s", n=len(listed))
        playing = next((e for e in listed if e.status == "playing"), None)
        done = [e.position for e in listed if e.status != "waiting"]
        at = (playing.position if playing else max(done, default=0)) + 1
        spec = source.game.spec
        if req.name:
            spec = spec.with_value("name", req.name).with_value("name_es", req.name)
        try:
            parse_game(spec, at, _extra_lists())
        except KitError as exc:
            raise _refused(exc) from None
        now = loaded(conn)
        assert now is not None  # listed is not empty: a program is loaded
        program_id = now["id"]
        with transaction(conn):
            conn.execute(
                "UPDATE program_games SET position = position + 1 "
                "WHERE program_id = ? AND position >= ?",
                (program_id, at),
            )
            conn.execute(
                "INSERT INTO program_games (program_id, position, spec, inserted) "
                "VALUES (?, ?, ?, 1)",
                (program_id, at, json.dumps(spec.to_json())),
            )
            book.append(
                conn,
                "program.insert",
                {"program_id": program_id, "number": at, "spec": spec.to_json()},
            )
    return Inserted(at, source.position, str(spec.value("name")))


def of_game(conn: sqlite3.Connection, game_id: int) -> tuple[Entry, int] | None:
    """The program's entry of a station game and the program's number of games, or None."""
    row = conn.execute(
        "SELECT program_id FROM program_games WHERE game_id = ?", (game_id,)
    ).fetchone()
    if row is None:
        return None
    listed = entries(conn, row["program_id"])
    entry = next(e for e in listed if e.game_id == game_id)
    return entry, len(listed)


def game_headline(conn: sqlite3.Connection, game_id: int, lang: str) -> str | None:
    """ "Game 3 of 12 · Four Corners · £20.00" for a game of the program (the ledger's prize
    of the game's main prize, as it stands), or None for a game started by hand."""
    try:
        found = of_game(conn, game_id)
    except Conflict:
        return None
    if found is None:
        return None
    entry, total = found
    rules = prize_store.rules_of(conn, game_id)
    game = entry.game
    shown = ProgramGame(
        entry.position,
        game.names,
        game.balls,
        game.plan,
        game.pattern,
        game.prices,
        {k: v for k, v in rules.items() if k == game.main_prize},
        game.interval,
        game.draw,
    )
    return headline(shown, total, ledger.currency(conn), lang)


def require_game(conn: sqlite3.Connection, game_id: int) -> None:
    if of_game(conn, game_id) is None:
        raise NotFound("game %(game)s is not a game of the program", game=game_id)
