"""Reading a printed PDF back the way a person or a phone would, independently of the code that
wrote it: pypdfium2 renders pages and extracts text with positions, zxing-cpp decodes QR codes."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pypdfium2 as pdfium
import zxingcpp

# <BASE>/C/<deck_id>/<serial>/<sig>, as the issue specifies (the base may carry a path).
PAYLOAD = re.compile(r"^(?P<base>HTTPS?://.+)/C/(?P<deck>[A-Z0-9_-]+)/(?P<serial>\d+)/(?P<sig>.+)$")
# The characters QR alphanumeric mode can hold (ISO/IEC 18004, table 5).
ALPHANUMERIC = re.compile(r"^[0-9A-Z $%*+\-./:]+$")


@dataclass(frozen=True)
class Word:
    """A run of printed characters with its box in PDF points (origin bottom-left)."""

    text: str
    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def cx(self) -> float:
        return (self.x0 + self.x1) / 2

    @property
    def cy(self) -> float:
        return (self.y0 + self.y1) / 2

    @property
    def height(self) -> float:
        return self.y1 - self.y0


def open_pdf(data: bytes) -> pdfium.PdfDocument:
    return pdfium.PdfDocument(data)


def page_words(page: pdfium.PdfPage) -> list[Word]:
    """Every whitespace-separated word on the page with its bounding box."""
    tp = page.get_textpage()
    words: list[Word] = []
    text, boxes = "", []
    for i in range(tp.count_chars()):
        ch = tp.get_text_range(i, 1)
        if ch.isspace() or not ch:
            if text:
                words.append(_word(text, boxes))
            text, boxes = "", []
            continue
        text += ch
        boxes.append(tp.get_charbox(i))
    if text:
        words.append(_word(text, boxes))
    return words


def _word(text: str, boxes: list) -> Word:
    return Word(
        text,
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


@dataclass(frozen=True)
class Scan:
    text: str
    x: float  # centre, in PDF points from the left
    y: float  # centre, in PDF points from the bottom
    left: float  # the code's left edge, in PDF points


def scan_qr_codes(page: pdfium.PdfPage, dpi: float = 100) -> list[Scan]:
    """Decode every QR code on the rendered page, as a phone camera would see the print."""
    scale = dpi / 72
    image = page.render(scale=scale, grayscale=True).to_pil()
    _, height = page.get_size()
    scans = []
    for result in zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode):
        p = result.position
        xs = [p.top_left.x, p.top_right.x, p.bottom_left.x, p.bottom_right.x]
        ys = [p.top_left.y, p.top_right.y, p.bottom_left.y, p.bottom_right.y]
        centre_y = height - sum(ys) / 4 / scale
        scans.append(Scan(result.text, sum(xs) / 4 / scale, centre_y, min(xs) / scale))
    return scans
