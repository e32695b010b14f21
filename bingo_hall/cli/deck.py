"""`bingo-hall deck`: make a deck file whose lines never repeat, or check one.

`--game 75` (the default) makes 1933 cards; `--game 90` makes strips of six 90-ball tickets.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from ..errors import KitError
from ..manifest import Deck, load_deck, new_variant_deck, save_deck
from ..ninety.strips import MAX_STRIPS
from ..seventyfive.deck import check_card_count
from ..variants import ByVariant, Cards75, Strips90, ball_counts, variant_for
from .speech import speech

GAME = click.option(
    "--game",
    type=click.Choice(ball_counts()),
    default="75",
    show_default=True,
    help="75 balls (5x5 cards) or 90 balls (strips of 6 tickets).",
)
STRIPS = click.option(
    "--strips", "strip_count", type=int, help=f"90 balls: how many strips (at most {MAX_STRIPS})."
)


def _card_count(count: int | None, strip_count: int | None, free_centre: bool) -> int:
    if strip_count is not None:
        raise click.UsageError("--strips is for 90-ball decks; add --game 90")
    if count is None:
        raise click.UsageError(f"give {Cards75.count_option} N")
    return check_card_count(count, free_centre, option=Cards75.count_option)


def refuse_to_replace(deck_file: Path, force: bool) -> None:
    """A deck file is the only key to its printed cards: replacing it by accident makes every
    printed QR fail, so an existing file is kept unless the host adds --force."""
    if deck_file.exists() and not force:
        raise KitError(
            "%(deck_file)s already exists; its printed cards would stop verifying if it were "
            "replaced. Choose another -o or add --force",
            deck_file=deck_file,
        )


def _strip_count(count: int | None, strip_count: int | None, free_centre: bool) -> int:
    if count is not None or free_centre:
        option = "--cards" if count is not None else "--free-centre"
        raise click.UsageError(f"{option} is for 75-ball cards; 90-ball decks take --strips N")
    if strip_count is None:
        raise click.UsageError(
            f"give {Strips90.count_option} N (6 tickets each) for a 90-ball deck"
        )
    if not 1 <= strip_count <= MAX_STRIPS:
        raise click.UsageError(f"--strips must be from 1 to {MAX_STRIPS}, not {strip_count}")
    return strip_count


#: how each variant (by its class) is counted on the command line (`Variant.count_option`)
COUNTS: ByVariant[Callable[[int | None, int | None, bool], int]] = ByVariant(
    "deck_cli.COUNTS", {Cards75: _card_count, Strips90: _strip_count}
)


def check_counts(game: str, count: int | None, strip_count: int | None, free_centre: bool) -> int:
    """The number of cards (75) or strips (90) asked for, or a UsageError naming the option."""
    return COUNTS[variant_for(int(game))](count, strip_count, free_centre)


def make_deck(
    game: str,
    count: int,
    seed: str | None,
    free_centre: bool,
    name: str,
    progress: Callable[[int], None] | None = None,
) -> Deck[Any]:
    """A new deck of the `--game` option's variant: `count` cards, or strips."""
    return new_variant_deck(variant_for(int(game)), count, seed, free_centre, name, progress)


@click.command()
@GAME
@click.option(
    "--cards",
    "-n",
    "count",
    type=int,
    help="How many cards: at most 3003, or 1365 with --free-centre.",
)
@STRIPS
@click.option("--seed", help="Any text; the same seed always gives the same cards.")
@click.option("--free-centre", is_flag=True, help="Print FREE in the centre instead of a number.")
@click.option(
    "--name", default="Bingo", show_default=True, help="The deck's name, printed on cards."
)
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Where to write .deck.json.")
@click.option("--force", is_flag=True, help="Replace an existing deck file of the same name.")
@click.option(
    "--check",
    "check_path",
    type=click.Path(dir_okay=False),
    help="Validate a deck file instead of making one.",
)
@click.option(
    "--lang",
    type=click.Choice(["es", "en"]),
    default=None,
    help="Language of its lines (default: the environment's, LANG=es_AR is Spanish).",
)
def deck(
    game: str,
    count: int | None,
    strip_count: int | None,
    seed: str | None,
    free_centre: bool,
    name: str,
    output: str | None,
    force: bool,
    check_path: str | None,
    lang: str | None,
) -> None:
    """Make a deck whose every line is unique (rows, columns, diagonals; 90 balls: rows), or
    --check one."""
    say = speech(lang).say
    if check_path:
        d = load_deck(check_path)
        click.echo(
            say(
                f"%(path)s: OK, {d.variant.deck_word} %(name)r (%(id)s), ",  # deck, 90-ball deck
                path=check_path,
                name=d.name,
                id=d.deck_id,
            )
            + check_summary(d, say)
        )
        return
    if count is None and strip_count is None:
        raise click.UsageError("give --cards N, --game 90 --strips N, or --check FILE")
    n = check_counts(game, count, strip_count, free_centre)
    if not output:
        raise click.UsageError("give -o FILE.deck.json")
    refuse_to_replace(Path(output), force)
    if n >= 1000 and sys.stderr.isatty():
        label = say("Making strips") if strip_count is not None else say("Making cards")
        with click.progressbar(length=n, label=label, file=sys.stderr) as bar:
            d = make_deck(game, n, seed, free_centre, name, progress=bar.update)
    else:
        d = make_deck(game, n, seed, free_centre, name)
    path = save_deck(d, output)
    click.echo(
        say("wrote %(path)s: deck %(name)r (%(id)s), ", path=path, name=d.name, id=d.deck_id)
        + count_words(d, say)
    )


def count_words(d: Deck[Any], say: Callable[..., str]) -> str:
    """ "40 cards", "3 strips (18 tickets)", in the command's language."""
    n = len(d.cards)
    if strips := len(d.variant.strips(d.cards)):
        return say("%(strips)s strips (%(n)s tickets)", strips=strips, n=n)
    return say("%(n)s cards", n=n)


def check_summary(d: Deck[Any], say: Callable[..., str]) -> str:
    """What `--check` says of a sound deck, after "OK, ...": its size and its unique lines."""
    n = len(d.cards)
    if strips := len(d.variant.strips(d.cards)):
        return say(
            "%(strips)s strips, %(n)s tickets, %(rows)s unique rows",
            strips=strips,
            n=n,
            rows=3 * n,
        )
    if d.free_centre:
        return say("%(n)s cards, FREE centre, %(lines)s unique lines", n=n, lines=12 * n)
    return say("%(n)s cards, numbered centre, %(lines)s unique lines", n=n, lines=12 * n)
