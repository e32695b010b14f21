"""The organiser's station of a linked game (`bingo-hall linked serve DIR`, docs/linked.md): one
small server the halls with a line reach.

- `GET /seed` gives the seed code once the window has opened, and refuses before, in one line:
  no hall learns the order early, whatever it asks.
- `GET /calls/events` is the game's live calls (Server-Sent Events: a `snapshot` of the calls so
  far, then a `call` per ball: its number, the ball, and `at`, when it was due, seconds since
  the epoch on the organiser's clock; an `end` once every ball is called), paced from the
  window's opening, so that every hall following it calls the same ball at about the same
  moment. The calls are the order the seed gives, worked
  out from the clock: no state is shared between the streams, so hundreds of halls cost a thread
  each and nothing more.
- `POST /results` takes a hall's result, checks it at once against the game and the seed (the
  tally's own check, `linked.tally.judge`) and keeps it in DIR/results/, where `linked tally`
  reads it later with the files that came by email or on a stick.
- `GET /` is the organiser's page: every hall's state (waiting, playing, result in, verified,
  refused with its reason) and the calls so far, kept live by its script, which asks `GET
  /halls` every two seconds (a page or two of the organiser's, where polling costs nothing).

A hall's station names itself with `?hall=<its key's fingerprint>` when it fetches the code or
follows the calls: the page then shows it playing. Nothing is trusted from that name but the
page's word "playing"; a result is trusted for its signature only.
"""

from __future__ import annotations

import hashlib
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from flask import Flask, Response, jsonify, render_template, request
from flask_babel import Babel, gettext
from werkzeug.exceptions import HTTPException
from werkzeug.serving import BaseWSGIServer, make_server

from ...linked.game import LinkedGame
from ...linked.keys import covered
from ...linked.result import Refusal, read_result
from ...linked.seed import check_code, code_text, linked_order, parse_code
from ...linked.tally import Standing, State, Submission, judge
from ...machine.catalogs import catalog_dirs
from ...money import money
from ...values import JsonValue
from ...web.hub import sse

LANGUAGES = ("es", "en")
#: a result file is a few kilobytes (its calls and card); anything far larger is not one
MAX_RESULT = 200_000
#: a comment line on a quiet stream this often, so a hall sees a dead line within a minute
KEEPALIVE = 15.0


class HallState(StrEnum):
    """What the organiser's page says of a hall."""

    WAITING = "waiting"
    PLAYING = "playing"
    RESULT_IN = "result-in"
    VERIFIED = "verified"
    REFUSED = "refused"


@dataclass(frozen=True)
class Calling:
    """The organiser's calls: the order, one ball every `every` seconds from `opened` (a clock
    time, seconds since the epoch), the first ball at `opened` itself."""

    order: tuple[int, ...]
    opened: float
    every: float

    def count_at(self, now: float) -> int:
        if now < self.opened:
            return 0
        return min(len(self.order), int((now - self.opened) / self.every) + 1)

    def next_at(self, count: int) -> float | None:
        """When call `count + 1` is made (None: every ball is called)."""
        if count >= len(self.order):
            return None
        return self.opened + count * self.every


