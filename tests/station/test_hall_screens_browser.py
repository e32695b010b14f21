"""The screens a hall has, for every game kind, in every state a night passes through: real
Chromium lays out the projector's /display at 1280x720, 1366x768 and 1920x1080 (it must fit:
no scrolling) and the Maestro's caller page on a 1366x768 laptop, and the layout check
(tests/layout.py) finds nothing sideways, off the screen, covered or spilt, and what needs
attention on the first screen: the last call, the Draw (the ball from the cage, in these games
drawn by hand), a phone's request for a check.

One page of each per kind, walked through the states in order: before the first ball, mid-game,
a claim being checked (the card or ticket shown to the room, and a phone's request on the
caller page), an award, the round won, the game's end. The states are set through the JSON API
as the Maestro's other tab (or the phones) would; the pages follow them on their live streams."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest
from layout import LAPTOP, PROJECTORS, assert_layout, layout_problems
from PIL import Image
from playwright.sync_api import expect
from testkit import Caller, caller_game_page, doc_shot, scripts_ran

from bingo_hall.manifest import new_deck, new_strip_deck
from bingo_hall.seventyfive.cards import LINE_CELLS
from bingo_hall.signing import card_path

pytestmark = pytest.mark.browser
SLOW = 15_000
#: a folder: every state's screens saved there as PNGs, to look at
SHOTS = os.environ.get("HALL_SCREENS_SHOTS")
PLAYERS = ["Ana María", "Beto", "Carla", "Dani", "Eusebio", "Fernanda"]


def small_shot(page, name: str, scratch: Path) -> None:
    """A screenshot for the docs (testkit.doc_shot), its animations run to their end, saved in
    a palette of 96 colours: a third of the size, the same to the eye on these flat pages."""
    path = doc_shot(name, scratch)
    page.screenshot(path=path, animations="disabled")
    shot = Image.open(path).convert("RGB")
    shot.quantize(colors=96, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(
        path, optimize=True
    )


@dataclass(frozen=True)
class Kind:
    """A game kind as the Maestro starts it: its mode, its settings, 75 or 90 balls."""

    name: str
    mode: str
    balls: int
    pattern: str | None = None  # a 75-ball Normal game's figure
    players: bool = False


KINDS = [
    Kind("four-corners", "normal", 75, pattern="four_corners"),
    Kind("lines", "normal", 75),
    Kind("points", "points", 75, players=True),
    Kind("linea-bingo", "linea-bingo", 90),
    Kind("lines-house", "lines-house", 90),
    Kind("tambola", "tambola", 90),
    Kind("tombola", "tombola", 90),
]
SERIAL = 7  # the card or ticket that wins


def _winning_numbers(kind: Kind, deck) -> tuple[list[int], list[int]]:
    """The first prize's numbers of the winning card, and the rest of its numbers."""
    card = deck.card(SERIAL)
    if kind.balls == 90:
        first = [n for n in card.rows[0] if n]
        every = [n for r in card.rows for n in r if n]
    else:
        cells = (
            [(0, 0), (0, 4), (4, 0), (4, 4)]
            if kind.pattern == "four_corners"
            else list(LINE_CELLS["R1"])
        )
        first = [card.columns[c][r] for r, c in cells]
        every = [n for col in card.columns for n in col if n is not None]
    return first, [n for n in every if n not in first]


