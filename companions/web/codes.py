"""A table's code: what players read aloud and type on their phones to join it, so it is made of
letters and digits that cannot be mistaken for one another, and shown in two groups."""

from __future__ import annotations

import secrets
import sqlite3

#: no 0/O, 1/I: codes are read aloud and typed on phones
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
#: 32**8 (about 10**12) codes: even at 20,000 guesses a minute (a phone script), with no limit,
#: finding one of 50 tables would take about a year (the limits in lookup.py make it
#: millennia). Shown in two groups of four ("ABCD-EF23"); the QR join is the easy way in. Tables
#: made with 5-letter codes still open.
CODE_LENGTH = 8
CODE_GROUP = 4


def normalise_code(text: str) -> str:
    """What a player typed or read aloud -> a stored code ("ab-c d2" -> "ABCD2")."""
    return "".join(ch for ch in text.upper() if ch.isalnum())


def shown_code(code: str) -> str:
    """The code as people read it: "ABCD-EF23" (older, short codes as they are)."""
    if len(code) != CODE_LENGTH:
        return code
    return code[:CODE_GROUP] + "-" + code[CODE_GROUP:]


def new_code(conn: sqlite3.Connection) -> str:
    """A random code no table of the database has."""
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if not conn.execute("SELECT 1 FROM companion_tables WHERE code = ?", (code,)).fetchone():
            return code