@dataclass
class Board:
    """The halls' states as the organiser's page shows them, judged as the tally judges them
    (`linked.tally.judge`), so a forged file never takes a hall's place here either. A hall's
    standing rests only on the files that name its key, so a result that arrives is judged with
    those alone (the tally of hundreds of halls is not redone for each); the folder's files,
    the ones carried in by hand too, are read once at start."""

    game: LinkedGame
    code: str
    folder: Path
    playing: set[str] = field(default_factory=set)
    arriving: set[str] = field(default_factory=set)
    standings: dict[str, Standing] = field(default_factory=dict)
    files: dict[str | None, dict[str, str]] = field(default_factory=dict)  # by the key named
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        for path in sorted(self.folder.glob("*.json")):
            self._keep(path.name, path.read_text(encoding="utf-8"))
        subs = [Submission(n, t) for kept in self.files.values() for n, t in kept.items()]
        standings, _ = judge(self.game, self.code, subs)
        self.standings = {s.hall.fingerprint: s for s in standings}

    def _keep(self, name: str, text: str) -> None:
        """File a result under the key it names (None: it names none of this game's)."""
        try:
            result = read_result(text)
            named = result.fingerprint if result.game == self.game.game_id else None
        except Refusal:
            named = None
        self.files.setdefault(named, {})[name] = text

    def _judge(self, fingerprint: str) -> None:
        subs = [Submission(n, t) for n, t in sorted(self.files.get(fingerprint, {}).items())]
        standings, _ = judge(self.game, self.code, subs)
        self.standings[fingerprint] = next(
            s for s in standings if s.hall.fingerprint == fingerprint
        )

    def seen(self, fingerprint: str | None) -> None:
        if fingerprint and self.game.hall_by_key(fingerprint):
            self.playing.add(fingerprint)

    def receive(self, text: str) -> tuple[Standing | None, str | None]:
        """Keep a hall's result and judge it: (the hall's standing, None) when it holds, (its
        standing or None, the one-line reason) when it is refused."""
        try:
            result = read_result(text)
        except Refusal as why:
            return None, str(why)
        hall = self.game.hall_by_key(result.fingerprint)
        if result.game != self.game.game_id or hall is None:
            _, refused = judge(self.game, self.code, [Submission("posted", text)])
            return None, refused[0].reason if refused else "not a result of this game"
        # one file per distinct result: the same result sent twice is kept once
        name = f"{hall.fingerprint}-{hashlib.sha256(covered(result)).hexdigest()[:16]}.json"
        with self.lock:  # one result kept and judged at a time
            self.arriving.add(hall.fingerprint)
            try:
                (self.folder / name).write_text(text, encoding="utf-8")
                self._keep(name, text)
                self._judge(hall.fingerprint)
            finally:
                self.arriving.discard(hall.fingerprint)
        mine = self.standings[hall.fingerprint]
        if mine.state == State.REFUSED:
            return mine, mine.reason
        return mine, None

    def state_of(self, fingerprint: str) -> tuple[HallState, Standing]:
        s = self.standings[fingerprint]
        if fingerprint in self.arriving:
            return HallState.RESULT_IN, s
        if s.state == State.REFUSED:
            return HallState.REFUSED, s
        if s.state == State.MISSING:
            return (HallState.PLAYING if fingerprint in self.playing else HallState.WAITING), s
        return HallState.VERIFIED, s


def state_words(state: HallState, s: Standing) -> str:
    """A hall's state on the organiser's page, in the reader's language."""
    if state == HallState.WAITING:
        return str(gettext("waiting"))
    if state == HallState.PLAYING:
        return str(gettext("playing"))
    if state == HallState.RESULT_IN:
        return str(gettext("result in: checking it"))
    if state == HallState.REFUSED:
        return str(gettext("refused: %(reason)s", reason=s.reason or ""))
    if s.state == State.WON:
        return str(gettext("verified: won at call %(n)s", n=s.count))
    if s.state == State.LATE:
        return str(gettext("verified, but late: listed, not counted"))
    return str(gettext("verified: no winner within the window"))


def prize_line(game: LinkedGame, lang: str) -> str:
    """What the projector and the organiser's page say of the game, in one line."""
    return str(
        gettext(
            "Linked game · national prize %(prize)s · lowest call count wins",
            prize=money(game.tiers.national, game.tiers.currency, lang),
        )
    )


def _lang() -> str:
    asked = request.args.get("lang") or request.cookies.get("lang")
    if asked in LANGUAGES:
        return asked
    return request.accept_languages.best_match(LANGUAGES) or "en"


