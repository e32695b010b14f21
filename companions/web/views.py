"""The shell's routes (docs/dev/companion-games.md): index, new table, the table page, entries
with undo/restore/correct, and live events (the installable app's files: app_files.py).
Companions are the players' own scorekeepers, so no PIN is asked: anyone with the table's code
may keep its score, except a private notebook (Clue) given a PIN at set-up (pins.py).

Every change here is a guest's own (`guest_write`): the phones' process answers it and writes
with `guest_db()`, which may write the companions' tables only (bingo_hall/web/guest_write.py);
the Maestro's process never hashes a notebook's PIN nor replays a table for a guest."""

from __future__ import annotations

from collections.abc import Callable
from typing import ParamSpec, TypeVar

from flask import (
    Response,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import get_locale, gettext

from bingo_hall.values import JsonValue
from bingo_hall.web.admission import SMALL_BODY, guest_body
from bingo_hall.web.db import get_db
from bingo_hall.web.errors import (
    NotFound,
    RequestError,
    TooManyRequests,
    error_response,
    translated,
)
from bingo_hall.web.guest_write import guest_db, guest_write
from bingo_hall.web.hub import EventStream, live_stream
from bingo_hall.web.inputs import json_body
from bingo_hall.web.instance import area_state, hall
from bingo_hall.web.qr import phone_url, qr_svg
from companions.errors import EntryError
from companions.web.games import load_kinds
from companions.web.registry import GameKind

from . import changes, live, pins, store
from .blueprint import bp
from .codes import normalise_code
from .lookup import lookup, remember
from .setup import NewTable, SetupErrors

P = ParamSpec("P")
R = TypeVar("R")


def _live(view: Callable[P, R]) -> Callable[P, R]:
    """The hub's `live_stream` (it marks the view and returns it), typed: the strict routes keep
    their signatures while the serving stack's hub is at mypy's default mode."""
    live_stream(view)
    return view


def kinds() -> dict[str, GameKind]:
    return area_state("companions_kinds", load_kinds)


def title(kind: GameKind) -> str:
    return kind.title.get(str(get_locale() or "en"), kind.title.get("en", kind.name))


@bp.after_request
def _remember_lang(response: Response) -> Response:
    """`?lang=` on a companions link sticks, as the ES/EN switch does: a phone that joined from
    a Spanish link stays in Spanish on the next page."""
    lang = request.args.get("lang")
    if lang in ("es", "en") and request.cookies.get("lang") != lang:
        response.set_cookie("lang", lang, max_age=365 * 24 * 3600, samesite="Lax")
    return response


@bp.app_context_processor
def _helpers() -> dict[str, Callable[[GameKind], str]]:
    return {"game_title": title}


def entry_error(exc: EntryError) -> ResponseReturnValue:
    """A rule of the game refused the entry: its message, and the field or entry to flag."""
    return error_response(400, translated(exc), field=exc.field, entry_id=exc.entry_id)


# --- start or join -----------------------------------------------------------------------------
def to_the_tables() -> ResponseReturnValue:
    """`/` of `bingo-hall companions` (registered on the app there, not on the blueprint)."""
    return redirect(url_for("companions.index", lang=_kept_lang()))


@bp.route("/")
def index() -> ResponseReturnValue:
    return render_template("companions/index.html", kinds=kinds(), errors={}, code="")


@bp.route("/join")
def join() -> ResponseReturnValue:
    raw = request.args.get("code", "")
    code = normalise_code(raw)
    message, status, retry = None, 404, None
    if not code:
        message = gettext("Type the code shown on the table's phone.")
    else:
        try:
            lookup(code)
        except TooManyRequests as exc:
            message, status, retry = exc.message(), exc.status, exc.extra["retry_after"]
        except store.NoSuchTable:
            message = gettext("There is no table with the code %(code)s.", code=code)
    if message:
        page = render_template(
            "companions/index.html", kinds=kinds(), errors={"code": message}, code=raw
        )
        resp = make_response(page, status)
        if retry:
            resp.headers["Retry-After"] = str(retry)
        return resp
    return redirect(url_for("companions.table", code=code, lang=_kept_lang()))


@bp.route("/new/<game>", methods=["GET", "POST"])
@guest_body(SMALL_BODY)
@guest_write
def new_table(game: str) -> ResponseReturnValue:
    kind = kinds().get(game)
    if kind is None:
        raise NotFound("Unknown game %(game)s.", game=game)
    if request.method == "GET":
        return render_template("companions/new.html", kind=kind, errors={}, form={})
    as_json = request.is_json
    try:
        if as_json:
            new = NewTable.from_json(kind, json_body(required=True))
        else:
            new = NewTable.from_form(kind, request.form)
        pin_hash = pins.hash_pin(new.pin) if new.pin else None  # never in the write transaction
        table = store.create_table(
            guest_db(), kind, new.settings, new.players, new.members, pin_hash
        )
        pins.remember(table)  # the phone that chose the PIN is not asked for it
        remember(table.code)
    except SetupErrors as exc:
        errors = exc.texts(gettext)
        if as_json:
            field, message = next(iter(errors.items()))
            return error_response(400, message, field=field, errors=errors)
        return render_template(
            "companions/new.html", kind=kind, errors=errors, form=request.form
        ), 400
    except EntryError as exc:
        setting = f"setting.{exc.field}" if exc.field else None
        if as_json:
            return error_response(400, translated(exc), field=setting)
        errors = {setting or "form": translated(exc)}
        return render_template(
            "companions/new.html", kind=kind, errors=errors, form=request.form
        ), 400
    if as_json:
        return jsonify(
            {"code": table.code, "url": url_for("companions.table", code=table.code)}
        ), 201
    return redirect(url_for("companions.table", code=table.code, lang=_kept_lang()))


def _kept_lang() -> str | None:
    """A `?lang=` the user chose on this page follows them to the next one (None: no `?lang=`;
    `url_for` leaves a None out)."""
    lang = request.args.get("lang")
    return lang if lang in ("es", "en") else None


# --- one table ---------------------------------------------------------------------------------
def _open(code: str) -> tuple[store.Table, GameKind]:
    try:
        table = lookup(normalise_code(code))
    except store.NoSuchTable:
        raise NotFound(
            "There is no table with the code %(code)s.", code=normalise_code(code)
        ) from None
    kind = kinds().get(table.game)
    if kind is None:
        raise NotFound("Unknown game %(game)s.", game=table.game)
    return table, kind


@bp.before_request
def _private_notes() -> ResponseReturnValue | None:
    """Every route of one table (a `<code>` in its URL) but the PIN form itself: a private
    notebook this phone has not opened with its PIN shows only that the table exists (the
    page), or is refused with a 401 (JSON, the live stream, every change)."""
    code = (request.view_args or {}).get("code")
    if code is None or request.endpoint == "companions.unlock":
        return None
    try:
        table = store.load_table(get_db(), normalise_code(code))
    except store.NoSuchTable:
        return None  # the route itself says there is no such table
    if pins.is_unlocked(table):
        return None
    kind = kinds().get(table.game)
    if request.endpoint == "companions.table" and kind is not None:
        return _locked_page(table, kind)
    refusal = pins.locked(table)
    if request.endpoint == "companions.view_json":  # JSON always, even without an Accept header
        return jsonify({"error": refusal.message(), **refusal.extra}), refusal.status
    raise refusal


def _locked_page(
    table: store.Table, kind: GameKind, error: str | None = None, status: int = 401
) -> tuple[str, int]:
    """All a phone without the PIN sees of a private notebook: that the table exists."""
    return render_template("companions/locked.html", table=table, kind=kind, error=error), status


@bp.route("/<code>")
def table(code: str) -> ResponseReturnValue:
    table, kind = _open(code)
    if code != table.code:
        return redirect(url_for("companions.table", code=table.code))
    snap = store.snapshot(get_db(), table, kind)
    join_url = phone_url(request.host_url, url_for("companions.table", code=table.code))
    return render_template(
        kind.template,
        table=table,
        kind=kind,
        view=snap.view.to_json(),
        history=[item.to_json() for item in snap.history],
        version=snap.version,
        next_code=snap.next,
        join_url=join_url,
        index_url=phone_url(request.host_url, url_for("companions.index")),
        qr=qr_svg(join_url, label=join_url),
    )


@bp.route("/<code>/unlock", methods=["POST"])
@guest_body(SMALL_BODY)
@guest_write
def unlock(code: str) -> ResponseReturnValue:
    """Type a private notebook's PIN once on this phone (form or JSON `{"pin": "1234"}`)."""
    table, kind = _open(code)
    as_json = request.is_json
    pin = json_body(required=True).get("pin") if as_json else request.form.get("pin", "")
    try:
        pins.try_pin(table, pin)
    except RequestError as exc:
        if as_json:
            raise
        page, status = _locked_page(table, kind, exc.message(), exc.status)
        resp = make_response(page, status)
        if exc.extra.get("retry_after"):
            resp.headers["Retry-After"] = str(exc.extra["retry_after"])
        return resp
    url = url_for("companions.table", code=table.code)
    if as_json:
        return jsonify({"code": table.code, "url": url})
    return redirect(url_for("companions.table", code=table.code, lang=_kept_lang()))


@bp.route("/<code>/view")
def view_json(code: str) -> ResponseReturnValue:
    table, kind = _open(code)
    return jsonify(store.snapshot(get_db(), table, kind).to_json())


#: an entry is a round of one table game; anything bigger is not one
MAX_ENTRY_BYTES = 32_000


def _player(table: store.Table, player: object) -> str | None:
    """The entry's `player`, one of the table's names (or None: the entry names nobody)."""
    if player is None:
        return None
    known = set(table.players) | {n for team in table.members for n in team}
    if not isinstance(player, str) or player not in known:
        raise RequestError("%(player)s is not at this table.", player=player)
    return player


def _changed(snap: JsonValue, status: int = 200) -> ResponseReturnValue:
    """The snapshot the change was checked with (every phone at the table got it too)."""
    return jsonify(snap.to_json()), status


@bp.route("/<code>/entries", methods=["POST"])
@guest_write
def post_entry(code: str) -> ResponseReturnValue:
    table, kind = _open(code)
    data = json_body(required=True, max_bytes=MAX_ENTRY_BYTES)
    player = _player(table, data.pop("player", None))  # taken out of the entry
    entry = store.NewEntry.from_json(data, player)
    snap = changes.add_entry(guest_db(), table, kind, entry)
    return _changed(snap, 201)


def _set_undone(code: str, entry_id: int, undone: bool) -> ResponseReturnValue:
    table, kind = _open(code)
    try:
        snap = changes.set_undone(guest_db(), table, kind, entry_id, undone)
    except store.NoSuchEntry:
        raise NotFound("This table has no entry %(id)s.", id=entry_id) from None
    return _changed(snap)


@bp.route("/<code>/entries/<int:entry_id>/undo", methods=["POST"])
@guest_write
def undo_entry(code: str, entry_id: int) -> ResponseReturnValue:
    return _set_undone(code, entry_id, True)


@bp.route("/<code>/entries/<int:entry_id>/restore", methods=["POST"])
@guest_write
def restore_entry(code: str, entry_id: int) -> ResponseReturnValue:
    return _set_undone(code, entry_id, False)


@bp.route("/<code>/entries/<int:entry_id>", methods=["PUT"])
@guest_write
def correct_entry(code: str, entry_id: int) -> ResponseReturnValue:
    table, kind = _open(code)
    data = json_body(required=True, max_bytes=MAX_ENTRY_BYTES)
    data.pop("player", None)
    try:
        snap = changes.correct_entry(
            guest_db(), table, kind, entry_id, store.NewEntry.from_json(data)
        )
    except store.NoSuchEntry:
        raise NotFound("This table has no entry %(id)s.", id=entry_id) from None
    return _changed(snap)


@bp.route("/<code>/rematch", methods=["POST"])
@guest_write
def rematch(code: str) -> ResponseReturnValue:
    """Play again with the same players and house rules; every phone at the table is told."""
    table, kind = _open(code)
    new_code = changes.rematch(guest_db(), table, kind)
    remember(new_code)
    pins.remember(store.load_table(get_db(), new_code))  # same notebook owner, same PIN
    url = url_for("companions.table", code=new_code)
    return jsonify({"code": new_code, "url": url}), 201


@bp.route("/<code>/events")
@_live
def events(code: str) -> ResponseReturnValue:
    """A phone's live view of its table: the current view, then each change as the writer
    published it. No per-phone queries: one watch per table looks at its version in SQLite
    every COMPANIONS_POLL_S (another process may write the same file), however many phones
    follow."""
    table, kind = _open(code)
    conn = get_db()
    hub, settings = hall().hub, hall().config
    sub = hub.subscribe(live.channel(table.code))
    try:
        snap = store.snapshot(conn, table, kind)
    except BaseException:
        sub.close()
        raise
    first = live.render(snap)
    rendered = live.rendered_views()
    rendered.put((table.code, snap.version), first)
    rendered.told.setdefault(table.code, snap.version)
    hub.watch(
        live.channel(table.code),
        changes.watch_check(settings.database, table, kind),
        settings.companions_poll_s,
    )
    stream = EventStream(
        sub,
        first,
        retry_ms=live.RETRY_MS,
        heartbeat_s=settings.companions_keepalive_s,
        max_seconds=settings.companions_stream_seconds,
    )
    answer: Response = stream.response()
    return answer
