"""The companions' SQLite migrations (append-only; see bingo_hall/station/db.py)."""

MIGRATIONS: list[str] = []