def organiser_app(
    game: LinkedGame, code: str, folder: Path, every: float, now: Callable[[], float] = time.time
) -> Flask:
    """The organiser's station as a Flask app (see the module's docstring). The calls start at
    the window's opening, or when the app is made if the window is already open."""
    check_code(code, game.commitment)  # a seed that is not the committed one serves nothing
    code = code_text(parse_code(code))
    app = Flask(__name__)
    app.config["BABEL_TRANSLATION_DIRECTORIES"] = ";".join(catalog_dirs())
    Babel(app, locale_selector=_lang)
    opens = game.window.start.timestamp()
    calling = Calling(
        linked_order(check_code(code, game.commitment), game.balls), max(opens, now()), every
    )
    board = Board(game, code, folder)
    app.extensions["linked.board"] = board
    app.extensions["linked.calling"] = calling

    def is_open() -> bool:
        return now() >= opens

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException) -> tuple[Response, int]:
        return jsonify(error=exc.description or exc.name), exc.code or 500

    @app.get("/")
    def page() -> str:
        lang = _lang()
        rows = []
        for hall in game.halls:
            state, s = board.state_of(hall.fingerprint)
            rows.append((hall, state, state_words(state, s)))
        return render_template(
            "linked/organiser.html",
            game=game,
            lang=lang,
            prize=prize_line(game, lang),
            rows=rows,
            code=code if is_open() else None,
            calls=calling.order[: calling.count_at(now())],
        )

    @app.get("/game")
    def game_file() -> Response:
        return Response(game.text(), mimetype="application/json")

    @app.get("/seed")
    def seed() -> tuple[Response, int]:
        if not is_open():
            return jsonify(
                error=gettext(
                    "the seed code is published when the window opens, at %(start)s (%(zone)s)",
                    start=game.window.start.strftime("%Y-%m-%d %H:%M"),
                    zone=game.window.zone,
                )
            ), 403
        board.seen(request.args.get("hall"))
        return jsonify(code=code, commitment=game.commitment, game=game.game_id), 200

    @app.get("/calls/events")
    def calls() -> Response:
        if not is_open():
            return jsonify(error=gettext("the calls start when the window opens")), 403  # type: ignore[return-value]
        board.seen(request.args.get("hall"))
        return Response(_calls_stream(calling, now), mimetype="text/event-stream")

    @app.post("/results")
    def results() -> tuple[Response, int]:
        raw = request.get_data(cache=False, as_text=False)[: MAX_RESULT + 1]
        if len(raw) > MAX_RESULT:
            return jsonify(error=gettext("a result is a small file; this is too large")), 413
        mine, why = board.receive(raw.decode("utf-8", "replace"))
        if why is not None:
            return jsonify(error=why, state=HallState.REFUSED), 422
        assert mine is not None
        return jsonify(state=HallState.VERIFIED, standing=str(mine.state), count=mine.count), 201

    @app.get("/halls")
    def halls() -> Response:
        count = calling.count_at(now())
        return jsonify(
            halls=[h.to_json() for h in hall_lines(board)],
            count=count,
            last=calling.order[count - 1] if count else None,
        )

    return app


def _calls_stream(calling: Calling, now: Callable[[], float]) -> Iterator[str]:
    sent = calling.count_at(now())
    yield sse("snapshot", {"calls": list(calling.order[:sent]), "every": calling.every})
    while True:
        due = calling.next_at(sent)
        if due is None:
            yield sse("end", {"count": sent})
            return
        wait = due - now()
        if wait > 0:
            time.sleep(min(wait, KEEPALIVE))
            if due - now() > 0:
                yield ": still here\n\n"
            continue
        for count in range(sent + 1, calling.count_at(now()) + 1):
            at = calling.next_at(count - 1)  # when it was due: a hall can tell how late it came
            yield sse("call", {"count": count, "ball": calling.order[count - 1], "at": at})
            sent = count


@dataclass(frozen=True)
class HallLine(JsonValue):
    """A hall's row of the organiser's page: its state, worded in the reader's language."""

    fingerprint: str
    state: HallState
    words: str


def hall_lines(board: Board) -> list[HallLine]:
    out = []
    for hall in board.game.halls:
        state, s = board.state_of(hall.fingerprint)
        out.append(HallLine(hall.fingerprint, state, state_words(state, s)))
    return out


def serve(app: Flask, host: str, port: int) -> BaseWSGIServer:
    """The organiser's server, one thread per connection (a followed stream holds one). The
    socket is bound here, so a port taken is an OSError to report in one line (werkzeug would
    print its own advice and exit)."""
    listening = socket.create_server((host, port), backlog=1024)
    server = make_server(host, port, app, threaded=True, fd=listening.fileno())
    listening.close()  # the server listens on its own copy of the descriptor
    server.daemon_threads = True  # type: ignore[attr-defined]
    return server
