"""A printed card read at arm's length (issue 15): the margin totals large, bold-sized and near
black on every template and paper; each diagonal's total marked by an arrow at both ends of the
diagonal, so it cannot pass for a column total; nothing printed over the grid or the QR code; and
the serial labelled as the number the Maestro types ("Cartón Nº 36" / "Card No. 36").

Everything is read back from the PDF as drawn: text positions, sizes and colours, the drawn paths
(also inside the PDF form every card shares), and the QR codes decoded by zxing-cpp."""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

from bingo_hall.manifest import new_deck
from bingo_hall.printing import render_deck_pdf

from .cardread import read_cards
from .pdfread import Shape, open_pdf, page_shapes, page_words, scan_qr_codes

TEMPLATES = [  # the 75-ball card templates (90-ball strips: test_strips_print.py)
    p
    for p in sorted((Path(__file__).resolve().parents[2] / "card_templates").glob("*.toml"))
    if tomllib.loads(p.read_text()).get("game", 75) == 75
]
BASE = "http://192.168.1.20:5000"
MIN_TOTAL_PT = 9.0  # about 3.2 mm: bold figures a seated player reads on the table
DARKEST_CHANNEL = 64  # of 255: near black, not the grey of a faint print
SE, SW = (1 / math.sqrt(2), -1 / math.sqrt(2)), (-1 / math.sqrt(2), -1 / math.sqrt(2))


def printed_page(path: Path, paper: str, lang: str = "es"):
    data = tomllib.loads(path.read_text())
    columns, rows = data["columns"], data["rows"]
    deck = new_deck(columns * rows, seed=f"legible {path.stem}", name="Legible")
    pdf = open_pdf(render_deck_pdf(deck, template=path.stem, paper=paper, lang=lang, base_url=BASE))
    page = pdf[0]
    cards = read_cards(page, columns, rows)
    assert len(cards) == columns * rows
    return pdf, page, cards


@dataclass(frozen=True)
class Arrow:
    tail: tuple[float, float]
    tip: tuple[float, float]  # the middle of the filled head

    @property
    def direction(self) -> tuple[float, float]:
        dx, dy = self.tip[0] - self.tail[0], self.tip[1] - self.tail[1]
        n = math.hypot(dx, dy)
        return dx / n, dy / n


def arrows(shapes: list[Shape]) -> list[Arrow]:
    """Arrows as a reader sees them: a straight stroke with a small filled triangle on one end."""
    heads = [s for s in shapes if s.filled and len(set(_rounded(s.points))) == 3]
    strokes = [s for s in shapes if not s.filled and len(s.points) == 2]
    found = []
    for head in heads:
        corners = sorted(set(_rounded(head.points)))
        centre = (sum(x for x, _ in corners) / 3, sum(y for _, y in corners) / 3)
        side = max(math.dist(a, b) for a in corners for b in corners)
        for stroke in strokes:  # a shaft ends inside its head, not merely near it
            near, far = sorted(stroke.points, key=lambda p: math.dist(p, centre))
            if math.dist(near, centre) < side / 2:
                found.append(Arrow(far, centre))
    return found


def _rounded(points):
    return [(round(x, 2), round(y, 2)) for x, y in points]


def cosine(a: tuple[float, float], b: tuple[float, float]) -> float:
    return a[0] * b[0] + a[1] * b[1]


