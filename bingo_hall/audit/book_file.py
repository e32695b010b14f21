"""An exported book (`export_lines`, `read_book`: a header line, then one entry a line) and its
checks: the chain whole from its anchor (`check_chain`), and against heads published during the
night (`check_published`)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from .entries import SHORT, BookError, Entry, canonical
from .head import SignedHead

#: the first line of an exported book
FORMAT = "bingo-hall-book"
VERSION = 1


@dataclass(frozen=True)
class Book:
    """An exported book as read from its lines: the anchor (the hash before its first entry),
    its entries, and the signed head of its last line."""

    anchor: str
    entries: tuple[Entry, ...]
    head: SignedHead
    night: str | None = None
    redacted: bool = False


def header_line(anchor: str, night: str | None, redact: bool) -> str:
    """The first line of an export: the format, the anchor, the night, whether redacted."""
    first = {"book": FORMAT, "version": VERSION, "anchor": anchor, "night": night}
    return canonical({**first, "redacted": redact}).decode()


def export_lines(
    anchor: str, entries: list[Entry], head: SignedHead, night: str | None, redact: bool
) -> list[str]:
    """The export: a header naming the anchor, one line per entry, the signed head last."""
    lines = [header_line(anchor, night, redact)]
    lines += [canonical(e.to_json()).decode() for e in entries]
    lines.append(canonical(head.to_json()).decode())
    return lines


def read_book(text: str) -> Book:
    """Parse an exported book. Anything that is not one (another file, a copy cut short before
    its signed head) is a BookError in one sentence naming the line (as the file numbers its
    lines, blank ones included)."""
    numbered = [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
    if not numbered:
        raise BookError("the file is empty: it is not a book")
    parsed = []
    for n, line in numbered:
        try:
            parsed.append(json.loads(line))
        except json.JSONDecodeError:
            if n == numbered[-1][0] and n > 1 and not text.endswith("\n"):
                # an export ends each line, its last included: a last line unfinished and not
                # JSON is a copy cut in the middle of that line
                raise BookError("the copy is cut short at line %(n)s", n=n) from None
            raise BookError("line %(n)s is not JSON: it is not a book", n=n) from None
    first = parsed[0]
    if not isinstance(first, dict) or first.get("book") != FORMAT:
        raise BookError("the file is not a Bingo Hall book (its first line names no book)")
    if first.get("version") != VERSION:
        raise BookError(
            "the book is of version %(v)r; this kit reads version 1", v=first.get("version")
        )
    anchor = first.get("anchor")
    if not isinstance(anchor, str):
        raise BookError("the book's first line gives no anchor")
    last = parsed[-1]
    if len(parsed) < 2 or not isinstance(last, dict) or "head" not in last:
        raise BookError(
            "the copy is cut short at line %(n)s: it ends without its signed head",
            n=numbered[-1][0],
        )
    entries = []
    for (n, _), item in zip(numbered[1:-1], parsed[1:-1], strict=True):
        if not isinstance(item, dict):
            raise BookError("line %(n)s is not an entry of a book", n=n)
        try:
            entries.append(Entry.from_json(item))
        except BookError:
            raise BookError("line %(n)s is not an entry of a book", n=n) from None
    night = first.get("night")
    return Book(
        anchor,
        tuple(entries),
        SignedHead.from_json(last),
        night if isinstance(night, str) else None,
        bool(first.get("redacted")),
    )


@dataclass(frozen=True)
class Finding:
    """One thing `verify` found wrong, naming the entry (its seq) when there is one."""

    message: str
    seq: int | None = None

    def line(self) -> str:
        where = f"entry {self.seq}: " if self.seq is not None else ""
        return where + self.message


def night_bounds(night: str) -> tuple[str, str]:
    """A night (YYYY-MM-DD) runs from that day's noon to the next day's noon, UTC, so a night
    that goes past midnight is one night: the first and the first-after `at` of its entries."""
    day = datetime.strptime(night, "%Y-%m-%d").replace(tzinfo=UTC)
    start = day + timedelta(hours=12)
    end = start + timedelta(days=1)
    fmt = "%Y-%m-%dT%H:%M:%S.000Z"
    return start.strftime(fmt), end.strftime(fmt)


def check_chain(book: Book) -> list[Finding]:
    """The chain and the signature: every entry's hash is its own, each names the hash of the
    one before (the first, the anchor), numbers follow, and the signed head is the last entry's,
    signed by the key it names."""
    found: list[Finding] = []
    prev, last_seq = book.anchor, None
    for e in book.entries:
        if e.computed_hash() != e.hash:
            found.append(Finding("its content does not match its hash (changed)", e.seq))
        if e.prev != prev:
            found.append(
                Finding("it does not follow the entry before it (removed or moved)", e.seq)
            )
        if last_seq is not None and e.seq != last_seq + 1:
            found.append(Finding(f"its number follows {last_seq} (an entry is missing)", e.seq))
        prev, last_seq = e.hash, e.seq
    if book.night is not None:
        try:
            lo, hi = night_bounds(book.night)
        except ValueError:
            found.append(Finding(f"the header's night {book.night!r} is not a date"))
        else:
            outside = next((e for e in book.entries if not lo <= e.at < hi), None)
            if outside is not None:
                found.append(
                    Finding(f"it is not of the night the header names ({book.night})", outside.seq)
                )
    head = book.head.head
    if head.hash != prev or (last_seq is not None and head.seq != last_seq):
        found.append(
            Finding(
                "the signed head is not the last entry's (entries were dropped or added)",
                last_seq,
            )
        )
    if not book.head.valid():
        found.append(Finding("the head's signature does not hold"))
    return found


@dataclass(frozen=True)
class Published:
    """What the station published during the night, to check a copy against: its key's
    fingerprint and/or a head (an entry's number and its hash, or the first 12 or more hex
    digits of it, as a print or a photo keeps them)."""

    fingerprint: str | None = None
    seq: int | None = None
    hash: str | None = None

    @classmethod
    def parse(cls, key: str | None, head: str | None) -> Published:
        """`--key FINGERPRINT` and `--head SEQ:HASH` as typed; BookError when malformed."""
        fingerprint = None
        if key is not None:
            fingerprint = key.strip().lower()
            if len(fingerprint) != 16 or not _is_hex(fingerprint):
                raise BookError("--key is the key's fingerprint, 16 hex digits, not %(k)r", k=key)
        seq = digest = None
        if head is not None:
            number, _, given = head.strip().partition(":")
            digest = given.strip().lower()
            if not number.strip().isdigit() or not 12 <= len(digest) <= 64 or not _is_hex(digest):
                raise BookError(
                    "--head is SEQ:HASH, the entry's number and at least 12 hex digits of its "
                    "hash (such as 412:3f2a9c1b0d4e), not %(h)r",
                    h=head,
                )
            seq = int(number)
        return cls(fingerprint, seq, digest)


def _is_hex(text: str) -> bool:
    return all(c in "0123456789abcdef" for c in text)


def check_published(book: Book, published: Published) -> list[Finding]:
    """The book against what was published: signed by the published key, and holding the
    published head (the entry of that number has that hash). A book that holds together but
    fails here was signed by another key or rewritten after the head was published."""
    found: list[Finding] = []
    signed_by = book.head.fingerprint
    if published.fingerprint is not None and signed_by != published.fingerprint:
        found.append(
            Finding(
                f"the book is signed by key {signed_by}, not by the published key "
                f"{published.fingerprint}: it is not the station's book as published"
            )
        )
    if published.seq is not None and published.hash is not None:
        short = f"{published.seq}:{published.hash[:SHORT]}"
        hashes = {e.seq: e.hash for e in book.entries}
        if book.entries:
            hashes.setdefault(book.entries[0].seq - 1, book.anchor)  # the entry before the copy
        held = hashes.get(published.seq)
        if held is None:
            found.append(
                Finding(
                    f"the book does not reach the published head {short}: it holds no entry "
                    f"{published.seq}"
                )
            )
        elif not held.startswith(published.hash):
            found.append(
                Finding(
                    f"the book does not contain the published head {short}: its entry "
                    f"{published.seq} has hash {held[:SHORT]} (rewritten after it was published)",
                    published.seq,
                )
            )
    return found
