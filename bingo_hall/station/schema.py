"""The station's SQLite migrations (append-only; see bingo_hall/web/db.py).

A game has rounds (Bingo de Puntos plays many per game); each round has its own committed seed and
its own ordered calls. A call is never deleted: undo marks it undone with a reason, so the
correction is logged. The partial unique index makes a doubled ball impossible even if two
requests raced past the application's checks.

Step 2 (90-ball strips, docs/decks.md): a game has `balls` (75 or 90, from its deck's manifest)
and, for 90, `prizes` (the prize sequence it plays: `linea-bingo` or `lines-house`); the calls
table is rebuilt so that its CHECK admits balls up to 90 (SQLite cannot alter a CHECK), keeping
every call, undone ones included, with its id and seq.

Step 4 (Tambola, docs/claims.md): `prizes` names any 90-ball prize plan, the kit's or a host's.
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
    # (a migration is never edited once released: its DEFAULT 75 is variants.DEFAULT_BALLS as it
    # was when this step was written, and stays so for the databases it already migrated)
    # 2: 90-ball games
    """
    ALTER TABLE games ADD COLUMN balls INTEGER NOT NULL DEFAULT 75 CHECK (balls IN (75, 90));
    ALTER TABLE games ADD COLUMN prizes TEXT CHECK (prizes IN ('linea-bingo', 'lines-house'));
    CREATE TABLE calls_up_to_90 (
        id INTEGER PRIMARY KEY,
        round_id INTEGER NOT NULL REFERENCES rounds(id),
        seq INTEGER NOT NULL,
        ball INTEGER NOT NULL CHECK (ball BETWEEN 1 AND 90),
        source TEXT NOT NULL CHECK (source IN ('auto', 'manual')),
        called_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
        undone_at TEXT,
        undo_reason TEXT,
        UNIQUE (round_id, seq)
    );
    INSERT INTO calls_up_to_90 (id, round_id, seq, ball, source, called_at, undone_at, undo_reason)
        SELECT id, round_id, seq, ball, source, called_at, undone_at, undo_reason FROM calls;
    DROP TABLE calls;
    ALTER TABLE calls_up_to_90 RENAME TO calls;
    CREATE UNIQUE INDEX calls_live_ball ON calls (round_id, ball) WHERE undone_at IS NULL;
    """,
    # 3: the hall's settings for the whole night, kept across restarts (hall_settings.py)
    """
    CREATE TABLE hall_settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    """,
    # 4: a 90-ball game's `prizes` names any prize plan, the kit's (Tambola) or a host's own list
    # read from prizes/*.toml, so its CHECK of two words goes (a column's own CHECK is
    # dropped with it; SQLite 3.35+)
    """
    ALTER TABLE games ADD COLUMN prize_plan TEXT CHECK (length(prize_plan) BETWEEN 1 AND 60);
    UPDATE games SET prize_plan = prizes;
    ALTER TABLE games DROP COLUMN prizes;
    ALTER TABLE games RENAME COLUMN prize_plan TO prizes;
    """,
    # 5: when each deck was last loaded (a `serve --deck` of a known deck, or an upload, loads it
    # again): the New game form offers tonight's decks first, saying when each came
    """
    ALTER TABLE decks ADD COLUMN loaded TEXT;
    UPDATE decks SET loaded = added;
    """,
    # 6: a game that plays a host's own prize list records the list itself (its TOML), so that
    # its rules come from its own record: a command reading the night (the ledger's summary, the
    # book) needs no running station, and a list changed or removed later changes no game
    """
    ALTER TABLE games ADD COLUMN prize_list TEXT;
    """,
]
