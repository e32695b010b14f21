"""A charity night in real Chromium (issue 27): two 90-ball games; cards sold by range, by a USB
scanner typing a card's code and by the laptop's camera; a percentage prize split between two
winners on the same call; a jackpot missed (it rolls over) and then won; a claim on a card not
sold warned about on the caller page; the prizes shown big on /display; bad input refused with
nothing saved; then the one-page PDF summary, rendered by pypdfium2, read against the sums
worked out by hand below, and the CSV neutralised against formulas.

The sums, by hand (price 5,00 € a card):
  game 1: 23 cards sold = 115,00 €; línea 35 % = 40,25 €, split 20,13 € + 20,12 € (the odd cent
          to the first claim); bingo is a jackpot of 50,00 € within 15 calls, won on call 19 or
          later, so the normal prize, 10,00 €, is paid and the 50,00 € rolls over;
  game 2: 10 cards sold = 50,00 €; línea 5,00 €; the jackpot (50,00 € + 30,00 € of game 2 =
          80,00 €) won on call 15;
  night:  33 cards, 165,00 € taken, 135,25 € in prizes, 0 carried, 29,75 € left for the cause.
"""

from __future__ import annotations

import csv
import io
import os

import pypdfium2 as pdfium
import pytest
from claims.test_claims_scan import scanning
from playwright.sync_api import expect
from testkit import Caller

from bingo_hall.manifest import new_strip_deck
from bingo_hall.signing import card_url

pytestmark = pytest.mark.browser
SLOW = 15_000
EUR = "\u00a0€"
SHOTS = os.environ.get("LEDGER_SCREENSHOTS")  # a folder: save screenshots there to look at
SIZES = {"phone": (390, 844), "laptop": (1366, 768), "screen": (1920, 1080)}


def shoot(page, name: str, sizes=SIZES) -> None:
    """The page at a phone's, a laptop's and a projector's size, into LEDGER_SCREENSHOTS."""
    if not SHOTS:
        return
    before = page.viewport_size
    for size, (w, h) in sizes.items():
        page.set_viewport_size({"width": w, "height": h})
        page.screenshot(path=os.path.join(SHOTS, f"{name}-{size}.png"), full_page=size != "screen")
    page.set_viewport_size(before)


@pytest.fixture(scope="module")
def strips():
    return new_strip_deck(4, seed="ledger-night", name="Noche benéfica")  # 24 tickets


def row(deck, serial: int, r: int) -> list[int]:
    return [n for n in deck.cards[serial - 1].grid[r] if n is not None]


def house(deck, serial: int) -> list[int]:
    return [n for r in range(3) for n in row(deck, serial, r)]


def linea_pair(deck, sold: range):
    """Ticket 1's top row and a sold ticket of another strip with a row ending on the same
    ball: both complete their línea on the same call."""
    a_row = row(deck, 1, 0)
    b, r = next((s, r) for s in sold if s > 6 for r in range(3) if a_row[-1] in row(deck, s, r))
    return a_row, b, row(deck, b, r)


def sell(page, serials: str) -> None:
    page.fill("#sale-serials", serials)
    page.click("#sell-range button[type=submit]")


def jackpot(page, normal: str, within: str, adds: str) -> None:
    """Bingo as a jackpot on the ledger page's prize form, saved with the other prizes."""
    bingo = page.locator('.prize-rule[data-prize="bingo"]')
    bingo.locator('select[name="kind"]').select_option("jackpot")
    bingo.locator('[name="amount"]').fill(normal)
    bingo.locator('[name="within"]').fill(within)
    bingo.locator('[name="jackpot"]').fill(adds)
    page.click("#prizes-form button[type=submit]")


def refused(page, says: str) -> None:
    expect(page.locator("#ledger-message.error")).to_contain_text(says)


