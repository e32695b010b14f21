"""What a card's or a ticket's QR page shows and what it follows the game with, read once.

The page (`static/card.js`) draws itself first from the station's HTML, then follows the game from
the events: a call, an undo, a new round, a claim, the scores or the prize reach it as data and it
marks its own card. It reads its card's numbers from the card's table (drawn once by the station)
and needs to know, as data, the game's rules, the same for every card of the game:

* 75 balls: the figures the game is played for (the 12 lines or the pattern's squares, from
  `seventyfive.claims.figures`), whether the centre is FREE, the squares a false claim's penalty
  uncovered (with the call count before which a ball no longer covers them, as
  `claims.Penalty`), and the hall rule on the completing call;
* 90 balls: each prize of the game's list (`bingo_hall.ninety.prize_rules`) as a rule of rows
  (a line, the full house), cells (the corners), a count of one row's numbers (ambo) or of any
  numbers (Early Five), whether the prizes are open at once (Tambola), and who won what.

`game_card_facts` and `game_ticket_facts` give that data for every card of a game at once (the
page's `#card-state` JSON, made once per change of the game and given each card's serial:
verify/card_pages.py); `static/judge.js` judges the card from it as `claims.judge` and
`prize_rules.judge_rule` do. `follow_card` and `follow_ticket` give the same for one card judged
now (its `?part=verdict`), from the judged card (verify/judged.py).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from flask import current_app, render_template
from flask_babel import get_locale
from markupsafe import Markup

from ...ninety.prize_rules import CellsRule, CountRule, Prize, PrizeList, RowCountRule, Rule
from ...seventyfive import claims as rules
from ...seventyfive.cards import CENTRE, LINE_NAMES, SIZE
from ...seventyfive.patterns import BUILT_IN, PatternShape
from ...values import JsonValue
from ...variants import CARDS, STRIPS
from ..model import Game
from ..state import station_state
from .judged import CardCheck, TicketCheck, WonPrize


def game_for_deck(conn: sqlite3.Connection, deck_id: str) -> Game | None:
    """The game a scanned card belongs to: the newest one in play with its deck, else the
    newest finished one (its final calls are still worth seeing). One query."""
    row = conn.execute(
        "SELECT * FROM games WHERE deck_id = ? ORDER BY status = 'active' DESC, id DESC LIMIT 1",
        (deck_id,),
    ).fetchone()
    return Game.from_row(row) if row else None


@dataclass(frozen=True)
class CardAwards:
    """The game's awards as a phone needs them: the rounds this card won (with the points), and
    whether the round being played is already awarded (then nobody is told to shout)."""

    won: tuple[dict[str, Any], ...]
    awarded: bool


def card_awards(conn: sqlite3.Connection, gid: int, serial: int) -> CardAwards:
    """One query for what the card's holder is told about awards."""
    rows = conn.execute(
        "SELECT a.serial, a.points, r.number, r.number = (SELECT MAX(number) FROM rounds "
        "WHERE game_id = a.game_id) AS now FROM awards a JOIN rounds r ON r.id = a.round_id "
        "WHERE a.game_id = ? ORDER BY a.id",
        (gid,),
    ).fetchall()
    won = tuple(
        {"round": a["number"], "points": a["points"]} for a in rows if a["serial"] == serial
    )
    return CardAwards(won, any(a["now"] for a in rows))


@dataclass(frozen=True)
class Figure(JsonValue):
    """A figure the game is played for, as a card's page judges it: its name, its squares (by
    their index on the card, row by row) and whether it covers the FREE centre."""

    name: str
    cells: tuple[int, ...]
    central: bool


