"""The caller PIN: who may draw, enter, undo and start or end games.

Pages use a login session (cookie) plus a CSRF token: a hidden `csrf_token` field in forms, the
`X-CSRF-Token` header for fetch() from the station's own pages. The JSON API also takes
`Authorization: Bearer <token>` from `POST /api/login`; bearer tokens are stored hashed in SQLite,
so they survive a restart; changing the PIN ends every login and token. Wrong PINs spend one
budget for the whole station with exponential back-off (`PIN_RULE`); the laptop itself
(loopback or its own LAN address) is never locked out, and a Maestro already logged in is
never asked again. Players on the Wi-Fi, who never know the PIN, can only view /display and
verify cards.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import logging
import math
import secrets
import threading
import time
from collections.abc import Callable
from enum import StrEnum
from typing import Any

from flask import g, redirect, request, session, url_for

from ..web.db import get_db
from ..web.errors import Forbidden, Unauthorized, wants_json
from ..web.instance import area_state, hall
from ..web.limits import Backoff, BackoffRule, from_this_machine

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


def _pin_tag() -> str:
    """A fingerprint of the current PIN: logins made under an older PIN stop working."""
    pin = hall().config.caller_pin
    return hashlib.sha256(f"bingo-hall pin:{pin}".encode()).hexdigest()[:16]


def _hash(token: str) -> str:
    return hashlib.sha256(f"{_pin_tag()}:{token}".encode()).hexdigest()


def issue_token() -> str:
    token = secrets.token_urlsafe(32)
    conn = get_db()
    conn.execute("INSERT INTO api_tokens (token_hash) VALUES (?)", (_hash(token),))
    return token


def _bearer_ok() -> bool:
    header = request.headers.get("Authorization", "")
    if not header.startswith("Bearer "):
        return False
    token = header[7:].strip()
    row = (
        get_db()
        .execute("SELECT 1 FROM api_tokens WHERE token_hash = ?", (_hash(token),))
        .fetchone()
    )
    return row is not None


def log_in_session() -> None:
    session.clear()
    session["caller"] = True
    session["pin_tag"] = _pin_tag()
    session["csrf"] = secrets.token_urlsafe(24)
    session.permanent = True


def csrf_token() -> str:
    """The session's CSRF token (templates: `{{ csrf_token() }}`)."""
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(24)
    return session["csrf"]


def csrf_ok() -> bool:
    sent = request.headers.get("X-CSRF-Token") or request.form.get("csrf_token") or ""
    expected = session.get("csrf", "")
    return bool(expected) and hmac.compare_digest(sent.encode(), expected.encode())


def _session_ok() -> bool:
    """A login session made under the current PIN (a session without a tag can only have been
    made by the server itself, since the cookie is signed)."""
    return session.get("caller") is True and session.get("pin_tag", _pin_tag()) == _pin_tag()


def is_caller() -> bool:
    """Logged in (session or bearer token), without the CSRF check."""
    return _session_ok() or _bearer_ok()


def caller_required(view: Callable) -> Callable:
    """Only the Maestro: a bearer token, or the login session (+ CSRF token for changes)."""

    @functools.wraps(view)
    def wrapped(*args, **kwargs):
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


def init_app(app) -> None:
    """Template helpers, and the console line for every PIN attempt (stderr, where `serve`
    runs), unless logging was set up otherwise."""
    if not console.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(asctime)s %(message)s", "%H:%M:%S"))
        console.addHandler(handler)
        console.setLevel(logging.INFO)
    app.jinja_env.globals["csrf_token"] = csrf_token
    app.jinja_env.globals["is_caller"] = is_caller
