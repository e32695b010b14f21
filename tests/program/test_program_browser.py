"""A night as a program in real Chromium (issue 37, "Done when"): a three-game program is loaded
from the caller page and printed; game 1 is played (Four Corners, a fixed prize); **Next game**
starts game 2, which the Maestro skips, so game 3 starts: an Italian Tombola game, its prizes in
order (ambo, terno, quaterna, cinquina, tombola). The display names each game's place in the
program, and the night's summary is checked against the sums worked out here.

The sums, by hand (pounds):
  game 1: cards 1-10 sold at £1.00 = £10.00; bingo (four corners) a fixed £5.00;
  game 2: skipped before its first ball: nothing sold, nothing paid;
  game 3: tickets 1-6 (one strip) at £2.00 = £12.00; ambo £1.00, terno £2.00, quaterna £3.00,
          cinquina £4.00, tombola 50 % of £12.00 = £6.00: £16.00;
  raffle: red tickets 1-20 at £0.50 = £10.00; three prizes (goods, no money paid);
  night:  16 cards, £22.00 + £10.00 = £32.00 taken, £21.00 in prizes, £11.00 left for the cause.

The raffle's three winners are worked out here from its revealed seed (raffle_audit, written
from docs/fairness.md): the first three tickets of the committed order.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pypdfium2 as pdfium
import pytest
from playwright.sync_api import expect
from raffle_audit import commitment, raffle_order
from testkit import Caller

from bingo_hall.manifest import new_deck, new_strip_deck

pytestmark = pytest.mark.browser
SHOTS = os.environ.get("PROGRAM_SCREENSHOTS")  # a folder: save screenshots there to look at

PROGRAM = """\
name = "Club night"
name_es = "Noche del club"
currency = "GBP"

[[game]]
name = "Four Corners"
name_es = "Cuatro esquinas"
pattern = "four_corners"
draw = "manual"
price = "1.00"
prizes = { bingo = "5" }

[[game]]
name = "The X"
name_es = "La X"
pattern = "x"
draw = "manual"
price = "1.50"
prizes = { bingo = { percent = 50 } }
interval = 15

