"""The Clue notebook's optional PIN (issue 18): a notebook is one detective's private notes.

The PIN (4 digits, chosen at set-up) is kept only as a salted scrypt hash. A phone that typed it
once is remembered in the signed session cookie, per table code, with a tag of the stored hash
(never the PIN), so it is asked for once per phone. Wrong PINs are counted per table and per
address (`FailureLimiter`): after 5 in 5 minutes, either one waits. A 4-digit PIN has only
10,000 values, so the counting is what protects it, not the hash.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from flask import request, session

from bingo_hall.web.errors import TooManyRequests, Unauthorized
from bingo_hall.web.instance import area_state
from bingo_hall.web.limits import FailureLimiter

from .store import Table

SCRYPT = {"n": 2**14, "r": 8, "p": 1}
SESSION_KEY = "notebooks"
#: the most tables one phone stays unlocked for (the cookie must stay small)
REMEMBERED = 20


def hash_pin(pin: str) -> str:
    """'scrypt$<salt hex>$<hash hex>' with a fresh salt per table."""
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(pin.encode(), salt=salt, dklen=32, **SCRYPT)
    return f"scrypt${salt.hex()}${digest.hex()}"


def pin_matches(pin: str, stored: str) -> bool:
    _scheme, salt, digest = stored.split("$")
    tried = hashlib.scrypt(pin.encode(), salt=bytes.fromhex(salt), dklen=32, **SCRYPT)
    return hmac.compare_digest(tried.hex(), digest)


def _tag(table: Table) -> str:
    return hashlib.sha256(f"notebook:{table.pin_hash}".encode()).hexdigest()[:16]


def is_unlocked(table: Table) -> bool:
    """No PIN on this table, or this phone typed it."""
    if not table.pin_hash:
        return True
    known = session.get(SESSION_KEY)
    return isinstance(known, dict) and known.get(table.code) == _tag(table)


def remember(table: Table) -> None:
    """This phone may open `table` from now on."""
    if not table.pin_hash:
        return
    known = session.get(SESSION_KEY)
    known = dict(known) if isinstance(known, dict) else {}
    known.pop(table.code, None)
    known[table.code] = _tag(table)
    session[SESSION_KEY] = dict(list(known.items())[-REMEMBERED:])
    session.permanent = True


def locked(table: Table) -> Unauthorized:
    """The refusal for a phone without the PIN: that the table exists, nothing of its notes."""
    return Unauthorized(
        "This notebook is private: open its page and type its PIN.",
        extra={"locked": True, "code": table.code, "game": table.game},
    )


def require_unlocked(table: Table) -> None:
    if not is_unlocked(table):
        raise locked(table)


def _limiter() -> FailureLimiter:
    return area_state("notebook_pins", FailureLimiter)


def try_pin(table: Table, pin: object) -> None:
    """Unlock `table` for this phone, or raise: 429 while too many wrong PINs were typed for
    this table or from this address, 401 for a wrong PIN."""
    keys = (f"table:{table.code}", f"addr:{request.remote_addr or '?'}")
    limiter = _limiter()
    wait = limiter.retry_after(*keys)
    if wait:
        raise TooManyRequests(
            "Too many wrong PINs. Try again in %(s)s seconds.", s=wait, extra={"retry_after": wait}
        )
    if not table.pin_hash:
        return
    if not (isinstance(pin, str) and pin_matches(pin.strip(), table.pin_hash)):
        limiter.fail(*keys)
        raise Unauthorized("Wrong PIN.")
    remember(table)
