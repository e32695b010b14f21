"""`bingo-hall deck`: make a line-unique deck file, or check one."""

from __future__ import annotations

import sys

import click

from .deck import check_card_count
from .manifest import load_deck, new_deck, save_deck


@click.command()
@click.option(
    "--cards",
    "-n",
    "count",
    type=int,
    help="How many cards: at most 3003, or 1365 with --free-centre.",
)
@click.option("--seed", help="Any text; the same seed always gives the same cards.")
@click.option("--free-centre", is_flag=True, help="Print FREE in the centre instead of a number.")
@click.option(
    "--name", default="Bingo", show_default=True, help="The deck's name, printed on cards."
)
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Where to write .deck.json.")
@click.option(
    "--check",
    "check_path",
    type=click.Path(dir_okay=False),
    help="Validate a deck file instead of making one.",
)
def deck(count, seed, free_centre, name, output, check_path) -> None:
    """Make a deck whose every row, column and diagonal is unique, or --check one."""
    if check_path:
        d = load_deck(check_path)
        centre = "FREE centre" if d.free_centre else "numbered centre"
        click.echo(
            f"{check_path}: OK, deck {d.name!r} ({d.deck_id}), {len(d.cards)} cards, {centre}, "
            f"{12 * len(d.cards)} unique lines"
        )
        return
    if count is None:
        raise click.UsageError("give --cards N (or --check FILE)")
    if not output:
        raise click.UsageError("give -o FILE.deck.json")
    check_card_count(count, free_centre, option="--cards")
    if count >= 1000 and sys.stderr.isatty():
        with click.progressbar(length=count, label="Making cards", file=sys.stderr) as bar:
            d = new_deck(count, seed=seed, free_centre=free_centre, name=name, progress=bar.update)
    else:
        d = new_deck(count, seed=seed, free_centre=free_centre, name=name)
    path = save_deck(d, output)
    click.echo(f"wrote {path}: deck {d.name!r} ({d.deck_id}), {len(d.cards)} cards")
