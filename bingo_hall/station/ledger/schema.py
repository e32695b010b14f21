"""SQLite migrations of the ledger area, append-only; see bingo_hall/web/db.py.

Nothing is ever deleted or updated in place: a correction is a new row.

* `ledger_settings`: the night's currency.
* `ledger_prices`: a game's price, per card or per book of `book` cards; the newest row counts,
  and each sale keeps the price it was made at.
* `ledger_prizes`: a game's prize rules (`rule` is `bingo_hall.money.PrizeRule` as JSON); the
  newest row per prize counts.
* `ledger_sales`: cards sold for a game (`round` NULL: they play every round) or for one round,
  as serial ranges ("1-40, 55"), by range or by scan, with the money taken.
  `ledger_corrections` voids a sale, with the reason.
* `ledger_payouts`: one row per winner of an awarded prize (who, how much, which card, which
  call, whether it was the jackpot); `ledger_paid` marked one paid (step 1 only).
* `ledger_paid_marks` (step 2): a payout marked paid, or, with the reason, marked not paid after
  all (a correction, as with a sale); the newest mark counts. Step 2 copies step 1's marks.
* step 3: `ledger_sales.made_in`, the round being played when a sale was made (a
  sale for the whole game counts its money in that round; NULL in older rows: round 1), and
  `ledger_payouts.from_pot`, the part of a payout taken from the jackpot pot (NULL in older
  rows: the whole payout when it was the jackpot).
* step 4: price lists, paper stock and cash.
  - `ledger_price_lists`: a version of a game's price list; its prices are the
    `ledger_prices` rows with its `list_id` (and a `label`: "Single", "Book of 6"). The newest
    list counts. Each older price becomes a list of its own, with the same id: an old game's
    single price is its one-price list. `ledger_sales.price_id` says which price a sale was
    made at (older sales: the game's newest price made before them).
  - `ledger_stock`: serial ranges issued to a seller, returned unsold, or void (with the
    reason); `ledger_stock_corrections` cancels a wrong entry, with the reason.
  - `ledger_cash`: the night's float and the cash counted at the end (a total, or `pieces`,
    the notes and coins as JSON); the newest of each kind counts, a later one says why.
  - `ledger_paid_marks.cash`: whether a payout marked paid was paid in cash (older marks:
    yes).
* step 5: night sales, sold once for several games of the night's program.
  - `ledger_night_sales`: cards sold for a span of the program's games at a price of the first
    game's list (`price`, `book`, `label` kept as sold), with the money taken once (`cents`)
    and the deck its cards are of.
  - `ledger_night_shares`: the games a night sale covers, by their program entry (`entry_id`:
    an inserted game moves the numbers, not the entries), each with its share of the money
    (`cents`: equal shares, the odd cents to the first game) and the round of that game its
    share counts in (`made_in`: the round being played when sold, for the game in play; 1
    for a game not started yet). `place` is the game's number when the sale was made.
  - `ledger_night_voids`: a night sale voided whole, with the reason.
* step 6: `ledger_payouts.money_ball`, the money ball a bingo was won on (NULL: none), and
  `bonus`, what that paid on top of the prize (included in `cents`).
* `ledger_warnings`: a claim on a card not sold for its round.
* `ledger_log`: every ledger action of the Maestro, in order (the audit trail).
"""