def arrow_at(found: list[Arrow], corner: tuple[float, float], pitch: float) -> Arrow:
    near = [a for a in found if min(math.dist(a.tail, corner), math.dist(a.tip, corner)) < pitch]
    assert len(near) == 1, f"arrows near {corner}: {near}"
    arrow = near[0]
    # On the diagonal's own line: the grid's corner lies on the line through the arrow.
    ux, uy = arrow.direction
    off = (corner[0] - arrow.tail[0]) * uy - (corner[1] - arrow.tail[1]) * ux
    assert abs(off) < 0.05 * pitch, f"arrow {arrow} is {off:.1f} pt off the diagonal"
    return arrow


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: p.stem)
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_margin_totals_are_large_and_near_black_on_every_template(path, paper):
    _, _, cards = printed_page(path, paper)
    for card in cards:
        assert len(card.totals) == 12
        for total in card.totals:
            assert total.size >= MIN_TOTAL_PT, (path.stem, paper, total)
            assert max(total.fill) <= DARKEST_CHANNEL, (path.stem, paper, total)


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: p.stem)
def test_each_diagonal_has_an_arrow_at_both_ends_pointing_along_it(path):
    _, page, cards = printed_page(path, "a4")
    found = arrows(page_shapes(page))
    assert len(found) == 4 * len(cards)
    for card in cards:
        left, bottom, right, top = card.grid_box
        pitch = (right - left) / 5
        d1_word, d2_word = card.totals[10], card.totals[11]
        # D1 runs from the top-left corner down to the bottom-right; D2 from top-right to
        # bottom-left. The arrow at the start points into the grid, the one at the end out of
        # it, at the diagonal's total.
        for start, end, way, total in (
            ((left, top), (right, bottom), SE, d1_word),
            ((right, top), (left, bottom), SW, d2_word),
        ):
            into = arrow_at(found, start, pitch)
            assert cosine(into.direction, way) > 0.99
            assert math.dist(into.tip, start) < math.dist(into.tail, start)
            out = arrow_at(found, end, pitch)
            assert cosine(out.direction, way) > 0.99
            assert math.dist(out.tail, end) < math.dist(out.tip, end)
            # The total lies on, or just beside, the line the arrow continues.
            ahead = (total.cx - out.tip[0], total.cy - out.tip[1])
            beside = ahead[0] * way[1] - ahead[1] * way[0]
            assert cosine(ahead, way) > 0, f"{total.text} is not where the arrow points"
            assert abs(beside) < 0.15 * pitch, f"{total.text} is off the arrow's line"
            assert math.dist(out.tip, (total.cx, total.cy)) < pitch
        for arrow in found:
            for x, y in (arrow.tail, arrow.tip):
                assert not (left < x < right and bottom < y < top), "an arrow on the numbers"


def overlaps(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: p.stem)
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_totals_stay_off_the_grid_the_qr_code_and_each_other(path, paper):
    _, page, cards = printed_page(path, paper)
    codes = scan_qr_codes(page, dpi=150)
    assert len(codes) == len(cards)
    boxes = [(t.x0, t.y0, t.x1, t.y1) for card in cards for t in card.totals]
    for card in cards:
        for t in card.totals:
            assert not overlaps((t.x0, t.y0, t.x1, t.y1), card.grid_box), t
            for code in codes:
                corners = [(t.x0, t.y0), (t.x0, t.y1), (t.x1, t.y0), (t.x1, t.y1)]
                assert not any(code.contains(x, y, pad=1) for x, y in corners), t
    for i, a in enumerate(boxes):
        assert not any(overlaps(a, b) for b in boxes[i + 1 :]), a


@pytest.mark.parametrize(("lang", "label"), [("es", ["Cartón", "Nº"]), ("en", ["Card", "No."])])
def test_serial_is_labelled_as_the_card_number_and_printed_larger_than_the_grid(lang, label):
    path = next(p for p in TEMPLATES if p.stem == "classic-4")
    _, page, cards = printed_page(path, "a4", lang)
    words = page_words(page)
    left, bottom, right, top = cards[0].grid_box
    grid_size = max(w.size for w in words if left < w.cx < right and bottom < w.cy < top)
    labelled = {}
    for a, b, serial in zip(words, words[1:], words[2:]):
        if [a.text, b.text] == label:
            assert abs(serial.y0 - b.y0) < 0.2 * serial.height  # on one line
            assert serial.size > grid_size
            labelled[int(serial.text)] = serial
    assert sorted(labelled) == sorted(card.serial for card in cards) == [1, 2, 3, 4]
    text = page.get_textpage().get_text_range()
    assert ("Tarjeta" not in text) and ("Cartón" in text) == (lang == "es")