class Night:
    """A game of one kind, its projector and the Maestro's laptop, walked state by state."""

    def __init__(self, kind: Kind, client, browser, page, url: str) -> None:
        self.kind = kind
        deck = (
            new_strip_deck(3, seed=f"screens-{kind.name}", name="Fiesta de la Asociación Vecinal")
            if kind.balls == 90
            else new_deck(30, seed=f"screens-{kind.name}", name="Fiesta de la Asociación Vecinal")
        )
        self.deck = deck
        self.hall = Caller(client, deck)
        self.gid = self.hall.new_game(kind.mode, "manual")
        if kind.pattern:
            r = self.hall.post(f"/api/games/{self.gid}/settings", {"pattern": kind.pattern})
            assert r.status_code == 200, r.get_json()
        if kind.players:
            for name in PLAYERS:
                r = self.hall.post(f"/api/games/{self.gid}/players", {"name": name})
                assert r.status_code == 201, r.get_json()
        self.first, self.rest = _winning_numbers(kind, deck)
        mine = set(self.first) | set(self.rest)
        self.others = [n for n in range(1, kind.balls + 1) if n not in mine]
        self.screen = browser.new_page(viewport={"width": 1920, "height": 1080})
        self.screen.goto(f"{url}/display/{self.gid}?lang=es")
        scripts_ran(self.screen)
        self.laptop = page
        caller_game_page(page, url, self.gid, lang="es")
        page.goto(f"{url}/lang/es?next=/caller/games/{self.gid}")  # the laptop's language
        scripts_ran(page)
        self.calls = 0

    def call(self, *balls: int) -> None:
        self.hall.call(self.gid, *balls)
        self.calls += len(balls)
        for p in (self.screen, self.laptop):
            expect(p.locator("[data-field=count]").first).to_have_text(
                str(self.calls), timeout=SLOW
            )

    def ask(self) -> None:
        """The winning card's phone asks the Maestro for a check."""
        path = card_path(self.deck.secret, self.deck.deck_id, SERIAL) + "/ask"
        r = self.hall.client.post(path, data="{}", headers={"Content-Type": "application/json"})
        assert r.status_code == 201, r.get_json()

    def check(self) -> None:
        r = self.hall.post(f"/api/games/{self.gid}/check/{SERIAL}")
        assert r.status_code == 200, r.get_json()
        expect(self.screen.locator("#claim-show .vcard")).to_be_visible(timeout=SLOW)

    def open_prizes(self) -> list[str]:
        return self.hall.get(f"/api/games/{self.gid}").get_json()["prizes"]["open"]

    def claim_one(self) -> dict[str, object]:
        """The winning card's claim recorded (a 90-ball game: of the first open prize it holds;
        a 75-ball game: the round's bingo); the award it waits for."""
        claim: dict[str, object] = {"serial": SERIAL}
        if self.kind.players:
            claim["player"] = "Beto"  # Ana María, seated first, is the Maestro
        if self.kind.balls == 90:
            claim["prize"] = self.open_prizes()[0] if self.kind.mode != "tambola" else "top-line"
        made = self.hall.post(f"/api/games/{self.gid}/claims", claim)
        assert made.status_code == 201 and made.get_json()["valid"], made.get_json()
        return {"prize": claim["prize"]} if "prize" in claim else {}

    def award(self, award: dict[str, object]) -> None:
        r = self.hall.post(f"/api/games/{self.gid}/award", award)
        assert r.status_code == 200, r.get_json()

    def win_the_round(self) -> None:
        """Every prize left awarded to the winning card, its every number called."""
        self.call(*self.rest)
        while self.open_prizes():
            prize = self.open_prizes()[0]
            made = self.hall.post(
                f"/api/games/{self.gid}/claims", {"serial": SERIAL, "prize": prize}
            )
            assert made.status_code == 201 and made.get_json()["valid"], made.get_json()
            r = self.hall.post(f"/api/games/{self.gid}/award", {"prize": prize})
            assert r.status_code == 200, r.get_json()

    def problems(
        self,
        state: str,
        hero: bool = True,
        asked: bool = False,
        screen: bool = True,
        docs: Path | None = None,
    ) -> list[str]:
        """Every layout problem of both screens in this state (`screen`: the projector's too),
        each line naming the state. `docs`: the projector's screenshots at each size are the
        docs' (docs/station.md), saved in that scratch folder unless asked for."""
        screen_first = [".tabla"] + (["#last-call"] if hero else [])
        found: list[str] = []
        for w, h in PROJECTORS if screen else ():
            found += [
                f"{state} /display {p}"
                for p in layout_problems(self.screen, [(w, h)], fit=True, first_screen=screen_first)
            ]
            self.shot(self.screen, f"{state}-display-{w}x{h}")
            if docs is not None:
                small_shot(self.screen, f"station-screen-{self.kind.name}-{w}x{h}.png", docs)
        laptop_first = ["#last-call", "#manual"] + (["#attention"] if asked else [])
        found += [
            f"{state} caller {p}"
            for p in layout_problems(self.laptop, [LAPTOP], first_screen=laptop_first)
        ]
        self.shot(self.laptop, f"{state}-caller")
        return found

    def shot(self, page, name: str) -> None:
        if SHOTS:
            page.screenshot(
                path=os.path.join(SHOTS, f"{self.kind.name}-{name}.png".replace(" ", "-"))
            )


