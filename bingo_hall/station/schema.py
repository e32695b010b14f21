"""The station's SQLite migrations (append-only; see bingo_hall/web/db.py).

A game has rounds (Bingo de Puntos plays many per game); each round has its own committed seed and
its own ordered calls. A call is never deleted: undo marks it undone with a reason, so the
correction is logged. The partial unique index makes a doubled ball impossible even if two
requests raced past the application's checks.
"""

MIGRATIONS: list[str] = [
    """
    CREATE TABLE decks (
        deck_id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        free_centre INTEGER NOT NULL,
        cards INTEGER NOT NULL,
        manifest TEXT NOT NULL,
        added TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
    );
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        deck_id TEXT NOT NULL REFERENCES decks(deck_id),
        mode TEXT NOT NULL CHECK (mode IN ('normal', 'points')),
        free_centre INTEGER NOT NULL,
        draw TEXT NOT NULL CHECK (draw IN ('auto', 'manual')),
        options TEXT NOT NULL DEFAULT '{}',
        status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'ended')),
        created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
        ended TEXT
    );
    CREATE TABLE rounds (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games(id),
        number INTEGER NOT NULL,
        seed TEXT NOT NULL,
        commitment TEXT NOT NULL,
        public_input TEXT,
        revealed INTEGER NOT NULL DEFAULT 0,
        started TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
        UNIQUE (game_id, number)
    );
    CREATE TABLE calls (
        id INTEGER PRIMARY KEY,
        round_id INTEGER NOT NULL REFERENCES rounds(id),
        seq INTEGER NOT NULL,
        ball INTEGER NOT NULL CHECK (ball BETWEEN 1 AND 75),
        source TEXT NOT NULL CHECK (source IN ('auto', 'manual')),
        called_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
        undone_at TEXT,
        undo_reason TEXT,
        UNIQUE (round_id, seq)
    );
    CREATE UNIQUE INDEX calls_live_ball ON calls (round_id, ball) WHERE undone_at IS NULL;
    CREATE TABLE idempotency (
        game_id INTEGER NOT NULL,
        key TEXT NOT NULL,
        response TEXT NOT NULL,
        PRIMARY KEY (game_id, key)
    );
    CREATE TABLE api_tokens (
        token_hash TEXT PRIMARY KEY,
        created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
    );
    """,
]
