"""A deck to PDF bytes: cards laid out on pages by a template, with cut lines between them.

A 90-ball deck prints the same way with a `game = 90` template: each slot of the page holds a
strip, a column of six tickets (`strip_layout`), and every ticket carries its own signed QR code.

The QR payload is `signing.card_url(base_url, secret, deck_id, serial)`: an upper-case
`<BASE>/C/<deck_id>/<serial>/<sig>`, so the code uses alphanumeric mode and stays small.

Speed: the QR matrices are the costly part. For a large deck they are made in worker processes
(one per core) while this process draws the pages, so a full 3003-card deck prints in seconds.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar
from urllib.parse import urlsplit

from reportlab.lib.colors import HexColor
from reportlab.lib.pagesizes import A4, LETTER, landscape
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from ..errors import KitError
from ..manifest import Deck
from ..ninety.tickets import Ticket
from ..seventyfive.cards import Card
from ..signing import card_url
from ..variants import VARIANTS, Variant, variant_for
from .card_layout import GridBox, fit_name
from .large_print import LINE_PT, check_large_print
from .pdfutil import pdf_bytes
from .qr import QrPath, qr_path, qr_version
from .templates import LARGE, Template, available_templates, load_template
from .variants import FORM, layout_for
from .words import words

T = TypeVar("T", Card, Ticket)

PAPERS = {"a4": A4, "letter": LETTER}
DEFAULT_TEMPLATES = {v.balls: v.default_template for v in VARIANTS}
_PARALLEL_FROM = 200  # below this many cards a worker pool costs more than it saves
_CHUNK = 64


def page_size(paper: str, template: Template) -> tuple[float, float]:
    if paper not in PAPERS:
        raise KitError("unknown paper %(paper)r; use a4 or letter", paper=paper)
    size = PAPERS[paper]
    return landscape(size) if template.landscape else size


def check_base_url(base_url: str) -> str:
    """The QR's base URL must be http(s)://host[:port][/path]; phones open it in a browser."""
    try:
        parts = urlsplit(base_url)
        parts.port  # noqa: B018 - raises ValueError on a bad port
    except ValueError:
        raise KitError("base URL %(base_url)r is not a valid URL", base_url=base_url) from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise KitError(
            "base URL must start with http:// or https:// and name a host: %(base_url)r",
            base_url=base_url,
        )
    if parts.username is not None or parts.password is not None:
        raise KitError(
            "base URL must not contain a user name or password: %(base_url)r", base_url=base_url
        )
    if parts.query or parts.fragment:
        raise KitError(
            "base URL must not have a ?query or #fragment: %(base_url)r", base_url=base_url
        )
    return base_url.rstrip("/")


def slots(template: Template, page: tuple[float, float]) -> list[GridBox]:
    """The card positions on a page, left to right and top to bottom; for a 90-ball template,
    the ticket positions, strip by strip, each strip top to bottom (the variant's `Layout.fit`)."""
    layout = layout_for(variant_for(template.game), template.large_print)
    w, h = page
    margin, gap = template.margin_mm * mm, template.gap_mm * mm
    cw = (w - 2 * margin - (template.columns - 1) * gap) / template.columns
    ch = (h - 2 * margin - (template.rows - 1) * gap) / template.rows
    boxes: list[GridBox] = []
    for r in range(template.rows):
        for col in range(template.columns):
            x = margin + col * (cw + gap)
            y = h - margin - (r + 1) * ch - r * gap
            boxes.extend(layout.fit(x, y, cw, ch))
    return boxes


def _cut_lines(c: Canvas, template: Template, page: tuple[float, float]) -> None:
    """Dashed lines down the middle of the gaps, edge to edge, for the guillotine or scissors."""
    w, h = page
    margin, gap = template.margin_mm * mm, template.gap_mm * mm
    cw = (w - 2 * margin - (template.columns - 1) * gap) / template.columns
    ch = (h - 2 * margin - (template.rows - 1) * gap) / template.rows
    c.saveState()
    # grey and fine on a standard print; in large print, as dark as the grid and 1 pt
    c.setStrokeColor(HexColor(template.theme.grid if template.large_print else "#9E9E9E"))
    c.setLineWidth(LINE_PT if template.large_print else 0.5)
    c.setDash(4, 3)
    for col in range(1, template.columns):
        x = margin + col * cw + (col - 0.5) * gap
        c.line(x, 0, x, h)
    for r in range(1, template.rows):
        y = h - margin - r * ch - (r - 0.5) * gap
        c.line(0, y, w, y)
    c.restoreState()


def _qr_job(job: tuple[list[str], int]) -> list[QrPath]:
    urls, version = job
    return [qr_path(u, version) for u in urls]


