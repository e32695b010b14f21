"""A hall's station and the organiser's, over a line (docs/linked.md, "At the station"): the seed
code fetched at the window's opening, the organiser's calls followed live, the result POSTed.

Following live, each call the organiser's stream gives is checked against the order the code
gives (the hall holds the code before its first ball) and entered as a manual call of the hall's
game, under an idempotency key made of the call's number, so a call the Maestro entered from the
code meanwhile is never entered twice. When the line drops, or the Maestro stops following, the
hall goes on from the code: "Next ball from the code" enters the next ball of the same order, and
the calls so far agree with it, since every one was checked.

The HTTP side is the standard library's (urllib): a station needs no other client for three
requests and one stream.
"""

from __future__ import annotations

import contextvars
import json
import logging
import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any
from urllib.parse import quote, urlsplit

from flask import Flask

from ...values import JsonValue
from ...web import db
from ...web.errors import Conflict, RequestError
from ...web.instance import area_state, hall
from .. import calls, games

log = logging.getLogger(__name__)

#: the organiser's stream says something at least every 15 s (organiser.KEEPALIVE): a line
#: quiet for longer than this is a line that dropped
READ_TIMEOUT = 45.0
#: a request (the code, a result) that takes longer than this is a line that does not answer
ASK_TIMEOUT = 15.0


class Mode(StrEnum):
    FOLLOWING = "following"
    CODE = "code"


@dataclass(frozen=True)
class Live(JsonValue):
    """How the hall's linked game gets its calls: following the organiser, or from the code
    (with why, when it stopped following)."""

    mode: Mode
    reason: str | None = None


@dataclass(frozen=True)
class Sent(JsonValue):
    """What became of the hall's result: `sent` (the organiser's answer), `refused` (its reason),
    `not-sent` (why: no line, no organiser), `file` (saved to be carried)."""

    state: str
    words: str | None = None


def organiser_url(text: object) -> str:
    """The organiser's address as typed: http(s)://host[:port][/path]; one line when not."""
    if not isinstance(text, str) or not text.strip():
        raise RequestError("type the organiser's address, such as http://192.168.1.20:8400")
    url = text.strip().rstrip("/")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc or len(url) > 300:
        raise RequestError(
            "%(url)s is not the organiser's address: it starts with http:// (such as "
            "http://192.168.1.20:8400)",
            url=url[:80],
        )
    return url


def _refusal(exc: urllib.error.HTTPError) -> str:
    try:
        said = json.loads(exc.read(4000).decode("utf-8", "replace")).get("error")
    except (ValueError, AttributeError, OSError):
        said = None
    return str(said) if said else f"HTTP {exc.code}"


def fetch_code(url: str, fingerprint: str) -> str:
    """The seed code, from the organiser's station (refused before the window opens)."""
    try:
        with urllib.request.urlopen(
            f"{url}/seed?hall={quote(fingerprint)}", timeout=ASK_TIMEOUT
        ) as answer:
            code = json.loads(answer.read(4000)).get("code")
    except urllib.error.HTTPError as exc:
        raise Conflict("the organiser refused the code: %(why)s", why=_refusal(exc)) from None
    except (OSError, ValueError):
        raise Conflict(
            "the organiser's station at %(url)s does not answer: type the code instead", url=url
        ) from None
    if not isinstance(code, str):
        raise Conflict("the organiser's station did not give a code: type it instead")
    return code


def post_result(url: str, text: str) -> Sent:
    """The result, POSTed to the organiser: its answer, or why it was not sent."""
    request = urllib.request.Request(
        f"{url}/results",
        data=text.encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=ASK_TIMEOUT) as answer:
            said = json.loads(answer.read(4000))
    except urllib.error.HTTPError as exc:
        return Sent("refused", _refusal(exc))
    except (OSError, ValueError) as exc:
        return Sent("not-sent", str(getattr(exc, "reason", exc)))
    return Sent("sent", str(said.get("standing", "")))


class SseLines:
    """Server-Sent Events (WHATWG HTML), the subset the organiser sends: `event:` and `data:`
    lines, a blank line ends a message, `:` lines are comments."""

    def __init__(self) -> None:
        self.event, self.data = "", []  # type: tuple[str, list[str]]

    def line(self, raw: bytes) -> tuple[str, Any] | None:
        line = raw.decode("utf-8", "replace").rstrip("\r\n")
        if not line:
            event, data = self.event or "message", self.data
            self.event, self.data = "", []
            if not data:
                return None
            try:
                return event, json.loads("\n".join(data))
            except ValueError:
                return None
        if line.startswith(":"):
            return None
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "event":
            self.event = value
        elif name == "data":
            self.data.append(value)
        return None


