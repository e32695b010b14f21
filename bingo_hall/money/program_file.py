"""The program's TOML file read (`parse_program`, `parse_game`): the whole file checked before a
game is played, each problem named with its line. tomllib gives no line numbers for values, so
`_Lines` finds the line of a game's key in the text (the game's `[[game]]` header, then the key
inside that game's block).

One idea in one module, though it is over 450 lines: each key of a game (prices, prizes, pattern,
special rules) is checked here the same way, with its line, so a host's file is refused whole.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from typing import Any

from ..errors import KitError
from ..prize_plan import PrizePlan
from ..seventyfive.pattern_book import book_entries
from ..seventyfive.patterns import BUILT_IN, Pattern, pattern_from_spec
from ..seventyfive.specials import Specials, SpecialSettingError
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


class _Lines:
    """Where things are in the file's text: the `[[game]]` headers, and a key in a game."""

    HEADER = re.compile(r"^\s*\[\[\s*game\s*\]\]")
    TABLE = re.compile(r"^\s*\[([^\[\]]+)\]\s*(#.*)?$")

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.games = [i + 1 for i, line in enumerate(self.lines) if self.HEADER.match(line)]

    def block(self, index: int) -> range:
        start = self.games[index] if index < len(self.games) else 1
        end = self.games[index + 1] if index + 1 < len(self.games) else len(self.lines) + 1
        return range(start, end)

    def of(self, index: int | None, *path: str) -> int:
        """The line of `path` (a key, or a prize's key then its setting) in game `index`
        (None: the file's top); the game's header if the key is not written out."""
        if index is None:
            lines = range(1, (self.games[0] if self.games else len(self.lines) + 1))
        else:
            lines = self.block(index)
        best = lines.start if index is not None else 0
        for depth in range(len(path), 0, -1):
            key = re.escape(path[depth - 1])
            pattern = re.compile(rf'^\s*(?:[\w.-]+\.)?"?{key}"?\s*=|^\s*\[[^\]]*\b{key}\s*\]')
            for number in lines:
                if pattern.search(self.lines[number - 1]):
                    return number
        return best


def parse_program(
    text: str, source: str = "program.toml", extra_lists: Sequence[PrizePlan] = ()
) -> Program:
    """The program in `text`; `ProgramError` names the line of the first problem.
    `extra_lists` are the host's own 90-ball prize lists the station knows."""
    lines = _Lines(text)

    def fail(template: str, index: int | None, *path: str, **params: Any) -> ProgramError:
        line = lines.of(index, *path)
        return ProgramError(template, source=source, line=line, **params)

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"line (\d+)", str(exc))
        raise ProgramError(
            "not a TOML file (%(error)s)",
            source=source,
            line=int(found.group(1)) if found else 0,
            error=str(exc).split(" (at line")[0],
        ) from None
    unknown = sorted(set(data) - set(PROGRAM_KEYS))
    if unknown:
        raise fail(
            "unknown setting %(key)r (known: %(known)s)",
            None,
            unknown[0],
            key=unknown[0],
            known=", ".join(PROGRAM_KEYS),
        )
    name = _text(data.get("name", "Bingo night"), "name", lambda t, **p: fail(t, None, "name", **p))
    names = {"en": name, "es": data.get("name_es", name)}
    currency = None
    if "currency" in data:
        try:
            currency = check_currency(data["currency"])
        except LedgerError as exc:
            raise fail("%(problem)s", None, "currency", problem=exc) from None
    lang = data.get("lang")
    if lang is not None and lang not in ("es", "en"):
        raise fail("lang is the hall's language: es or en", None, "lang")
    own = data.get("patterns", {})
    if not isinstance(own, dict):
        raise fail("patterns is a table: [patterns.key] with en, es and grid", None, "patterns")
    try:
        entries = book_entries(own, source, taken=BUILT_IN)
    except KitError as exc:  # "<source>: pattern <key>: <problem>": said here with its line
        key = str(exc.params.get("key", ""))
        raise fail(
            "pattern %(key)s: %(problem)s",
            None,
            "patterns",
            key,
            key=key,
            problem=exc.params.get("problem", exc),
        ) from None
    patterns = {e.key: Pattern(e.key, e.forms, e.origins) for e in entries}
    pattern_names = {e.key: e.names for e in entries}
    raw = data.get("game")
    if not isinstance(raw, list) or not raw:
        raise fail("no games: add at least one [[game]] table", None)
    if len(raw) > MAX_GAMES:
        raise fail("%(n)s games; a program has at most %(most)s", 0, n=len(raw), most=MAX_GAMES)
    games = tuple(
        _game(entry, number, extra_lists, fail, patterns, pattern_names)
        for number, entry in enumerate(raw, start=1)
    )
    return Program(names, currency, games, source, lang)


def parse_game(
    spec: Mapping[str, Any], number: int, extra_lists: Sequence[PrizePlan] = ()
) -> ProgramGame:
    """One game from its settings as stored (a game inserted by the Maestro, or a program's
    game read back from the database)."""

    def fail(template: str, index: int | None, *path: str, **params: Any) -> ProgramError:
        return ProgramError(template, **params)

    entry = dict(spec)
    # the names of the program's own pattern, kept with its mask (`STORED_NAMES`): read back
    # without the file's [patterns] table, the game still names it
    own = entry.pop(STORED_NAMES, None)
    return _game(entry, number, extra_lists, fail, None, own if isinstance(own, dict) else None)


