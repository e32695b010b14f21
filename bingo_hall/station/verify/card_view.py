"""What a card's or a ticket's QR page shows and what it follows the game with, read once.

The page (`static/card.js`) draws itself first from the station's HTML, then follows the game from
the events: a call, an undo, a new round, a claim, the scores or the prize reach it as data and it
marks its own card. It needs to know, as data, what makes its card complete; it never judges:

* 75 balls: the figures the game is played for (the 12 lines or the pattern's squares, from
  `bingo_hall.claims.figures`), the squares covered without a call (FREE), the squares a false
  claim's penalty uncovered (with the call count before which a ball no longer covers them, as
  `claims.Penalty`), and the hall rule on the completing call;
* 90 balls: the ticket's rows and each prize of the game's list (`bingo_hall.ninety.prize_rules`) as
  groups of the ticket's numbers to complete (a row, the corners) or a count of any numbers
  (Early Five), and whether the prizes are open at once (Tambola).

`follow_card` and `follow_ticket` give that data (the page's `#card-state` JSON). Everything is
built from the judged card (verify/judged.py), itself judged on the round read once
(bingo_hall.station.round_load): a card page costs a handful of SQL queries however many balls
have been called.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any, ClassVar

from flask import current_app, render_template
from flask_babel import get_locale
from markupsafe import Markup

from ... import claims as rules
from ...cards import CENTRE, LINE_NAMES, SIZE, Card
from ...ninety.prize_rules import CountRule, Prize, PrizeList, RowCountRule, RowsRule, Rule
from ...ninety.tickets import ROW_NAMES, Ticket
from ...patterns import BUILT_IN
from ...values import JsonValue
from ...variants import CARDS, STRIPS
from ..model import Game
from ..state import station_state
from .judged import CardCheck, TicketCheck


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
class CardFollow(JsonValue):
    """What a 75-ball card's page follows the game with (its `#card-state`), squares numbered
    row by row (0-24)."""

    layout: str  # the variant's layout, the key of card.js's VIEWS
    game: int
    serial: int
    round: int
    calls: tuple[int, ...]
    numbers: tuple[int | None, ...]
    free: tuple[int, ...]
    cleared: tuple[tuple[int, int], ...]  # (square, the call count before which it is uncovered)
    figures: list[dict[str, Any]]
    lines: list[dict[str, Any]]
    completing_call_only: bool
    puntos: bool
    pattern: str | None
    awarded: bool
    won: tuple[dict[str, Any], ...]

    #: what the page's words depend on besides its layout (a card plays no prize list)
    mode: ClassVar[None] = None
    sequence: ClassVar[tuple[str, ...]] = ()


@dataclass(frozen=True)
class TicketFollow(JsonValue):
    """What a 90-ball ticket's page follows the game with (its `#card-state`)."""

    layout: str
    game: int
    serial: int
    round: int
    calls: tuple[int, ...]
    rows: tuple[dict[str, Any], ...]
    prize: str
    mode: str
    open_at_once: bool
    rules: dict[str, dict[str, Any]]
    names: dict[str, dict[str, str]]
    sequence: tuple[str, ...]
    won: tuple[dict[str, Any], ...]
    round_over: bool


Follow = CardFollow | TicketFollow


def _index(cell: tuple[int, int]) -> int:
    return cell[0] * SIZE + cell[1]


def follow_card(checked: CardCheck, awards: CardAwards) -> CardFollow:
    """The data the 75-ball card page follows the game with (squares numbered row by row,
    0-24), as judged now: `card_facts` with the round's calls, penalties and awards."""
    cleared: dict[int, int] = {}  # a false claim's squares: uncovered for balls called before
    for p in checked.penalties:
        for cell in p.cells:
            cleared[_index(cell)] = max(cleared.get(_index(cell), 0), p.after_call)
    return replace(
        card_facts(checked.game_id, checked.round, checked.card, checked.judged_by),
        calls=tuple(checked.calls),
        cleared=tuple(sorted(cleared.items())),
        awarded=awards.awarded,
        won=awards.won,
    )


