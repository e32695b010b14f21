"""SQLite migrations of the raffle, its own area key ("raffle") inside the
ledger area; append-only, as the ledger's: nothing is updated in place.

* `raffles`: one raffle, its price per ticket; `commitment` (SHA-256 of `seed`) set when sales
  close (`committed`), `revealed` when the seed is shown at the end.
* `raffle_sales`: tickets sold, one colour and its number ranges ("1-50, 75"), with the money.
* `raffle_prizes`: the prizes in the order they are drawn (`place` 1 first).
* `raffle_draws`: each draw: the prize, the ticket at `place` in the committed order.
* `raffle_unclaimed`: a draw nobody claimed, with the Maestro's reason (the prize is redrawn).
"""

_NOW = "(strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))"

MIGRATIONS: list[str] = [
    f"""
    CREATE TABLE raffles (
        id INTEGER PRIMARY KEY,
        created TEXT NOT NULL DEFAULT {_NOW},
        cents INTEGER NOT NULL CHECK (cents >= 0),
        seed TEXT,
        commitment TEXT,
        public_input TEXT,
        committed TEXT,
        revealed TEXT
    );
    CREATE TABLE raffle_sales (
        id INTEGER PRIMARY KEY,
        raffle_id INTEGER NOT NULL REFERENCES raffles (id),
        colour TEXT NOT NULL,
        numbers TEXT NOT NULL,
        tickets INTEGER NOT NULL CHECK (tickets > 0),
        cents INTEGER NOT NULL CHECK (cents >= 0),
        via TEXT,
        made TEXT NOT NULL DEFAULT {_NOW}
    );
    CREATE TABLE raffle_prizes (
        id INTEGER PRIMARY KEY,
        raffle_id INTEGER NOT NULL REFERENCES raffles (id),
        place INTEGER NOT NULL,
        name TEXT NOT NULL,
        UNIQUE (raffle_id, place)
    );
    CREATE TABLE raffle_draws (
        id INTEGER PRIMARY KEY,
        raffle_id INTEGER NOT NULL REFERENCES raffles (id),
        place INTEGER NOT NULL,
        prize INTEGER NOT NULL,
        colour TEXT NOT NULL,
        number INTEGER NOT NULL,
        made TEXT NOT NULL DEFAULT {_NOW},
        UNIQUE (raffle_id, place)
    );
    CREATE TABLE raffle_unclaimed (
        draw_id INTEGER PRIMARY KEY REFERENCES raffle_draws (id),
        reason TEXT NOT NULL,
        made TEXT NOT NULL DEFAULT {_NOW}
    );
    """
]
