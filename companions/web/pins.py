"""The Clue notebook's optional PIN: a notebook is one detective's private notes.

The PIN (4 digits, chosen at set-up) is kept only as a salted scrypt hash. A phone that typed it
once is remembered in the signed session cookie, per table code, with a tag of the stored hash
(never the PIN), so it is asked for once per phone. Wrong PINs are counted per table and per
address with the web core's back-off (`bingo_hall.web.limits`, as the caller PIN and the table
codes): 5 wrong in a row are answered at once, then the next try waits a minute, then twice as
long each time, up to 15 minutes. A 4-digit PIN has only 10,000 values, so the counting is what
protects it, not the hash: `NOTEBOOK_PIN_RULE.tries_per_day()` is about 100, so one table's PIN
takes a guesser about seven weeks on average, whatever number of addresses they use.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import secrets
import threading
import time

from flask import request, session

from bingo_hall.web.db import get_db
from bingo_hall.web.errors import TooManyRequests, Unauthorized
from bingo_hall.web.instance import area_state
from bingo_hall.web.limits import BackoffPerKey, BackoffRule

from .store import Table, pin_hash

SCRYPT = {"n": 2**14, "r": 8, "p": 1}
NOTEBOOK_PIN_RULE = BackoffRule(free=5, first_wait_s=60.0, max_wait_s=900.0, forget_s=3600.0)
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


def _tag(stored: str) -> str:
    return hashlib.sha256(f"notebook:{stored}".encode()).hexdigest()[:16]


def is_unlocked(table: Table) -> bool:
    """No PIN on this table, or this phone typed it."""
    stored = pin_hash(get_db(), table.code)
    if not stored:
        return True
    known = session.get(SESSION_KEY)
    return isinstance(known, dict) and known.get(table.code) == _tag(stored)


def remember(table: Table) -> None:
    """This phone may open `table` from now on."""
    stored = pin_hash(get_db(), table.code)
    if not stored:
        return
    known = session.get(SESSION_KEY)
    known = dict(known) if isinstance(known, dict) else {}
    known.pop(table.code, None)
    known[table.code] = _tag(stored)
    session[SESSION_KEY] = dict(list(known.items())[-REMEMBERED:])
    session.permanent = True


def locked(table: Table) -> Unauthorized:
    """The refusal for a phone without the PIN: that the table exists, nothing of its notes."""
    return Unauthorized(
        "This notebook is private: open its page and type its PIN.",
        extra={"locked": True, "code": table.code, "game": table.game},
    )


class WrongPins:
    """Wrong PINs per key ("table:ABCDE", "addr:10.0.0.7"), each a back-off budget; on the app."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.budgets = BackoffPerKey(NOTEBOOK_PIN_RULE)


def _limiter() -> WrongPins:
    return area_state("notebook_pins", WrongPins)


def try_pin(table: Table, pin: object) -> None:
    """Unlock `table` for this phone, or raise: 429 while too many wrong PINs were typed for
    this table or from this address, 401 for a wrong PIN. The try takes its slot (counted as a
    failure) before the scrypt check, in one step with the wait check, and is forgiven if the
    PIN was right: a burst of guesses at the moment a wait ends gets one through, not one per
    worker thread."""
    stored = pin_hash(get_db(), table.code)
    if not stored:
        return
    keys = (f"table:{table.code}", f"addr:{request.remote_addr or '?'}")
    limiter = _limiter()
    with limiter.lock:
        now = time.monotonic()
        budgets = [limiter.budgets.get(key, now) for key in keys]
        wait = math.ceil(max(b.wait(now) for b in budgets))
        if not wait:
            for budget in budgets:
                budget.fail(now)
    if wait:
        raise TooManyRequests(
            "Too many wrong PINs. Try again in %(s)s seconds.", s=wait, extra={"retry_after": wait}
        )
    if not (isinstance(pin, str) and pin_matches(pin.strip(), stored)):
        raise Unauthorized("Wrong PIN.")
    with limiter.lock:
        for budget in budgets:
            budget.forgive()
    remember(table)