[[game]]
name = "Tombola"
balls = 90
prize_list = "tombola"
draw = "manual"
price = "2"
[game.prizes]
ambo = "1"
terno = "2"
quaterna = "3"
cinquina = "4"
tombola = { percent = 50 }
"""

TAKEN = 10 * 100 + 6 * 200
RAFFLE = 20 * 50
AWARDED = 500 + (100 + 200 + 300 + 400) + 6 * 200 // 2


def shoot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=True)


def game_of(page) -> int:
    page.wait_for_url(re.compile(r"/caller/games/\d+"))
    return int(page.url.rstrip("/").split("/")[-1].split("?")[0])


def test_a_three_game_program_and_the_raffle_loaded_printed_played_skipped_drawn_and_summed(
    page, client, live_server, tmp_path
):
    cards = new_deck(20, seed="program night", name="Club cards")
    strips = new_strip_deck(2, seed="program night", name="Club strips")
    hall = Caller(client, cards)
    hall.load_deck(strips)
    url = live_server.url
    path = tmp_path / "club.toml"
    path.write_text(PROGRAM, encoding="utf-8")

    # print it: the players' programme, in English, with every game and its prizes
    pdf = tmp_path / "club.pdf"
    done = subprocess.run(
        [sys.executable, "-m", "bingo_hall", "program", "print", str(path), "-o", str(pdf)]
        + ["--lang", "en"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    text = pdfium.PdfDocument(pdf)[0].get_textpage().get_text_range()
    for words in ("Game 1", "Four Corners", "Game 3", "Tombola", "Interval: 15 min", "£5.00"):
        assert words in text

    # load it on the caller page
    page.goto(f"{url}/caller/login?lang=en")
    page.fill("input[name=pin]", client.application.config["CALLER_PIN"])
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r"/caller/(?!login)"))
    page.goto(f"{url}/caller/new?lang=en")
    page.click("#program summary")  # the panel opens itself once a program is loaded
    page.set_input_files("#program input[name=program]", str(path))
    page.click("#program-load")
    expect(page.locator("#program .program-games li")).to_have_count(3)
    expect(page.locator(".notice")).to_contain_text("Program Club night loaded: 3 games.")
    shoot(page, "program-loaded")

    # game 1: Next game starts it with its pattern, price and prize; the display says where
    page.click("#program-next")
    g1 = game_of(page)
    expect(page.locator('#program li[data-status="playing"]')).to_contain_text("Four Corners")
    screen = page.context.new_page()
    screen.goto(f"{url}/display/{g1}?lang=en")
    expect(screen.locator("#program-line")).to_have_text("Game 1 of 3 · Four Corners · £5.00")
    assert hall.post(f"/api/games/{g1}/ledger/sales", {"serials": "1-10"}).status_code == 201
    card = cards.cards[0]
    corners = [card.number_at(r, c) for r, c in ((0, 0), (0, 4), (4, 0), (4, 4))]
    hall.call(g1, *corners)
    assert hall.post(f"/api/games/{g1}/claims", {"serial": 1}).status_code == 201
    assert hall.post(f"/api/games/{g1}/award", {}).status_code == 200
    shoot(screen, "program-display")

    # Next game: game 2; the Maestro skips it, and game 3 starts
    page.goto(f"{url}/caller/games/{g1}?lang=en")
    page.click("#program-next")
    g2 = game_of(page)
    assert g2 != g1
    expect(page.locator("#program-skip")).to_have_text("Skip game 2")
    page.click("#program-skip")
    g3 = game_of(page)
    assert g3 != g2
    statuses = page.locator("#program .program-games li")
    expect(statuses).to_have_count(3)
    assert [statuses.nth(i).get_attribute("data-status") for i in range(3)] == [
        "played",
        "skipped",
        "playing",
    ]
    screen.goto(f"{url}/display/{g3}?lang=en")
    expect(screen.locator("#program-line")).to_have_text(
        "Game 3 of 3 · Tombola · 50 % of the sales"
    )
    shoot(page, "program-caller")

    # game 3, an Italian Tombola: one strip sold; ticket 1's top row wins ambo, terno,
    # quaterna and cinquina in turn, then its last numbers the tombola
    assert hall.post(f"/api/games/{g3}/ledger/sales", {"serials": "1-6"}).status_code == 201
    ticket = strips.cards[0]
    top = list(ticket.rows[0])
    steps = [("ambo", top[:2]), ("terno", top[2:3]), ("quaterna", top[3:4]), ("cinquina", top[4:])]
    steps.append(("tombola", [n for n in ticket.rows[1] + ticket.rows[2]]))
    for prize, balls in steps:
        hall.call(g3, *balls)
        r = hall.post(f"/api/games/{g3}/claims", {"serial": 1, "prize": prize})
        assert r.status_code == 201, r.get_json()
        r = hall.post(f"/api/games/{g3}/award", {"prize": prize})
        assert r.status_code == 200, (prize, r.get_json())

    # the raffle ends the night: sold and closed by the Maestro, three prizes drawn on the screen
    for path, body in (
        ("/api/raffle", {"price": "0.50"}),
        ("/api/raffle/sales", {"colour": "red", "numbers": "1-20"}),
        ("/api/raffle/prizes", {"name": "Hamper"}),
        ("/api/raffle/prizes", {"name": "Wine"}),
        ("/api/raffle/prizes", {"name": "Cake"}),
        ("/api/raffle/commit", {"public_input": "club night"}),
    ):
        r = hall.post(path, body)
        assert r.status_code in (200, 201), (path, r.get_json())
    screen.goto(f"{url}/raffle?lang=en")
    raffle = screen.locator("#raffle-screen")
    expect(raffle).to_have_attribute("data-live", "yes")
    sealed = screen.locator("#raffle-commitment").inner_text()
    page.goto(f"{url}/caller/raffle?lang=en")
    for n in (1, 2, 3):
        page.click("#raffle-draw button")
        expect(raffle).to_have_attribute("data-draws", str(n))
    assert hall.post("/api/raffle/reveal", {}).status_code == 200
    expect(raffle).to_have_attribute("data-stage", "revealed")
    seed = screen.locator("#raffle-seed").inner_text()
    assert commitment(seed) == sealed
    order = raffle_order(seed, [("red", n) for n in range(1, 21)], "club night")
    winners = [f"{c} {n}" for c, n in order[:3]]
    expect(screen.locator("#raffle-list li .raffle-winner")).to_have_text(winners)

    # the summary: the sums worked out above, and the program's place of each game
    night = hall.get("/api/ledger/summary").get_json()
    assert night["taken"] == TAKEN + RAFFLE == 3200
    assert night["awarded"] == AWARDED == 2100
    assert night["cards"] == 16
    by_game = {g["game_id"]: g for g in night["games"]}
    assert (by_game[g1]["taken"], by_game[g1]["awarded"]) == (1000, 500)
    assert (by_game[g2]["taken"], by_game[g2]["awarded"]) == (0, 0)
    assert (by_game[g3]["taken"], by_game[g3]["awarded"]) == (1200, 1600)
    summary = hall.get("/caller/ledger/summary.pdf?lang=en")
    assert summary.status_code == 200
    pdf_pages = pdfium.PdfDocument(summary.data)
    text = "\n".join(p.get_textpage().get_text_range() for p in pdf_pages).replace("\xa0", " ")
    assert "Program 2/3: The X (skipped)" in text and "Program 3/3: Tombola" in text
    assert f"1. Hamper: {winners[0]}" in text and f"3. Cake: {winners[2]}" in text


def test_next_game_on_the_caller_page_asks_before_it_ends_a_game_in_play(
    page, client, live_server, tmp_path
):
    """Three calls into game 1, the big yellow Next game: the panel says what would end and
    waits; Keep playing leaves it as it was; the confirm ends it and starts game 2."""
    cards = new_deck(20, seed="program confirm", name="Club cards")
    hall = Caller(client, cards)
    hall.load_deck(new_strip_deck(2, seed="program confirm", name="Club strips"))
    assert hall.post("/api/program", {"text": PROGRAM, "source": "club.toml"}).status_code == 200
    g1 = hall.post("/api/program/next").get_json()["game_id"]
    hall.call(g1, 3, 18, 33)
    url = live_server.url
    page.goto(f"{url}/caller/login?lang=en")
    page.fill("input[name=pin]", client.application.config["CALLER_PIN"])
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r"/caller/(?!login)"))
    page.goto(f"{url}/caller/games/{g1}?lang=en")
    page.click("#program-next")
    ask = page.locator("#program-confirm")
    expect(ask).to_contain_text("Game 1 is still being played: 3 calls")
    expect(ask).to_be_in_viewport()
    assert hall.get(f"/api/games/{g1}").get_json()["status"] == "active"
    page.click("#program-keep")
    expect(page.locator("#program-confirm")).to_have_count(0)
    assert hall.get(f"/api/games/{g1}").get_json()["status"] == "active"
    page.click("#program-next")
    expect(page.locator("#program-next-confirm")).to_have_text("End game 1 and start game 2")
    page.click("#program-next-confirm")
    page.wait_for_url(lambda u: f"/caller/games/{g1}" not in u)
    assert game_of(page) != g1
    assert hall.get(f"/api/games/{g1}").get_json()["status"] == "ended"
