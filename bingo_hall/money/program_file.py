"""The program's TOML file read (`parse_program`, `parse_game`): the whole file checked before a
game is played, each problem named with its line. Each table is read as a `toml_table.Table`
whose problems are `ProgramError`s placed by `toml_table.Lines` (tomllib gives no line numbers
for values): the game's `[[game]]` header, then the key inside that game's block.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from ..errors import KitError
from ..prize_plan import PrizePlan
from ..seventyfive.pattern_book import book_entries
from ..seventyfive.patterns import BUILT_IN, Pattern, pattern_from_spec
from ..seventyfive.specials import Specials, SpecialSettingError
from ..toml_table import Lines, Problem, Table, plain
from ..variants import DEFAULT_BALLS, variant_for
from .amounts import LedgerError, parse_cents
from .currency import check_currency
from .prices import Price, parse_price, price_list
from .prize_money import PrizeKind, PrizeRule, rule_from_json
from .program import (
    DRAWS,
    GAME_KEYS,
    MAX_GAMES,
    MAX_INTERVAL,
    MAX_NAME,
    PRIZE_KEYS,
    PROGRAM_KEYS,
    PROGRAM_SPECIAL_KEYS,
    Program,
    ProgramError,
    ProgramGame,
)


def parse_program(
    text: str, source: str = "program.toml", extra_lists: Sequence[PrizePlan] = ()
) -> Program:
    """The program in `text`; `ProgramError` names the line of the first problem.
    `extra_lists` are the host's own 90-ball prize lists the station knows."""
    lines = Lines(text, "game")

    def top(template: str, /, *path: str, **params: Any) -> ProgramError:
        return ProgramError(template, source=source, line=lines.of(None, *path), **params)

    def in_game(index: int) -> Problem:
        def problem(template: str, /, *path: str, **params: Any) -> ProgramError:
            line = lines.of(index, *path)
            return ProgramError(template, source=source, line=line, game=index + 1, **params)

        return problem

    try:
        data = Table.from_json(tomllib.loads(text), top)
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"line (\d+)", str(exc))
        raise ProgramError(
            "not a TOML file (%(error)s)",
            source=source,
            line=int(found.group(1)) if found else 0,
            error=str(exc).split(" (at line")[0],
        ) from None
    data.only(PROGRAM_KEYS)
    name = data.text("name", "Bingo night", most=MAX_NAME)
    names = {"en": name, "es": data.text("name_es", name)}
    currency = None
    if "currency" in data:
        try:
            currency = check_currency(data.value("currency"))
        except LedgerError as exc:
            raise top("%(problem)s", "currency", problem=exc) from None
    lang = data.value("lang")
    if lang is not None and lang not in ("es", "en"):
        raise top("lang is the hall's language: es or en", "lang")
    own = data.table(
        "patterns", wrong="patterns is a table: [patterns.key] with en, es and grid", optional=True
    )
    entries = book_entries(own, taken=BUILT_IN)
    patterns = {e.key: Pattern(e.key, e.forms, e.origins) for e in entries}
    pattern_names = {e.key: e.names for e in entries}
    games = data.tables(
        "game",
        wrong="no games: add at least one [[game]] table",
        item="this game is not a table",
        each=in_game,
    )
    if len(games) > MAX_GAMES:
        raise ProgramError(
            "%(n)s games; a program has at most %(most)s",
            source=source,
            line=lines.of(0),
            n=len(games),
            most=MAX_GAMES,
        )
    return Program(
        names,
        currency,
        tuple(
            _game(entry, number, extra_lists, patterns, pattern_names)
            for number, entry in enumerate(games, start=1)
        ),
        source,
        lang,
    )


