"""`bingo-hall print`, `generate` and `kit`: the printable kit from the command line.

Every mistake a host can make (a corrupt deck file, an unknown template, serials out of range, a
base URL that is not http(s), an existing deck file that would be overwritten) is a KitError or a
UsageError, which `bingo_hall.cli.main` prints as one line with exit code 2.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from ..cli.deck import GAME, STRIPS, check_counts, make_deck, refuse_to_replace
from ..cli.speech import command_lang
from ..errors import KitError
from ..machine import printed
from ..manifest import Deck, load_deck, save_deck
from ..variants import ball_counts, variant_for
from .base_url import default_base_url
from .deck_pdf import (
    PAPERS,
    check_base_url,
    fitted_slots,
    printed_name,
    render_deck_pdf,
    template_for,
    template_named,
)
from .kit import render_kit_pdf
from .selection import parse_serials
from .templates import LARGE
from .words import cli_line

_PROGRESS_FROM = 200  # cards; smaller prints finish before a bar would be readable


def _what(deck: Deck[Any], lang: str) -> str:
    """What the deck holds, in the print's language: cards, or 90-ball tickets."""
    return cli_line(lang, deck.variant.ticket_word[1])  # CLI_LINES has "cards" and "tickets"


def _write(path: Path, data: bytes) -> None:
    """Write atomically, so an interrupted print never leaves half a PDF under the real name."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_bytes(data)
        tmp.replace(path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise KitError(
            "cannot write %(path)s: %(reason)s", path=path, reason=exc.strerror or exc
        ) from None


def print_options(f: Callable[..., None]) -> Callable[..., None]:
    """The options shared by `print` and `generate`."""
    options = [
        click.option(
            "--template",
            help="A name or a .toml file; default classic-4, or strips-2 (90 balls);"
            " large: the game's large-print cards or tickets.",
        ),
        click.option("--paper", type=click.Choice(sorted(PAPERS)), default="a4", show_default=True),
        LANG_OPTION,
        click.option(
            "--base-url",
            help="Start of the QR address; default http://<this machine's LAN address>:5000.",
        ),
        click.option("--serials", help="Print only these cards, e.g. 1-40,55."),
    ]
    for option in reversed(options):
        f = option(f)
    return f


def _hall_lang(ctx: click.Context, param: click.Parameter, value: str | None) -> str:
    """--lang if given, else the environment's language (LANG=es_AR: Spanish), else Spanish."""
    return command_lang(value, "es")


#: the language of the print and of the command's lines
LANG_OPTION = click.option(
    "--lang",
    type=click.Choice(["es", "en"]),
    default=None,
    callback=_hall_lang,
    help="es or en (default: the environment's language, LANG=es_AR is Spanish; else es).",
)


def _print_deck(
    deck: Deck[Any],
    output: Path,
    template: str | None,
    paper: str,
    lang: str,
    base_url: str | None,
    serials: str | None,
) -> str:
    tpl = template_for(deck, template)  # fail on a bad template before any slow work
    template = tpl.name if template in (None, LARGE) else template
    chosen = parse_serials(serials, len(deck.cards)) if serials else None
    if (shown := printed_name(deck, template, paper)) != deck.name:
        what = _what(deck, lang)
        fits = len(shown) - 1
        click.echo(
            "bingo-hall: "
            + cli_line(
                lang,
                "long_name",
                name=deck.name,
                what=what,
                template=template,
                shown=shown,
                fits=fits,
            ),
            err=True,
        )
    if base_url is None:
        base_url, warning = default_base_url()
        if warning:
            click.echo(f"bingo-hall: warning: {warning}", err=True)
    base_url = check_base_url(base_url)
    count = len(chosen) if chosen is not None else len(deck.cards)
    what = _what(deck, lang)
    if count >= _PROGRESS_FROM and sys.stderr.isatty():
        with click.progressbar(
            length=count, label=cli_line(lang, "printing", what=what), file=sys.stderr
        ) as bar:
            pdf = render_deck_pdf(
                deck,
                template=template,
                paper=paper,
                lang=lang,
                base_url=base_url,
                serials=chosen,
                progress=bar.update,
            )
    else:
        pdf = render_deck_pdf(
            deck, template=template, paper=paper, lang=lang, base_url=base_url, serials=chosen
        )
    _write(output, pdf)
    click.echo(
        cli_line(
            lang,
            "wrote_print",
            path=output,
            count=count,
            what=what,
            name=deck.name,
            id=deck.deck_id,
            template=template,
            paper=paper,
            language=cli_line(lang, "language"),
            url=base_url,
        )
    )
    return base_url


