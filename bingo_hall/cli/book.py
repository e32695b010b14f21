"""`bingo-hall book export` and `bingo-hall book verify` (docs/audit.md).

export: the book (or one night of it) from a station's database, one JSON line per entry between
a header naming its anchor and the signed head; `--redact` gives players' names as pseudonyms.
verify: on any machine, without the database: the chain, the signature, and the replay of the
night with the pure rules; with `--key` and `--head`, against the fingerprint and the head the
station published. Exit 0 when all hold, 1 when something does not (one line per finding,
naming the entry), 2 when the input cannot be used.
"""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from ..audit import (
    Published,
    check_chain,
    check_published,
    export_lines,
    night_bounds,
    read_book,
    redacted,
)
from ..audit.replay import deck_entry, replay
from ..errors import KitError
from ..manifest import deck_from_dict
from .speech import speech


@click.group()
def book() -> None:
    """The night's book: a tamper-evident record anyone can check offline."""


@book.command("export")
@click.option("--db", "db", required=True, type=click.Path(dir_okay=False), help="the database")
@click.option("--night", default=None, help="one night: YYYY-MM-DD (noon to noon, UTC)")
@click.option("--redact", is_flag=True, help="players' names and addresses as pseudonyms")
@click.option(
    "--instance",
    default=None,
    type=click.Path(file_okay=False),
    help="the folder of the station's key, book_key.pem; default: the database's folder, "
    "where the station keeps it",
)
@click.option("-o", "output", required=True, type=click.Path(dir_okay=False))
def export(db: str, night: str | None, redact: bool, instance: str | None, output: str) -> None:
    """Write the book as JSON lines, ending with the signed head."""
    from ..audit import StationKey
    from ..web import book_store as store

    path = Path(db)
    if not path.is_file():
        raise KitError("no database at %(path)s", path=db)
    if night is not None:
        try:
            night_bounds(night)
        except ValueError:
            raise KitError("--night is a date, YYYY-MM-DD, not %(night)r", night=night) from None
    key_file = Path(instance or path.parent) / store.KEY_FILE
    try:
        key = StationKey.from_pem(key_file.read_bytes())
    except OSError:
        raise KitError(
            "no station key at %(path)s (the station keeps book_key.pem beside its database; "
            "give --instance for another folder that holds it)",
            path=str(key_file),
        ) from None
    try:
        conn = sqlite3.connect(f"file:{path.resolve()}?mode=ro", uri=True)
        conn.row_factory = sqlite3.Row
        anchor, found = store.entries(conn, night)
        head = store.exported_head(conn, key, found)
        conn.close()
    except sqlite3.Error as exc:
        raise KitError("cannot read the book from %(path)s: %(why)s", path=db, why=exc) from None
    if redact:
        found = [redacted(e, key) for e in found]
    lines = export_lines(anchor, found, head, night, redact)
    Path(output).write_text("\n".join(lines) + "\n", encoding="utf-8")
    say = speech().say  # the environment's language (LANG=es_AR: Spanish)
    click.echo(
        say(
            "%(path)s: %(n)s entries, head %(head)s",
            path=output,
            n=len(found),
            head=_head(head, say),
        )
    )


@book.command("verify")
@click.argument("book_file", type=click.Path(dir_okay=False))
@click.option("--deck", "decks", multiple=True, help="a deck file the night used (one per deck)")
@click.option(
    "--key",
    "key",
    default=None,
    metavar="FINGERPRINT",
    help="the station key's fingerprint as published (the summary's foot): the book must be "
    "signed by it",
)
@click.option(
    "--head",
    "head",
    default=None,
    metavar="SEQ:HASH",
    help="a head published during the night (entry number and at least 12 hex digits of its "
    "hash): the book must contain it",
)
def verify(book_file: str, decks: tuple[str, ...], key: str | None, head: str | None) -> None:
    """Check a book: chain, signature, reveals, calls, awards and the ledger's sums; with --key
    or --head, against what the station published."""
    published = Published.parse(key, head)  # malformed: unusable input (2)
    try:
        text = Path(book_file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise KitError("cannot read %(path)s: %(why)s", path=book_file, why=exc) from None
    parsed = read_book(text)  # a BookError is unusable input: exit 2
    given = {}
    for name in decks:
        try:
            deck, digest = deck_entry(Path(name).read_text(encoding="utf-8"), deck_from_dict)
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            raise KitError("cannot read the deck %(path)s: %(why)s", path=name, why=exc) from None
        given[deck.deck_id] = (deck, digest)
    found = check_published(parsed, published) + check_chain(parsed)
    state, replayed = replay(parsed, given)  # UnusableDecks: another deck, or one missing (2)
    findings = found + replayed
    say = speech().say  # the environment's language (LANG=es_AR: Spanish)
    for note in state.notes:
        click.echo(say("note: %(note)s", note=note))
    for f in findings:
        click.echo(f.line())
    signed = parsed.head
    if findings:
        click.echo(
            say("FAILED: %(n)s finding(s); head %(head)s", n=len(findings), head=_head(signed, say))
        )
        sys.exit(1)
    held = say(
        "OK: %(n)s entries hold; head %(head)s", n=len(parsed.entries), head=_head(signed, say)
    )
    if published.fingerprint is None:
        # a book rewritten whole and signed again by a new key holds together too: only the
        # fingerprint published during the night tells the two apart
        click.echo(
            say(
                "%(held)s; signed by key %(key)s: compare it with the fingerprint the station "
                "published (the summary's foot), or give it with --key",
                held=held,
                key=signed.fingerprint,
            )
        )
    else:
        click.echo(
            say("%(held)s; signed by the published key %(key)s", held=held, key=signed.fingerprint)
        )


def _head(head: Any, say: Callable[..., str]) -> str:
    """The signed head as `SignedHead.line` writes it, in the command's language."""
    return say(
        "%(short)s (entry %(n)s, key %(key)s)",
        short=head.head.short,
        n=head.head.seq,
        key=head.fingerprint,
    )