def parse_game(spec: Table, number: int, extra_lists: Sequence[PrizePlan] = ()) -> ProgramGame:
    """One game from its settings as stored (a game inserted by the Maestro, or a program's
    game read back from the database)."""

    def problem(template: str, /, *path: str, **params: Any) -> ProgramError:
        return ProgramError(template, game=number, **params)

    # the names of the program's own pattern, kept with its mask (`STORED_NAMES`): read back
    # without the file's [patterns] table, the game still names it
    own = spec.value(STORED_NAMES)
    entry = spec.without(STORED_NAMES).within(problem)
    return _game(entry, number, extra_lists, None, own if isinstance(own, dict) else None)


#: a stored game's key for its own pattern's names (not a key of the program file: the file
#: names its patterns in its [patterns] table, which a game read back from the station has not)
STORED_NAMES = "pattern_names"


def _game(
    entry: Table,
    number: int,
    extra: Sequence[PrizePlan],
    patterns: Mapping[str, Pattern] | None = None,
    pattern_names: Mapping[str, Mapping[str, str]] | None = None,
) -> ProgramGame:
    """One game of the program from its table, whose problems name the game (and its line)."""
    bad = entry.fail
    entry.only(GAME_KEYS)
    name = entry.text("name", most=MAX_NAME)
    name_es = entry.text("name_es", name, most=MAX_NAME)
    balls = entry.value("balls", DEFAULT_BALLS)
    try:
        variant = variant_for(balls)
    except KitError as exc:
        raise bad("balls must be 75 or 90, not %(balls)r", "balls", balls=balls) from exc
    asked = entry.value("prize_list", entry.value("mode"))
    if "prize_list" in entry and "mode" in entry:
        raise bad("give a mode or a prize_list, not both", "prize_list")
    if asked is not None and not isinstance(asked, str):
        raise bad("the mode is a word, such as normal", "mode")
    try:
        plan = variant.plan(asked, extra)
    except KitError as exc:
        where = "prize_list" if "prize_list" in entry else "mode"
        if variant.plans[0].prize_list is None:  # the 75-ball game plays no prize lists
            raise bad("%(problem)s", where, problem=exc) from None
        raise bad(
            "%(problem)s; a list of your own is a file in the station's prizes folder (for "
            "program check and program print, give that folder with --prizes FOLDER)",
            where,
            problem=exc,
        ) from None
    pattern = None
    if "pattern" in entry or "mask" in entry:
        if not plan.plays_patterns:
            raise bad(
                "a pattern is played in a Bingo Normal game of 75-ball cards; this game "
                "plays %(mode)s",
                "pattern",
                mode=plan.mode,
            )
        try:
            pattern = pattern_from_spec(
                entry.value("pattern", "custom"), entry.value("mask"), patterns
            )
        except KitError as exc:
            where = "mask" if entry.value("pattern") == "custom" else "pattern"
            raise bad("%(problem)s", where, problem=exc) from None
    specials = _specials(entry, plan, pattern)
    prices = _prices(entry)
    prizes = _prizes(entry, plan)
    interval = entry.integer("interval", 0, wrong="interval is minutes, a whole number")
    if not 0 <= interval <= MAX_INTERVAL:
        raise bad("interval is 0 to %(most)s minutes", "interval", most=MAX_INTERVAL)
    draw = entry.value("draw", "auto")
    if draw not in DRAWS:
        raise bad("draw is auto (the laptop draws) or manual (balls from a cage)", "draw")
    spec = entry.within(plain, "")
    names = {"en": name, "es": name_es}
    if pattern is not None and pattern.name not in BUILT_IN:  # read back without the table
        spec = spec.with_value("mask", pattern.mask)
    own_names = {}
    if pattern is not None and pattern_names and pattern.name in pattern_names:
        own_names = {pattern.name: pattern_names[pattern.name]}
        spec = spec.with_value(STORED_NAMES, {pattern.name: dict(pattern_names[pattern.name])})
    return ProgramGame(
        number,
        names,
        variant.balls,
        plan,
        pattern,
        prices,
        prizes,
        interval,
        str(draw),
        spec,
        own_names,
        specials,
    )


