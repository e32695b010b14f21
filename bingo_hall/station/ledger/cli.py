"""`bingo-hall ledger --db FILE`: the night's summary from a station's database, printed as text
(or `--csv`), and written as a one-page PDF with `--pdf FILE`. The database is opened read-only,
so it can be read while the station runs, and a mistyped path is an error, never a new file."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from urllib.parse import quote

import click

from ...errors import KitError
from ...machine.paths import default_instance_dir


def _path(db: str | None) -> Path:
    return Path(db).expanduser() if db else default_instance_dir() / "bingo-hall.sqlite"


def _open(db: str | None) -> sqlite3.Connection:
    path = _path(db)
    if not path.is_file():
        raise KitError("no station database at %(path)s", path=path)
    conn = sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    return conn


@click.command("ledger")
@click.option(
    "--db", "db", default=None, help="The station's SQLite file (default: the instance folder's)."
)
@click.option(
    "--lang", default=None, help="es or en (default: the environment's, LANG=es_AR is Spanish)."
)
@click.option(
    "--night", "night_of", default=None, help="The night, such as 2026-11-24 (default: the newest)."
)
@click.option("--csv", "as_csv", is_flag=True, help="Print the summary as CSV.")
@click.option(
    "--pdf", "pdf", default=None, help="Also write the one-page PDF summary to this file."
)
def ledger(
    db: str | None, lang: str | None, night_of: str | None, as_csv: bool, pdf: str | None
) -> None:
    """Print the night's summary: sales, prizes, payouts, what is left for the cause."""
    from ...cli.speech import command_lang

    lang = command_lang(lang, "en")
    from ...money.night_csv import summary_csv
    from ...money.night_text import summary_text, words
    from ...web.book_store import key_beside
    from .summary import night

    words(lang)  # an unknown language is refused before anything is read
    conn = _open(db)
    try:
        summary = night(conn, night_of, key_beside(_path(db)))
    except sqlite3.DatabaseError as exc:
        raise KitError(
            "cannot read the ledger from %(db)s: %(reason)s", db=db, reason=exc
        ) from None
    finally:
        conn.close()
    if pdf:
        from ...printing.ledger_pdf import render_summary_pdf

        try:
            Path(pdf).write_bytes(render_summary_pdf(summary, lang))
        except OSError as exc:
            raise KitError(
                "cannot write %(pdf)s: %(reason)s", pdf=pdf, reason=exc.strerror
            ) from None
    click.echo(summary_csv(summary, lang) if as_csv else summary_text(summary, lang), nl=False)