def _qr_stream(urls: Sequence[str], version: int) -> Iterator[QrPath]:
    """QR runs in order; made by one worker per core when the deck is large.

    Workers are forked, which is only safe in a single-threaded process: inside a threaded web
    server the codes are made in-process instead (slower, never stuck on a lock held by a thread).
    """
    cores = os.cpu_count() or 1
    if (
        len(urls) < _PARALLEL_FROM
        or cores < 2
        or threading.active_count() > 1
        or "fork" not in multiprocessing.get_all_start_methods()
    ):
        for u in urls:
            yield qr_path(u, version)
        return
    jobs = [(list(urls[i : i + _CHUNK]), version) for i in range(0, len(urls), _CHUNK)]
    with multiprocessing.get_context("fork").Pool(min(cores, 4)) as pool:
        for chunk in pool.imap(_qr_job, jobs):
            yield from chunk


def select_cards(deck: Deck[T], serials: list[int] | None) -> list[T]:
    if serials is None:
        return list(deck.cards)
    return [deck.card(s) for s in serials]


def template_named(template: str | None, variant: Variant[Any]) -> Template:
    """The template to print `variant`'s tickets with: the game's default, its large-print one
    for `large`, or the one named if it is for this game."""
    if template == LARGE:
        template = variant.large_template
    tpl = load_template(template or variant.default_template)
    if tpl.game != variant.balls:
        fits = [t for t in available_templates() if load_template(t).game == variant.balls]
        raise KitError(
            "template %(name)s is for %(game)s-ball decks and this deck is %(deck_game)s-ball;"
            " use one of: %(fits)s",
            name=tpl.name,
            game=tpl.game,
            deck_game=variant.balls,
            fits=", ".join([*fits, LARGE]),
        )
    return tpl


def template_for(deck: Deck[Any], template: str | None) -> Template:
    """The template to print `deck` with (see `template_named`)."""
    return template_named(template, deck.variant)


def fitted_slots(template: Template, paper: str) -> tuple[tuple[float, float], list[GridBox]]:
    """The page and its slots for `template` on `paper`, once the template is known to keep what
    it promises there (large print: `check_large_print`)."""
    page = page_size(paper, template)
    boxes = slots(template, page)
    layout = layout_for(variant_for(template.game), template.large_print)
    check_large_print(template, layout, boxes[0].s, paper)
    return page, boxes


def printed_name(deck: Deck[Any], template: str | None = None, paper: str = "a4") -> str:
    """The deck name as the cards (or tickets) of `template` on `paper` show it: whole, or cut
    with '…' when even at its smallest size it does not fit (a larger card has more room)."""
    tpl = template_for(deck, template)
    s = fitted_slots(tpl, paper)[1][0].s
    width, size = layout_for(deck.variant, tpl.large_print).name_box
    return fit_name(deck.name, width * s, size * s)[2]


def render_deck_pdf(
    deck: Deck[Any],
    *,
    template: str | None = None,
    paper: str = "a4",
    lang: str = "es",
    base_url: str,
    serials: list[int] | None = None,
    progress: Callable[[int], None] | None = None,
    qr: bool = True,
) -> bytes:
    """The deck's cards (or 90-ball tickets) as a PDF. `progress(k)` is told each time k more
    cards are drawn. The template defaults to the game's (classic-4, or strips-2 for 90 balls).

    `qr=False` leaves the codes out; it exists for the benchmark's floor, not for parties.
    """
    tpl = template_for(deck, template)
    page, boxes = fitted_slots(tpl, paper)
    labels = words(lang)
    base = check_base_url(base_url)
    cards = select_cards(deck, serials)
    if not cards:
        raise KitError("no cards to print")

    if qr:
        urls = [card_url(base, deck.secret, deck.deck_id, card.serial) for card in cards]
        version = qr_version(max(urls, key=len))
        codes: Iterator[QrPath | None] = _qr_stream(urls, version)
    else:
        codes = iter([None] * len(cards))

    def draw(c: Canvas) -> None:
        layout = layout_for(deck.variant, tpl.large_print)
        ink = layout.start(c, boxes[0].s, tpl, deck, labels)
        done = 0
        for i, (card, code) in enumerate(zip(cards, codes)):
            slot = i % len(boxes)
            if slot == 0 and i:
                c.showPage()
            if slot == 0 and tpl.per_page > 1:
                _cut_lines(c, tpl, page)
            layout.draw(c, FORM, boxes[slot], ink, card, code)
            done += 1
            if progress is not None and done % 50 == 0:
                progress(50)
        if progress is not None and done % 50:
            progress(done % 50)

    return pdf_bytes(page, f"{deck.name} ({deck.deck_id})", draw)