@dataclass(frozen=True)
class CardFollow(JsonValue):
    """What a 75-ball card's page follows the game with (its `#card-state`), squares numbered
    row by row (0-24)."""

    layout: str  # the variant's layout, the key of card.js's VIEWS
    game: int
    serial: int  # 0 in the facts every card of a game shares (card_pages gives each its own)
    round: int
    calls: tuple[int, ...]
    free_centre: bool  # the centre is covered without a call (the hall rule; FREE is anyway)
    cleared: tuple[tuple[int, int], ...]  # (square, the call count before which it is uncovered)
    figures: tuple[Figure, ...]  # the card's numbers are its own
    lines: tuple[Figure, ...]
    completing_call_only: bool
    puntos: bool
    pattern: str | None
    awarded: bool
    won: tuple[dict[str, Any], ...]
    #: the game's pattern as static/pattern.js draws it and expands its rule: a pattern whose
    #: forms the book makes by a rule (any 3 lines, any 2 stamps) comes as the rule, its
    #: `figures` empty (a triple bingo's 220 forms were 20 KB on every phone)
    shape: PatternShape | None = None
    #: special games (seventyfive.specials): the first ball's last digit is wild; the card's
    #: own odd (even) numbers are its figure (static/judge.js works both out from its numbers)
    wild_number: bool = False
    odd_even: str | None = None

    #: what the page's words depend on besides its layout (a card plays no prize list)
    mode: ClassVar[None] = None
    sequence: ClassVar[tuple[str, ...]] = ()


@dataclass(frozen=True)
class TicketFollow(JsonValue):
    """What a 90-ball ticket's page follows the game with (its `#card-state`)."""

    layout: str
    game: int
    serial: int  # 0 in the facts every ticket of a game shares (card_pages gives each its own)
    round: int
    calls: tuple[int, ...]
    prize: str
    mode: str
    open_at_once: bool
    rules: dict[str, dict[str, Any]]  # each prize's rule (`page_rule`): the rows are the page's
    names: dict[str, dict[str, str]]
    sequence: tuple[str, ...]
    won_by: dict[str, tuple[WonPrize, ...]]  # serial -> the prizes it won
    round_over: bool


Follow = CardFollow | TicketFollow


def _index(cell: tuple[int, int]) -> int:
    return cell[0] * SIZE + cell[1]


def follow_card(checked: CardCheck, awards: CardAwards) -> CardFollow:
    """The data the 75-ball card page follows the game with (squares numbered row by row,
    0-24), as judged now: `game_card_facts` with its serial, the round's calls, penalties and
    awards."""
    cleared: dict[int, int] = {}  # a false claim's squares: uncovered for balls called before
    for p in checked.penalties:
        for cell in p.cells:
            cleared[_index(cell)] = max(cleared.get(_index(cell), 0), p.after_call)
    return replace(
        game_card_facts(checked.game_id, checked.round, checked.judged_by),
        serial=checked.card.serial,
        calls=tuple(checked.calls),
        cleared=tuple(sorted(cleared.items())),
        awarded=awards.awarded,
        won=awards.won,
    )


def game_card_facts(game_id: int, round: int, r: rules.Rules) -> CardFollow:
    """What every 75-ball card's page of a game knows under the game's rules `r`: the figures
    as squares, and whether the centre is FREE; each page reads its own numbers from its table
    (static/judge.js). The calls, the penalties and the awards are the game's (its snapshot,
    shared by every card: card.js applies it on load as on every reconnect), so they start
    empty here."""
    shape = None if r.pattern is None else PatternShape.of(r.pattern)
    by_rule = shape is not None and bool(shape.lines or shape.pick)
    return CardFollow(
        layout=CARDS.layout,
        game=game_id,
        serial=0,
        round=round,
        calls=(),
        free_centre=r.free_centre,
        cleared=(),
        figures=() if by_rule else tuple(_figures(r)),
        lines=_figures(replace(r, pattern=None)),  # after a change of pattern
        completing_call_only=r.completing_call_only,
        puntos=r.mode == rules.PUNTOS,
        pattern=None if r.pattern is None else r.pattern.name,
        awarded=False,
        won=(),
        shape=shape,
        wild_number=r.wild_number,
        odd_even=None if r.odd_even is None else str(r.odd_even),
    )


def _figures(r: rules.Rules) -> tuple[Figure, ...]:
    return tuple(
        Figure(name, tuple(_index(cell) for cell in cells), CENTRE in cells)
        for name, cells in rules.figures(r)
    )


