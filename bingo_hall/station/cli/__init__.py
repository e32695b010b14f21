"""Station commands: `serve`, `demo`, `audit`, `init-db` (mapped in bingo_hall/cli/__init__.py).

The station runs on bingo_hall.web.server (uvicorn with pure-Python h11, so it works on the
Windows and Mac laptops hosts own): one event loop writes every open screen's live stream, a
pool of `--threads` workers serves pages and checks, and the Maestro's actions have their own.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ...cli.speech import Speech, speech
from ...errors import KitError
from ...machine.paths import default_instance_dir
from ...variants import DEFAULT_BALLS
from ...web.config import DEFAULT
from ...web.instance import hall

if TYPE_CHECKING:
    from flask import Flask

    from ...manifest import Deck

from .start import (
    build_app,
    load_decks,
    load_program,
    run_server,
    save_hall_settings,
)

_common = [
    click.option("--db", "db", default=None, help="SQLite file (default: the instance folder)."),
    click.option("--host", default="0.0.0.0", show_default=True),
    click.option("--port", default=5000, show_default=True, type=click.IntRange(0, 65535)),
    click.option("--pin", default=None, help="Caller PIN (or $BINGO_HALL_PIN; else one is made)."),
    click.option(
        "--threads",
        default=None,
        show_default=f"{DEFAULT.threads}, or THREADS in the instance's config.py",
        type=click.IntRange(4, 256),
        help="Worker threads for pages and checks; live screens take none, and the Maestro's "
        "actions have 4 of their own.",
    ),
    click.option(
        "--instance",
        default=lambda: str(default_instance_dir()),
        show_default="the per-user data folder",
        type=click.Path(file_okay=False),
        help="Folder for the database, PIN, session key and demo files.",
    ),
    click.option(
        "--maestro-port",
        default=None,
        type=click.IntRange(0, 65535),
        show_default="--port + 1, or a free one if it is taken",
        help="The port of the caller page and the laptop's big screen (never printed on a card).",
    ),
    click.option(
        "--maestro-host",
        default="127.0.0.1",
        show_default=True,
        help="Where the caller page listens: this laptop only, or 0.0.0.0 for a tablet on the "
        "hall's Wi-Fi (it still asks for the caller PIN).",
    ),
    click.option(
        "--one-process",
        is_flag=True,
        default=False,
        help="Serve phones and screens in the station's own process (by default they have one of "
        "their own, at a lower priority, where the system allows it).",
    ),
]


def _with_common(fn: Callable[..., None]) -> Callable[..., None]:
    for opt in reversed(_common):
        fn = opt(fn)
    return fn


@click.command()
@click.option("--deck", "decks", multiple=True, type=click.Path(dir_okay=False), help="Deck file.")
@_with_common
@click.option("--device", default=None, help="Flashboard URL (e.g. /dev/ttyUSB0, COM3).")
@click.option(
    "--lang",
    type=click.Choice(["es", "en"]),
    default=None,
    help="Language of the pages for players who have not chosen one (kept for the night), and "
    "of these lines (default: the environment's, LANG=es_AR is Spanish).",
)
@click.option(
    "--program",
    "program",
    default=None,
    type=click.Path(dir_okay=False, exists=True),
    help="The night's program (docs/program.md); the same file again resumes it.",
)
def serve(
    decks: tuple[str, ...],
    db: str | None,
    host: str,
    port: int,
    pin: str | None,
    threads: int | None,
    instance: str,
    maestro_port: int | None,
    maestro_host: str,
    one_process: bool,
    device: str | None,
    lang: str | None,
    program: str | None,
) -> None:
    """Run the caller station with the given decks loaded."""
    words = speech(lang)
    app = build_app(db, pin, instance, device, threads, one_process)
    loaded = load_decks(app, decks)
    notes = [
        words.say(
            "deck loaded: %(name)s (%(what)s, id %(id)s)",
            name=d.name,
            what=count_words(d, words),
            id=d.deck_id,
        )
        for d in loaded
    ]
    if program:
        notes.append(load_program(app, program, words))
    notes += _night_language(app, lang, words)
    printed = [(d.name, p) for p, d in zip(decks, loaded)]
    run_server(app, host, port, notes, printed, words, maestro_host, maestro_port)


def count_words(deck: Deck[Any], words: Speech) -> str:
    """How the banner counts a deck: "40 cards", "3 strips (18 tickets)", in its language."""
    n = len(deck.cards)
    if strips := len(deck.variant.strips(deck.cards)):  # a deck of cards has none
        return words.say("%(strips)s strips (%(n)s tickets)", strips=strips, n=n)
    return words.say("%(n)s cards", n=n)


def _night_language(app: Flask, lang: str | None, words: Speech) -> list[str]:
    """--lang: the language pages open in for players who have not chosen one."""
    if not lang:
        return []
    save_hall_settings(app, lang=lang)
    language = "español" if lang == "es" else "English"
    return [
        words.say("pages open in: %(language)s (--lang %(lang)s)", language=language, lang=lang)
    ]


@click.command()
@_with_common
@click.option("--cards", default=40, show_default=True, type=click.IntRange(1, 3003))
@click.option(
    "--lang",
    type=click.Choice(["es", "en"]),
    default=None,
    help="Language of the demo cards (default Spanish) and of the pages for players who have not "
    "chosen one.",
)
def demo(
    db: str | None,
    host: str,
    port: int,
    pin: str | None,
    threads: int | None,
    instance: str,
    maestro_port: int | None,
    maestro_host: str,
    one_process: bool,
    cards: int,
    lang: str | None,
) -> None:
    """Make (or reuse) a demo deck and its PDF, load it, and run the station."""
    from ...manifest import load_deck, new_deck, save_deck

    words = speech(lang)
    app = build_app(db, pin, instance, threads=threads, one_process=one_process)
    folder = Path(app.instance_path)
    path = folder / "demo.deck.json"
    deck = load_deck(path) if path.exists() else None
    if deck is None or len(deck.cards) != cards:
        deck = new_deck(cards, seed=f"demo-{cards}", name="Demo")
        save_deck(deck, path)
    load_decks(app, (str(path),))
    what = count_words(deck, words)
    notes = [words.say("demo deck:   %(path)s (%(what)s)", path=path, what=what)]
    notes.append(_demo_pdf(deck, folder, port, lang or "es", words))
    notes += _night_language(app, lang, words)
    run_server(app, host, port, notes, (), words, maestro_host, maestro_port)


def _demo_pdf(deck: Deck[Any], folder: Path, port: int, lang: str, words: Speech) -> str:
    try:
        from ...printing import default_base_url, render_deck_pdf
    except ImportError:
        return words.say("cards PDF:   (printing is not installed yet; skipped)")
    base, warning = default_base_url(port=port)
    where = base.split("//", 1)[-1].replace(":", "-").replace("/", "")
    pdf = folder / f"demo-{deck.deck_id}-{lang}-{where}.pdf"
    if not pdf.exists():
        try:
            pdf.write_bytes(render_deck_pdf(deck, base_url=base, lang=lang))
        except Exception as exc:  # printing is another area; the station still runs
            return words.say("cards PDF:   (could not be made: %(reason)s)", reason=exc)
    note = words.say("cards PDF:   %(path)s", path=pdf)
    return note + ("\n  " + words.say("warning:     %(text)s", text=warning) if warning else "")


@click.command()
@click.option("--seed", required=True, help="The revealed seed (64 hex digits).")
@click.option("--public-input", default=None, help="The public input typed before ball one.")
@click.option("--calls", default=None, help="Optional: the calls to check, e.g. '31,7,62'.")
@click.option(
    "--balls",
    "--game",
    "balls",
    default=str(DEFAULT_BALLS),
    show_default=True,
    help="The game's balls: 75, or 90 for a game of strips.",
)
def audit(seed: str, public_input: str | None, calls: str | None, balls: str) -> None:
    """Print a finished game's commitment and draw order, and optionally check its calls."""
    from ...draw import audit_round, commitment, draw_order, parse_seed
    from ...variants import ball_counts
    from ..spoken import call_label

    if balls not in ball_counts():
        raise KitError("--balls is 75 or 90, not %(balls)r", balls=balls)
    count = int(balls)
    key = parse_seed(seed)
    order = draw_order(key, public_input, count)
    say = speech().say  # the environment's language (LANG=es_AR: Spanish)
    click.echo(say("commitment: %(hex)s", hex=commitment(key)))
    if public_input:
        click.echo(say("public input: %(text)r", text=public_input))
    else:
        click.echo(say("public input: (none)"))
    click.echo(say("order: %(balls)s", balls=" ".join(str(b) for b in order)))
    click.echo(say("calls: %(calls)s", calls=", ".join(call_label(b, count) for b in order)))
    if calls is not None:
        try:
            called = [int(x) for x in calls.replace(" ", "").split(",") if x]
        except ValueError:
            raise KitError("--calls is a comma-separated list of balls, e.g. 31,7,62") from None
        result = audit_round(key, commitment(key), public_input, called, count)
        if result.order_ok:
            click.echo(say("the %(n)s calls follow the committed order", n=len(called)))
        else:
            raise KitError(
                "call #%(first_difference)s does not follow the committed order",
                first_difference=result.first_difference,
            )


@click.command("init-db")
@click.option("--db", "db", default=None, help="SQLite file (default: the instance folder).")
def init_db(db: str | None) -> None:
    """Create or update the station's database."""
    app = build_app(db, None, str(default_instance_dir()))
    click.echo(speech().say("database ready: %(path)s", path=hall(app).config.database))
