"""The night's book as pure rules (docs/audit.md): the hash chain and its signed head
(`book`), and its replay with the rules of the game and the money (`replay`). The store
over SQLite is bingo_hall/web/book.py (docs/dev/architecture.md)."""
