"""A phone looking a table up by its code, while someone may be guessing codes: unknown codes
slow the guesser down, and the tables a phone opened are remembered in its session cookie."""

from __future__ import annotations

import math
import threading
import time

from flask import current_app, request, session

from bingo_hall.web.db import get_db
from bingo_hall.web.errors import TooManyRequests
from bingo_hall.web.instance import area_state
from bingo_hall.web.limits import Backoff, BackoffPerKey, BackoffRule, from_this_machine

from . import store

#: Unknown codes slow the guesser down: 10 in a row from one address, or 100 in a row over the
#: whole station (a guesser can change address), and further lookups wait 1 s, then twice as
#: long each time, up to a minute. Tables this phone already opened (remembered in its session
#: cookie) and the laptop itself are never held up, so players at their tables keep scoring.
CODE_PER_ADDRESS = BackoffRule(free=10, first_wait_s=1.0, max_wait_s=60.0, forget_s=600.0)
CODE_OVERALL = BackoffRule(free=100, first_wait_s=1.0, max_wait_s=60.0, forget_s=600.0)
REMEMBERED = 12  # codes a phone's session keeps


class _CodeGate:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.per_address = BackoffPerKey(CODE_PER_ADDRESS)
        self.overall = Backoff(CODE_OVERALL)


def lookup(code: str) -> store.Table:
    """The table with this (normalised) code, for a phone that may be guessing: NoSuchTable,
    or TooManyRequests while unknown codes are coming too fast."""
    who = request.remote_addr or "?"
    if from_this_machine(who) or code in session.get("tables", []):
        table = store.load_table(get_db(), code)
    else:
        gate = area_state("companions_code_gate", _CodeGate)
        with gate.lock:  # wait-check-count is one step: a burst gets one lookup through
            now = time.monotonic()
            mine, everyone = gate.per_address.get(who, now), gate.overall
            wait = max(mine.wait(now), everyone.wait(now))
            if wait:
                current_app.logger.warning("table code lookups from %s held %.0f s", who, wait)
                s = math.ceil(wait)
                raise TooManyRequests(
                    "Too many wrong table codes. Try again in %(s)s seconds.",
                    s=s,
                    extra={"retry_after": s},
                )
            try:
                table = store.load_table(get_db(), code)
            except store.NoSuchTable:
                mine.fail(now)
                everyone.fail(now)
                raise
    remember(table.code)
    return table


def remember(code: str) -> None:
    """This phone opened (or made) the table: its session cookie vouches for the code."""
    known = session.get("tables", [])
    if code not in known:
        session["tables"] = [code, *known][:REMEMBERED]
