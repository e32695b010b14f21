"""Every card's QR code, read back from the rendered PDF by zxing-cpp (not by the code that drew
it), names the right deck and serial and carries a valid signature (issue 3, "Tests")."""

from __future__ import annotations

import pypdfium2.raw as pdfium_c
import pytest

from bingo_hall.manifest import new_deck
from bingo_hall.printing import render_deck_pdf
from bingo_hall.signing import signature_is_valid

from .pdfread import ALPHANUMERIC, PAYLOAD, open_pdf, page_words, scan_qr_codes

BASE = "http://192.168.1.50:5000"


@pytest.fixture(scope="module")
def deck():
    return new_deck(120, seed="qr readback", name="Kermesse")


@pytest.fixture(scope="module")
def printed(deck):
    return open_pdf(render_deck_pdf(deck, template="classic-4", base_url=BASE))


def slot_of(x: float, y: float, page, columns: int, rows: int) -> int:
    """Cards are laid out left to right, top to bottom."""
    w, h = page.get_size()
    return int((h - y) // (h / rows)) * columns + int(x // (w / columns))


def test_every_card_of_a_120_card_deck_carries_a_valid_signed_qr(deck, printed):
    assert len(printed) == 30  # 120 cards, 4 per page
    seen = []
    for p in range(len(printed)):
        page = printed[p]
        scans = scan_qr_codes(page)
        assert len(scans) == 4, f"page {p + 1}: {len(scans)} QR codes decoded"
        for scan in scans:
            m = PAYLOAD.match(scan.text)
            assert m, scan.text
            assert m["base"] == BASE.upper()
            assert m["deck"] == deck.deck_id
            serial = int(m["serial"])
            assert serial == 4 * p + slot_of(scan.x, scan.y, page, 2, 2) + 1
            assert signature_is_valid(deck.secret, deck.deck_id, serial, m["sig"])
            assert not signature_is_valid(deck.secret, deck.deck_id, serial + 1, m["sig"])
            seen.append(serial)
    assert sorted(seen) == list(range(1, 121))


def test_qr_payload_uses_only_alphanumeric_mode_characters(printed):
    for scan in scan_qr_codes(printed[0]):
        assert ALPHANUMERIC.match(scan.text), scan.text


def test_printed_serial_is_on_the_same_card_as_its_qr(printed):
    page = printed[7]
    words = page_words(page)
    serial_at = {}
    for label, number in zip(words, words[1:]):
        if label.text == "Nº":  # "Cartón Nº 29"
            serial_at[slot_of(number.cx, number.cy, page, 2, 2)] = int(number.text)
    assert serial_at == {0: 29, 1: 30, 2: 31, 3: 32}
    for scan in scan_qr_codes(page):
        slot = slot_of(scan.x, scan.y, page, 2, 2)
        assert int(PAYLOAD.match(scan.text)["serial"]) == serial_at[slot]


def test_serials_option_prints_only_the_chosen_cards_in_order(deck):
    pdf = open_pdf(render_deck_pdf(deck, base_url=BASE, serials=[3, 7, 8, 9, 120]))
    assert len(pdf) == 2
    found = []
    for p in range(2):
        page = pdf[p]
        scans = sorted(scan_qr_codes(page), key=lambda s: slot_of(s.x, s.y, page, 2, 2))
        found += [int(PAYLOAD.match(s.text)["serial"]) for s in scans]
    assert found == [3, 7, 8, 9, 120]


def test_base_url_with_a_path_prefixes_the_card_path():
    d = new_deck(2, seed="path", name="Hall")
    pdf = open_pdf(render_deck_pdf(d, base_url="https://bingo.example.org/hall/", serials=[2]))
    (scan,) = scan_qr_codes(pdf[0])
    sig = scan.text.rsplit("/", 1)[1]
    assert scan.text == f"HTTPS://BINGO.EXAMPLE.ORG/HALL/C/{d.deck_id}/2/{sig}"
    assert signature_is_valid(d.secret, d.deck_id, 2, sig)


@pytest.mark.parametrize("template", ["classic-6", "plain-6", "classic-1", "classic-2"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_qr_codes_decode_on_every_template_and_paper(template, paper):
    d = new_deck(6, seed="templates", name="Bingo", free_centre=True)
    pdf = open_pdf(render_deck_pdf(d, template=template, paper=paper, base_url=BASE))
    serials = sorted(
        int(PAYLOAD.match(s.text)["serial"]) for p in range(len(pdf)) for s in scan_qr_codes(pdf[p])
    )
    assert serials == [1, 2, 3, 4, 5, 6]


def test_a_long_deck_name_is_shortened_and_never_runs_into_the_qr():
    name = "Gran Bingo Anual de la Asociación de Vecinos del Barrio Norte"
    d = new_deck(1, seed="long", name=name)
    page = open_pdf(render_deck_pdf(d, template="classic-6", base_url=BASE))[0]
    (scan,) = scan_qr_codes(page)
    words = page_words(page)
    start = next(i for i, w in enumerate(words) if w.text == "Gran")
    end = next(i for i, w in enumerate(words) if i > start and w.text.endswith("\u2026"))
    assert " ".join(w.text for w in words[start : end + 1]).rstrip("\u2026") in name
    assert max(w.x1 for w in words[start : end + 1]) < scan.left


def test_progress_is_told_about_every_card_once(deck):
    told = []
    render_deck_pdf(deck, base_url=BASE, serials=list(range(1, 121)), progress=told.append)
    assert sum(told) == 120


def test_each_qr_is_one_vector_path_and_there_are_no_images():
    d = new_deck(4, seed="vector", name="Vector")
    page = open_pdf(render_deck_pdf(d, base_url=BASE))[0]
    everything = list(page.get_objects(max_depth=4))
    assert not [o for o in everything if o.type == pdfium_c.FPDF_PAGEOBJ_IMAGE]
    paths = [o for o in page.get_objects(max_depth=1) if o.type == pdfium_c.FPDF_PAGEOBJ_PATH]
    big = [o for o in paths if pdfium_c.FPDFPath_CountSegments(o.raw) > 100]
    scans = scan_qr_codes(page)
    assert len(big) == len(scans) == 4
    for scan in scans:
        inside = [o for o in big if _contains(o.get_bounds(), scan.x, scan.y)]
        assert len(inside) == 1  # the whole code is one path object


def _contains(bounds, x, y) -> bool:
    left, bottom, right, top = bounds
    return left < x < right and bottom < y < top
