"""The companions' SQLite migrations (append-only; see bingo_hall/station/db.py).

A table is one game in progress; its entries are the rounds (or marks) the phones posted, in
order. Nothing is ever deleted: an undo sets `undone`, a correction keeps the old payload in
`companion_revisions`, so a mistaken tap can always be traced and put back.
"""

#: every table the migrations make: the phones' process may write these, and nothing else
#: (bingo_hall/web/guest_write.py)
TABLES = ("companion_tables", "companion_entries", "companion_revisions")

MIGRATIONS: list[str] = [
    """
    CREATE TABLE companion_tables (
        code       TEXT PRIMARY KEY,
        game       TEXT NOT NULL,
        settings   TEXT NOT NULL,
        players    TEXT NOT NULL,
        members    TEXT NOT NULL DEFAULT '[]',
        version    INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    );
    CREATE TABLE companion_entries (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        table_code TEXT NOT NULL REFERENCES companion_tables(code),
        payload    TEXT NOT NULL,
        player     TEXT,
        undone     INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    );
    CREATE INDEX companion_entries_by_table ON companion_entries(table_code, id);
    CREATE TABLE companion_revisions (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        entry_id   INTEGER NOT NULL REFERENCES companion_entries(id),
        payload    TEXT NOT NULL,
        created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    );
    """,
    # "play again": the table the same players moved on to, so every phone can follow
    """
    ALTER TABLE companion_tables ADD COLUMN next_code TEXT;
    """,
    # a private notebook's PIN, salted and hashed (companions/web/pins.py); NULL: no PIN
    """
    ALTER TABLE companion_tables ADD COLUMN pin_hash TEXT;
    """,
]
