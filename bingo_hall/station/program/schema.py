"""SQLite migrations of the night's program, append-only; see bingo_hall/web/db.py.

* `programs`: each program loaded, with its file's text (the newest is the night's).
* `program_games`: the program's games in order (`position`, 1 = the first), each with its
  settings as read from the file (`spec`, JSON) or copied from another game (`inserted`), its
  status (waiting, playing, played, skipped) and the station's game once started (`game_id`).
  A station restarted mid-night reads the game in play from here.
"""

MIGRATIONS: list[str] = [
    """
    CREATE TABLE programs (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        name_es TEXT NOT NULL,
        source TEXT NOT NULL,
        text TEXT NOT NULL,
        loaded TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    );
    CREATE TABLE program_games (
        id INTEGER PRIMARY KEY,
        program_id INTEGER NOT NULL REFERENCES programs(id),
        position INTEGER NOT NULL CHECK (position >= 1),
        spec TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'waiting'
            CHECK (status IN ('waiting', 'playing', 'played', 'skipped')),
        game_id INTEGER UNIQUE REFERENCES games(id),
        inserted INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX program_games_order ON program_games (program_id, position);
    """,
]
