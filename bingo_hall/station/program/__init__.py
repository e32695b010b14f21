"""The night as a program: the Maestro loads the night's program file once (`serve
--program FILE`, or the caller page), then **Next game** starts each game with everything set;
a game can be skipped or one inserted. The display shows "Game 3 of 12 · Four Corners · £20".

A part of the station, registered by `bingo_hall.app.create_app`:

* `/caller/program` (POST, a file), `/caller/program/next`, `/skip`, `/insert`: the caller
  page's forms (PIN and CSRF, as every caller action);
* `/api/program`, `/api/program/next`, `/skip`, `/insert`: the same as JSON.

The file's rules are the pure `bingo_hall.money.program`; its progress is `store.py` over SQLite.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass

from flask import Blueprint, Flask, flash, jsonify, redirect, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import get_locale
from werkzeug.wrappers import Response

from ...values import JsonValue
from ...web import db as core_db
from ...web.db import get_db
from ...web.errors import RequestError
from ...web.inputs import json_body as body
from .. import games, hooks
from ..auth import caller_required
from ..hooks import RecordNote
from . import odds_view, schema, store
from .odds_view import GameOdds
from .requests import InsertRequest, LoadRequest
from .states import ProgramState

bp = Blueprint("program", __name__, template_folder="templates")


def _lang() -> str:
    locale = get_locale()
    return locale.language if locale and locale.language in ("es", "en") else "en"


@dataclass(frozen=True)
class Headline(JsonValue):
    """A game of the program's line ("Game 3 of 12 · Four Corners · £20.00") in both languages."""

    en: str
    es: str


@dataclass(frozen=True)
class ProgramPart(JsonValue):
    """The snapshot's `program`: the game's line, None for a game started by hand."""

    program: Headline | None


def _program_snapshot(conn: sqlite3.Connection, game_id: int) -> ProgramPart:
    """Every snapshot of a game of the program carries its line in both languages."""
    en, es = (store.game_headline(conn, game_id, lang) for lang in ("en", "es"))
    return ProgramPart(Headline(en, es or en) if en else None)


def register(app: Flask) -> None:
    core_db.add_migrations(app, "program", schema.MIGRATIONS)
    app.register_blueprint(bp)
    app.jinja_env.globals["program_state"] = lambda: store.state(get_db(), _lang())
    app.jinja_env.globals["prize_odds"] = _page_odds
    with app.app_context():
        games.add_snapshot_extender(_program_snapshot)
        hooks.on_record(_record_note)


def _record_note(conn: sqlite3.Connection, round_id: int) -> list[RecordNote]:
    """The game record follows the program: the first round of a game of the program notes its
    place ("program game 2 of 3: The X", and "skipped" when the Maestro skipped it)."""
    row = conn.execute(
        "SELECT r.started, g.position, g.spec, g.status, g.program_id FROM rounds r "
        "JOIN program_games g ON g.game_id = r.game_id WHERE r.id = ? AND r.number = 1",
        (round_id,),
    ).fetchone()
    if row is None:
        return []
    total = conn.execute(
        "SELECT COUNT(*) FROM program_games WHERE program_id = ?", (row["program_id"],)
    ).fetchone()[0]
    name = json.loads(row["spec"]).get("name", "")
    detail = f"program game {row['position']} of {total}: {name}"
    if row["status"] == "skipped":
        detail += " (skipped)"
    return [RecordNote(at=row["started"], event="program", detail=detail)]


def _page_odds(game_id: int) -> GameOdds:
    """`prize_odds(game_id)` on the ledger page: `?within=N` asks about N calls (a number that
    is no count of calls is left out: the jackpot's, or the expected call, is shown)."""
    within = request.args.get("within", type=int)
    return odds_view.game_odds(get_db(), game_id, within if within and within > 0 else None)


def load_file(conn: sqlite3.Connection, text: str, source: str) -> ProgramState:
    """`serve --program FILE`: the same as the caller page's upload."""
    return store.load(conn, text, source)


# ---- the caller page's forms -----------------------------------------------------------------


def _back(game_id: int | None = None) -> Response:
    if game_id is None:
        game_id = games.newest_active_game(get_db())
    if game_id is None:
        return redirect(url_for("caller.new"))
    return redirect(url_for("caller.game", game_id=game_id))


@bp.post("/caller/program")
@caller_required
def upload() -> ResponseReturnValue:
    chosen = request.files.get("program")
    if chosen is None or not chosen.filename:
        flash_error(RequestError("choose a program file (.toml) first"))
        return _back()
    try:
        text = chosen.read().decode("utf-8")
    except UnicodeDecodeError:
        flash_error(RequestError("a program file is text (UTF-8)"))
        return _back()
    try:
        done = store.load(get_db(), text, chosen.filename)
    except RequestError as exc:
        flash_error(exc)
        return _back()
    flash(_loaded_words(done))
    return _back()


def _loaded_words(done: ProgramState) -> str:
    from flask_babel import gettext as _

    name = done.program.name if done.program is not None else ""
    return str(_("Program %(name)s loaded: %(n)s games.", name=name, n=len(done.games)))


def flash_error(exc: RequestError) -> None:
    flash(exc.message())


@bp.post("/caller/program/next")
@caller_required
def next_form() -> ResponseReturnValue:
    try:
        started = store.next_game(get_db(), confirm=request.form.get("confirm") == "1")
    except store.NeedsConfirm:  # the panel asks, beside the button (program/_caller.html)
        return redirect(_back().location + "?confirm_next=1#program")
    except RequestError as exc:
        flash_error(exc)
        return _back()
    return _back(started.game_id)


@bp.post("/caller/program/skip")
@caller_required
def skip_form() -> ResponseReturnValue:
    try:
        done = store.skip(get_db())
    except RequestError as exc:
        flash_error(exc)
        return _back()
    return _back(done.started.game_id if done.started else None)


@bp.post("/caller/program/insert")
@caller_required
def insert_form() -> ResponseReturnValue:
    try:
        store.insert(get_db(), InsertRequest.from_json(request.form))
    except RequestError as exc:
        flash_error(exc)
    return _back()


# ---- the JSON API ------------------------------------------------------------------------------


@bp.get("/api/program")
@caller_required
def program_json() -> ResponseReturnValue:
    return jsonify(store.state(get_db(), request.args.get("lang", "en")).to_json())


@bp.post("/api/program")
@caller_required
def load_json() -> ResponseReturnValue:
    req = LoadRequest.from_json(body(required=True))
    return jsonify(store.load(get_db(), req.text, req.source).to_json())


@bp.get("/api/games/<int:game_id>/odds")
@caller_required
def odds_json(game_id: int) -> ResponseReturnValue:
    """The odds of the game's main prize with the cards sold: `?within=N` calls."""
    within = request.args.get("within", type=int)
    if within is not None and within < 1:
        raise RequestError("within is a number of calls, 1 or more")
    return jsonify(odds_view.game_odds(get_db(), game_id, within).to_json())


@bp.post("/api/program/next")
@caller_required
def next_json() -> ResponseReturnValue:
    asked = body()
    return jsonify(store.next_game(get_db(), confirm=asked.get("confirm") is True).to_json())


@bp.post("/api/program/skip")
@caller_required
def skip_json() -> ResponseReturnValue:
    return jsonify(store.skip(get_db()).to_json())


@bp.post("/api/program/insert")
@caller_required
def insert_json() -> ResponseReturnValue:
    return jsonify(store.insert(get_db(), InsertRequest.from_json(body(required=True))).to_json())
