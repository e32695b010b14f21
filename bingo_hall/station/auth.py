"""The caller PIN: who may draw, enter, undo and start or end games.

Pages use a login session (cookie) plus a CSRF token: a hidden `csrf_token` field in forms, the
`X-CSRF-Token` header for fetch() from the station's own pages. The JSON API also takes
`Authorization: Bearer <token>` from `POST /api/login`; bearer tokens are stored hashed in SQLite,
so they survive a restart. Logins carry a generation (kept in SQLite) that logout and a PIN
change advance: a logout, or a PIN change (even one changed back later), ends every login and
token. Wrong PINs spend one
budget for the whole station with exponential back-off (`PIN_RULE`); the laptop itself
(loopback or its own LAN address) is never locked out, and a Maestro already logged in is
never asked again. Players on the Wi-Fi, who never know the PIN, can only view /display and
verify cards.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import logging
import math
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from enum import StrEnum
from typing import Any, ParamSpec, TypeVar

from flask import Flask, g, redirect, request, session, url_for
from werkzeug.wrappers import Response as BaseResponse

from ..web import book_store as book
from ..web.db import get_db, transaction
from ..web.errors import Forbidden, Unauthorized, wants_json
from ..web.instance import area_state, hall
from ..web.limits import Backoff, BackoffRule, from_this_machine

P = ParamSpec("P")
R = TypeVar("R")

UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}

#: Wrong PINs, counted over the whole station rather than per address (a guesser on the Wi-Fi
#: can change address at will). Five wrong PINs in a row are checked at once; from the last of
#: them on, each wrong PIN makes every non-loopback login wait, 1 s then twice as long each
#: time up to a minute, so about one guess a minute gets through (docs/station.md, "Security").
PIN_RULE = BackoffRule(free=5, first_wait_s=1.0, max_wait_s=60.0, forget_s=900.0)

console = logging.getLogger("bingo_hall.logins")


class _Gate:
    """The budget and the lock that makes "may it be checked?", the check and the count one
    step, so a burst of guesses at the moment a wait ends gets one guess through, not many."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.budget = Backoff(PIN_RULE)


def _gate() -> _Gate:
    return area_state("pin_gate", _Gate)


class PinResult(StrEnum):
    OK = "ok"
    WRONG = "wrong"
    LIMITED = "limited"


def check_pin(pin: Any) -> tuple[PinResult, int]:
    """(result, retry_after seconds). Compares in constant time; wrong PINs from other machines
    spend the station's budget, and the console shows every attempt as it happens."""
    who = request.remote_addr or "?"
    local = from_this_machine(who)
    expected = hall().config.caller_pin
    gate = _gate()
    with gate.lock:
        now = time.monotonic()
        wait = 0.0 if local else gate.budget.wait(now)
        if wait:
            console.warning("PIN try from %s refused: logins wait %.0f s more", who, wait)
            return PinResult.LIMITED, math.ceil(wait)
        if isinstance(pin, str) and hmac.compare_digest(pin.strip().encode(), expected.encode()):
            console.info("PIN accepted from %s (%s)", who, _where())
            return PinResult.OK, 0
        if local:
            console.info("wrong PIN from %s (this laptop; not counted)", who)
            return PinResult.WRONG, 0
        wait = gate.budget.fail(now)
        console.warning(
            "wrong PIN from %s (%d in a row%s)",
            who,
            gate.budget.failures,
            f"; logins from other machines wait {wait:.0f} s" if wait else "",
        )
        return PinResult.WRONG, 0


def _where() -> str:
    return "API token" if request.path.startswith("/api/") else "caller page"


class _Logins:
    """Which logins are good: a generation that logout and a PIN change advance (kept in SQLite,
    so a restart keeps it and a PIN changed and changed back does not bring old logins back),
    the tag of the PIN it was taken under, and the hashes of the API tokens issued in it (so
    the server can tell the Maestro's requests apart on the event loop, without a query)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.generation: int | None = None
        self.tag = ""
        self.tokens: set[str] = set()


def _logins(app: Any = None) -> _Logins:
    return area_state("caller_logins", _Logins, app)


#: kept among the hall's settings (hall_settings.load shows only the settings it knows)
_GEN_KEY, _TAG_KEY = "_caller.generation", "_caller.pin_tag"


def _pin_tag() -> str:
    """A keyed fingerprint of the current PIN (never the PIN): when it changes, every login
    made before ends."""
    config = hall().config
    pin, key = config.caller_pin.encode(), config.secret_key.encode()
    return hmac.new(key, b"bingo-hall pin:" + pin, hashlib.sha256).hexdigest()[:32]


def generation() -> int:
    """The logins' generation now (advanced here first if the PIN changed since)."""
    logins, tag = _logins(), _pin_tag()
    with logins.lock:
        if logins.generation is not None and logins.tag == tag:
            return logins.generation
        conn = get_db()
        stored = {
            key: json.loads(value)
            for key, value in conn.execute(
                "SELECT key, value FROM hall_settings WHERE key IN (?, ?)", (_GEN_KEY, _TAG_KEY)
            ).fetchall()
        }
        gen = int(stored.get(_GEN_KEY, 0))
        if stored.get(_TAG_KEY) != tag:  # a new PIN (or the first start): a new generation
            gen = _advance(conn, gen, tag, "pin" if _TAG_KEY in stored else "first")
        logins.generation, logins.tag = gen, tag
        logins.tokens = {r[0] for r in conn.execute("SELECT token_hash FROM api_tokens").fetchall()}
        return gen


