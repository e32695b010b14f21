"""Two real phones (Chromium, 360 px) at one table: join by code or QR, enter a round on one,
see it on the other without reloading (issue 7)."""

from __future__ import annotations

import io
import re

import pytest
import requests
import zxingcpp
from PIL import Image
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


@pytest.fixture
def second_phone(browser):
    context = browser.new_context(
        viewport={"width": 360, "height": 740},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    yield context.new_page()
    context.close()


def test_two_phones_share_a_burako_table_live(companions_app, serve, phone, second_phone):
    server = serve(companions_app)
    # phone A starts a table from the index
    phone.goto(f"{server.url}/t/?lang=en")
    phone.get_by_role("link", name=re.compile("Burako")).click()
    phone.locator('input[name="team0"]').first.fill("Ana")
    phone.locator('input[name="team1"]').first.fill("Caro")
    phone.get_by_role("button", name="Start the table").click()
    code = phone.get_by_test_id("table-code").inner_text().strip()
    assert re.fullmatch(r"[A-Z2-9]{4}-[A-Z2-9]{4}", code)  # shown in two groups of four

    # phone B joins by typing the code, in lower case
    second_phone.goto(f"{server.url}/t/?lang=en")
    second_phone.get_by_label("Table code").fill(code.lower())
    second_phone.get_by_role("button", name="Join").click()
    expect(second_phone.get_by_test_id("table-code")).to_have_text(code)
    expect(second_phone.locator("#live")).to_have_attribute("data-state", "live")

    # phone A: Ana's side has 1 canasta pura, took the muerto, counts 1 + J by tapping tiles;
    # Caro's side did not take the muerto and types 12+11+7
    team0 = phone.locator('fieldset[data-team="0"]')
    team0.locator('[data-field="teams.0.puras"] [data-step="1"]').click()
    team0.get_by_text("Took the muerto").click()
    team0.locator('[data-target="teams.0.down"]').click()
    phone.locator('#tile-pad [data-tile="1"]').click()
    phone.locator('#tile-pad [data-tile="J"]').click()
    expect(phone.locator("#pad-total")).to_contain_text("65")
    phone.locator("#pad-done").click()
    team1 = phone.locator('fieldset[data-team="1"]')
    team1.get_by_text("No muerto").click()
    team1.locator('input[name="teams.1.down"]').fill("12+11+7")
    phone.get_by_role("button", name="Save hand").click()

    # 200 + 100 + 65 = 365 | -100 + 30 = -70, on both phones; B never reloads
    for page in (phone, second_phone):
        expect(page.locator('[data-total="0"]')).to_have_text("365")
        expect(page.locator('[data-total="1"]')).to_have_text("-70")

    # where the 365 came from, on demand: canastas 200, muerto 100, laid down 65
    second_phone.get_by_role("button", name="Points of hand 1").click()
    detail = second_phone.locator("#scoreboard tr.detail td").nth(1)
    for line in ("Canastas 200", "Muerto 100", "Laid down 65"):
        expect(detail).to_contain_text(line)

    # phone B undoes it; phone A sees the totals go back and a Restore offer
    second_phone.once("dialog", lambda d: d.accept())
    second_phone.get_by_role("button", name="Undo last entry").click()
    expect(phone.locator('[data-total="0"]')).to_have_text("0")
    expect(phone.locator("#undone-list")).to_contain_text("Entry 1 was undone")

    # the page fits the phone: nothing wider than 360 px
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360


def test_the_qr_on_the_table_page_carries_the_join_url(companions_app, serve, phone):
    server = serve(companions_app)
    phone.goto(f"{server.url}/t/new/rummy?lang=es")
    phone.locator('input[name="player"]').nth(0).fill("Ana")
    phone.locator('input[name="player"]').nth(1).fill("Beto")
    phone.get_by_role("button", name="Empezar la mesa").click()
    code = phone.get_by_test_id("table-code").inner_text().strip()
    # a new table shows its invite straight away: that is when the others join
    expect(phone.locator("#invite")).to_have_attribute("open", "")
    for _ in range(20):  # on a busy machine the first frame can come before the layout settles
        png = phone.locator(".qr-box svg").screenshot()
        found = zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))
        if found:
            break
        phone.wait_for_timeout(250)
    assert found and found[0].text.endswith(f"/t/{code.replace('-', '')}")  # shown ABCD-EF23
    # installable: the service worker is registered for /t/
    scope = phone.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
    assert scope.endswith("/t/")


