"""The printer's part of each game variant (`bingo_hall.variants`): how a template's slot holds
the variant's tickets, the form they share, and how one is drawn. `deck_pdf` asks the deck's
variant for its `Layout` and never tests the number of balls; a new variant adds one entry to
`LAYOUTS`, keyed by its class.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from reportlab.pdfgen.canvas import Canvas

from ..manifest import Deck
from ..variants import ByVariant, Cards75, Strips90, Variant
from .card_layout import NAME_BOX as CARD_NAME_BOX
from .card_layout import CardInk, GridBox, Ink, draw_card, draw_card_form, fit_card
from .qr import QrPath
from .strip_layout import NAME_BOX as TICKET_NAME_BOX
from .strip_layout import TicketInk, draw_ticket, draw_ticket_form, fit_strip
from .templates import Template

FORM = "card"  # the name of the shared PDF form a deck's tickets are drawn on


@dataclass(frozen=True)
class Layout:
    """How a variant's tickets go on paper.

    `fit(x, y, w, h)` gives the ticket boxes of one template slot (a card, or a strip of six);
    `start(canvas, box_scale, template, deck, labels)` defines the shared form and gives the ink;
    `draw(canvas, form, box, ink, ticket, qr)` draws one ticket on the form;
    `name_box` is the deck name's room on a ticket, in ticket units: (width, largest size).
    """

    fit: Callable[[float, float, float, float], Sequence[GridBox]]
    start: Callable[[Canvas, float, Template, Deck[Any], dict[str, str]], Ink]
    draw: Callable[[Canvas, str, Any, Any, Any, QrPath | None], None]
    name_box: tuple[float, float]


def _start_cards(c: Canvas, s: float, tpl: Template, deck: Deck[Any], labels: dict) -> Ink:
    draw_card_form(c, FORM, s, tpl.theme, deck.name, labels, deck.free_centre)
    return CardInk(c, tpl.theme, labels)


def _start_strips(c: Canvas, s: float, tpl: Template, deck: Deck[Any], labels: dict) -> Ink:
    draw_ticket_form(c, FORM, s, tpl.theme, deck.name)
    return TicketInk(c, tpl.theme, labels)


#: the layout of each variant, by the variant's class
LAYOUTS: ByVariant[Layout] = ByVariant(
    "printing.variants.LAYOUTS",
    {
        Cards75: Layout(
            fit=lambda x, y, w, h: [fit_card(x, y, w, h)],
            start=_start_cards,
            draw=draw_card,
            name_box=CARD_NAME_BOX,
        ),
        Strips90: Layout(
            fit=fit_strip, start=_start_strips, draw=draw_ticket, name_box=TICKET_NAME_BOX
        ),
    },
)


def layout_for(variant: Variant[Any]) -> Layout:
    return LAYOUTS[variant]
