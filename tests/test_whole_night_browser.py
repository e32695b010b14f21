"""A whole night, as a host runs one, in real Chromium against a real station: a program with
every game kind the kit has, stepped through with **Next game** on the caller page, with the big
screen, the caller page and a player's phone checked on the screens a hall has at each state the
night passes through (tests/layout.py), in Spanish for some games and English for others; the
door's sales from a price list (singles and books), the raffle, the treasurer's summary (the
web's PDF and CSV, the command's text, PDF and CSV, in both languages) and the book's export and
replay.

The night (pesos), worked out by hand:
  1 Cuatro esquinas (75, four corners; es): cards 1-12 sold as two books of 6 at 5.000,00 =
    10.000,00; bingo a fixed 3.000,00 to card 1.
  2 Lines (75, any line; en): cards 1-4 as singles at 1.000,00 = 4.000,00; bingo 50 % = 2.000,00.
  3 Bingo de Puntos (75, points; es): cards 1-5 at 1.000,00 = 5.000,00; bingo a fixed 1.000,00.
  4 Línea y bingo (90, línea then bingo; es): tickets 1-6 (a book) at 6.000,00; línea 1.000,00,
    bingo 2.000,00.
  5 Tambola (90, every prize open; en): tickets 1-6 at 6.000,00; early five 500,00, the rest
    nothing in money, full house 1.500,00.
  6 Tombola (90, the Italian prizes in order; es): tickets 1-6 at 6.000,00; ambo 100,00,
    terno 200,00, quaterna 300,00, cinquina 400,00, tombola 1.000,00.
  7 Cometa loca (75, the crazy kite of the pattern book; es): cards 1-4 at 1.000,00 = 4.000,00;
    bingo 2.000,00 to card 4, on the kite turned 90°, which its verdict names.
  8 Wild number (75, any line; en): cards 1-4 at 1.000,00 = 4.000,00; the first ball's last
    digit is wild; bingo 1.500,00 to card 2.
  9 Bola premiada (75, any line; es): cards 1-20 at 500,00 = 10.000,00; the Maestro draws the
    money ball on the caller page, the door then refuses cards 21-24 in Spanish; a bingo on the
    money ball pays its 1.000,00 twice: 2.000,00.
  10 Impares (75, odd-even; es): cards 1-4 at 1.000,00 = 4.000,00; card 3's odd numbers win
    1.000,00.
  11 Stamps on two cards (75, a postage stamp on 2 cards of one book; en): cards 1-6 as a book
    at 5.000,00; bingo 3.000,00 to the book of cards 1 and 2.
  12 Lines and house (90; en): tickets 1-6 at 6.000,00; one line 500,00, and a full house of
    1.000,00 plus a jackpot of 50.000,00 within 5 calls, which nobody wins in time: the game
    ends after its one line, and the jackpot is carried to the next night.
  then a linked game (75, postage stamp), started from the organiser's file with the code
    typed, its hall prize claimed and its result made: no money in this hall's ledger.
  raffle: tickets 1-10 at 500,00 = 5.000,00, one prize in goods.
  night: taken 10.000 + 4.000 + 5.000 + 3 x 6.000 + (4.000 + 4.000 + 10.000 + 4.000 + 5.000)
    + 6.000 + 5.000 = 75.000,00; prizes 3.000 + 2.000 + 1.000 + 3.000 + 2.000 + 2.000 +
    (2.000 + 1.500 + 2.000 + 1.000 + 3.000) + 500 = 23.000,00; pot carried 50.000,00.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re

import pypdfium2 as pdfium
import pytest
from layout import LAPTOP, PHONE, PROJECTORS, layout_problems
from linked.hall import around_now, organise, station_keys
from playwright.sync_api import expect
from station.helpers import order_from_document
from tambolakit import numbers
from test_axe_browser import _serious
from testkit import TEST_PIN, Caller, scripts_ran

from bingo_hall.manifest import new_deck, new_strip_deck
from bingo_hall.signing import card_path
from bingo_hall.web import book_store as night_book

pytestmark = [pytest.mark.browser, pytest.mark.slow]
SHOTS = os.environ.get("NIGHT_SCREENSHOTS")  # a folder: save what each screen showed there
SLOW = 20_000  # ms: the screens follow the station's stream on a busy shared machine

PROGRAM = """\
name = "Noche del Club Social"
name_es = "Noche del Club Social"
currency = "ARS"

[[game]]
name = "Four corners"
name_es = "Cuatro esquinas"
pattern = "four_corners"
draw = "manual"
prices = [{ label = "Single", amount = "1000" }, { label = "Book of 6", amount = "5000", book = 6 }]
prizes = { bingo = "3000" }