@pytest.mark.parametrize("kind", KINDS, ids=[k.name for k in KINDS])
def test_every_state_of_the_night_fits_the_projector_and_the_laptop(
    kind, client, browser, page, live_server, tmp_path
):
    night = Night(kind, client, browser, page, live_server.url)
    found = night.problems("before the first ball")

    night.call(*night.others[:12])
    found += night.problems("mid-game")

    night.call(*night.first)
    night.ask()
    expect(night.laptop.locator("#ask-list li")).to_have_count(1, timeout=SLOW)
    found += night.problems("a phone asks", asked=True, screen=False)
    # the Maestro opens the request: the card in the claims panel, and shown to the room
    look = night.laptop.locator("#ask-list").get_by_role("button", name=f"Ver el cartón {SERIAL}")
    look.click()
    expect(night.laptop.locator("#claim-result .vcard")).to_be_visible(timeout=SLOW)
    night.check()
    found += night.problems("a claim checked", hero=False)

    # a valid claim recorded (from the Maestro's other tab): it waits for its award, in view
    award = night.claim_one()
    expect(night.laptop.locator("#claim-list li.valid")).to_have_count(1, timeout=SLOW)
    found += night.problems("a claim waits for its award", hero=False, asked=True, screen=False)
    night.award(award)
    if kind.balls == 90:
        expect(night.screen.locator("#prize-steps li.done")).to_have_count(1, timeout=SLOW)
        expect(night.screen.locator("#prize-winners")).not_to_be_empty(timeout=SLOW)
        found += night.problems("an award", hero=False, docs=tmp_path)
        night.win_the_round()
        expect(night.screen.locator("#prize-steps li:not(.done)")).to_have_count(0, timeout=SLOW)
    else:
        expect(night.screen.locator("#claim-show .show-final")).to_be_visible(timeout=SLOW)
    docs = tmp_path if kind.balls == 75 else None  # the final board and the scores
    found += night.problems("the round won", hero=False, docs=docs)

    r = night.hall.post(f"/api/games/{night.gid}/end")
    assert r.status_code == 200, r.get_json()
    expect(night.screen.locator("#revealed")).not_to_be_empty(timeout=SLOW)  # the seed shown
    # the room is told the game is over, over the final board where one is up
    over = night.screen.locator(":is(.hero p.status-ended.big, #claim-show .show-ended):visible")
    if over.count() != 1:
        found.append("the game's end /display: the room is not told the game is over")
    expect(night.laptop.locator("p.status-ended")).to_be_visible(timeout=SLOW)
    found += night.problems("the game's end", hero=False)
    assert not found, "layout problems:\n" + "\n".join(found)


# --- what needs the Maestro, on the laptop's first screen -------------------------------------

LAPTOP_800 = (1366, 800)


def _phone_asks(hall: Caller, serial: int) -> None:
    path = card_path(hall.deck.secret, hall.deck.deck_id, serial) + "/ask"
    r = hall.client.post(path, data="{}", headers={"Content-Type": "application/json"})
    assert r.status_code == 201, r.get_json()


