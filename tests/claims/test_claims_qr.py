"""The card's QR code, end to end: printed into the PDF, decoded with zxing-cpp from the page
rendered by pypdfium2, opened against the station; and forged URLs rejected without card data."""

import re
from urllib.parse import urlsplit

import pypdfium2 as pdfium
import pytest
import zxingcpp
from playwright.sync_api import expect
from testkit import marked_card

from bingo_hall.manifest import new_deck
from bingo_hall.printing import render_deck_pdf
from bingo_hall.signing import card_path, card_signature

from .hall import Hall

NOT_A_CARD = "Not a card of this hall"


@pytest.fixture
def hall(client):
    return Hall(client, new_deck(12, seed="qr tests", name="Fiesta"))


def _card_numbers_shown(html: str) -> set[int]:
    return {int(n) for n in re.findall(r'data-number="(\d+)"', html)}


@pytest.mark.slow
@pytest.mark.browser
def test_qr_decoded_from_the_printed_pdf_opens_that_card_with_its_marks(hall, live_server, phone):
    gid = hall.new_game()
    pdf = render_deck_pdf(hall.deck, base_url="http://192.168.1.20:5000", serials=[5])
    page = pdfium.PdfDocument(pdf)[0]
    image = page.render(scale=4).to_pil()
    texts = [
        r.text for r in zxingcpp.read_barcodes(image) if r.format == zxingcpp.BarcodeFormat.QRCode
    ]
    assert len(texts) == 1
    url = urlsplit(texts[0])
    assert url.path.startswith(f"/C/{hall.deck.deck_id}/5/")
    r1 = hall.numbers(5, "R1")
    hall.call(gid, *r1)
    assert hall.client.get(url.path).status_code == 200
    html = marked_card(
        phone, live_server.url + url.path + "?lang=en"
    )  # issue 32: marked by card.js
    assert "Card 5" in html
    card = hall.deck.card(5)
    assert _card_numbers_shown(html) == set(card.numbers)
    covered = {int(n) for n in re.findall(r'class="sq covered[^"]*" data-number="(\d+)"', html)}
    assert covered == set(r1) and "BINGO" in html


def test_lower_case_path_is_accepted_as_qr_readers_may_fold_it(hall):
    hall.new_game()
    path = card_path(hall.deck.secret, hall.deck.deck_id, 3)
    lower = path.replace("/C/", "/c/", 1)
    assert hall.client.get(lower).status_code == 200
    sig = path.rsplit("/", 1)[1]
    assert hall.client.get(f"/c/{hall.deck.deck_id}/3/{sig.lower()}").status_code == 200


def test_changed_serial_is_not_a_card_of_this_hall(hall):
    sig = card_signature(hall.deck.secret, hall.deck.deck_id, 3)
    r = hall.client.get(f"/C/{hall.deck.deck_id}/4/{sig}")
    html = r.get_data(as_text=True)
    assert r.status_code == 404 and NOT_A_CARD in html and not _card_numbers_shown(html)
    assert 'class="vcard"' not in html


def test_changed_signature_is_not_a_card_of_this_hall(hall):
    sig = card_signature(hall.deck.secret, hall.deck.deck_id, 3)
    forged = ("A" if sig[0] != "A" else "B") + sig[1:]
    r = hall.client.get(f"/C/{hall.deck.deck_id}/3/{forged}")
    assert r.status_code == 404 and NOT_A_CARD in r.get_data(as_text=True)


def test_another_decks_signature_is_not_a_card_of_this_hall(hall):
    other = new_deck(12, seed="qr tests", name="Otra")  # same cards, its own secret and id
    assert (
        hall.client.post(
            "/api/decks", data=other.to_json(), content_type="application/json", headers=hall.auth
        ).status_code
        == 201
    )
    sig_other = card_signature(other.secret, other.deck_id, 3)
    r = hall.client.get(f"/C/{hall.deck.deck_id}/3/{sig_other}")
    assert r.status_code == 404 and not _card_numbers_shown(r.get_data(as_text=True))
    assert hall.client.get(f"/C/{other.deck_id}/3/{sig_other}").status_code == 200


@pytest.mark.parametrize(
    "path",
    ["/C/NOSUCHDK/3/AAAAAAAAAAAAAAAA", "/C/{deck}/99/{sig}", "/C/{deck}/-1/{sig}", "/C/{deck}/3/x"],
)
def test_unknown_deck_or_nonsense_is_a_404_page(hall, path):
    sig = card_signature(hall.deck.secret, hall.deck.deck_id, 3)
    r = hall.client.get(path.format(deck=hall.deck.deck_id, sig=sig))
    assert r.status_code == 404 and NOT_A_CARD in r.get_data(as_text=True)


def test_card_page_speaks_spanish(hall):
    hall.new_game()
    path = card_path(hall.deck.secret, hall.deck.deck_id, 3)
    html = hall.client.get(path + "?lang=es").get_data(as_text=True)
    assert "Cartón 3" in html


def test_a_card_of_a_deck_not_yet_in_play_shows_unmarked(hall):
    path = card_path(hall.deck.secret, hall.deck.deck_id, 6)
    html = hall.client.get(path).get_data(as_text=True)
    assert "No game is being played with this deck yet." in html
    assert _card_numbers_shown(html) == set(hall.deck.card(6).numbers)
    assert "sq covered" not in html


@pytest.mark.browser
def test_a_card_of_another_night_says_so_and_does_not_send_the_player_to_type_its_number(
    hall, live_server, page
):
    hall.new_game()  # tonight's game, with tonight's deck
    last_month = new_deck(12, seed="last month", name="Verbena")  # never loaded here
    page.goto(live_server.url + card_path(last_month.secret, last_month.deck_id, 3) + "?lang=en")
    said = page.locator("main")
    expect(said).to_contain_text("This card is from another deck")
    expect(said).to_contain_text(f"deck {last_month.deck_id}")  # as its code names it
    expect(said).to_contain_text("a card of tonight with the same number is a different card")
    expect(said).not_to_contain_text("type its serial")  # that would check tonight's card 3
    # a code of tonight's deck that was changed is still "changed", not "another night"
    sig = card_signature(hall.deck.secret, hall.deck.deck_id, 3)
    page.goto(f"{live_server.url}/C/{hall.deck.deck_id}/4/{sig}?lang=es")
    expect(said).to_contain_text("No es un cartón de esta sala")
    expect(said).not_to_contain_text("otro mazo")