@click.command("print")
@click.argument("deck_file", type=click.Path(dir_okay=False))
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False), help="The PDF.")
@click.option(
    "--game", type=click.Choice(ball_counts()), help="Refuse the file unless it is of this game."
)
@print_options
def print_cmd(
    deck_file: str,
    output: str,
    game: str | None,
    template: str | None,
    paper: str,
    lang: str,
    base_url: str | None,
    serials: str | None,
) -> None:
    """Print the cards (or 90-ball strips) of a deck file to a PDF."""
    if Path(output).resolve() == Path(deck_file).resolve():
        raise KitError("-o would overwrite the deck file itself; give a .pdf name")
    deck = load_deck(deck_file)
    if game is not None and int(game) != deck.game:
        raise KitError(
            "%(deck_file)s is a %(game)s-ball deck, not %(asked)s-ball",
            deck_file=deck_file,
            game=deck.game,
            asked=game,
        )
    used = _print_deck(deck, Path(output), template, paper, lang, base_url, serials)
    printed.remember(deck_file, used)


def deck_path_for(pdf: Path) -> Path:
    """party.pdf -> party.deck.json, beside it."""
    stem = pdf.name[:-4] if pdf.name.lower().endswith(".pdf") else pdf.name
    return pdf.with_name(stem + ".deck.json")


@click.command()
@GAME
@click.option("-n", "--cards", "count", type=int, help="How many cards (75 balls).")
@STRIPS
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False), help="The PDF.")
@click.option("--seed", help="Any text; the same seed always gives the same cards.")
@click.option("--free-centre", is_flag=True, help="Print FREE in the centre instead of a number.")
@click.option("--name", default="Bingo", show_default=True, help="The deck's name, on every card.")
@click.option("--force", is_flag=True, help="Replace an existing deck file of the same name.")
@print_options
def generate(
    game: str,
    count: int | None,
    strip_count: int | None,
    output: str,
    seed: str | None,
    free_centre: bool,
    name: str,
    force: bool,
    template: str | None,
    paper: str,
    lang: str,
    base_url: str | None,
    serials: str | None,
) -> None:
    """Make a deck and print it in one step (writes NAME.deck.json beside the PDF)."""
    n = check_counts(game, count, strip_count, free_centre)
    if not name.strip():
        raise click.UsageError("--name must not be empty; it is printed on every card")
    pdf_path = Path(output)
    deck_file = deck_path_for(pdf_path)
    refuse_to_replace(deck_file, force)
    # a template for the other game, or large print that does not fit the paper: before the deck
    fitted_slots(template_named(template, variant_for(int(game))), paper)
    if base_url is not None:
        check_base_url(base_url)
    if serials:
        parse_serials(serials, variant_for(int(game)).tickets_for(n))
    deck = make_deck(game, n, seed, free_centre, name)
    save_deck(deck, deck_file)
    click.echo(cli_line(lang, "wrote_deck", path=deck_file))
    used = _print_deck(deck, pdf_path, template, paper, lang, base_url, serials)
    printed.remember(deck_file, used)


@click.command()
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False), help="The PDF.")
@LANG_OPTION
@click.option("--paper", type=click.Choice(sorted(PAPERS)), default="a4", show_default=True)
@GAME
@click.option(
    "--large-print",
    is_flag=True,
    help="Board and tokens with numbers of 30 pt or more, rules at 18 pt.",
)
def kit(output: str, lang: str, paper: str, game: str, large_print: bool) -> None:
    """Print the Tabla Confrontadora, the tokens (75 or 90) and the rules sheet."""
    pdf = render_kit_pdf(lang=lang, paper=paper, game=int(game), large_print=large_print)
    _write(Path(output), pdf)
    language = cli_line(lang, "language")
    click.echo(cli_line(lang, "wrote_kit", path=output, game=game, language=language, paper=paper))