def _specials(entry: Table, plan: PrizePlan, pattern: Pattern | None) -> Specials:
    """The game's special rules: `wild_number = true`, `odd_even = "odd"` or `"even"`,
    `money_ball = "double"` or `money_ball_bonus = "5.00"`, `cards_needed = 2`."""
    bad = entry.fail
    given = [k for k in PROGRAM_SPECIAL_KEYS if k in entry]
    if not given:
        return Specials()
    if not plan.plays_patterns:
        raise bad(
            "special games are played in a Bingo Normal game of 75-ball cards; this game "
            "plays %(mode)s",
            given[0],
            mode=plan.mode,
        )
    if "money_ball" in entry and "money_ball_bonus" in entry:
        raise bad("the money ball pays double or a bonus: give money_ball or money_ball_bonus, "
                  "not both", "money_ball_bonus")  # fmt: skip
    if "money_ball" in entry and entry.value("money_ball") != "double":
        raise bad('money_ball is "double"; for a bonus, write money_ball_bonus = "5.00"',
                  "money_ball")  # fmt: skip
    settings: dict[str, object] = {
        k: entry.value(k) for k in ("wild_number", "odd_even", "cards_needed") if k in entry
    }
    if "money_ball" in entry:
        settings["money_ball_pays"] = "double"
    if "money_ball_bonus" in entry:
        try:
            cents = parse_cents(_money_text(entry.value("money_ball_bonus")), "prize")
        except LedgerError as exc:
            raise bad("%(problem)s", "money_ball_bonus", problem=exc) from None
        if cents <= 0:
            raise bad("money_ball_bonus is an amount above zero", "money_ball_bonus")
        settings["money_ball_pays"] = f"bonus:{cents}"
    try:
        out = Specials.from_json(settings)
    except SpecialSettingError as exc:
        where = "money_ball_bonus" if exc.key == "money_ball_pays" else exc.key
        raise bad("%(problem)s", where, problem=exc.problem) from None
    if out.odd_even is not None and pattern is not None:
        raise bad("an odd-even game is its own figure: it takes no pattern", "odd_even")
    return out


PRICE_KEYS = ("label", "amount", "book")


def _prices(entry: Table) -> tuple[Price, ...]:
    """The game's price list: `price` (and `book`) for one price, or `prices`, a list of
    `{ label, amount, book }` (the door's price list: a single card, a book of 6...)."""
    bad = entry.fail
    if "prices" in entry and ("price" in entry or "book" in entry):
        raise bad("give price (and book) or prices, not both", "prices")
    if "book" in entry and "price" not in entry:
        raise bad("a book needs its price", "book")
    given: list[tuple[Any, Any, Any]]
    if "price" in entry:
        given = [(entry.value("price"), entry.value("book", 1), "")]
        where = "price"
    elif "prices" in entry:
        wrong = 'prices is a list such as [{ label = "Single", amount = "1" }]'
        # a price's problem is placed by its own key, as a game's are
        listed = [p.within(entry.problem) for p in entry.tables("prices", wrong=wrong, item=wrong)]
        for item in listed:
            item.only(PRICE_KEYS, "a price: unknown setting %(key)r (known: %(known)s)")
        given = [(p.value("amount"), p.value("book", 1), p.value("label", "")) for p in listed]
        where = "prices"
    else:
        return ()
    try:
        return price_list([parse_price(_money_text(a), book, label) for a, book, label in given])
    except LedgerError as exc:
        if where == "price" and "book" in entry and "book" in exc.template:
            where = "book"
        raise bad("price: %(problem)s", where, problem=exc) from None


def _money_text(value: object) -> object:
    """A price or amount as written: text ("1.50") or a whole number of units (20 is 20.00),
    never a float (money is exact)."""
    if isinstance(value, bool) or isinstance(value, float):
        raise LedgerError('write an amount as text, such as "1.50", or a whole number')
    if isinstance(value, int):
        return str(value)
    return value