[[game]]
name = "Lines"
name_es = "Líneas"
pattern = "lines"
draw = "manual"
price = "1000"
prizes = { bingo = { percent = 50 } }

[[game]]
name = "Bingo de Puntos"
mode = "points"
draw = "manual"
price = "1000"
prizes = { bingo = "1000" }
interval = 15

[[game]]
name = "Line and bingo"
name_es = "Línea y bingo"
balls = 90
prize_list = "linea-bingo"
draw = "manual"
price = "6000"
book = 6
prizes = { linea = "1000", bingo = "2000" }

[[game]]
name = "Tambola"
balls = 90
prize_list = "tambola"
draw = "manual"
price = "6000"
book = 6
prizes = { early-five = "500", full-house = "1500" }

[[game]]
name = "Tombola"
name_es = "Tómbola"
balls = 90
prize_list = "tombola"
draw = "manual"
price = "6000"
book = 6
prizes = { ambo = "100", terno = "200", quaterna = "300", cinquina = "400", tombola = "1000" }

[[game]]
name = "Crazy kite"
name_es = "Cometa loca"
pattern = "crazy_kite"
draw = "manual"
price = "1000"
prizes = { bingo = "2000" }

[[game]]
name = "Wild number"
name_es = "Número comodín"
pattern = "lines"
wild_number = true
draw = "manual"
price = "1000"
prizes = { bingo = "1500" }

[[game]]
name = "Money ball"
name_es = "Bola premiada"
pattern = "lines"
money_ball = "double"
draw = "manual"
price = "500"
prizes = { bingo = "1000" }

[[game]]
name = "Odd numbers"
name_es = "Impares"
odd_even = "odd"
draw = "manual"
price = "1000"
prizes = { bingo = "1000" }

[[game]]
name = "Stamps on two cards"
name_es = "Estampillas en dos cartones"
pattern = "postage_stamp"
cards_needed = 2
draw = "manual"
prices = [{ label = "Book of 6", amount = "5000", book = 6 }]
prizes = { bingo = "3000" }