def _advance(conn: Any, gen: int, tag: str, why: str) -> int:
    """Next generation: every session and token of the old ones stops working (tokens are
    deleted). `why`: "pin" (the PIN changed), "logout" or "first" (the station's first start)."""
    gen += 1
    with transaction(conn):
        book.append(conn, "logins_ended", {"generation": gen, "why": why})
        for key, value in ((_GEN_KEY, gen), (_TAG_KEY, tag)):
            conn.execute(
                "INSERT INTO hall_settings (key, value) VALUES (?, ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, json.dumps(value)),
            )
        conn.execute("DELETE FROM api_tokens")
    return gen


def end_every_login() -> None:
    """Logout: the laptop's, every tablet's and every API token's login ends."""
    gen = generation()
    logins = _logins()
    with logins.lock:
        logins.generation = _advance(get_db(), gen, logins.tag, "logout")
        logins.tokens = set()
    console.info("logged out from %s: every login and API token ended", request.remote_addr)


def _hash(token: str, gen: int) -> str:
    return hashlib.sha256(f"{gen}:{token}".encode()).hexdigest()


def issue_token() -> str:
    token = secrets.token_urlsafe(32)
    gen = generation()
    hashed = _hash(token, gen)
    conn = get_db()
    with transaction(conn):
        conn.execute("INSERT INTO api_tokens (token_hash) VALUES (?)", (hashed,))
        who = "login:" + hashlib.sha256(("token:" + token).encode()).hexdigest()[:16]
        book.append(conn, "login", {"login": who, "by": "token", "generation": gen})
    logins = _logins()
    with logins.lock:
        if logins.generation == gen:
            logins.tokens.add(hashed)
    return token


def _bearer_ok() -> bool:
    header = request.headers.get("Authorization", "")
    if not header.startswith("Bearer "):
        return False
    hashed = _hash(header[7:].strip(), generation())
    row = get_db().execute("SELECT 1 FROM api_tokens WHERE token_hash = ?", (hashed,)).fetchone()
    return row is not None


def credential_check(app: Any) -> Callable[[Mapping[bytes, bytes]], bool]:
    """For the server's event loop: does a request carry a login of the current generation?
    A signature check or a hash and a set lookup, no query (the view checks again, fully)."""
    serializer = app.session_interface.get_signing_serializer(app)
    cookie = app.session_interface.get_cookie_name(app).encode()
    max_age = int(app.permanent_session_lifetime.total_seconds())
    logins = _logins(app)

    def check(headers: Mapping[bytes, bytes]) -> bool:
        gen = logins.generation
        if gen is None:
            return False
        auth = headers.get(b"authorization", b"")
        if auth.startswith(b"Bearer "):
            token = auth[7:].strip().decode("latin1")
            return _hash(token, gen) in logins.tokens
        for part in headers.get(b"cookie", b"").split(b";"):
            name, _, value = part.strip().partition(b"=")
            if name == cookie and serializer is not None:
                try:
                    data = serializer.loads(value.decode("latin1"), max_age=max_age)
                except Exception:  # a forged or stale cookie: a guest's
                    return False
                return data.get("caller") is True and data.get("gen") == gen
        return False

    return check


def log_in_session() -> None:
    session.clear()
    session["caller"] = True
    session["gen"] = generation()
    session["csrf"] = secrets.token_urlsafe(24)
    session.permanent = True
    conn = get_db()
    with transaction(conn):
        login = "login:" + hashlib.sha256(("session:" + session["csrf"]).encode()).hexdigest()[:16]
        book.append(conn, "login", {"login": login, "by": "session", "generation": session["gen"]})


def csrf_token() -> str:
    """The session's CSRF token (templates: `{{ csrf_token() }}`)."""
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(24)
    token: str = session["csrf"]
    return token


def csrf_ok() -> bool:
    sent = request.headers.get("X-CSRF-Token") or request.form.get("csrf_token") or ""
    expected = session.get("csrf", "")
    return bool(expected) and hmac.compare_digest(sent.encode(), expected.encode())


def _session_ok() -> bool:
    """A login session of the current generation: made under the current PIN, and not ended by
    a logout since."""
    return session.get("caller") is True and session.get("gen") == generation()


def is_caller() -> bool:
    """Logged in (session or bearer token), without the CSRF check."""
    return _session_ok() or _bearer_ok()


def caller_required(view: Callable[P, R]) -> Callable[P, R | BaseResponse]:
    """Only the Maestro: a bearer token, or the login session (+ CSRF token for changes)."""

    @functools.wraps(view)
    def wrapped(*args: P.args, **kwargs: P.kwargs) -> R | BaseResponse:
        if _bearer_ok():
            g.caller_via = "token"
            return view(*args, **kwargs)
        if _session_ok():
            if request.method in UNSAFE and not csrf_ok():
                if wants_json():
                    raise Forbidden("missing or wrong CSRF token; reload the page")
                return redirect(url_for("caller.login", next=request.path))
            g.caller_via = "session"
            return view(*args, **kwargs)
        if wants_json():
            raise Unauthorized('the caller PIN is needed: POST /api/login {"pin": ...}')
        return redirect(url_for("caller.login", next=request.full_path.rstrip("?")))

    return wrapped


def init_app(app: Flask) -> None:
    """Template helpers, and the console line for every PIN attempt (stderr, where `serve`
    runs), unless logging was set up otherwise."""
    if not console.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(asctime)s %(message)s", "%H:%M:%S"))
        console.addHandler(handler)
        console.setLevel(logging.INFO)
    hall(app).credential_check = credential_check(app)
    app.jinja_env.globals["csrf_token"] = csrf_token
    app.jinja_env.globals["is_caller"] = is_caller