def _prizes(entry: Table, plan: PrizePlan) -> dict[str, PrizeRule]:
    bad = entry.fail
    wrong = 'prizes is a table, such as prizes = { bingo = "20" }'
    raw = entry.table("prizes", wrong=wrong, optional=True)
    if not raw.keys:
        raise bad(
            "no prizes: add [game.prizes] with what %(prizes)s pay",
            "name",
            prizes=", ".join(plan.prizes),
        )
    out: dict[str, PrizeRule] = {}
    for key in raw:
        if key not in plan.prizes:
            raise bad(
                "this game plays %(prizes)s, not %(prize)s",
                key,
                prizes=", ".join(plan.prizes),
                prize=key,
            )
        value = raw.value(key)
        # a prize written as its amount alone (bingo = "20") reads as { amount = "20" }
        given = value if isinstance(value, Mapping) else {"amount": value}
        out[key] = _prize(key, Table.from_json(given, _of_prize(entry, key)), plan)
    share = sum(r.percent for r in out.values())
    if share > 100:
        raise bad(
            "the prizes share %(pct)s %% of the sales, more than 100 %%", "percent", pct=share
        )
    return out


def _of_prize(entry: Table, key: str) -> Problem:
    """A prize's problem: the game's, placed at the prize's key and naming the prize."""

    def problem(template: str, /, *path: str, **params: Any) -> KitError:
        return entry.fail(template, key, *path, prize=key, **params)

    return problem


def _prize(key: str, value: Table, plan: PrizePlan) -> PrizeRule:
    """A prize's money: an amount, a percent of the sales, or a jackpot within N calls."""
    bad = value.fail
    value.only(PRIZE_KEYS, "prize %(prize)s: unknown setting %(key)r (known: %(known)s)")
    jackpot = "jackpot" in value or "within" in value
    if jackpot and "within" not in value:
        raise bad("prize %(prize)s: a jackpot needs its calls, such as within = 40")
    if jackpot and "jackpot" not in value:
        raise bad('prize %(prize)s: say the jackpot, such as jackpot = "200"', "within")
    if jackpot and key != plan.prizes[-1]:
        raise bad(
            "prize %(prize)s: a jackpot is played on the last prize (%(last)s)",
            "jackpot",
            last=plan.prizes[-1],
        )
    if not jackpot and "amount" in value and "percent" in value:
        raise bad("prize %(prize)s: an amount or a percentage, not both")
    if not jackpot and "amount" not in value and "percent" not in value:
        raise bad("prize %(prize)s: give its amount or its percent")
    if "mode" in value and not jackpot:
        raise bad("prize %(prize)s: only a jackpot has a mode", "mode")
    kind = (
        PrizeKind.JACKPOT
        if jackpot
        else PrizeKind.PERCENT
        if "percent" in value
        else PrizeKind.FIXED
    )
    spec: dict[str, object] = {"kind": str(kind)}
    where = "amount"
    try:
        if "amount" in value:
            spec["amount"] = _money_text(value.value("amount"))
        if "percent" in value:
            where = "percent"
            spec["percent"] = _percent_text(value.value("percent"))
        if jackpot:
            where = "jackpot"
            spec["jackpot"] = _money_text(value.value("jackpot"))
            where = "within"
            spec["within"] = value.value("within")
            where = "mode"
            spec["mode"] = value.value("mode", "instead")
        where = "amount"
        return rule_from_json(spec)
    except LedgerError as exc:
        for part in ("jackpot is won within", "paid instead", "percentage"):
            if part in exc.template:
                where = {"jackpot is won within": "within", "paid instead": "mode"}.get(
                    part, "percent"
                )
        raise bad("prize %(prize)s: %(problem)s", where, problem=exc) from None


def _percent_text(value: object) -> object:
    if isinstance(value, float) and value == int(value):
        return int(value)
    if isinstance(value, float):
        return format(Decimal(str(value)), "f")
    return value
