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

import pytest
from layout import LAPTOP, PROJECTORS, layout_problems
from playwright.sync_api import expect
from testkit import Caller, caller_game_page, scripts_ran

from bingo_hall.cards import LINE_CELLS
from bingo_hall.manifest import new_deck, new_strip_deck
from bingo_hall.signing import card_path

pytestmark = pytest.mark.browser
SLOW = 15_000
#: a folder: every state's screens saved there as PNGs, to look at
SHOTS = os.environ.get("HALL_SCREENS_SHOTS")
PLAYERS = ["Ana María", "Beto", "Carla", "Dani", "Eusebio", "Fernanda"]


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

    def award_one(self) -> None:
        """The winning card claimed and awarded its prize (a 90-ball game: the first open one it
        holds; a 75-ball game: the round)."""
        claim: dict[str, object] = {"serial": SERIAL}
        if self.kind.players:
            claim["player"] = "Beto"  # Ana María, seated first, is the Maestro
        if self.kind.balls == 90:
            claim["prize"] = self.open_prizes()[0] if self.kind.mode != "tambola" else "top-line"
        made = self.hall.post(f"/api/games/{self.gid}/claims", claim)
        assert made.status_code == 201 and made.get_json()["valid"], made.get_json()
        award = {"prize": claim["prize"]} if "prize" in claim else {}
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
        self, state: str, hero: bool = True, asked: bool = False, screen: bool = True
    ) -> list[str]:
        """Every layout problem of both screens in this state (`screen`: the projector's too),
        each line naming the state."""
        screen_first = [".tabla"] + (["#last-call"] if hero else [])
        found: list[str] = []
        for w, h in PROJECTORS if screen else ():
            found += [
                f"{state} /display {p}"
                for p in layout_problems(self.screen, [(w, h)], fit=True, first_screen=screen_first)
            ]
            self.shot(self.screen, f"{state}-display-{w}x{h}")
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
    kind, client, browser, page, live_server
):
    night = Night(kind, client, browser, page, live_server.url)
    found = night.problems("before the first ball")

    night.call(*night.others[:12])
    found += night.problems("mid-game")

    night.call(*night.first)
    night.ask()
    expect(night.laptop.locator("#attention li")).to_have_count(1, timeout=SLOW)
    found += night.problems("a phone asks", asked=True, screen=False)
    # the Maestro opens the request: the card in the claims panel, and shown to the room
    night.laptop.locator("#attention").get_by_role("button", name=f"Ver el cartón {SERIAL}").click()
    expect(night.laptop.locator("#claim-result .vcard")).to_be_visible(timeout=SLOW)
    expect(night.laptop.locator("#attention")).to_be_hidden(timeout=SLOW)
    night.check()
    found += night.problems("a claim checked", hero=False)

    night.award_one()
    if kind.balls == 90:
        expect(night.screen.locator("#prize-steps li.done")).to_have_count(1, timeout=SLOW)
        expect(night.screen.locator("#prize-winners")).not_to_be_empty(timeout=SLOW)
        found += night.problems("an award", hero=False)
        night.win_the_round()
        expect(night.screen.locator("#prize-steps li:not(.done)")).to_have_count(0, timeout=SLOW)
    else:
        expect(night.screen.locator("#claim-show .show-final")).to_be_visible(timeout=SLOW)
    found += night.problems("the round won", hero=False)

    r = night.hall.post(f"/api/games/{night.gid}/end")
    assert r.status_code == 200, r.get_json()
    # the room is told the game is over, over the final board where one is up
    over = night.screen.locator(":is(.hero p.status-ended.big, #claim-show .show-ended):visible")
    expect(over).to_have_count(1, timeout=SLOW)
    expect(night.laptop.locator("p.status-ended")).to_be_visible(timeout=SLOW)
    found += night.problems("the game's end", hero=False)
    assert not found, "layout problems:\n" + "\n".join(found)
