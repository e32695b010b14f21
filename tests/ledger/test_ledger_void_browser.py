"""The ledger page refuses, in the treasurer's words, to void a sale once its round paid a prize
as a share of its takings (docs/ledger.md): the refusal is shown on the page in Spanish, and
the sale stays in the list, not crossed out."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import expect
from testkit import Caller

from bingo_hall.manifest import new_deck

from .test_ledger_api import win_75_ball_round
from .test_ledger_room_browser import log_in

pytestmark = pytest.mark.browser
SHOTS = os.environ.get("LEDGER_SCREENSHOTS")  # a folder: save screenshots there to look at


def test_the_void_of_a_sale_whose_share_was_paid_is_refused_on_the_page(
    client, live_server, browser
):
    deck = new_deck(10, seed="void-paid", name="Club")
    hall = Caller(client, deck)
    gid = hall.new_game(draw="manual")
    assert hall.post(f"/api/games/{gid}/ledger/price", {"amount": "2"}).status_code == 200
    sale = hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "1-10"}).get_json()["sale_id"]
    bingo = {"bingo": {"kind": "percent", "percent": 50}}
    assert hall.post(f"/api/games/{gid}/ledger/prizes", {"prizes": bingo}).status_code == 200
    win_75_ball_round(hall, deck, gid, 3)  # 50 % of 20,00: 10,00 paid
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    log_in(page, live_server.url, client.application.config["CALLER_PIN"])
    page.goto(f"{live_server.url}/caller/ledger?game={gid}&lang=es")
    form = page.locator(f'.correct-form[data-sale="{sale}"]')
    form.locator("input").fill("cargada dos veces")
    form.locator("button").click()
    expect(page.locator("#ledger-message.error")).to_have_text(
        f"la venta {sale} no se puede anular: la ronda 1 ya pagó un premio como porcentaje de "
        "lo recaudado, esta venta incluida"
    )
    expect(form).to_be_visible()  # the sale is not voided
    if SHOTS:
        page.locator("#ledger-message").scroll_into_view_if_needed()
        page.screenshot(path=os.path.join(SHOTS, "ledger-void-refused-laptop.png"))
