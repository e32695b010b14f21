"""The printer's part of each game variant (`bingo_hall.variants`): how a template's slot holds
the variant's tickets, the form they share, and how one is drawn, in standard and in large print.
`deck_pdf` asks the deck's variant for its `Layouts` and never tests the number of balls; a new
variant adds one entry to `LAYOUTS`, keyed by its class.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from reportlab.pdfgen.canvas import Canvas

from ..manifest import Deck
from ..variants import ByVariant, Cards75, Strips90, Variant
from . import card_layout as cards
from . import strip_layout as strips
from .card_layout import CardInk, CardType, GridBox, Ink, draw_card, draw_card_form, fit_card
from .qr import QrPath
from .strip_layout import TicketInk, TicketShape, draw_ticket, draw_ticket_form
from .templates import Template

FORM = "card"  # the name of the shared PDF form a deck's tickets are drawn on

#: What is printed on what, as pairs of theme keys ("paper" is the white sheet; "letters" each
#: of the five header boxes): the colours large print holds to a contrast of at least 7:1.
CARD_INKS = (
    ("numbers", "paper"),
    ("numbers", "free_fill"),
    ("totals", "paper"),
    ("accent", "paper"),
    ("letter_text", "letters"),
    ("grid", "paper"),
    ("frame", "paper"),
)
TICKET_INKS = (
    ("numbers", "paper"),
    ("totals", "paper"),
    ("letter_text", "accent"),
    ("grid", "paper"),
    ("grid", "free_fill"),
    ("frame", "paper"),
)


@dataclass(frozen=True)
class Layout:
    """How a variant's tickets go on paper.

    `fit(x, y, w, h)` gives the ticket boxes of one template slot (a card, a strip of six, or one
    large-print ticket); `start(canvas, box_scale, template, deck, labels)` defines the shared
    form and gives the ink; `draw(canvas, form, box, ink, ticket, qr)` draws one ticket on the
    form; `name_box` is the deck name's room on a ticket, in ticket units: (width, largest
    size); `number` and `total` are the sizes of the grid's numbers and of the margin totals, as
    fractions of a cell; `inks` say which colour is printed on which.
    """

    fit: Callable[[float, float, float, float], Sequence[GridBox]]
    start: Callable[[Canvas, float, Template, Deck[Any], dict[str, str]], Ink]
    draw: Callable[[Canvas, str, Any, Any, Any, QrPath | None], None]
    name_box: tuple[float, float]
    number: float
    total: float
    inks: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Layouts:
    """A variant's layouts: the standard one and the large-print one."""

    standard: Layout
    large: Layout


def _cards(kind: CardType) -> Layout:
    def start(c: Canvas, s: float, tpl: Template, deck: Deck[Any], labels: dict[str, str]) -> Ink:
        draw_card_form(c, FORM, s, tpl.theme, deck.name, labels, deck.free_centre, kind)
        return CardInk(c, tpl.theme, labels, kind)

    return Layout(
        fit=lambda x, y, w, h: [fit_card(x, y, w, h)],
        start=start,
        draw=draw_card,
        name_box=cards.NAME_BOX,
        number=kind.number,
        total=kind.total,
        inks=CARD_INKS,
    )


def _tickets(shape: TicketShape, fit: Callable[..., Sequence[GridBox]]) -> Layout:
    def start(c: Canvas, s: float, tpl: Template, deck: Deck[Any], labels: dict[str, str]) -> Ink:
        draw_ticket_form(c, FORM, s, tpl.theme, deck.name, shape)
        return TicketInk(c, tpl.theme, labels, shape)

    return Layout(
        fit=fit,
        start=start,
        draw=draw_ticket,
        name_box=shape.name_box,
        number=shape.number,
        total=shape.total,
        inks=TICKET_INKS,
    )


#: the layouts of each variant, by the variant's class
LAYOUTS: ByVariant[Layouts] = ByVariant(
    "printing.variants.LAYOUTS",
    {
        Cards75: Layouts(_cards(cards.STANDARD), _cards(cards.LARGE)),
        Strips90: Layouts(
            _tickets(strips.STANDARD, strips.fit_strip),
            _tickets(strips.LARGE, strips.fit_large_ticket),  # one ticket across the page
        ),
    },
)


def layout_for(variant: Variant[Any], large_print: bool = False) -> Layout:
    layouts = LAYOUTS[variant]
    return layouts.large if large_print else layouts.standard