[[game]]
name = "Lines and house"
name_es = "Líneas y cartón lleno"
balls = 90
prize_list = "lines-house"
draw = "manual"
price = "6000"
book = 6
[game.prizes]
one-line = "500"
full-house = { amount = "1000", jackpot = "50000", within = 5, mode = "on-top" }
"""

#: the game kinds in the program's order, each with the language its screens are read in
GAMES = [
    ("corners", "es"),
    ("lines", "en"),
    ("points", "es"),
    ("linea-bingo", "es"),
    ("tambola", "en"),
    ("tombola", "es"),
    ("crazy-kite", "es"),
    ("wild-number", "en"),
    ("money-ball", "es"),
    ("odd", "es"),
    ("two-cards", "en"),
    ("lines-house", "en"),
]
TAKEN = (
    10_000_00 + 4_000_00 + 5_000_00 + 3 * 6_000_00
    + (4_000_00 + 4_000_00 + 10_000_00 + 4_000_00 + 5_000_00)
    + 6_000_00
    + 5_000_00  # the raffle
)  # fmt: skip
AWARDED = (
    3_000_00 + 2_000_00 + 1_000_00 + 3_000_00 + 2_000_00 + 2_000_00
    + (2_000_00 + 1_500_00 + 2 * 1_000_00 + 1_000_00 + 3_000_00)
    + 500_00
)  # fmt: skip
CARRIED = 50_000_00


#: the phone's card page has followed the hall to game `gid`: it plays in it, or it says that
#: the new game is played with other cards (card.js)
FOLLOWED = """gid => { const v = document.getElementById('verify');
  return !!v && (v.dataset.game === String(gid) || v.dataset.next === String(gid)); }"""


class Night:
    """The host's screens: the caller page (the laptop, 1366x768), the big screen and a
    player's phone at its largest text, each checked with the layout check at each state."""

    def __init__(self, browser, url: str, hall: Caller) -> None:
        self.url, self.hall = url, hall
        self.caller = browser.new_page(viewport={"width": LAPTOP[0], "height": LAPTOP[1]})
        self.screen = browser.new_page(viewport={"width": 1280, "height": 720})
        phone = browser.new_context(viewport={"width": PHONE[0], "height": PHONE[1]})
        # the card page's own text size at its largest, as the elderly player keeps it
        phone.add_init_script("localStorage.setItem('bingo.text', '3')")
        self.phone = phone.new_page()
        self.caller.on("dialog", lambda d: d.accept())
        self.problems: list[str] = []

    def log_in(self) -> None:
        self.caller.goto(f"{self.url}/caller/login?lang=es")
        self.caller.fill("input[name=pin]", TEST_PIN)
        self.caller.press("input[name=pin]", "Enter")
        self.caller.wait_for_url(re.compile(r"/caller/(?!login)"))

    def next_game(self, lang: str) -> int:
        """**Next game** on the caller page; the game it started, its pages opened in `lang`."""
        before = self.caller.url
        self.caller.click("#program-next")
        self.caller.wait_for_url(lambda u: u != before and re.search(r"/caller/games/\d+", u))
        gid = int(re.search(r"/caller/games/(\d+)", self.caller.url).group(1))
        if self.phone.url.startswith(self.url):  # the player's phone follows the hall by itself
            self.phone.wait_for_function(FOLLOWED, arg=gid, timeout=SLOW)
        self.caller.goto(f"{self.url}/caller/games/{gid}?lang={lang}")
        scripts_ran(self.caller)
        self.screen.goto(f"{self.url}/display/{gid}?lang={lang}")
        scripts_ran(self.screen)
        return gid

    def phone_on(self, deck, serial: int, lang: str) -> None:
        self.phone.goto(self.url + card_path(deck.secret, deck.deck_id, serial) + f"?lang={lang}")
        expect(self.phone.locator("#verify")).to_have_attribute("data-marked", "yes")

    def look(self, game: str, state: str, calls: bool = True) -> None:
        """Every screen at this state, at every size a hall has: nothing cut off, covered or
        spilt, and what needs attention on the first screen."""
        where = f"{game} · {state}"
        # the last call, or the card shown to the room in its place; Draw, or the cage's entry
        hero = ["#last-call, #claim-show .vcard"] if calls else []
        self.problems += [
            f"{where} · display {p}"
            for p in layout_problems(self.screen, PROJECTORS, fit=True, first_screen=hero)
        ]
        draw = "#draw, #manual-ball"
        self.problems += [
            f"{where} · caller {p}"
            for p in layout_problems(self.caller, [LAPTOP], first_screen=[draw, *hero])
        ]
        self.problems += [f"{where} · phone {p}" for p in layout_problems(self.phone, [PHONE])]
        if SHOTS:
            for name, page in (("display", self.screen), ("caller", self.caller)):
                page.screenshot(path=os.path.join(SHOTS, f"{game}-{state}-{name}.png"))
            self.phone.screenshot(
                path=os.path.join(SHOTS, f"{game}-{state}-phone.png"), full_page=True
            )

    def call(self, gid: int, *balls: int) -> None:
        """Balls from the cage typed by the Maestro; the caller page and the big screen show the
        last one before anything else happens (as the Maestro would wait to see it)."""
        self.hall.call(gid, *balls)
        last = str(balls[-1])
        expect(self.caller.locator("#last-call")).to_contain_text(last, timeout=SLOW)
        expect(self.screen.locator("#last-call")).to_contain_text(last, timeout=SLOW)

    def claim_and_award(self, gid: int, serial: int, prize: str | None, **extra) -> dict:
        """The claim made and awarded; its verdict, as the station judged it."""
        body = {"serial": serial, **({"prize": prize} if prize else {}), **extra}
        made = self.hall.post(f"/api/games/{gid}/claims", body)
        assert made.status_code == 201 and made.get_json()["valid"], made.get_json()
        award = self.hall.post(f"/api/games/{gid}/award", {"prize": prize} if prize else {})
        assert award.status_code == 200, award.get_json()
        return made.get_json()["verdict"]


def sell(hall: Caller, gid: int, serials: str, **price) -> None:
    made = hall.post(f"/api/games/{gid}/ledger/sales", {"serials": serials, **price})
    assert made.status_code == 201, made.get_json()


def cells(card, spots) -> list[int]:
    return [card.number_at(r, c) for r, c in spots]


#: the kite drawn in docs/patterns.md (two squares at a corner, its tail down the diagonal),
#: turned a quarter: its head at the top right, its tail to the bottom left
KITE_TURNED_90 = ((0, 3), (0, 4), (1, 3), (1, 4), (2, 2), (3, 1), (4, 0))
LINES = [[(r, c) for c in range(5)] for r in range(5)] + [
    [(r, c) for r in range(5)] for c in range(5)
]


def wild_row(card, deck) -> tuple[int, list[int]]:
    """A first ball off `card` whose last digit is that of some numbers of one of the card's
    rows, but not of all: the row then lacks only its other numbers."""
    for r in range(5):
        row = [n for n in cells(card, LINES[r]) if n is not None]
        for first in range(1, 76):
            digit = first % 10
            hits = sum(n % 10 == digit for n in row)
            if first not in card.numbers and 0 < hits < len(row):
                return first, row
    raise AssertionError("no row of the card takes a wild digit")