def card_facts(game_id: int, round: int, card: Card, r: rules.Rules) -> CardFollow:
    """What a 75-ball card's page knows of its own card under the game's rules `r`: its
    numbers, its FREE square and its figures. The calls, the penalties and the awards are the
    game's (its snapshot, shared by every card: card.js applies it on load as on every
    reconnect), so they start empty here."""
    centre_free = card.number_at(*CENTRE) is None or r.free_centre  # covered without a call
    return CardFollow(
        layout=CARDS.layout,
        game=game_id,
        serial=card.serial,
        round=round,
        calls=(),
        numbers=tuple(card.number_at(row, col) for row in range(SIZE) for col in range(SIZE)),
        free=(_index(CENTRE),) if centre_free else (),
        cleared=(),
        figures=_figures(card, r),
        lines=_figures(card, replace(r, pattern=None)),  # after a change of pattern
        completing_call_only=r.completing_call_only,
        puntos=r.mode == rules.PUNTOS,
        pattern=None if r.pattern is None else r.pattern.name,
        awarded=False,
        won=(),
    )


def _figures(card: Card, r: rules.Rules) -> list[dict[str, Any]]:
    return [
        {
            "name": name,
            "cells": [_index(cell) for cell in cells],
            "total": sum(n for cell in cells if (n := card.number_at(*cell)) is not None),
            "central": CENTRE in cells,
        }
        for name, cells in rules.figures(r)
    ]


def follow_ticket(checked: TicketCheck) -> TicketFollow:
    """The data the 90-ball ticket page follows the game with, as judged now: `ticket_facts`
    with the round's calls, the prize judged and whether the round's last prize is awarded."""
    rules = checked.rules
    facts = ticket_facts(
        checked.game_id,
        checked.round,
        checked.ticket,
        rules,
        [{"prize": w.prize, "round": w.round} for w in checked.won],
        (checked.prize,) if rules is None else None,
    )
    return replace(
        facts, calls=tuple(checked.calls), prize=checked.prize.key, round_over=checked.round_over
    )


def ticket_facts(
    game_id: int,
    round: int,
    ticket: Ticket,
    rules: PrizeList | None,
    won: list[dict[str, Any]],
    only: tuple[Prize, ...] | None = None,
) -> TicketFollow:
    """What a 90-ball ticket's page knows of its own ticket: its rows (the numbers of each), each
    prize of the game's list as the page judges it (`groups` of this ticket's numbers of which
    `needed` must be complete: a line, the corners, the full house; or `any` numbers of the
    ticket: Early Five), whether the prizes are open at once, and the prizes it won in the game
    (`won`: {"prize", "round"}). The calls and the prize being played are the game's (its
    snapshot, shared by every ticket), so they start empty here."""
    prizes = rules.prizes if rules is not None else (only or ())
    return TicketFollow(
        layout=STRIPS.layout,
        game=game_id,
        serial=ticket.serial,
        round=round,
        calls=(),
        rows=tuple(
            {"name": ROW_NAMES[i], "numbers": list(row)} for i, row in enumerate(ticket.rows)
        ),
        prize=prizes[0].key if prizes else "",
        mode=rules.key if rules is not None else "",
        open_at_once=bool(rules and rules.open_at_once),
        rules={p.key: _page_rule(p.rule, ticket) for p in prizes},
        names={p.key: dict(p.names) for p in prizes},
        sequence=tuple(p.key for p in prizes),
        won=tuple(won),
        round_over=False,
    )


def _page_rule(rule: Rule, ticket: Ticket) -> dict[str, int | list[list[int]]]:
    """A prize as the page judges it: `groups` of the ticket's numbers of which `needed` must
    be complete, or `any` numbers of the ticket."""
    if isinstance(rule, CountRule):
        return {"any": rule.count}
    if isinstance(rule, RowsRule):
        return {"groups": [list(ticket.rows[r]) for r in rule.rows], "needed": rule.needed}
    if isinstance(rule, RowCountRule):  # `count` of one row: any of the row's combinations
        groups = [list(c) for row in ticket.rows for c in combinations(row, rule.count)]
        return {"groups": groups, "needed": 1}
    return {"groups": [sorted(rule.numbers(ticket))], "needed": 1}


#: the named patterns a game may be played for (the pattern book, bingo_hall.patterns), and a
#: drawn one
PATTERN_NAMES = ("four_corners", "x", "full_card", "custom")


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
