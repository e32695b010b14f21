"""`bingo-hall program check|print`: a night's program file (docs/program.md).

`check` reads the whole file and says, game by game, what will be played, with the odds of each
game's main prize (`bingo_hall.odds`) for the cards of `--deck` (its first `--sold`), or for a
deck made for the estimate; a file that cannot be played is one line naming the line, exit 2.
`print` writes the players' program (PDF, Spanish or English).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from ..errors import KitError
from ..machine.paths import read_text_file
from ..money.program import (
    Program,
    ProgramGame,
    figure_name,
    parse_program,
    price_text,
    prize_name,
    prize_text,
)
from ..odds import estimate
from ..variants import PrizePlan


def read_program(path: str, prizes: str | None) -> Program:
    """The program in the file at `path`, checked against the kit's prize lists and the host's
    own in the folder `prizes` (the station's `prizes/` folder)."""
    extra: tuple[PrizePlan, ...] = ()
    if prizes:
        from ..station.prize_lists import load_prize_lists

        extra = tuple(PrizePlan.of(p) for p in load_prize_lists(Path(prizes)))
    text = read_text_file(path)
    return parse_program(text, Path(path).name, extra)


@click.group()
def program() -> None:
    """A night's program: the games in order, with their patterns, prices and prizes."""


_prizes_option = click.option(
    "--prizes",
    "prizes",
    default=None,
    type=click.Path(file_okay=False, exists=True),
    help="Folder of the host's own 90-ball prize lists (the station's prizes/ folder).",
)


@program.command()
@click.argument("path", type=click.Path(dir_okay=False, exists=True))
@_prizes_option
@click.option(
    "--deck",
    "decks",
    multiple=True,
    type=click.Path(dir_okay=False, exists=True),
    help="Deck file(s) to estimate the odds with (one per kind of game).",
)
@click.option(
    "--sold",
    default=None,
    type=click.IntRange(1, 24000),
    help="Cards sold: the deck's first N (default: the whole deck, or 100 of a deck made for "
    "the estimate).",
)
def check(path: str, prizes: str | None, decks: tuple[str, ...], sold: int | None) -> None:
    """Check a program file; say what each game plays and the odds of its main prize."""
    from ..manifest import load_deck

    prog = read_program(path, prizes)
    loaded = [load_deck(d) for d in decks]
    currency = prog.currency or "EUR"
    click.echo(f"{Path(path).name}: OK, {len(prog.games)} games ({prog.name('en')})")
    for game in prog.games:
        click.echo(f"{game.number:>3}. {game.name('en')}: {describe(game, currency)}")
        click.echo(f"     {odds_line(game, loaded, sold)}")


def describe(game: ProgramGame, currency: str) -> str:
    parts = [f"{game.balls} balls", figure_name(game, "en")]
    if game.prices:
        parts.append(price_text(game, currency, "en"))
    for key, rule in game.prizes.items():
        parts.append(f"{prize_name(game, key, 'en')} {prize_text(rule, currency, 'en')}")
    if game.interval:
        parts.append(f"then a {game.interval} min interval")
    return "; ".join(parts)


def odds_line(game: ProgramGame, decks: list[Any], sold: int | None) -> str:
    """ "with 68 cards sold, a full house within 40 calls about 1 night in 12; the first bingo
    is expected near call 19"."""
    variant = game.variant
    deck = next((d for d in decks if d.variant is variant), None)
    if deck is not None:
        tickets = list(deck.cards[: sold or len(deck.cards)])
        free = deck.free_centre
        whose = f"with {len(tickets)} {variant.ticket_word[1]} sold"
    else:
        tickets = list(variant.generate(variant.tickets_for(sold or 100), None, False, None))
        tickets = tickets[: sold or 100]
        free = False
        whose = f"with {len(tickets)} {variant.ticket_word[1]} (a deck made for the estimate)"
    prize = game.main_prize
    needs = [variant.needs(t, game.plan, prize, game.pattern, free) for t in tickets]
    odds = estimate(needs, variant.balls)
    name = prize_name(game, prize, "en").lower()
    expected = f"the first {name} is expected near call {round(odds.expected_call)}"
    rule = game.prizes.get(prize)
    if rule is None or not rule.within:
        return f"odds: {whose}, {expected} ({odds.nights} nights simulated)"
    one_in = odds.one_in(rule.within)
    chance = (
        "did not happen in any night simulated"
        if one_in is None
        else f"about 1 night in {round(one_in)} ({100 * odds.chance_within(rule.within):.2f} %)"
    )
    return (
        f"odds: {whose}, a {name} within {rule.within} calls {chance}; {expected} "
        f"({odds.nights} nights simulated)"
    )


@program.command(name="print")
@click.argument("path", type=click.Path(dir_okay=False, exists=True))
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False))
@click.option("--lang", type=click.Choice(["es", "en"]), default="es", show_default=True)
@click.option(
    "--large",
    is_flag=True,
    help="Large print: every text at least 18 pt and bigger figures, for players who see poorly.",
)
@_prizes_option
def print_cmd(path: str, output: str, lang: str, prizes: str | None, large: bool) -> None:
    """Print the players' program (PDF): each game's number, pattern, price and prizes."""
    from ..printing.program_pdf import render_program_pdf

    prog = read_program(path, prizes)
    data = render_program_pdf(prog, lang, large=large)
    try:
        Path(output).write_bytes(data)
    except OSError as exc:
        raise KitError(
            "cannot write %(path)s (%(kind)s)", path=output, kind=exc.__class__.__name__
        ) from None
    form = ", large print" if large else ""
    click.echo(f"{output}: the program of {len(prog.games)} games ({lang}{form})")
