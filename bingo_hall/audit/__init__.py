"""The night's book as pure rules (docs/audit.md), presented here for its readers
(`audit.read_book`, `audit.StationKey`): its entries and their hash chain (`entries`), the
signed head and the station's key (`head`), an exported book and its checks (`book_file`); and
its replay with the rules of the game and the money (`replay`, imported by itself: it needs
every family of the rules). The store over SQLite is bingo_hall/web/book_store.py
(docs/dev/architecture.md)."""

from __future__ import annotations

from .book_file import (
    FORMAT,
    VERSION,
    Book,
    Finding,
    Published,
    check_chain,
    check_published,
    export_lines,
    header_line,
    night_bounds,
    read_book,
)
from .entries import (
    ORIGIN,
    SHORT,
    BookError,
    Entry,
    canonical,
    deck_hash,
    sha256,
)
from .head import (
    Head,
    SignedHead,
    StationKey,
    fingerprint_of,
    redacted,
)

__all__ = [
    "Book",
    "BookError",
    "Entry",
    "FORMAT",
    "Finding",
    "Head",
    "ORIGIN",
    "Published",
    "SHORT",
    "SignedHead",
    "StationKey",
    "VERSION",
    "canonical",
    "check_chain",
    "check_published",
    "deck_hash",
    "export_lines",
    "fingerprint_of",
    "header_line",
    "night_bounds",
    "read_book",
    "redacted",
    "sha256",
]