class Follow:
    """One hall game following the organiser's calls, in a daemon thread."""

    def __init__(
        self,
        app: Flask,
        game_id: int,
        url: str,
        fingerprint: str,
        order: Sequence[int],
        changed: Callable[[], None],
    ) -> None:
        self.app, self.game_id, self.url, self.order = app, game_id, url, tuple(order)
        self.fingerprint = fingerprint
        self.changed = changed
        self.live = Live(Mode.FOLLOWING)
        self._stop = threading.Event()
        self._answer: Any = None
        self.thread = threading.Thread(target=self._run, name=f"linked-{game_id}", daemon=True)

    def start(self) -> Follow:
        self.thread.start()
        return self

    def stop(self, reason: str) -> None:
        """Stop following (the Maestro's choice, or a new game): the hall goes on from the
        code. The stream is closed under the thread, so it stops at once."""
        self._stop.set()
        self._set(Live(Mode.CODE, reason))
        answer = self._answer
        if answer is not None:
            try:
                answer.close()
            except Exception:  # noqa: BLE001 (closing a stream another thread reads: any error means closed)
                pass

    def _set(self, live: Live) -> None:
        if self.live.mode == Mode.CODE:
            return  # the first reason stands: the Maestro's, or the line's
        self.live = live
        self.changed()

    def _run(self) -> None:
        try:
            url = f"{self.url}/calls/events?hall={quote(self.fingerprint)}"
            with urllib.request.urlopen(url, timeout=READ_TIMEOUT) as answer:
                self._answer = answer
                parser = SseLines()
                for raw in answer:
                    if self._stop.is_set():
                        return
                    message = parser.line(raw)
                    if message is not None and not self._take(*message):
                        return
            why = "the line to the organiser dropped (its stream ended)"
        except urllib.error.HTTPError as exc:
            why = f"the organiser refused the calls: {_refusal(exc)}"
        except (OSError, ValueError) as exc:
            why = f"the line to the organiser dropped ({getattr(exc, 'reason', exc)})"
        except AttributeError:  # http.client reading a response `stop` closed under it
            why = "the stream was closed"
        if not self._stop.is_set():
            self._set(Live(Mode.CODE, why))

    def _take(self, event: str, data: Any) -> bool:
        """One event of the stream; False when following is over."""
        if event == "snapshot" and isinstance(data, dict):
            balls = [b for b in data.get("calls", ()) if isinstance(b, int)]
            return all(self._call(n, b) for n, b in enumerate(balls, start=1))
        if event == "call" and isinstance(data, dict):
            count, ball = data.get("count"), data.get("ball")
            if isinstance(count, int) and isinstance(ball, int):
                return self._call(count, ball)
        if event == "end":
            self._set(Live(Mode.CODE, "the organiser has called every ball"))
            return False
        return True

    def _call(self, count: int, ball: int) -> bool:
        if count < 1 or count > len(self.order) or self.order[count - 1] != ball:
            want = self.order[count - 1] if 1 <= count <= len(self.order) else None
            self._set(
                Live(
                    Mode.CODE,
                    f"the organiser's call {count} is {ball}, but the committed order's is "
                    f"{want}: going on from the code",
                )
            )
            return False
        try:
            enter_from_order(self.app, self.game_id, self.order, count)
        except RequestError as exc:
            self._set(Live(Mode.CODE, str(exc)))
            return False
        return True


#: set while the station enters the order's calls itself (`enter_from_order`): the only way a
#: ball is called in a linked game while it follows the organiser
_ENTERING_ORDER: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "linked_entering_order", default=False
)


def enter_from_order(app: Flask, game_id: int, order: Sequence[int], upto: int) -> int:
    """Enter the order's calls up to call `upto` that the hall has not made yet, each as a
    manual call keyed by its number (so the stream and the Maestro never enter one twice);
    the hall's count after."""
    token = _ENTERING_ORDER.set(True)
    with app.app_context():
        conn = db.connect(hall(app).config.database)
        try:
            made = len(games.called_balls(conn, game_id))
            for count in range(made + 1, upto + 1):
                calls.enter_ball(conn, game_id, order[count - 1], None, f"linked-{game_id}-{count}")
            return max(made, upto)
        finally:
            conn.close()
            _ENTERING_ORDER.reset(token)


def refuse_hand_calls_while_following(conn: object, game_id: int) -> None:
    """A call guard (`games.add_call_guard`): while a linked game follows the organiser, its
    balls come from the organiser's stream alone. A ball typed or drawn by hand could be off the
    committed order, and the tally would refuse the hall's result for it."""
    follow = live_state().follows.get(game_id)
    if follow is None or follow.live.mode != Mode.FOLLOWING or _ENTERING_ORDER.get():
        return
    raise Conflict(
        "this linked game follows the organiser's calls: stop following to call from the code"
    )


@dataclass
class Hub:
    """The station's linked games in play: their followers and what became of their results."""

    follows: dict[int, Follow]
    sent: dict[int, Sent]
    lock: threading.Lock
    parts: dict[int, Any]  # the snapshot's `linked` of each game, read once


def live_state(app: Flask | None = None) -> Hub:
    return area_state("linked", lambda: Hub({}, {}, threading.Lock(), {}), app)
