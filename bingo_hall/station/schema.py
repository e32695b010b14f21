"""The station's SQLite migrations (append-only; see db.py)."""

MIGRATIONS: list[str] = []