def money_line(deck, serials, ball: int) -> tuple[int, list[int]]:
    """A sold card with the money ball on it, and the other numbers of a row or column through
    it: called first, they leave the line to be completed by the money ball."""
    for serial in serials:
        card = deck.card(serial)
        for line in LINES:
            numbers = [n for n in cells(card, line) if n is not None]
            if ball in numbers:
                return serial, [n for n in numbers if n != ball]
    raise AssertionError(f"the money ball {ball} is on none of the cards sold")


def first_stamp(card, order) -> int:
    """The call of `order` (counted from 1) at which `card` first shows a postage stamp: any of
    its four corners' 2x2 blocks all called."""
    at = {ball: i + 1 for i, ball in enumerate(order)}
    corners = [((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)) for r in (0, 3) for c in (0, 3)]
    return min(max(at[n] for n in cells(card, block)) for block in corners)


def test_a_whole_night_of_every_game_kind_in_spanish_and_english_on_a_halls_screens(
    app, browser, client, live_server, tmp_path, kit_cli
):
    cards = new_deck(24, seed="whole night", name="Cartones del club")
    strips = new_strip_deck(2, seed="whole night", name="Tiras del club")
    hall = Caller(client, cards)
    hall.load_deck(strips)
    program = tmp_path / "noche.toml"
    program.write_text(PROGRAM, encoding="utf-8")
    night = Night(browser, live_server.url, hall)
    night.log_in()
    night.caller.goto(f"{live_server.url}/caller/new?lang=es")
    night.caller.click("#program summary")
    night.caller.set_input_files("#program input[name=program]", str(program))
    night.caller.click("#program-load")
    expect(night.caller.locator("#program .program-games li")).to_have_count(len(GAMES))
    gids: list[int] = []

    # 1 · Cuatro esquinas, in Spanish: two books sold at the door, card 1's corners
    gid = night.next_game("es")
    gids.append(gid)
    expect(night.screen.locator("#program-line")).to_contain_text("Partida 1 de 12")
    prices = hall.get(f"/api/games/{gid}/ledger").get_json()["prices"]
    book = next(p for p in prices if p.get("book") == 6)
    sell(hall, gid, "1-12", price=book["price_id"])
    night.phone_on(cards, 1, "es")
    night.look("corners", "before the first ball", calls=False)
    card = cards.card(1)
    night.call(gid, *cells(card, ((0, 0), (0, 4), (4, 0))))
    night.look("corners", "mid-game")
    night.call(gid, card.number_at(4, 4))
    assert hall.post(f"/api/games/{gid}/check/1").status_code == 200  # shown to the room
    night.look("corners", "a claim being checked")
    night.claim_and_award(gid, 1, None)
    expect(night.screen.locator("#claim-show")).to_be_visible(timeout=SLOW)
    night.look("corners", "the round won")

    # 2 · Lines, in English: singles, card 2's top row
    gid = night.next_game("en")
    gids.append(gid)
    expect(night.screen.locator("#program-line")).to_contain_text("Game 2 of 12")
    sell(hall, gid, "1-4")
    night.phone_on(cards, 2, "en")
    card = cards.card(2)
    night.call(gid, *cells(card, ((0, c) for c in range(5))))
    night.look("lines", "a bingo on the phone")
    night.claim_and_award(gid, 2, None)
    night.look("lines", "the round won")

    # 3 · Bingo de Puntos, in Spanish: three players seated, Beto's card 3 wins a round
    gid = night.next_game("es")
    gids.append(gid)
    sell(hall, gid, "1-5")
    for name in ("Ana", "Beto", "Carla"):
        assert hall.post(f"/api/games/{gid}/players", {"name": name}).status_code == 201
    night.phone_on(cards, 3, "es")
    card = cards.card(3)
    night.call(gid, *cells(card, ((r, 0) for r in range(5))))
    night.look("points", "mid-game")
    night.claim_and_award(gid, 3, None, player="Beto")
    expect(night.screen.locator(".scoreboard")).to_contain_text("Beto", timeout=SLOW)
    night.look("points", "the round won")

    # 4 · Línea y bingo on strips, in Spanish: ticket 1's top row, then its full house
    gid = night.next_game("es")
    gids.append(gid)
    sell(hall, gid, "1-6")
    ticket = strips.card(1)
    night.phone_on(strips, 1, "es")
    night.call(gid, *ticket.rows[0])
    night.look("linea-bingo", "a línea on the phone")
    night.claim_and_award(gid, 1, "linea")
    night.look("linea-bingo", "the línea won")
    night.call(gid, *ticket.rows[1], *ticket.rows[2])
    night.claim_and_award(gid, 1, "bingo")
    night.look("linea-bingo", "the game's end")

    # 5 · Tambola, in English: ticket 2's first five, then its full house (the other prizes go
    # on the same calls: the Maestro awards only those the program pays, and the rest)
    gid = night.next_game("en")
    gids.append(gid)
    sell(hall, gid, "1-6")
    ticket = strips.card(2)
    night.phone_on(strips, 2, "en")
    got = numbers(strips, 2)
    night.call(gid, *got[:5])
    night.look("tambola", "early five on the phone")
    night.claim_and_award(gid, 2, "early-five")
    night.look("tambola", "early five won")
    night.call(gid, *got[5:])
    for prize in ("top-line", "middle-line", "bottom-line", "four-corners", "full-house"):
        night.claim_and_award(gid, 2, prize)
    night.look("tambola", "the game's end")

    # 6 · Italian Tombola, in Spanish: ticket 3's top row gives ambo to cinquina, then tombola
    gid = night.next_game("es")
    gids.append(gid)
    sell(hall, gid, "1-6")
    ticket = strips.card(3)
    night.phone_on(strips, 3, "es")
    top = list(ticket.rows[0])
    for prize, balls in (("ambo", top[:2]), ("terno", top[2:3]), ("quaterna", top[3:4])):
        night.call(gid, *balls)
        night.claim_and_award(gid, 3, prize)
    night.look("tombola", "quaterna won")
    night.call(gid, *top[4:])
    night.claim_and_award(gid, 3, "cinquina")
    night.call(gid, *ticket.rows[1], *ticket.rows[2])
    night.claim_and_award(gid, 3, "tombola")
    night.look("tombola", "the game's end")

    # 7 · Cometa loca, in Spanish: card 4's kite turned 90°; the verdict names that form
    gid = night.next_game("es")
    gids.append(gid)
    sell(hall, gid, "1-4")
    card = cards.card(4)
    night.phone_on(cards, 4, "es")
    kite = [n for n in cells(card, KITE_TURNED_90) if n is not None]  # the centre is FREE
    night.call(gid, *kite[:-1])
    need = night.phone.locator("[data-part=pattern] .need-more")
    expect(need).to_have_attribute("data-need", "1", timeout=SLOW)
    night.look("crazy-kite", "one square to go")
    night.call(gid, kite[-1])
    verdict = night.claim_and_award(gid, 4, None)
    forms = [f.get("form_name") for f in verdict["lines"] if f.get("wins")]
    assert forms and forms[0]["es"] == "con giro de 90°", verdict["lines"]
    expect(night.phone.locator(".verdict-head .form-name")).to_contain_text("con giro de 90°")
    night.look("crazy-kite", "the round won")

    # 8 · Wild number, in English: the first ball's last digit counts as called on card 2
    gid = night.next_game("en")
    gids.append(gid)
    sell(hall, gid, "1-4")
    card = cards.card(2)
    night.phone_on(cards, 2, "en")
    first, row = wild_row(card, cards)
    night.call(gid, first)
    digit = first % 10
    said = f"Wild number: {digit} — every number ending in {digit} counts as called"
    for page in (night.caller, night.screen, night.phone):
        expect(page.locator('[data-special="wild_number"]')).to_have_text(said, timeout=SLOW)
    night.look("wild-number", "the wild digit known")
    night.call(gid, *(n for n in row if n % 10 != digit))
    night.claim_and_award(gid, 2, None)
    night.look("wild-number", "the round won")

    # 9 · Bola premiada, in Spanish: the door sells, the Maestro draws the money ball on the
    # caller page, the door refuses the next sale in Spanish, and a line ends on the money ball
    gid = night.next_game("es")
    gids.append(gid)
    sell(hall, gid, "1-20")
    night.phone_on(cards, 1, "es")
    money = night.phone.locator('[data-special="money_ball"]')
    expect(money).to_contain_text("Bola premiada: se elige antes de la primera bola")
    night.look("money-ball", "before the money ball", calls=False)
    # the phone's special line and the caller page's money-ball form pass axe too
    assert _serious(night.phone) == [] and _serious(night.caller) == []
    night.caller.click("#money-ball-draw")
    expect(night.caller.locator("#money-ball")).to_have_count(0, timeout=SLOW)
    ball = hall.get(f"/api/games/{gid}").get_json()["specials"]["money_ball"]
    line = f"Bola premiada: {ball} — un bingo con el {ball} paga el doble"
    for page in (night.caller, night.screen):
        expect(page.locator('[data-special="money_ball"]')).to_have_text(line, timeout=SLOW)
    expect(money).to_have_text(line, timeout=SLOW)  # the phone hears of it too
    door = night.caller  # the Maestro's laptop goes to the door's page, and back
    door.goto(f"{live_server.url}/caller/ledger?game={gid}&lang=es")
    door.fill("#sale-serials", "21-24")
    door.click("#sell-range button[type=submit]")
    refused = door.locator("#ledger-message")
    expect(refused).to_contain_text(f"la bola premiada de la partida {gid} es el {ball}")
    expect(refused).to_contain_text("ya no se venden cartones")
    door.goto(f"{live_server.url}/caller/games/{gid}?lang=es")
    scripts_ran(door)
    serial, others = money_line(cards, range(1, 21), ball)
    night.phone_on(cards, serial, "es")
    night.call(gid, *others)
    night.call(gid, ball)
    night.claim_and_award(gid, serial, None)
    expect(night.screen.locator(".announce")).to_contain_text(
        f"con la bola premiada, el {ball}: el premio se paga doble", timeout=SLOW
    )
    night.look("money-ball", "a bingo on the money ball")

    # 10 · Impares, in Spanish: card 3's odd numbers, the FREE centre counting
    gid = night.next_game("es")
    gids.append(gid)
    sell(hall, gid, "1-4")
    card = cards.card(3)
    night.phone_on(cards, 3, "es")
    expect(night.phone.locator('[data-special="odd_even"]')).to_have_text(
        "Impares: todos los números impares del cartón, el centro libre cuenta"
    )
    odd = sorted(n for n in card.numbers if n % 2 == 1)
    night.call(gid, *odd[:-1])
    night.look("odd", "one odd number to go")
    night.call(gid, odd[-1])
    night.claim_and_award(gid, 3, None)
    night.look("odd", "the round won")

    # 11 · Stamps on two cards, in English: cards 1-6 sold as a book; the top-left stamp of
    # cards 1 and 2; the claim names card 1 and the book is judged
    gid = night.next_game("en")
    gids.append(gid)
    prices = hall.get(f"/api/games/{gid}/ledger").get_json()["prices"]
    sell(hall, gid, "1-6", price=prices[0]["price_id"])
    night.phone_on(cards, 2, "en")
    expect(night.phone.locator('[data-special="cards_needed"]')).to_contain_text(
        "On 2 cards of one book"
    )
    stamp = ((0, 0), (0, 1), (1, 0), (1, 1))
    night.call(gid, *cells(cards.card(1), stamp))
    night.look("two-cards", "one card of two")
    night.call(gid, *cells(cards.card(2), stamp))
    verdict = night.claim_and_award(gid, 1, None)
    assert verdict["book"]["complete"][:2] == [1, 2], verdict["book"]
    night.look("two-cards", "the round won")

    # 12 · Lines and house, in English: one line to ticket 4; the house is not won within its 5
    # calls, so its jackpot rolls to the next night; the Maestro ends the game there
    gid = night.next_game("en")
    gids.append(gid)
    sell(hall, gid, "1-6")
    ticket = strips.card(4)
    night.phone_on(strips, 4, "en")
    night.call(gid, *ticket.rows[0])
    night.claim_and_award(gid, 4, "one-line")
    night.look("lines-house", "one line won")
    assert hall.post(f"/api/games/{gid}/end", {}).status_code == 200
    expect(night.caller.locator("#program-next")).to_be_disabled(timeout=SLOW)

    # a linked game of the town's halls, in English: the organiser's file and the code typed
    # on the station's start page; the station draws the code's order; the hall's first card
    # with a postage stamp claims, and the hall's result is made from that claim
    with app.app_context():
        key = night_book.station_key(app)
    org = organise([key, *station_keys(2)], ["Centro", "Norte"], pattern="postage_stamp",
                   window=around_now())  # fmt: skip
    game_file = tmp_path / "game.linked.json"
    game_file.write_text(org.game.text(), encoding="utf-8")
    night.caller.goto(f"{live_server.url}/caller/linked?lang=en")
    night.caller.set_input_files("input[name=linked_file]", str(game_file))
    night.caller.select_option("select[name=deck_id]", cards.deck_id)
    night.caller.fill("input[name=code]", org.code)
    night.caller.click("#linked-start button[type=submit]")
    night.caller.wait_for_url(re.compile(r"/caller/games/\d+"))
    gid = int(re.search(r"/caller/games/(\d+)", night.caller.url).group(1))
    gids.append(gid)
    night.caller.goto(f"{live_server.url}/caller/games/{gid}?lang=en")
    scripts_ran(night.caller)
    night.screen.goto(f"{live_server.url}/display/{gid}?lang=en")
    scripts_ran(night.screen)
    expect(night.screen.locator("#linked-line")).to_contain_text("lowest call count wins")
    order = order_from_document(org.seed, "", 75)
    count, serial = min(
        (first_stamp(cards.card(s), order), s) for s in range(1, len(cards.cards) + 1)
    )
    night.phone_on(cards, serial, "en")
    for _ in range(count - 1):
        assert hall.post(f"/api/games/{gid}/draw").status_code == 200
    if count > 1:  # the page has seen the calls so far: its Draw names the last one it saw
        expect(night.caller.locator("#last-call")).to_contain_text(
            str(order[count - 2]), timeout=SLOW
        )
    night.caller.click("#draw")  # the Maestro draws the one that completes the stamp
    expect(night.caller.locator("#last-call")).to_contain_text(str(order[count - 1]))
    night.look("linked", "a stamp in the hall")
    night.claim_and_award(gid, serial, None)
    night.caller.click("#linked-make")
    expect(night.caller.locator("#linked-result")).to_contain_text(f"Won at call {count}.")
    result = hall.get(f"/api/linked/games/{gid}/result").get_json()
    assert (result["count"], result["card"]["serial"]) == (count, serial), result
    night.look("linked", "the hall's result made")

    # the raffle ends the night
    for path, body in (
        ("/api/raffle", {"price": "500"}),
        ("/api/raffle/sales", {"colour": "red", "numbers": "1-10"}),
        ("/api/raffle/prizes", {"name": "Canasta navideña"}),
        ("/api/raffle/commit", {"public_input": "noche del club"}),
        ("/api/raffle/draw", {}),
        ("/api/raffle/reveal", {}),
    ):
        r = hall.post(path, body)
        assert r.status_code in (200, 201), (path, r.get_json())

    # every screen held at every state
    assert night.problems == [], "\n".join(night.problems)

    # the summary, on the web: the sums worked out above, by game
    summary = hall.get("/api/ledger/summary").get_json()
    assert summary["taken"] == TAKEN
    assert summary["awarded"] == AWARDED
    assert summary["carried"] == CARRIED
    assert [g["game_id"] for g in summary["games"]] == gids
    pdf = hall.get("/caller/ledger/summary.pdf?lang=es")
    assert pdf.status_code == 200
    text = "\n".join(p.get_textpage().get_text_range() for p in pdfium.PdfDocument(pdf.data))
    assert "75.000,00" in text.replace("\xa0", " ")
    table = hall.get("/caller/ledger/summary.csv?lang=en")
    assert table.status_code == 200
    rows = list(csv.reader(io.StringIO(table.data.decode("utf-8-sig"))))
    assert len(rows) > len(GAMES)

    # the treasurer's summary on the command line, as text, PDF and CSV, in both languages
    db = client.application.config["DATABASE"]
    for lang, taken in (("es", "75.000,00"), ("en", "75,000.00")):
        for form in ([], ["--csv"], ["--pdf", str(tmp_path / f"summary-{lang}.pdf")]):
            code, out, err = kit_cli(["ledger", "--db", db, "--lang", lang, *form])
            assert code == 0 and not err, err
            assert taken in out, out

    # the book: exported and replayed offline against the night's decks
    book = tmp_path / "noche.book.jsonl"
    code, _, err = kit_cli(
        ["book", "export", "--db", db, "--instance", str(tmp_path), "-o", str(book)]
    )
    assert code == 0, err
    decks = []
    for deck in (cards, strips):
        path = tmp_path / f"{deck.deck_id}.deck.json"
        path.write_text(deck.to_json(), encoding="utf-8")
        decks += ["--deck", str(path)]
    code, out, err = kit_cli(["book", "verify", str(book), *decks])
    assert code == 0, out + err
    kinds = {json.loads(x).get("kind") for x in book.read_text().splitlines()}
    assert {"game", "call", "claim", "payout"} <= kinds, kinds


