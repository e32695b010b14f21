"""The caller PIN: who may draw, enter, undo and start or end games.

Pages use a login session (cookie) plus a CSRF token: a hidden `csrf_token` field in forms, the
`X-CSRF-Token` header for fetch() from the station's own pages. The JSON API also takes
`Authorization: Bearer <token>` from `POST /api/login`; bearer tokens are stored hashed in SQLite,
so they survive a restart; changing the PIN ends every login and token. Wrong PINs are
rate-limited per client address. Players on the Wi-Fi, who never know the PIN, can only view
/display and verify cards.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import secrets
import threading
import time
from collections.abc import Callable
from enum import StrEnum
from typing import Any

from flask import current_app, g, redirect, request, session, url_for

from ..web.db import get_db
from ..web.errors import Forbidden, Unauthorized, wants_json
from ..web.instance import area_state

MAX_FAILURES = 5  # wrong PINs allowed per window before the address has to wait
WINDOW_S = 300.0
UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}


class _Limiter:
    """Wrong-PIN counter per client address: after MAX_FAILURES in WINDOW_S, wait."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.failures: dict[str, list[float]] = {}

    def retry_after(self, who: str) -> int:
        now = time.monotonic()
        with self.lock:
            recent = [t for t in self.failures.get(who, []) if now - t < WINDOW_S]
            self.failures[who] = recent
            if len(recent) < MAX_FAILURES:
                return 0
            return int(WINDOW_S - (now - recent[0])) + 1

    def fail(self, who: str) -> None:
        with self.lock:
            self.failures.setdefault(who, []).append(time.monotonic())

    def clear(self, who: str) -> None:
        with self.lock:
            self.failures.pop(who, None)


def _limiter() -> _Limiter:
    return area_state("pin_limiter", _Limiter)


class PinResult(StrEnum):
    OK = "ok"
    WRONG = "wrong"
    LIMITED = "limited"


def check_pin(pin: Any) -> tuple[PinResult, int]:
    """(result, retry_after seconds). Compares in constant time; counts failures per address."""
    who = request.remote_addr or "?"
    limiter = _limiter()
    wait = limiter.retry_after(who)
    if wait:
        return PinResult.LIMITED, wait
    expected = str(current_app.config["CALLER_PIN"])
    if isinstance(pin, str) and hmac.compare_digest(pin.strip().encode(), expected.encode()):
        limiter.clear(who)
        return PinResult.OK, 0
    limiter.fail(who)
    return PinResult.WRONG, 0


def _pin_tag() -> str:
    """A fingerprint of the current PIN: logins made under an older PIN stop working."""
    pin = str(current_app.config["CALLER_PIN"])
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
    app.jinja_env.globals["csrf_token"] = csrf_token
    app.jinja_env.globals["is_caller"] = is_caller