def test_a_phones_request_shows_at_the_top_and_in_the_title_until_the_maestro_looks_at_it(
    client, live_server, page, tmp_path
):
    deck = new_deck(30, seed="asks-on-top", name="Fiesta de la Asociación Vecinal")
    hall = Caller(client, deck)
    gid = hall.new_game("normal", "manual")
    card = deck.card(1)
    row = [card.columns[c][0] for c in range(5)]
    others = [n for n in range(1, 76) if n not in set(card.numbers)]
    page.set_viewport_size({"width": LAPTOP_800[0], "height": LAPTOP_800[1]})
    caller_game_page(page, live_server.url, gid, lang="en")
    untouched = page.title()
    hall.call(gid, *others[:10], *row)
    expect(page.locator("#last-call")).to_have_text(f"O {row[-1]}", timeout=SLOW)

    _phone_asks(hall, 1)
    notice = page.locator("#attention li")
    expect(notice).to_have_count(1, timeout=SLOW)
    expect(notice).to_contain_text(
        "Card 1 asks for a check (from its phone) · its card has a bingo · after 15 calls"
    )
    expect(page).to_have_title(f"(1) ⚑ Attention · {untouched}")
    assert_layout(page, [LAPTOP_800], first_screen=["#attention", "#last-call", "#manual"])
    small_shot(page, "station-caller-request.png", tmp_path)

    # another ball: the request stays; the card asks again: the same line, updated
    hall.call(gid, others[10])
    expect(page.locator("[data-field=count]")).to_have_text("16", timeout=SLOW)
    expect(notice).to_have_count(1)
    _phone_asks(hall, 1)
    expect(notice).to_contain_text("after 16 calls · asked 2 times", timeout=SLOW)
    expect(notice).to_have_count(1)
    expect(page.locator("#ask-list li")).to_have_count(1)
    expect(page).to_have_title(f"(1) ⚑ Attention · {untouched}")

    # dismissed: gone from the top and from the title, kept in the list below
    page.locator("#attention").get_by_role("button", name="Dismiss").click()
    expect(page.locator("#attention")).to_be_hidden(timeout=SLOW)
    expect(page).to_have_title(untouched)
    expect(page.locator("#ask-list li.seen")).to_have_count(1)

    # in Spanish: the title says so in the page's language; "Ver" opens the card and closes it
    page.goto(f"{live_server.url}/lang/es?next=/caller/games/{gid}")
    scripts_ran(page)
    titled = page.title()
    hall.call(gid, others[11])
    _phone_asks(hall, 1)
    expect(page).to_have_title(f"(1) ⚑ Atención · {titled}", timeout=SLOW)
    expect(notice).to_contain_text("El cartón 1 pide una revisión (desde su celular)")
    page.locator("#attention").get_by_role("button", name="Abrir el cartón 1").click()
    expect(page.locator("#claim-result .vcard")).to_be_visible(timeout=SLOW)
    expect(page).to_have_title(titled, timeout=SLOW)


# --- a night's program on the caller page -----------------------------------------------------

FIGURES = ["four_corners", "x", "full_card", "lines"]


def _program(games: list[str]) -> str:
    """A program of the night, one game per line of `games` (a 75-ball figure, or "linea-bingo"
    for a 90-ball game), each with its price and prizes."""
    text = 'name = "Noche del club de jubilados"\ncurrency = "ARS"\n'
    for i, g in enumerate(games, 1):
        text += f'\n[[game]]\nname = "Partida {i}: {g}"\nprice = "500"\n'
        if g == "linea-bingo":
            text += 'balls = 90\nprize_list = "linea-bingo"\ndraw = "manual"\n'
            text += 'prizes = { linea = "2000", bingo = "8000" }\n'
        else:
            text += f'pattern = "{g}"\nprizes = {{ bingo = "5000" }}\n'
    return text


def _load_program(hall: Caller, games: list[str]) -> None:
    r = hall.post("/api/program", {"text": _program(games), "source": "noche.toml"})
    assert r.status_code == 200, r.get_json()


