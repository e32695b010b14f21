"""SQLite migrations of the claims area, append-only; see bingo_hall/web/db.py.

* `players`: who plays a game, in seating order (clockwise: the Maestro's left is the next seat),
  and the Sociedad (team) each belongs to, if any.
* `claim_settings`: the claims options of a game (target, pattern, hall rules) and who is Maestro.
* `claims`: every BINGO shouted, with the verdict it got (JSON) and the penalty of a false one.
  `at_call` is how many live calls the round had: claims with the same value were simultaneous.
* `awards`: one per settled round; its points go to the side (player or team) named there.

Step 2 (90-ball games, `prizes.py`): `prize_awards`, one row per winner of a prize (línea,
bingo; one line, two lines, full house) in a round. A 90-ball claim is a row of `claims` whose
`line` holds the prize claimed.

Step 3: `players.left_at`, when a player who had won points was taken off the table;
the row stays, so the points and the record keep the player's name and team.
"""

MIGRATIONS: list[str] = [
    """
    CREATE TABLE players (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games(id),
        name TEXT NOT NULL,
        team TEXT,
        seat INTEGER NOT NULL,
        added TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
        UNIQUE (game_id, name)
    );
    CREATE TABLE claim_settings (
        game_id INTEGER PRIMARY KEY REFERENCES games(id),
        settings TEXT NOT NULL DEFAULT '{}',
        maestro TEXT
    );
    CREATE TABLE claims (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games(id),
        round_id INTEGER NOT NULL REFERENCES rounds(id),
        serial INTEGER NOT NULL,
        player TEXT,
        line TEXT,
        at_call INTEGER NOT NULL,
        calls TEXT NOT NULL,
        valid INTEGER NOT NULL,
        verdict TEXT NOT NULL,
        penalty TEXT,
        made TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    );
    CREATE INDEX claims_round ON claims (round_id, at_call);
    CREATE TABLE awards (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games(id),
        round_id INTEGER NOT NULL UNIQUE REFERENCES rounds(id),
        claim_id INTEGER NOT NULL REFERENCES claims(id),
        serial INTEGER NOT NULL,
        player TEXT,
        side TEXT,
        kind TEXT NOT NULL,
        points INTEGER NOT NULL,
        maestro TEXT,
        next_maestro TEXT,
        made TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    );
    """,
    """
    CREATE TABLE prize_awards (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games(id),
        round_id INTEGER NOT NULL REFERENCES rounds(id),
        prize TEXT NOT NULL,
        claim_id INTEGER NOT NULL REFERENCES claims(id),
        serial INTEGER NOT NULL,
        player TEXT,
        at_call INTEGER NOT NULL,
        made TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
        UNIQUE (round_id, prize, claim_id)
    );
    """,
    """
    ALTER TABLE players ADD COLUMN left_at TEXT;
    """,
]
