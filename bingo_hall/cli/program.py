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
from ..money.program import Program, ProgramGame
from ..money.program_file import parse_program
from ..money.program_words import figure_name, price_text, prize_name, prize_text
from ..odds import odds_for
from ..prize_plan import PrizePlan
from ..seventyfive.patterns import Pattern
from ..seventyfive.specials import odd_even_form, rule_lines
from .speech import Speech, speech


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


_lang_option = click.option(
    "--lang",
    type=click.Choice(["es", "en"]),
    default=None,
    help="Language of its lines (default: the environment's, LANG=es_AR is Spanish).",
)

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
@_lang_option
def check(
    path: str, prizes: str | None, decks: tuple[str, ...], sold: int | None, lang: str | None
) -> None:
    """Check a program file; say what each game plays and the odds of its main prize."""
    from ..manifest import load_deck

    prog = read_program(path, prizes)
    words = speech(lang or prog.lang)  # --lang, else the hall's (the file's), else LANG's
    loaded = [load_deck(d) for d in decks]
    currency = prog.currency or "EUR"
    click.echo(
        words.say(
            "%(file)s: OK, %(n)s games (%(name)s)",
            file=Path(path).name,
            n=len(prog.games),
            name=prog.name(words.lang),
        )
    )
    for game in prog.games:
        click.echo(f"{game.number:>3}. {game.name(words.lang)}: {describe(game, currency, words)}")
        click.echo(f"     {odds_line(game, loaded, sold, words)}")


def describe(game: ProgramGame, currency: str, words: Speech) -> str:
    lang = words.lang
    parts = [words.say("%(n)s balls", n=game.balls), figure_name(game, lang)]
    parts += [line.words(lang) for line in rule_lines(game.specials)]
    if game.prices:
        parts.append(price_text(game, currency, lang))
    for key, rule in game.prizes.items():
        parts.append(f"{prize_name(game, key, lang)} {prize_text(rule, currency, lang)}")
    if game.interval:
        parts.append(words.say("then a %(n)s min interval", n=game.interval))
    return "; ".join(parts)


def odds_line(game: ProgramGame, decks: list[Any], sold: int | None, words: Speech) -> str:
    """ "odds: with 68 cards sold, a full house within 40 calls about 1 night in 12 (8.10 %);
    the first full house is expected near call 19 (10000 nights simulated)"; in Spanish "...,
    Cartón lleno en 40 bolas o menos: aproximadamente 1 noche de cada 12 (8,10 %)...", the
    name as it is (no article or agreement to get wrong)."""
    variant = game.variant
    deck = next((d for d in decks if d.variant is variant), None)
    if deck is not None:
        tickets = list(deck.cards[: sold or len(deck.cards)])
        free = deck.free_centre
        whose = words.say(
            f"with %(n)s {variant.ticket_word[1]} sold",  # "cards", "tickets": two msgids
            n=len(tickets),
        )
    else:
        tickets = list(variant.generate(variant.tickets_for(sold or 100), None, False, None))
        tickets = tickets[: sold or 100]
        free = False
        whose = words.say(
            f"with %(n)s {variant.ticket_word[1]} (a deck made for the estimate)",
            n=len(tickets),
        )
    prize = game.main_prize
    if game.specials.wild_number or game.specials.cards_needed > 1:
        # the figure a card needs then hangs on the first ball, or on its book's other cards
        return words.say("odds: not worked out for a wild number or a pattern on several cards")
    parity = game.specials.odd_even
    needs = [
        variant.needs(t, game.plan, prize, game.pattern if parity is None else
                      Pattern("odd_even", (odd_even_form(t, parity, free),)), free)
        for t in tickets
    ]  # fmt: skip
    odds = odds_for(needs, variant.balls)
    if odds.exact:  # few numbers in play (one card, a small pattern): counted, not simulated
        basis = words.say("counted exactly")
    else:
        basis = words.say("%(nights)s nights simulated", nights=odds.nights)
    name = prize_name(game, prize, words.lang)
    italian = game.plan.prize_list is not None and game.plan.prize_list.tabellone
    if words.lang == "en" and not italian:  # "a full house within 40 calls"; Tombola is a name
        name = name.lower()
    rule = game.prizes.get(prize)
    if rule is None or not rule.within:
        return words.say(
            "odds: %(whose)s, the first %(prize)s is expected near call %(call)s (%(basis)s)",
            whose=whose,
            prize=name,
            call=round(odds.expected_call),
            basis=basis,
        )
    one_in = odds.one_in(rule.within)
    if one_in is None and odds.exact:
        return words.say(
            "odds: %(whose)s, a %(prize)s within %(calls)s calls cannot happen; the first "
            "%(prize)s is expected near call %(call)s (%(basis)s)",
            whose=whose,
            prize=name,
            calls=rule.within,
            call=round(odds.expected_call),
            basis=basis,
        )
    if one_in is None:
        return words.say(
            "odds: %(whose)s, a %(prize)s within %(calls)s calls did not happen in any night "
            "simulated; the first %(prize)s is expected near call %(call)s (%(basis)s)",
            whose=whose,
            prize=name,
            calls=rule.within,
            call=round(odds.expected_call),
            basis=basis,
        )
    return words.say(
        "odds: %(whose)s, a %(prize)s within %(calls)s calls about 1 night in %(x)s "
        "(%(pct)s %%); the first %(prize)s is expected near call %(call)s (%(basis)s)",
        whose=whose,
        prize=name,
        calls=rule.within,
        x=round(one_in),
        pct=words.number(100 * odds.chance_within(rule.within), 2),
        call=round(odds.expected_call),
        basis=basis,
    )


@program.command(name="print")
@click.argument("path", type=click.Path(dir_okay=False, exists=True))
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False))
@click.option(
    "--lang",
    type=click.Choice(["es", "en"]),
    default=None,
    help="Language of the program and of its lines (default: the environment's, else Spanish).",
)
@click.option(
    "--large",
    is_flag=True,
    help="Large print: every text at least 18 pt and bigger figures, for players who see poorly.",
)
@_prizes_option
def print_cmd(path: str, output: str, lang: str | None, prizes: str | None, large: bool) -> None:
    """Print the players' program (PDF): each game's number, pattern, price and prizes."""
    from ..printing.program_pdf import render_program_pdf

    prog = read_program(path, prizes)
    words = speech(lang or prog.lang, default="es")  # --lang, the file's, LANG's, else es
    lang = words.lang
    data = render_program_pdf(prog, lang, large=large)
    try:
        Path(output).write_bytes(data)
    except OSError as exc:
        raise KitError(
            "cannot write %(path)s (%(kind)s)", path=output, kind=exc.__class__.__name__
        ) from None
    click.echo(
        words.say(
            "%(path)s: the program of %(n)s games (%(language)s)",
            path=output,
            n=len(prog.games),
            language=("English" if lang == "en" else "español")
            + (words.say(", large print") if large else ""),
        )
    )