MIGRATIONS: list[str] = [
    """
    CREATE TABLE ledger_settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    CREATE TABLE ledger_prices (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games(id),
        cents INTEGER NOT NULL CHECK (cents >= 0),
        book INTEGER NOT NULL CHECK (book >= 1),
        made TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    );
    CREATE TABLE ledger_prizes (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games(id),
        prize TEXT NOT NULL,
        rule TEXT NOT NULL,
        made TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    );
    CREATE TABLE ledger_sales (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games(id),
        round INTEGER CHECK (round IS NULL OR round >= 1),
        serials TEXT NOT NULL,
        cards INTEGER NOT NULL CHECK (cards >= 1),
        cents INTEGER NOT NULL CHECK (cents >= 0),
        price INTEGER NOT NULL,
        book INTEGER NOT NULL,
        method TEXT NOT NULL CHECK (method IN ('range', 'scan')),
        made TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    );
    CREATE INDEX ledger_sales_round ON ledger_sales (game_id, round);
    CREATE TABLE ledger_corrections (
        id INTEGER PRIMARY KEY,
        sale_id INTEGER NOT NULL UNIQUE REFERENCES ledger_sales(id),
        reason TEXT NOT NULL,
        made TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    );
    CREATE TABLE ledger_payouts (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games(id),
        round_id INTEGER NOT NULL REFERENCES rounds(id),
        prize TEXT NOT NULL,
        claim_id INTEGER NOT NULL,
        serial INTEGER NOT NULL,
        player TEXT,
        at_call INTEGER NOT NULL,
        cents INTEGER NOT NULL CHECK (cents >= 0),
        jackpot INTEGER NOT NULL DEFAULT 0,
        made TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
        UNIQUE (round_id, prize, claim_id)
    );
    CREATE TABLE ledger_paid (
        payout_id INTEGER PRIMARY KEY REFERENCES ledger_payouts(id),
        made TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    );
    CREATE TABLE ledger_warnings (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games(id),
        round_id INTEGER NOT NULL REFERENCES rounds(id),
        claim_id INTEGER NOT NULL,
        serial INTEGER NOT NULL,
        made TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    );
    CREATE TABLE ledger_log (
        id INTEGER PRIMARY KEY,
        game_id INTEGER,
        action TEXT NOT NULL,
        detail TEXT NOT NULL,
        via TEXT,
        made TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    );
    """,
    """
    CREATE TABLE ledger_paid_marks (
        id INTEGER PRIMARY KEY,
        payout_id INTEGER NOT NULL REFERENCES ledger_payouts(id),
        paid INTEGER NOT NULL CHECK (paid IN (0, 1)),
        reason TEXT,
        made TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    );
    CREATE INDEX ledger_paid_marks_payout ON ledger_paid_marks (payout_id, id);
    INSERT INTO ledger_paid_marks (payout_id, paid, made)
        SELECT payout_id, 1, made FROM ledger_paid ORDER BY made;
    """,
    """
    ALTER TABLE ledger_sales ADD COLUMN made_in INTEGER CHECK (made_in IS NULL OR made_in >= 1);
    ALTER TABLE ledger_payouts ADD COLUMN from_pot INTEGER
        CHECK (from_pot IS NULL OR from_pot >= 0);
    """,
    """
    CREATE TABLE ledger_price_lists (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games(id),
        made TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    );
    ALTER TABLE ledger_prices ADD COLUMN list_id INTEGER REFERENCES ledger_price_lists(id);
    ALTER TABLE ledger_prices ADD COLUMN label TEXT NOT NULL DEFAULT '';
    INSERT INTO ledger_price_lists (id, game_id, made) SELECT id, game_id, made FROM ledger_prices;
    UPDATE ledger_prices SET list_id = id;
    CREATE INDEX ledger_prices_list ON ledger_prices (game_id, list_id);
    ALTER TABLE ledger_sales ADD COLUMN price_id INTEGER REFERENCES ledger_prices(id);
    UPDATE ledger_sales SET price_id = (
        SELECT MAX(p.id) FROM ledger_prices p
        WHERE p.game_id = ledger_sales.game_id AND p.made <= ledger_sales.made
    );
    CREATE TABLE ledger_stock (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games(id),
        kind TEXT NOT NULL CHECK (kind IN ('issue', 'return', 'void')),
        serials TEXT NOT NULL,
        cards INTEGER NOT NULL CHECK (cards >= 1),
        seller TEXT NOT NULL DEFAULT '',
        reason TEXT NOT NULL DEFAULT '',
        made TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    );
    CREATE INDEX ledger_stock_game ON ledger_stock (game_id, id);
    CREATE TABLE ledger_stock_corrections (
        id INTEGER PRIMARY KEY,
        stock_id INTEGER NOT NULL UNIQUE REFERENCES ledger_stock(id),
        reason TEXT NOT NULL,
        made TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    );
    CREATE TABLE ledger_cash (
        id INTEGER PRIMARY KEY,
        night TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('float', 'count')),
        cents INTEGER NOT NULL CHECK (cents >= 0),
        pieces TEXT NOT NULL DEFAULT '[]',
        reason TEXT,
        made TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    );
    CREATE INDEX ledger_cash_night ON ledger_cash (night, kind, id);
    ALTER TABLE ledger_paid_marks ADD COLUMN cash INTEGER NOT NULL DEFAULT 1
        CHECK (cash IN (0, 1));
    """,
    """
    CREATE TABLE ledger_night_sales (
        id INTEGER PRIMARY KEY,
        program_id INTEGER NOT NULL REFERENCES programs(id),
        deck_id TEXT NOT NULL,
        serials TEXT NOT NULL,
        cards INTEGER NOT NULL CHECK (cards >= 1),
        cents INTEGER NOT NULL CHECK (cents >= 0),
        price INTEGER NOT NULL,
        book INTEGER NOT NULL,
        label TEXT NOT NULL DEFAULT '',
        method TEXT NOT NULL CHECK (method IN ('range', 'scan')),
        made TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    );
    CREATE TABLE ledger_night_shares (
        night_sale_id INTEGER NOT NULL REFERENCES ledger_night_sales(id),
        entry_id INTEGER NOT NULL REFERENCES program_games(id),
        place INTEGER NOT NULL CHECK (place >= 1),
        cents INTEGER NOT NULL CHECK (cents >= 0),
        made_in INTEGER NOT NULL DEFAULT 1 CHECK (made_in >= 1),
        PRIMARY KEY (night_sale_id, entry_id)
    );
    CREATE INDEX ledger_night_shares_entry ON ledger_night_shares (entry_id);
    CREATE TABLE ledger_night_voids (
        id INTEGER PRIMARY KEY,
        night_sale_id INTEGER NOT NULL UNIQUE REFERENCES ledger_night_sales(id),
        reason TEXT NOT NULL,
        made TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    );
    """,
    """
    ALTER TABLE ledger_payouts ADD COLUMN money_ball INTEGER;
    ALTER TABLE ledger_payouts ADD COLUMN bonus INTEGER NOT NULL DEFAULT 0 CHECK (bonus >= 0);
    """,
]