def _next_game(hall: Caller) -> int:
    r = hall.post("/api/program/next")
    assert r.status_code == 200, r.get_json()
    return r.get_json()["game_id"]


def test_draw_stays_on_the_first_screen_with_a_long_program_open(client, live_server, page):
    hall = Caller(client, new_deck(30, seed="program-draw", name="Club de jubilados"))
    _load_program(hall, [FIGURES[i % 4] for i in range(12)])
    gid = _next_game(hall)
    page.set_viewport_size({"width": LAPTOP_800[0], "height": LAPTOP_800[1]})
    caller_game_page(page, live_server.url, gid, lang="es")
    page.goto(f"{live_server.url}/lang/es?next=/caller/games/{gid}")
    scripts_ran(page)
    expect(page.locator("#program")).to_have_attribute("open", "")
    expect(page.locator("#program .program-games li")).to_have_count(12)
    expect(page.locator("#draw")).to_contain_text("Sacar bola")
    assert_layout(page, [LAPTOP_800], first_screen=["#draw", "#last-call"])


def test_after_the_last_prize_the_page_names_next_game_and_says_why_it_is_greyed_at_the_end(
    client, live_server, page
):
    strips = new_strip_deck(2, seed="program-next", name="Club de jubilados")
    hall = Caller(client, strips)
    hall.load_deck(new_deck(30, seed="program-next-75", name="Club de jubilados"))
    _load_program(hall, ["linea-bingo", "four_corners"])
    gid = _next_game(hall)
    caller_game_page(page, live_server.url, gid, lang="en")
    ticket = strips.card(1)
    hall.call(gid, *[n for r in ticket.rows for n in r if n])
    for prize in ("linea", "bingo"):
        made = hall.post(f"/api/games/{gid}/claims", {"serial": 1, "prize": prize})
        assert made.status_code == 201 and made.get_json()["valid"], made.get_json()
        assert hall.post(f"/api/games/{gid}/award", {"prize": prize}).status_code == 200
    done = page.locator("#prize-done")
    expect(done).to_be_visible(timeout=SLOW)
    expect(done).to_have_text(
        "Every prize of this round has been awarded: start the next round, end the game, or "
        "press Next game (2) for the program’s next game."
    )
    expect(page.locator("#program-next")).to_have_text("Next game (2)")

    last = _next_game(hall)
    for lang, why in (
        ("en", "No next game: game 2 is the program’s last game."),
        ("es", "No hay siguiente partida: la partida 2 es la última del programa."),
    ):
        page.goto(f"{live_server.url}/lang/{lang}?next=/caller/games/{last}")
        scripts_ran(page)
        button = page.locator("#program-next")
        expect(button).to_be_disabled()
        expect(button).to_have_accessible_description(why)
        expect(page.locator("#program-next-why")).to_be_visible()


def test_a_refused_sale_is_told_beside_the_sale_form_where_the_host_is_looking(
    client, live_server, page
):
    hall = Caller(client, new_deck(40, seed="door-refusal", name="Club de jubilados"))
    gid = hall.new_game("normal", "manual")
    prices = {"prices": [{"label": "Single", "amount": "500", "book": "1"}]}
    assert hall.post(f"/api/games/{gid}/ledger/prices", prices).status_code == 200
    assert hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "1-10"}).status_code == 201
    page.set_viewport_size({"width": LAPTOP[0], "height": LAPTOP[1]})
    caller_game_page(page, live_server.url, gid, lang="en")
    page.goto(f"{live_server.url}/caller/ledger?game={gid}&lang=en")
    form = page.locator("#sell-range")
    form.evaluate("f => f.scrollIntoView({block: 'start'})")  # the host at the door's form
    page.fill("#sale-serials", "8-12")
    page.locator("#sell-range button[type=submit]").click()
    refused = page.locator("#sell-range + #ledger-message.error")
    expect(refused).to_contain_text("already sold")
    expect(refused).to_be_in_viewport(ratio=1)
    expect(form).to_be_in_viewport()
