"""Remake the images of printed pages shown in README.md and docs/printing.md.

Each 75-ball card template's first page (A4, Spanish, a six-card party deck), the 90-ball
large-print tickets, and the kit's board and token pages (the board also in large print),
rendered with pypdfium2 as a printer would lay them down. Run it after changing the card layout,
a template or the kit, then open the images and look at them (the QR codes change on each run:
each deck gets a new secret):

    .venv/bin/python docs/dev/print_images.py
"""

from pathlib import Path

import pypdfium2 as pdfium

from bingo_hall.manifest import new_deck, new_strip_deck
from bingo_hall.printing import render_deck_pdf, render_kit_pdf
from bingo_hall.printing.templates import available_templates, load_template

DOCS = Path(__file__).resolve().parent.parent
DPI = 100  # sharp enough to read the margin totals on a screen, small enough for the repo
BASE = "http://192.168.1.20:5000"


def save_page(pdf: bytes, index: int, path: Path, grey: bool = False) -> None:
    page = pdfium.PdfDocument(pdf)[index]
    page.render(scale=DPI / 72, grayscale=grey).to_pil().save(path, optimize=True)
    print(f"wrote {path.relative_to(DOCS.parent)}")


if __name__ == "__main__":
    deck = new_deck(6, seed="junio 2026", name="Fiesta de San Juan")
    for name in available_templates():
        if load_template(name).game == deck.game:
            pdf = render_deck_pdf(deck, template=name, base_url=BASE)
            grey = name.startswith(("plain", "large"))
            save_page(pdf, 0, DOCS / f"cards-{name}.png", grey=grey)
    strips = new_strip_deck(2, seed="sábado", name="Sala Gran Vía")
    tickets = render_deck_pdf(strips, template="large-tickets", base_url=BASE)
    save_page(tickets, 0, DOCS / "tickets-large.png", grey=True)
    kit = render_kit_pdf(lang="es")
    save_page(kit, 0, DOCS / "kit-tabla.png")
    save_page(kit, 1, DOCS / "kit-tokens.png")
    large = render_kit_pdf(lang="es", large_print=True)
    save_page(large, 0, DOCS / "kit-large-tabla.png", grey=True)
