"""Claims in a 90-ball game (issue 17): each prize of both sequences (línea -> bingo; one line ->
two lines -> full house) judged on real strips, the verdict naming the rows, the Maestro's award
moving the game to the next prize; the ticket's page as printed; and a printed ticket's QR code,
decoded from the PDF, opened against the station. Expected rows are read off the ticket's grid
(the manifest's 3 x 9 cells), never from the code under test."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pypdfium2 as pdfium
import pytest
import zxingcpp
from testkit import Caller, marked_card

from bingo_hall.manifest import new_strip_deck
from bingo_hall.printing import render_deck_pdf
from bingo_hall.signing import card_path


@pytest.fixture(scope="module")
def strips():
    return new_strip_deck(3, seed="claims-90", name="Tiras de prueba")


@pytest.fixture
def hall(client, strips):
    return Caller(client, strips)


def row(deck, serial: int, r: int) -> list[int]:
    """Row r (0 = top) of a ticket, read off its printed grid: the cells that are not blank."""
    return [n for n in deck.cards[serial - 1].grid[r] if n is not None]


def check(hall, gid, serial):
    r = hall.get(f"/api/games/{gid}/check/{serial}")
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def claim(hall, gid, serial, **extra):
    r = hall.post(f"/api/games/{gid}/claims", {"serial": serial, **extra})
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def award(hall, gid, prize):
    return hall.post(f"/api/games/{gid}/award", {"prize": prize})


def test_linea_then_bingo_the_award_moves_the_game_to_the_next_prize(hall, strips):
    gid = hall.new_game(draw="manual")
    middle = row(strips, 4, 1)
    hall.call(gid, *middle[:-1])
    v = check(hall, gid, 4)
    assert v["prize"] == "linea" and v["valid"] is False and v["complete_rows"] == []
    assert [line["missing"] for line in v["lines"]][1] == [middle[-1]]
    hall.call(gid, middle[-1])
    v = check(hall, gid, 4)
    assert v["valid"] is True and v["complete_rows"] == ["L2"] and v["last_call_rows"] == ["L2"]
    assert [line["numbers"] for line in v["lines"]] == [row(strips, 4, r) for r in range(3)]
    made = claim(hall, gid, 4, player="Rosa")
    assert made["prize"] == "linea" and made["valid"] is True and made["penalty"] is None
    done = award(hall, gid, "linea")
    assert done.status_code == 200
    assert done.get_json()["winners"] == [
        {"claim_id": made["claim_id"], "serial": 4, "player": "Rosa"}
    ]
    assert done.get_json()["next"] == "bingo"
    snap = hall.get(f"/api/games/{gid}").get_json()
    assert snap["prizes"]["current"] == "bingo"
    assert [a["prize"] for a in snap["prizes"]["awarded"]] == ["linea"]
    # The same ticket now claims the bingo: one row is not enough.
    early = claim(hall, gid, 4)
    assert early["prize"] == "bingo" and early["valid"] is False
    assert early["verdict"]["complete_rows"] == ["L2"]
    assert award(hall, gid, "bingo").status_code == 409
    hall.call(gid, *row(strips, 4, 0), *row(strips, 4, 2))
    full = claim(hall, gid, 4)
    assert full["valid"] is True and full["verdict"]["complete_rows"] == ["L1", "L2", "L3"]
    done = award(hall, gid, "bingo").get_json()
    assert done["next"] is None and done["prizes"]["current"] is None
    r = hall.post(f"/api/games/{gid}/claims", {"serial": 5})
    assert r.status_code == 409 and "next round" in r.get_json()["error"]


def test_one_line_two_lines_full_house_each_needs_its_rows(hall, strips):
    gid = hall.new_game(draw="manual", mode="lines-house")
    top, middle, bottom = (row(strips, 9, r) for r in range(3))
    hall.call(gid, *top)
    assert claim(hall, gid, 9)["valid"] is True
    assert award(hall, gid, "one-line").get_json()["next"] == "two-lines"
    hall.call(gid, *bottom[:-1])
    short = claim(hall, gid, 9)
    assert short["prize"] == "two-lines" and short["valid"] is False
    assert short["verdict"]["complete_rows"] == ["L1"]
    hall.call(gid, bottom[-1])
    two = claim(hall, gid, 9)
    assert two["valid"] is True and two["verdict"]["complete_rows"] == ["L1", "L3"]
    assert two["verdict"]["last_call_rows"] == ["L3"]
    assert award(hall, gid, "two-lines").get_json()["next"] == "full-house"
    hall.call(gid, *middle)
    house = claim(hall, gid, 9)
    assert house["prize"] == "full-house" and house["valid"] is True
    assert award(hall, gid, "full-house").get_json()["next"] is None


def test_a_row_complete_before_the_last_call_still_wins_and_the_verdict_says_so(hall, strips):
    gid = hall.new_game(draw="manual")
    top = row(strips, 2, 0)
    other = next(n for n in range(1, 91) if n not in strips.cards[1].numbers)
    hall.call(gid, *top, other)
    v = check(hall, gid, 2)
    assert v["valid"] is True and v["complete_rows"] == ["L1"] and v["last_call_rows"] == []


def test_claims_on_the_same_call_share_the_prize(hall, strips):
    """Two tickets of different strips whose rows both end with the same call."""
    a_row = row(strips, 1, 0)
    serial_b, r_b = next(
        (t.serial, r)
        for t in strips.cards[6:]
        for r in range(3)
        if a_row[-1] in row(strips, t.serial, r)
    )
    b_row = row(strips, serial_b, r_b)
    gid = hall.new_game(draw="manual")
    hall.call(gid, *[n for n in a_row + b_row if n != a_row[-1]], a_row[-1])
    first = claim(hall, gid, 1)
    second = claim(hall, gid, serial_b)
    assert first["valid"] and second["valid"] and second["simultaneous"] == 2
    winners = award(hall, gid, "linea").get_json()["winners"]
    assert sorted(w["serial"] for w in winners) == [1, serial_b]


def test_a_doubled_award_cannot_award_the_next_prize(hall, strips):
    gid = hall.new_game(draw="manual")
    hall.call(gid, *row(strips, 3, 0))
    claim(hall, gid, 3)
    assert award(hall, gid, "linea").status_code == 200
    r = award(hall, gid, "linea")
    assert r.status_code == 409 and "bingo" in r.get_json()["error"]


def test_a_claim_resting_on_an_undone_ball_is_not_awarded(hall, strips):
    gid = hall.new_game(draw="manual")
    hall.call(gid, *row(strips, 7, 2))
    assert claim(hall, gid, 7)["valid"] is True
    assert hall.post(f"/api/games/{gid}/undo", {"reason": "misread"}).status_code == 200
    r = award(hall, gid, "linea")
    assert r.status_code == 409 and "no valid claim" in r.get_json()["error"]


def test_the_next_round_plays_the_prizes_again(hall, strips):
    gid = hall.new_game(draw="manual")
    hall.call(gid, *row(strips, 3, 1))
    claim(hall, gid, 3)
    award(hall, gid, "linea")
    assert hall.post(f"/api/games/{gid}/rounds", {}).status_code == 201
    snap = hall.get(f"/api/games/{gid}").get_json()
    assert snap["prizes"]["current"] == "linea" and snap["prizes"]["awarded"] == []


def _cells(html: str) -> list[str]:
    return re.findall(r'<td class="sq[^"]*"(?: data-number="\d+")?>([^<]*)</td>', html)


@pytest.mark.browser
def test_the_tickets_qr_page_shows_it_as_printed_with_the_rows_marked(
    hall, strips, live_server, phone
):
    gid = hall.new_game(draw="manual")
    ticket = strips.cards[10]
    hall.call(gid, *row(strips, 11, 2))
    r = hall.client.get(card_path(strips.secret, strips.deck_id, 11))
    assert r.status_code == 200
    html = marked_card(phone, live_server.url + card_path(strips.secret, strips.deck_id, 11))
    assert "Ticket 11" in html
    printed = [str(n) if n is not None else "" for line in ticket.grid for n in line]
    assert _cells(html) == printed
    assert html.count('class="sq blank"') == 12  # 27 cells, 15 numbers
    assert re.findall(r'<tr class="complete" data-row="(L\d)"', html) == ["L3"]
    covered = {int(n) for n in re.findall(r'class="sq covered[^"]*" data-number="(\d+)"', html)}
    assert covered == set(row(strips, 11, 2))
    bad = card_path(strips.secret, strips.deck_id, 12)[:-2] + "AA"
    assert hall.client.get(bad).status_code == 404


@pytest.mark.browser
def test_a_printed_tickets_qr_opens_that_ticket_at_the_station(hall, strips, live_server, phone):
    gid = hall.new_game(draw="manual")
    pdf = render_deck_pdf(
        strips, base_url="http://192.168.1.20:5000", serials=[7, 8, 9, 10, 11, 12]
    )
    page = pdfium.PdfDocument(pdf)[0]
    image = page.render(scale=4).to_pil()
    texts = sorted(
        r.text for r in zxingcpp.read_barcodes(image) if r.format == zxingcpp.BarcodeFormat.QRCode
    )
    paths = {int(urlsplit(t).path.split("/")[3]): urlsplit(t).path for t in texts}
    assert sorted(paths) == [7, 8, 9, 10, 11, 12]
    hall.call(gid, *row(strips, 8, 0))
    assert hall.client.get(paths[8]).status_code == 200
    html = marked_card(phone, live_server.url + paths[8] + "?lang=en")
    assert "Ticket 8" in html and "strip 2" in html
    assert re.findall(r'<tr class="complete" data-row="(L\d)"', html) == ["L1"]
    fragment = hall.client.get(paths[8] + "?part=verdict").get_data(as_text=True)
    assert 'data-valid="yes"' in fragment


def test_a_claim_naming_another_prize_is_refused(hall, strips):
    gid = hall.new_game(draw="manual")
    hall.call(gid, *row(strips, 3, 2))
    r = hall.post(f"/api/games/{gid}/claims", {"serial": 3, "prize": "bingo"})
    assert r.status_code == 409 and "linea" in r.get_json()["error"]
    r = hall.post(f"/api/games/{gid}/claims", {"serial": 3, "prize": "house"})
    assert r.status_code == 400
    r = hall.get(f"/api/games/{gid}/check/19")
    assert r.status_code == 404 and "1-18" in r.get_json()["error"]


def test_the_record_keeps_the_prizes_and_false_claims_of_a_ninety_ball_game(hall, strips):
    gid = hall.new_game(draw="manual")
    top = row(strips, 5, 0)
    hall.call(gid, *top)
    assert claim(hall, gid, 6, player="Luis")["valid"] is False
    claim(hall, gid, 5, player="Ana")
    award(hall, gid, "linea")
    rec = hall.get(f"/api/games/{gid}/record").get_json()
    assert rec["balls"] == 90 and rec["mode"] == "linea-bingo"
    assert [c["call"] for c in rec["rounds"][0]["calls"]] == [str(n) for n in top]
    prizes = rec["rounds"][0]["prizes"]
    assert [(p["prize"], [w["player"] for w in p["winners"]]) for p in prizes] == [
        ("linea", ["Ana"])
    ]
    csv = hall.get(f"/api/games/{gid}/record.csv").get_data(as_text=True).splitlines()
    events = [line.split(",")[2] for line in csv[1:]]
    assert events == ["round"] + ["call"] * 5 + ["claim", "claim", "prize"]
    assert csv[-1].split(",")[7:9] == ["Ana", "linea"]


def test_a_checked_or_claimed_ticket_is_shown_on_the_hall_screens(app, hall, strips):
    """The `verdict` event of a 90-ball game carries the ticket (game 90, no penalty), for a
    check shown to the room (a POST; a GET only reads) and for a claim with the player's name."""
    from bingo_hall.station.games import channel
    from bingo_hall.web.instance import hall as hall_state

    gid = hall.new_game(draw="manual")
    sub = hall_state(app).hub.subscribe(channel(gid))
    hall.call(gid, *row(strips, 2, 1))

    def verdicts():
        out = []
        while (event := sub.get(timeout=0)) is not None:
            if event.name == "verdict":
                out.append(event.data)
        return out

    verdicts()
    check(hall, gid, 2)  # a GET only reads
    assert verdicts() == []
    assert hall.post(f"/api/games/{gid}/check/2").status_code == 200  # POST shows it
    [shown] = verdicts()
    assert shown["game"] == 90 and shown["source"] == "check" and shown["valid"] is True
    assert shown["penalty"] is None and shown["verdict"]["complete_rows"] == ["L2"]
    claim(hall, gid, 5, player="Ana")  # a ticket without the línea: a false claim, shown too
    [shown] = verdicts()
    assert shown["source"] == "claim" and shown["player"] == "Ana" and shown["valid"] is False
    assert shown["round"] == 1 and shown["serial"] == 5


@pytest.mark.browser
def test_one_called_number_is_singular_on_the_spanish_ticket_page(
    client, hall, strips, live_server, phone
):
    gid = hall.new_game(draw="manual")
    hall.call(gid, row(strips, 1, 0)[0])
    path = card_path(strips.secret, strips.deck_id, 1) + "?lang=es"
    assert client.get(path).status_code == 200
    text = marked_card(phone, live_server.url + path)
    assert "1 número de este cartón cantado" in text and "1 bola cantada" in text