def test_a_bad_rack_shows_its_message_next_to_the_field(companions_app, serve, phone):
    server = serve(companions_app)
    phone.goto(f"{server.url}/t/new/rummy?lang=es")
    for i, name in enumerate(["Ana", "Beto", "Caro"]):
        phone.locator('input[name="player"]').nth(i).fill(name)
    phone.get_by_role("button", name="Empezar la mesa").click()
    phone.locator(".closers").get_by_text("Ana").click()  # Ana closed
    phone.locator('input[name="racks.Beto"]').fill("-5")
    phone.locator('input[name="racks.Caro"]').fill("8+J")
    phone.get_by_role("button", name="Guardar la mano").click()
    error = phone.locator('input[name="racks.Beto"]').locator(
        "xpath=ancestor::div[contains(@class,'tiles-row')]/following-sibling::p[1]"
    )
    expect(error).to_have_text(re.compile("negativa"))
    phone.locator('input[name="racks.Beto"]').fill("5+3")
    phone.get_by_role("button", name="Guardar la mano").click()
    expect(
        phone.locator('input[name="racks.Caro"]').locator(
            "xpath=ancestor::div[contains(@class,'tiles-row')]/following-sibling::p[1]"
        )
    ).to_have_text(re.compile("12|número"))


def test_a_past_game_is_corrected_or_undone_from_its_row(companions_app, serve, phone):
    server = serve(companions_app)
    r = requests.post(f"{server.url}/t/new/rummy", json={"players": ["Ana", "Beto"]})
    code = r.json()["code"]
    game = {"closed_by": "Ana", "racks": {"Beto": "10+3"}}
    requests.post(f"{server.url}/t/{code}/entries", json=game)
    phone.goto(f"{server.url}/t/{code}?lang=en")
    expect(phone.locator('[data-total="1"]')).to_have_text("13")
    # Beto really had 10, 3 and a joker left: 63
    phone.get_by_role("button", name="Correct game 1").click()
    expect(phone.locator('input[name="racks.Beto"]')).to_have_value("10+3")
    phone.locator('input[name="racks.Beto"]').fill("10+3+50")
    phone.get_by_role("button", name="Save correction").click()
    expect(phone.locator('[data-total="1"]')).to_have_text("63")
    phone.get_by_role("button", name="Correct game 1").click()
    phone.get_by_role("button", name="Undo this game").click()
    expect(phone.locator('[data-total="1"]')).to_have_text("0")
    expect(phone.locator("#game-title")).to_have_text("Game 1 of 4")


def test_play_again_takes_every_phone_to_the_new_table(companions_app, serve, phone, second_phone):
    server = serve(companions_app)
    code = requests.post(
        f"{server.url}/t/new/rummy", json={"players": ["Ana", "Beto"], "settings": {"games": 1}}
    ).json()["code"]
    requests.post(
        f"{server.url}/t/{code}/entries", json={"closed_by": "Ana", "racks": {"Beto": 12}}
    )
    for page in (phone, second_phone):
        page.goto(f"{server.url}/t/{code}?lang=en")
        expect(page.locator("#winner")).to_have_text("Ana wins!")
    expect(second_phone.locator("#live")).to_have_attribute("data-state", "live")
    phone.get_by_role("button", name="Play again, same players").click()
    shown = f"{code[:4]}-{code[4:]}"  # the page shows the code in two groups of four
    expect(phone.get_by_test_id("table-code")).not_to_have_text(shown)
    new_code = phone.get_by_test_id("table-code").inner_text().strip()
    # the other phone is offered the new table without reloading
    second_phone.get_by_role("link", name="Go to the new game").click()
    expect(second_phone.get_by_test_id("table-code")).to_have_text(new_code)
    expect(second_phone.locator('[data-total="0"]')).to_have_text("0")