CLUB = """\
name = "Friday club"
currency = "GBP"
lang = "en"

[[game]]
name = "Lines and house"
balls = 90
prize_list = "lines-house"
draw = "manual"
prices = [{ label = "Single", amount = "0.50" }, { label = "Book of 6", amount = "3", book = 6 }]
prizes = { one-line = "5", two-lines = "10", full-house = "20" }

[[game]]
name = "Jackpot house"
balls = 90
prize_list = "house"
draw = "manual"
prices = [{ label = "Single", amount = "0.50" }, { label = "Book of 6", amount = "3", book = 6 }]
prizes = { full-house = { amount = "20", jackpot = "100", within = 6, mode = "on-top" } }
interval = 15

[[game]]
name = "Tambola"
balls = 90
prize_list = "tambola"
draw = "manual"
prices = [{ label = "Single", amount = "0.50" }, { label = "Book of 6", amount = "3", book = 6 }]
prizes = { early-five = "2", full-house = "10" }

[[game]]
name = "Snowball"
balls = 90
prize_list = "house"
draw = "manual"
prices = [{ label = "Single", amount = "0.50" }, { label = "Book of 6", amount = "3", book = 6 }]
prizes = { full-house = { amount = "10", jackpot = "20", within = 90, mode = "on-top" } }
"""


