"""Reading a printed PDF back the way a person or a phone would, independently of the code that
wrote it: pypdfium2 renders pages and extracts text with positions, zxing-cpp decodes QR codes."""

from __future__ import annotations

import ctypes
import re
from dataclasses import dataclass

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
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
    size: float = 0.0  # font size in points, of the first character
    fill: tuple[int, int, int] = (0, 0, 0)  # its fill colour, 0-255 per channel
    sizes: tuple[float, ...] = ()  # the font size of each character

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
    """Every whitespace-separated word on the page with its bounding box, size and colour."""
    tp = page.get_textpage()
    words: list[Word] = []
    text, boxes, first = "", [], 0
    for i in range(tp.count_chars()):
        ch = tp.get_text_range(i, 1)
        if ch.isspace() or not ch:
            if text:
                words.append(_word(tp, text, boxes, first))
            text, boxes = "", []
            continue
        if not text:
            first = i
        text += ch
        boxes.append(tp.get_charbox(i))
    if text:
        words.append(_word(tp, text, boxes, first))
    return words


def _word(tp: pdfium.PdfTextPage, text: str, boxes: list, first: int) -> Word:
    rgba = [ctypes.c_uint() for _ in range(4)]
    pdfium_c.FPDFText_GetFillColor(tp.raw, first, *(ctypes.byref(v) for v in rgba))
    sizes = tuple(pdfium_c.FPDFText_GetFontSize(tp.raw, first + k) for k in range(len(text)))
    return Word(
        text,
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
        sizes[0],
        (rgba[0].value, rgba[1].value, rgba[2].value),
        sizes,
    )


@dataclass(frozen=True)
class Shape:
    """A drawn path: its points in PDF points on the page, and whether it is filled; the boxes
    of its sub-paths (one path may hold many rectangles), its fill and stroke colours (0-255 per
    channel), whether it is stroked and the stroke's width on the page, in points."""

    points: tuple[tuple[float, float], ...]
    filled: bool
    parts: tuple[tuple[float, float, float, float], ...] = ()  # left, bottom, right, top
    fill: tuple[int, int, int] = (0, 0, 0)
    stroked: bool = False
    width: float = 0.0
    stroke: tuple[int, int, int] = (0, 0, 0)


def _colour(getter, obj) -> tuple[int, int, int]:
    rgba = [ctypes.c_uint() for _ in range(4)]
    getter(obj.raw, *(ctypes.byref(v) for v in rgba))
    return (rgba[0].value, rgba[1].value, rgba[2].value)


def _box(points: list[tuple[float, float]]) -> tuple[float, float, float, float]:
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return (min(xs), min(ys), max(xs), max(ys))


def page_shapes(page: pdfium.PdfPage) -> list[Shape]:
    """Every path on the page, in drawing order, also those inside forms, with points moved to
    page coordinates."""
    shapes = []
    matrices: list[pdfium.PdfMatrix] = []  # the form matrix at each nesting level
    for obj in page.get_objects(max_depth=4):
        del matrices[obj.level :]
        if obj.type == pdfium_c.FPDF_PAGEOBJ_FORM:
            matrices.append(obj.get_matrix())
        if obj.type != pdfium_c.FPDF_PAGEOBJ_PATH:
            continue
        points: list[tuple[float, float]] = []
        parts: list[list[tuple[float, float]]] = []
        for i in range(pdfium_c.FPDFPath_CountSegments(obj.raw)):
            x, y = ctypes.c_float(), ctypes.c_float()
            segment = pdfium_c.FPDFPath_GetPathSegment(obj.raw, i)
            pdfium_c.FPDFPathSegment_GetPoint(segment, ctypes.byref(x), ctypes.byref(y))
            point = obj.get_matrix().on_point(x.value, y.value)
            for m in reversed(matrices):
                point = m.on_point(*point)
            points.append(point)
            if pdfium_c.FPDFPathSegment_GetType(segment) == pdfium_c.FPDF_SEGMENT_MOVETO:
                parts.append([])
            if parts:
                parts[-1].append(point)
        fill, stroke = ctypes.c_int(), ctypes.c_int()
        pdfium_c.FPDFPath_GetDrawMode(obj.raw, ctypes.byref(fill), ctypes.byref(stroke))
        width = ctypes.c_float()
        pdfium_c.FPDFPageObj_GetStrokeWidth(obj.raw, ctypes.byref(width))
        scale = 1.0  # the width on the page: the object's and its forms' scale
        for m in [*matrices, obj.get_matrix()]:
            scale *= abs(m.a * m.d - m.b * m.c) ** 0.5
        shapes.append(
            Shape(
                tuple(points),
                fill.value != 0,
                tuple(_box(p) for p in parts if p),
                _colour(pdfium_c.FPDFPageObj_GetFillColor, obj),
                bool(stroke.value),
                width.value * scale,
                _colour(pdfium_c.FPDFPageObj_GetStrokeColor, obj),
            )
        )
    return shapes


@dataclass(frozen=True)
class Scan:
    text: str
    x: float  # centre, in PDF points from the left
    y: float  # centre, in PDF points from the bottom
    left: float  # the code's left edge, in PDF points

    def contains(self, x: float, y: float, pad: float = 0.0) -> bool:
        """Whether (x, y) falls on the code's square (its sides are 2 * (x - left))."""
        half = self.x - self.left + pad
        return abs(x - self.x) <= half and abs(y - self.y) <= half


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