def test_a_charity_night_two_games_sales_prizes_jackpot_and_the_summary(
    client, live_server, browser_type, browser_type_launch_args, tmp_path, strips
):
    hall = Caller(client, strips)
    g1 = hall.new_game(draw="manual")
    url = live_server.url
    with scanning(
        browser_type, browser_type_launch_args, live_server, g1, strips, 21, tmp_path
    ) as page:
        page.on("dialog", lambda d: d.accept())
        page.goto(f"{url}/caller/ledger?game={g1}&lang=es")

        # the price and the prizes; bad input first: refused, nothing saved
        page.fill("#price-amount", "-5")
        page.click("#price-form button")
        refused(page, "no puede ser negativo")
        page.fill("#price-amount", "5,00")
        with page.expect_navigation():  # a change reloads the page: wait for it, not the box
            page.click("#price-form button")
        expect(page.locator("#price-amount")).to_have_value("5,00")  # as the page writes it
        linea = page.locator('.prize-rule[data-prize="linea"]')
        linea.locator("select").select_option("percent")
        linea.locator('[name="percent"]').fill("135")
        page.click("#prizes-form button[type=submit]")
        refused(page, "100 como máximo")
        linea.locator('[name="percent"]').fill("35")
        jackpot(page, normal="10", within="15", adds="50")
        expect(page.locator(".ledger-prizes-now [data-prize=bingo]")).to_contain_text("50,00" + EUR)

        # sales by range (an overlap and a card outside the deck refused), by USB scanner, by camera
        sell(page, "1-20, 22")
        expect(page.locator("#round-cards")).to_have_text("21")
        sell(page, "18-19")
        refused(page, "el cartón 18 ya está vendido para la ronda 1")
        sell(page, "25")
        refused(page, "el cartón 25 no está en el mazo")
        expect(page.locator("#sales tbody tr")).to_have_count(1)
        page.fill("#scan-text", card_url("http://10.0.0.9:5000", strips.secret, strips.deck_id, 23))
        page.press("#scan-text", "Enter")  # a USB scanner types the code and Enter
        expect(page.locator("#round-cards")).to_have_text("22")
        # the big screen already shows the prizes, and follows the next sale live
        screen = page.context.new_page()
        screen.goto(f"{url}/display/{g1}?lang=es")
        big = screen.locator("#ledger-prizes.big")
        expect(big).to_contain_text("Línea 38,50" + EUR)  # 35 % of 22 x 5,00 €
        expect(screen.locator("#station")).to_have_attribute("data-live", "yes", timeout=SLOW)
        screen.evaluate("window.notReloaded = true")
        page.click("#scan-card")  # the camera holds ticket 21
        expect(page.locator("#round-cards")).to_have_text("23", timeout=SLOW)
        expect(page.locator("#round-taken")).to_have_text("115,00" + EUR)
        expect(page.locator("#sales tbody tr td:nth-child(5)")).to_have_text(
            ["escaneado", "escaneado", "por rango"]
        )
        shoot(page, "ledger-sales")

        # the caller page and the display show the prizes before the round starts
        page.goto(f"{url}/caller/games/{g1}?lang=es")
        expect(page.locator("#ledger-prizes")).to_contain_text("Línea 40,25" + EUR, timeout=SLOW)
        expect(big).to_contain_text("Línea 40,25" + EUR, timeout=SLOW)  # 35 % of 23 x 5,00 €
        expect(big).to_contain_text("Bingo 10,00" + EUR)
        assert screen.evaluate("window.notReloaded") is True
        expect(page.locator("#station")).to_have_attribute("data-live", "yes", timeout=SLOW)

        # línea: two winners on the same call; a claim on ticket 24, never sold, is warned about
        a_row, b, b_row = linea_pair(strips, range(1, 21))
        linea_calls = len(set(a_row + b_row))
        hall.call(g1, *[n for n in a_row + b_row if n != a_row[-1]], a_row[-1])
        for serial, player in ((1, "=HYPERLINK(1)"), (b, "Luis"), (24, None)):
            page.fill("#claim-serial", str(serial))
            page.fill("#claim-player", player or "")
            page.click("#claim-submit")
            expect(page.locator("#claim-list li")).to_have_count(
                {1: 1, b: 2, 24: 3}[serial], timeout=SLOW
            )
        expect(page.locator("#ledger-warning")).to_have_text(
            "El cartón 24 no se vendió para esta ronda", timeout=SLOW
        )
        shoot(page, "ledger-caller-warning")
        shoot(screen, "ledger-display")
        page.click("#award")
        expect(page.locator('#prize-steps li[data-prize="linea"].done')).to_have_count(
            1, timeout=SLOW
        )

        # bingo on ticket 1 after more than 15 calls: the jackpot is missed and rolls over
        hall.call(g1, *[n for n in house(strips, 1) if n not in a_row + b_row])
        calls_1 = len(set(a_row + b_row + house(strips, 1)))
        assert calls_1 > 15
        page.fill("#claim-serial", "1")
        page.fill("#claim-player", "")
        page.click("#claim-submit")
        expect(page.locator("#claim-list li")).to_have_count(4, timeout=SLOW)  # 3 for the línea
        expect(page.locator("#award")).to_be_enabled(timeout=SLOW)
        page.click("#award")
        expect(page.locator("#prize-done")).to_be_visible(timeout=SLOW)
        assert hall.post(f"/api/games/{g1}/end").status_code == 200

        # game 2: sold by range, línea 5,00 €, the jackpot 50 + 30 won within 15 calls
        g2 = hall.new_game(draw="manual")
        page.goto(f"{url}/caller/ledger?game={g2}&lang=es")
        page.fill("#price-amount", "5")
        page.click("#price-form button")
        expect(page.locator("#price-amount")).to_have_value("5,00")  # as the page writes it
        sell(page, "1-10")
        expect(page.locator("#round-taken")).to_have_text("50,00" + EUR)
        page.locator('.prize-rule[data-prize="linea"] select').select_option("fixed")
        page.locator('.prize-rule[data-prize="linea"] [name="amount"]').fill("5")
        jackpot(page, normal="10", within="15", adds="30")
        expect(page.locator(".ledger-jackpot")).to_contain_text("80,00" + EUR)
        hall.call(g2, *house(strips, 2))  # 15 calls: every row of ticket 2
        for prize in ("linea", "bingo"):
            assert (
                hall.post(f"/api/games/{g2}/claims", {"serial": 2, "player": "Marta"}).status_code
                == 201
            )
            assert hall.post(f"/api/games/{g2}/award", {"prize": prize}).status_code == 200
        assert hall.post(f"/api/games/{g2}/end").status_code == 200

        # payouts: the first línea share is paid at the table
        page.goto(f"{url}/caller/ledger?game={g1}&lang=es")
        # the night's payouts in one list: game 1's three, then game 2's línea and jackpot
        expect(page.locator("#payouts tbody tr")).to_have_count(5)
        page.locator("#payouts button.pay").first.click()
        expect(page.locator("#payouts .paid")).to_have_count(1)
        # Luis's share marked paid by mistake, then taken back with the reason (a new mark)
        page.locator("#payouts button.pay").first.click()
        expect(page.locator("#payouts .paid")).to_have_count(2)
        taken_back = page.locator("#payouts .unpay-form").nth(1)
        taken_back.locator("input").fill("Luis no estaba en la mesa")
        taken_back.locator("button").click()
        expect(page.locator("#payouts .paid")).to_have_count(1)
        expect(page.locator("#payouts .unpaid")).to_have_text(
            "marcado como no pagado: Luis no estaba en la mesa"
        )
        expect(page.locator("details.log li").last).to_contain_text(
            "marcado como no pagado: Luis no estaba en la mesa"
        )
        shoot(page, "ledger-payouts")

        pdf_resp = page.request.get(f"{url}/caller/ledger/summary.pdf?lang=es")
        csv_resp = page.request.get(f"{url}/caller/ledger/summary.csv?lang=es")
        assert pdf_resp.ok and csv_resp.ok
        pdf_bytes, csv_text = pdf_resp.body(), csv_resp.text()

    pdf = pdfium.PdfDocument(pdf_bytes)
    assert len(pdf) == 1
    if SHOTS:
        pdf[0].render(scale=2).to_pil().save(os.path.join(SHOTS, "ledger-summary-pdf.png"))
    text = pdf[0].get_textpage().get_text_range().replace("\r\n", "\n").replace("\xa0", " ")
    for expected in (
        "Cartones vendidos: 23 · Recaudado: 115,00" + EUR,
        "Cartones vendidos: 10 · Recaudado: 50,00" + EUR,
        f"Línea: 20,13{EUR} · cartón 1 (=HYPERLINK(1)) · tras {linea_calls} bolas",  # 1st claim
        f"Línea: 20,12{EUR} · cartón {b} (Luis) · tras {linea_calls} bolas · sin pagar",
        "Bingo: 10,00" + EUR + " · cartón 1",
        "Bingo: 80,00" + EUR + " · cartón 2 (Marta) · tras 15 bolas · pozo",
        "Recaudado: 165,00" + EUR,
        "Premios otorgados: 135,25" + EUR,
        "Pagados: 20,13" + EUR,
        "Pozo que pasa a la próxima noche: 0,00" + EUR,
        "Queda para la causa: 29,75" + EUR,
    ):
        assert expected.replace("\xa0", " ") in text, (expected, text)
    for gid in (g1, g2):
        rec = hall.get(f"/api/games/{gid}/record").get_json()
        for rnd in rec["rounds"]:
            assert rnd["commitment"] in text and rnd["seed"] and rnd["seed"] in text

    rows = list(csv.DictReader(io.StringIO(csv_text)))  # asked with ?lang=es: Spanish words
    players = [r["jugador"] for r in rows if r["tipo"] == "pago"]
    assert players[0] == "'=HYPERLINK(1)" and "Luis" in players
    assert {r["tipo"]: int(r["centésimos"]) for r in rows if r["tipo"].startswith("total")} == {
        "total recaudado": 16500,
        "total otorgado": 13525,
        "total pagado": 2013,
        "total traído de noches anteriores": 0,
        "total que pasa a la próxima noche": 0,
        "total para la causa": 2975,
    }
