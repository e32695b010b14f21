"""A card's or a ticket's table without marks, as its QR page shows it, drawn by the one drawer
(templates/verify/_vcard.html) once per variant and language with placeholders, and filled in for
each card: microseconds, where the template takes a millisecond. So a card's page needs no table
drawn ahead of it, and loading a deck or starting a game does nothing per card.

A table is made of its text (`TableText`): each cell's number or None (a FREE centre, a ticket's
blank), each margin total, the serial. The cut (`TableCut.made`) is found from the drawer itself:
it draws the table with every number a placeholder, then again with the first cell None; the two
differ only in that cell, which gives the text of a number's cell and of a None's. A cut that
does not give back the drawer's own table for the card it was made from is not used: the drawer
draws each table then (`TableCut.fits`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cached_property
from os.path import commonprefix

from flask import render_template


@dataclass(frozen=True)
class TableText:
    """What a table without marks shows, as text: its cells row by row (None: a FREE centre or a
    ticket's blank), its margin totals by name, its serial; a card's own or placeholders."""

    cells: tuple[tuple[str | None, ...], ...]
    totals: tuple[tuple[str, str], ...]
    serial: str


@dataclass(frozen=True)
class BareSquare:
    """A square or a cell as the drawer reads it (judged.Square, judged.Blank), unmarked."""

    n: str | None
    covered: bool = False
    last: bool = False
    wins: bool = False
    need: bool = False


@dataclass(frozen=True)
class BareTotal:
    total: str


@dataclass(frozen=True)
class BareRow:
    """A ticket's row as the drawer reads it (judged.TicketRow), unmarked."""

    name: str
    total: str
    cells: tuple[BareSquare, ...]
    complete: bool = False


@dataclass(frozen=True)
class BareCard:
    serial: str


def draw_card(template: str, text: TableText) -> str:
    """A 75-ball card's table by the drawer, in the request's language."""
    grid = [[BareSquare(n) for n in row] for row in text.cells]
    lines = {name: BareTotal(total) for name, total in text.totals}
    return render_template(template, card=BareCard(text.serial), grid=grid, lines=lines)


def draw_ticket(template: str, text: TableText) -> str:
    """A 90-ball ticket's table by the drawer, in the request's language."""
    grid = [
        BareRow(name, total, tuple(BareSquare(n) for n in row))
        for row, (name, total) in zip(text.cells, text.totals, strict=True)
    ]
    return render_template(template, card=BareCard(text.serial), grid=grid)


#: a placeholder: a cell (C and its index, row by row), a number (N and the index), a total (T
#: and its name) or the serial; letters and digits, which neither HTML escaping nor a
#: translation changes
_TOKEN = re.compile(r"Qx([A-Za-z0-9_]+)xQ")


def _token(name: str) -> str:
    return f"Qx{name}xQ"


@dataclass(frozen=True)
class TableCut:
    """A variant's table in a language, cut at its placeholders: text, a name, text... (what
    `re.split` with one group gives), and a cell's text with a number (cut at it) and with none."""

    parts: tuple[str, ...]
    number: tuple[str, ...]
    empty: str

    @staticmethod
    def made(draw: Callable[[TableText], str], like: TableText) -> TableCut | None:
        """The cut of the tables shaped like `like` (its cells' count, its totals' names), from
        the drawer `draw`; None when the drawer's two tables do not differ in one cell only."""
        cells = tuple(
            tuple(_token(f"N{r * len(row) + c}") for c in range(len(row)))
            for r, row in enumerate(like.cells)
        )
        totals = tuple((name, _token(f"T{name}")) for name, _ in like.totals)
        probe = TableText(cells, totals, _token("SERIAL"))
        numbers = draw(probe)
        first_none = ((None, *cells[0][1:]), *cells[1:])
        nones = draw(replace(probe, cells=first_none))
        head = len(commonprefix([numbers, nones]))
        tail = len(commonprefix([numbers[head:][::-1], nones[head:][::-1]]))
        number = numbers[head : len(numbers) - tail]
        empty = nones[head : len(nones) - tail]
        if number.count(_token("N0")) == 0:
            return None
        text = numbers
        for i in range(sum(len(row) for row in cells)):
            piece = number.replace(_token("N0"), _token(f"N{i}"))
            if text.count(piece) != 1:
                return None
            text = text.replace(piece, _token(f"C{i}"))
        return TableCut(tuple(_TOKEN.split(text)), tuple(_TOKEN.split(number)), empty)

    def fill(self, text: TableText) -> str:
        """The table of `text` (a card's own)."""
        cells = [n for row in text.cells for n in row]
        totals = dict(text.totals)
        sides, empty, serial = self.number[0::2], self.empty, text.serial  # sides: of a number
        filled = [
            (empty if (n := cells[i]) is None else n.join(sides))
            if kind == "C"
            else (totals[name] if kind == "T" else serial)
            for kind, i, name in self._places
        ]
        return self._text % tuple(filled)

    @cached_property
    def _places(self) -> tuple[tuple[str, int, str], ...]:
        """What each placeholder of `parts` stands for, in order: a cell ("C", its index, ""), a
        total ("T", -1, its name) or the serial ("S", -1, "")."""
        return tuple(
            ("C", int(name[1:]), "")
            if name[0] == "C"
            else (("T", -1, name[1:]) if name[0] == "T" else ("S", -1, ""))
            for name in self.parts[1::2]
        )

    @cached_property
    def _text(self) -> str:
        """`parts` as one %-format, its placeholders `%s` (a `%` of the table's own: `%%`)."""
        return "%s".join(part.replace("%", "%%") for part in self.parts[0::2])

    def fits(self, draw: Callable[[TableText], str], text: TableText) -> bool:
        """Does the cut give the drawer's own table for `text`?"""
        return self.fill(text) == draw(text)