def follow_ticket(checked: TicketCheck) -> TicketFollow:
    """The data the 90-ball ticket page follows the game with, as judged now: `game_ticket_facts`
    with the round's calls, the prize judged and whether the round's last prize is awarded."""
    rules = checked.rules
    facts = game_ticket_facts(
        checked.game_id,
        checked.round,
        rules,
        {checked.ticket.serial: checked.won},
        (checked.prize,) if rules is None else None,
    )
    return replace(
        facts,
        serial=checked.ticket.serial,
        calls=tuple(checked.calls),
        prize=checked.prize.key,
        round_over=checked.round_over,
    )


def game_ticket_facts(
    game_id: int,
    round: int,
    rules: PrizeList | None,
    won: Mapping[int, tuple[WonPrize, ...]],
    only: tuple[Prize, ...] | None = None,
) -> TicketFollow:
    """What every 90-ball ticket's page of a game knows: each prize of the game's list as a rule
    of the ticket's rows (`page_rule`), whether the prizes are open at once, and the prizes each
    ticket won in the game (`won`, by serial); each page reads its own rows
    from its table (static/judge.js). The calls and the prize being played are the game's (its
    snapshot, shared by every ticket), so they start empty here."""
    prizes = rules.prizes if rules is not None else (only or ())
    return TicketFollow(
        layout=STRIPS.layout,
        game=game_id,
        serial=0,
        round=round,
        calls=(),
        prize=prizes[0].key if prizes else "",
        mode=rules.key if rules is not None else "",
        open_at_once=bool(rules and rules.open_at_once),
        rules={p.key: page_rule(p.rule) for p in prizes},
        names={p.key: dict(p.names) for p in prizes},
        sequence=tuple(p.key for p in prizes),
        won_by={str(serial): prizes_won for serial, prizes_won in won.items()},
        round_over=False,
    )


def page_rule(rule: Rule) -> dict[str, int | list[int] | list[list[int]]]:
    """A prize as the page judges it (static/judge.js `holds`, as `prize_rules.judge_rule`): `any`
    numbers of the ticket, `row_count` numbers of one row, every one of `cells` ([row, position
    among the row's numbers]), or `needed` of `rows` complete."""
    if isinstance(rule, CountRule):
        return {"any": rule.count}
    if isinstance(rule, RowCountRule):
        return {"row_count": rule.count}
    if isinstance(rule, CellsRule):
        return {"cells": [[r, p] for r, p in rule.cells]}
    return {"rows": list(rule.rows), "needed": rule.needed}


#: the named patterns a game may be played for (the pattern book, seventyfive.patterns), a
#: drawn one, and an odd-even game's figure (seventyfive.specials)
PATTERN_NAMES = ("four_corners", "x", "full_card", "custom", "odd_numbers", "even_numbers")


def pattern_names() -> tuple[str, ...]:
    """Every pattern's key a card page may name: the ones above, then the rest of the book."""
    return tuple(dict.fromkeys((*PATTERN_NAMES, *BUILT_IN)))


def words_key(follow: Follow, lang: str | None = None) -> tuple[Any, ...]:
    """What the page's words depend on: the language, the layout and the prizes played."""
    return (lang or str(get_locale() or "en"), follow.layout, follow.mode, follow.sequence)


def follow_words(follow: Follow) -> Markup:
    """The page's words for card.js (verify/_follow_words.html): the same for every card of a
    game in a language, so rendered once per language, figures and prizes, and kept (a join storm
    of a thousand phones then translates nothing)."""
    key = words_key(follow)
    kept = station_state().page_words
    text = kept.get(key)
    if text is None:
        names = [*LINE_NAMES, *pattern_names()]
        text = render_template("verify/_follow_words.html", follow=follow, names=names)
        kept[key] = text
    return Markup(text)


def line_labels() -> dict[str, Markup]:
    """Every line's and pattern's name as a player reads it (verify/_labels.html's line_label),
    rendered once per language and kept: a card's margin names its twelve lines."""
    key = ("labels", str(get_locale() or "en"))
    kept = station_state().page_words
    labels = kept.get(key)
    if labels is None:
        module = current_app.jinja_env.get_template("verify/_labels.html").make_module()
        label = module.line_label  # type: ignore[attr-defined]  # a macro of _labels.html
        labels = {n: Markup(label(n)) for n in (*LINE_NAMES, *pattern_names())}
        kept[key] = labels
    return labels