Fail = Callable[..., ProgramError]
#: a stored game's key for its own pattern's names (not a key of the program file: the file
#: names its patterns in its [patterns] table, which a game read back from the station has not)
STORED_NAMES = "pattern_names"


def _game(
    entry: Any,
    number: int,
    extra: Sequence[PrizePlan],
    fail: Fail,
    patterns: Mapping[str, Pattern] | None = None,
    pattern_names: Mapping[str, Mapping[str, str]] | None = None,
) -> ProgramGame:
    index = number - 1
    if not isinstance(entry, dict):
        raise fail("this game is not a table", index, game=number)

    def bad(template: str, *path: str, **params: Any) -> ProgramError:
        return fail(template, index, *path, game=number, **params)

    unknown = sorted(set(entry) - set(GAME_KEYS))
    if unknown:
        raise bad(
            "unknown setting %(key)r (known: %(known)s)",
            unknown[0],
            key=unknown[0],
            known=", ".join(GAME_KEYS),
        )
    name = _text(entry.get("name"), "name", lambda t, **p: bad(t, "name", **p))
    name_es = _text(entry.get("name_es", name), "name_es", lambda t, **p: bad(t, "name_es", **p))
    balls = entry.get("balls", DEFAULT_BALLS)
    try:
        variant = variant_for(balls)
    except KitError as exc:
        raise bad("balls must be 75 or 90, not %(balls)r", "balls", balls=balls) from exc
    asked = entry.get("prize_list", entry.get("mode"))
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
            pattern = pattern_from_spec(entry.get("pattern", "custom"), entry.get("mask"), patterns)
        except KitError as exc:
            where = "mask" if entry.get("pattern") == "custom" else "pattern"
            raise bad("%(problem)s", where, problem=exc) from None
    specials = _specials(entry, plan, pattern, bad)
    prices = _prices(entry, bad)
    prizes = _prizes(entry.get("prizes"), plan, bad)
    interval = entry.get("interval", 0)
    if isinstance(interval, bool) or not isinstance(interval, int):
        raise bad("interval is minutes, a whole number", "interval")
    if not 0 <= interval <= MAX_INTERVAL:
        raise bad("interval is 0 to %(most)s minutes", "interval", most=MAX_INTERVAL)
    draw = entry.get("draw", "auto")
    if draw not in DRAWS:
        raise bad("draw is auto (the laptop draws) or manual (balls from a cage)", "draw")
    spec = {k: v for k, v in entry.items()}
    names = {"en": name, "es": name_es}
    if pattern is not None and pattern.name not in BUILT_IN:  # read back without the table
        spec["mask"] = pattern.mask
    own_names = {}
    if pattern is not None and pattern_names and pattern.name in pattern_names:
        own_names = {pattern.name: pattern_names[pattern.name]}
        spec[STORED_NAMES] = {pattern.name: dict(pattern_names[pattern.name])}
    return ProgramGame(
        number,
        names,
        balls,
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


def _specials(
    entry: Mapping[str, Any],
    plan: PrizePlan,
    pattern: Pattern | None,
    bad: Callable[..., ProgramError],
) -> Specials:
    """The game's special rules: `wild_number = true`, `odd_even = "odd"` or `"even"`,
    `money_ball = "double"` or `money_ball_bonus = "5.00"`, `cards_needed = 2`."""
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
    if "money_ball" in entry and entry["money_ball"] != "double":
        raise bad('money_ball is "double"; for a bonus, write money_ball_bonus = "5.00"',
                  "money_ball")  # fmt: skip
    settings: dict[str, object] = {
        k: entry[k] for k in ("wild_number", "odd_even", "cards_needed") if k in entry
    }
    if "money_ball" in entry:
        settings["money_ball_pays"] = "double"
    if "money_ball_bonus" in entry:
        try:
            cents = parse_cents(_money_text(entry["money_ball_bonus"]), "prize")
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


def _prices(entry: Mapping[str, Any], bad: Callable[..., ProgramError]) -> tuple[Price, ...]:
    """The game's price list: `price` (and `book`) for one price, or `prices`, a list of
    `{ label, amount, book }` (the door's price list: a single card, a book of 6...)."""
    if "prices" in entry and ("price" in entry or "book" in entry):
        raise bad("give price (and book) or prices, not both", "prices")
    if "book" in entry and "price" not in entry:
        raise bad("a book needs its price", "book")
    given: list[tuple[Any, Any, Any]]
    if "price" in entry:
        given = [(entry["price"], entry.get("book", 1), "")]
        where = "price"
    elif "prices" in entry:
        raw = entry["prices"]
        if not isinstance(raw, list) or not raw or not all(isinstance(p, dict) for p in raw):
            raise bad('prices is a list such as [{ label = "Single", amount = "1" }]', "prices")
        for item in raw:
            unknown = sorted(set(item) - set(PRICE_KEYS))
            if unknown:
                raise bad(
                    "a price: unknown setting %(key)r (known: %(known)s)",
                    unknown[0],
                    key=unknown[0],
                    known=", ".join(PRICE_KEYS),
                )
        given = [(p.get("amount"), p.get("book", 1), p.get("label", "")) for p in raw]
        where = "prices"
    else:
        return ()
    try:
        return price_list([parse_price(_money_text(a), book, label) for a, book, label in given])
    except LedgerError as exc:
        if where == "price" and "book" in entry and "book" in exc.template:
            where = "book"
        raise bad("price: %(problem)s", where, problem=exc) from None


def _money_text(value: Any) -> Any:
    """A price or amount as written: text ("1.50") or a whole number of units (20 is 20.00),
    never a float (money is exact)."""
    if isinstance(value, bool) or isinstance(value, float):
        raise LedgerError('write an amount as text, such as "1.50", or a whole number')
    if isinstance(value, int):
        return str(value)
    return value


def _prizes(raw: Any, plan: PrizePlan, bad: Callable[..., ProgramError]) -> dict[str, PrizeRule]:
    if raw is None or (isinstance(raw, dict) and not raw):
        raise bad(
            "no prizes: add [game.prizes] with what %(prizes)s pay",
            "name",
            prizes=", ".join(plan.prizes),
        )
    if not isinstance(raw, dict):
        raise bad('prizes is a table, such as prizes = { bingo = "20" }', "prizes")
    out: dict[str, PrizeRule] = {}
    for key, value in raw.items():
        if key not in plan.prizes:
            raise bad(
                "this game plays %(prizes)s, not %(prize)s",
                key,
                prizes=", ".join(plan.prizes),
                prize=key,
            )
        out[key] = _prize(key, value, plan, bad)
    share = sum(r.percent for r in out.values())
    if share > 100:
        raise bad(
            "the prizes share %(pct)s %% of the sales, more than 100 %%", "percent", pct=share
        )
    return out


def _prize(key: str, value: Any, plan: PrizePlan, bad: Callable[..., ProgramError]) -> PrizeRule:
    if not isinstance(value, dict):
        value = {"amount": value}
    unknown = sorted(set(value) - set(PRIZE_KEYS))
    if unknown:
        raise bad(
            "prize %(prize)s: unknown setting %(key)r (known: %(known)s)",
            key,
            unknown[0],
            prize=key,
            key=unknown[0],
            known=", ".join(PRIZE_KEYS),
        )
    jackpot = "jackpot" in value or "within" in value
    if jackpot and "within" not in value:
        raise bad("prize %(prize)s: a jackpot needs its calls, such as within = 40", key, prize=key)
    if jackpot and "jackpot" not in value:
        raise bad(
            'prize %(prize)s: say the jackpot, such as jackpot = "200"', key, "within", prize=key
        )
    if jackpot and key != plan.prizes[-1]:
        raise bad(
            "prize %(prize)s: a jackpot is played on the last prize (%(last)s)",
            key,
            "jackpot",
            prize=key,
            last=plan.prizes[-1],
        )
    if not jackpot and "amount" in value and "percent" in value:
        raise bad("prize %(prize)s: an amount or a percentage, not both", key, prize=key)
    if not jackpot and "amount" not in value and "percent" not in value:
        raise bad("prize %(prize)s: give its amount or its percent", key, prize=key)
    if "mode" in value and not jackpot:
        raise bad("prize %(prize)s: only a jackpot has a mode", key, "mode", prize=key)
    kind = (
        PrizeKind.JACKPOT
        if jackpot
        else PrizeKind.PERCENT
        if "percent" in value
        else PrizeKind.FIXED
    )
    spec: dict[str, Any] = {"kind": str(kind)}
    where = "amount"
    try:
        if "amount" in value:
            spec["amount"] = _money_text(value["amount"])
        if "percent" in value:
            where = "percent"
            spec["percent"] = _percent_text(value["percent"])
        if jackpot:
            where = "jackpot"
            spec["jackpot"] = _money_text(value["jackpot"])
            where = "within"
            spec["within"] = value["within"]
            where = "mode"
            spec["mode"] = value.get("mode", "instead")
        where = "amount"
        return rule_from_json(spec)
    except LedgerError as exc:
        for part in ("jackpot is won within", "paid instead", "percentage"):
            if part in exc.template:
                where = {"jackpot is won within": "within", "paid instead": "mode"}.get(
                    part, "percent"
                )
        raise bad("prize %(prize)s: %(problem)s", key, where, prize=key, problem=exc) from None


def _percent_text(value: Any) -> Any:
    if isinstance(value, float) and value == int(value):
        return int(value)
    if isinstance(value, float):
        return format(Decimal(str(value)), "f")
    return value


def _text(value: Any, what: str, fail: Callable[..., ProgramError]) -> str:
    if not isinstance(value, str) or not value.strip():
        raise fail("%(what)s must be a non-empty text", what=what)
    if len(value.strip()) > MAX_NAME:
        raise fail("%(what)s is longer than %(n)s characters", what=what, n=MAX_NAME)
    return value.strip()