def test_an_english_clubs_90_ball_night_a_book_sold_once_the_jackpot_rolling_phones_following(
    browser, client, live_server, tmp_path, kit_cli
):
    """A UK club's night in English: a book of six sold once at the door for all four games, a
    house jackpot not won within its calls that rolls to the snowball, Next game with the
    member's phone following on its own, the big screen's jackpot line kept true, and the
    night's sums: £3.00 taken once; prizes £5 + £10 + £20, £20, £2 + £10, and the snowball's
    £10 with the pot of £100 + £20 on top."""
    strips = new_strip_deck(2, seed="club night", name="Club strips")
    hall = Caller(client, strips)
    program = tmp_path / "club.toml"
    program.write_text(CLUB, encoding="utf-8")
    night = Night(browser, live_server.url, hall)
    night.log_in()
    night.caller.goto(f"{live_server.url}/caller/new?lang=en")
    night.caller.click("#program summary")
    night.caller.set_input_files("#program input[name=program]", str(program))
    night.caller.click("#program-load")
    expect(night.caller.locator("#program .program-games li")).to_have_count(4)

    gid = night.next_game("en")
    prices = hall.get(f"/api/games/{gid}/ledger").get_json()["prices"]
    book = next(p for p in prices if p.get("book") == 6)
    made = hall.post(
        "/api/ledger/night-sales", {"serials": "1-6", "games": "1-4", "price": book["price_id"]}
    )
    assert made.status_code == 201, made.get_json()
    night.phone_on(strips, 1, "en")
    rows = [list(r) for r in strips.card(1).rows]
    for prize, balls in (("one-line", rows[0]), ("two-lines", rows[1]), ("full-house", rows[2])):
        night.call(gid, *balls)
        night.claim_and_award(gid, 1, prize)
    night.look("club lines-house", "the game's end")

    gid = night.next_game("en")  # the phone follows to game 2: the same book plays in it
    line = night.screen.locator("#ledger-prizes")

    def shows(text: str) -> None:  # what the room sees on the big screen's prize line
        expect(line).to_contain_text(text, use_inner_text=True, timeout=SLOW)

    shows("Jackpot £100.00 more")
    balls = [n for r in strips.card(2).rows for n in r]
    night.call(gid, *balls[:7])  # past the jackpot's 6 calls
    expect(line).to_contain_text(
        "Jackpot gone for this game: £100.00 rolls over", use_inner_text=True, timeout=SLOW
    )
    night.call(gid, *balls[7:])
    night.claim_and_award(gid, 2, "full-house")
    expect(line).to_contain_text(
        "jackpot not won: £100.00 rolls over", use_inner_text=True, timeout=SLOW
    )
    expect(night.screen.locator("#program-line")).to_contain_text("then a 15 min interval")
    night.look("club jackpot", "the house won after its calls")

    gid = night.next_game("en")
    ticket = numbers(strips, 3)
    night.call(gid, *ticket)
    for prize in (
        "early-five",
        "top-line",
        "middle-line",
        "bottom-line",
        "four-corners",
        "full-house",
    ):
        night.claim_and_award(gid, 3, prize)
    night.look("club tambola", "the game's end")

    gid = night.next_game("en")
    night.call(gid, *numbers(strips, 4))
    night.claim_and_award(gid, 4, "full-house")
    night.look("club snowball", "the snowball won")
    assert night.problems == [], "\n".join(night.problems)

    summary = hall.get("/api/ledger/summary").get_json()
    assert summary["taken"] == 300  # the book of six, sold once for the four games
    assert summary["awarded"] == (500 + 1000 + 2000) + 2000 + (200 + 1000) + (1000 + 10000 + 2000)
    assert summary["carried"] == 0
    code, out, err = kit_cli(["ledger", "--db", client.application.config["DATABASE"]])
    assert code == 0 and not err, err
    assert "£197.00" in out and "£3.00" in out, out  # the prizes, and the book taken once
    assert "Tickets sold: 6" in out and "ticket 4" in out and "Cards" not in out, out
