"""Real Chromium with axe-core (issue 36 item 7): every page a hall shows passes axe-core's default
rules, none turned off, with no serious and no critical violation: the caller page, /display, a
card's and a ticket's QR page, /join, the ledger, the raffle (its page and big screen) and a
companion table, in Spanish and English, on a
phone (390 px) and on the laptop (1366 px), each checked once it is live. The card page is
checked in its large-text and high-contrast modes too.

axe-core is an npm package pinned for the tests (tests/a11y/package.json and its lock; `make test`
installs it with npm). One station serves every page view; the views share a browser context per
language, width, card mode and guest or Maestro (`Views`), and each view opens its page once in
it. With $AXE_REPORT set, each view appends its serious and critical node counts to that file
(the figures of the issue's closing note)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import requests
from playwright.sync_api import Page, expect
from testkit import TEST_PIN, Caller

from bingo_hall.app import create_app
from bingo_hall.manifest import new_deck, new_strip_deck
from bingo_hall.seventyfive.cards import LINE_CELLS
from bingo_hall.signing import card_path
from bingo_hall.web.station_server import Server

AXE = Path(__file__).parent / "a11y" / "node_modules" / "axe-core" / "axe.min.js"
WIDTHS = {"phone": 390, "laptop": 1366}
PAGES = [
    "caller",
    "display",
    "card",
    "ticket",
    "join",
    "ledger",
    "companions",
    "raffle",
    "raffle-screen",
]
#: the card page's own display modes (card.js reads them from the phone's localStorage)
CARD_MODES = {"large": {"bingo.text": "3"}, "contrast": {"bingo.contrast": "more"}}

pytestmark = pytest.mark.browser


class Station:
    """One station with a 75-ball game (calls, a false claim, a card with bingo), a 90-ball deck
    with its game, and a companion table, served on a free loopback port."""

    def __init__(self, folder: Path) -> None:
        self.app = create_app(
            {
                "TESTING": True,
                "DATABASE": str(folder / "axe.sqlite"),
                "SECRET_KEY": "axe",
                "CALLER_PIN": TEST_PIN,
            },
            instance_path=str(folder),
        )
        client = self.app.test_client()
        self.strips = new_strip_deck(2, seed="axe strips", name="Tiras")
        ninety = Caller(client, self.strips)
        self.ticket_game = ninety.new_game("normal", draw="manual")
        ninety.call(self.ticket_game, *sorted(self.strips.card(3).numbers)[:4])
        self.deck = new_deck(12, seed="axe cards", name="Fiesta")
        hall = Caller(client, self.deck)
        self.game = hall.new_game(draw="manual")
        card = self.deck.card(5)
        line = [n for r, c in LINE_CELLS["R2"] if (n := card.columns[c][r]) is not None]
        hall.call(self.game, *line)
        assert hall.post(f"/api/games/{self.game}/claims", {"serial": 7}).status_code == 201
        for path, payload in (  # a raffle being drawn, its first prize redrawn
            ("/api/raffle", {"price": "2"}),
            ("/api/raffle/sales", {"colour": "red", "numbers": "1-20"}),
            ("/api/raffle/prizes", {"name": "Hamper"}),
            ("/api/raffle/prizes", {"name": "Cake"}),
            ("/api/raffle/commit", {}),
            ("/api/raffle/draw", {}),
            ("/api/raffle/unclaimed", {"reason": "nobody came forward"}),
        ):
            assert hall.post(path, payload).status_code in (200, 201)
        self.server = Server(self.app, "127.0.0.1", 0).start()
        self.url = f"http://127.0.0.1:{self.server.port}"
        table = requests.post(f"{self.url}/t/new/burako", json={"teams": [["Ana"], ["Beto"]]})
        self.table = table.json()["code"]

    def path(self, page: str) -> str:
        return {
            "caller": f"/caller/games/{self.game}",
            "display": f"/display/{self.game}",
            "card": card_path(self.deck.secret, self.deck.deck_id, 5),
            "ticket": card_path(self.strips.secret, self.strips.deck_id, 3),
            "join": "/join",
            "ledger": f"/caller/ledger?game={self.game}",
            "companions": f"/t/{self.table}",
            "raffle": "/caller/raffle",
            "raffle-screen": "/raffle",
        }[page]


@pytest.fixture(scope="module")
def station(tmp_path_factory):
    if not AXE.is_file():
        pytest.fail("axe-core is not installed: run `make test` (it runs npm ci in tests/a11y)")
    hall = Station(tmp_path_factory.mktemp("axe"))
    yield hall
    hall.server.close()


#: the pages only the Maestro opens (the others are seen as a guest, as a phone or a screen is)
MAESTRO_PAGES = ("caller", "ledger", "raffle")


class Views:
    """The browser contexts of the views, one per (language, width, card mode, guest or Maestro),
    each made on first use with its language chosen once (the station's own switch, /lang/) and,
    for the Maestro's pages, the PIN typed once; each view then opens its page in it. A context
    and a page cost Chromium more than the check itself; the module closes them all at the end."""

    def __init__(self, browser, url: str) -> None:
        self.browser, self.url = browser, url
        self.pages: dict[tuple[str, str, str, bool], Page] = {}

    def page(self, lang: str, width: str, mode: str, maestro: bool) -> Page:
        key = (lang, width, mode, maestro)
        if key not in self.pages:
            context = self.browser.new_context(
                viewport={"width": WIDTHS[width], "height": 844 if width == "phone" else 768},
                is_mobile=width == "phone",
                has_touch=width == "phone",
            )
            if mode:
                context.add_init_script(
                    "".join(
                        f"localStorage.setItem({k!r}, {v!r});" for k, v in CARD_MODES[mode].items()
                    )
                )
            # the switch's cookie lands in the context's own cookie jar (no page drawn for it)
            switched = context.request.get(f"{self.url}/lang/{lang}?next=/join", max_redirects=0)
            assert switched.status == 302, switched.status
            page = context.new_page()
            if maestro:
                page.goto(f"{self.url}/caller/login?next=/caller/raffle")
                page.fill("input[name=pin]", TEST_PIN)
                page.press("input[name=pin]", "Enter")
                page.wait_for_url("**/caller/raffle")
            self.pages[key] = page
        return self.pages[key]

    def close(self) -> None:
        for page in self.pages.values():
            page.context.close()


@pytest.fixture(scope="module")
def views(browser, station):
    made = Views(browser, station.url)
    yield made
    made.close()


def _live(page, name: str) -> None:
    """Wait until the page is live: its stream open (data-live="yes", a companion table's
    data-state="live"), the raffle's forms taken by its script (data-ready="yes"); the ledger
    follows no stream, so its scripts have run at `load`."""
    if name in ("card", "ticket"):
        expect(page.locator("#verify")).to_have_attribute("data-live", "yes")
    elif name == "companions":
        expect(page.locator("#live")).to_have_attribute("data-state", "live")
    elif name == "raffle-screen":
        expect(page.locator("#raffle-screen")).to_have_attribute("data-live", "yes")
    elif name == "raffle":
        expect(page.locator("#raffle")).to_have_attribute("data-ready", "yes")
    elif name != "ledger":
        expect(page.locator("#station")).to_have_attribute("data-live", "yes")


#: resolves once no finite animation runs on the page (a card's "shout!" pops in from opacity 0
#: over .4 s, and is drawn again when the stream's first snapshot comes: axe measuring it halfway
#: would see a contrast the player never reads); a removed element's animation is cancelled
SETTLED = """async () => {
  for (;;) {
    const running = document.getAnimations().filter(
      (a) => a.playState === "running" && a.effect.getComputedTiming().endTime !== Infinity);
    if (!running.length) return;
    await Promise.allSettled(running.map((a) => a.finished));
  }
}"""


def _serious(page) -> list[dict]:
    """axe-core's violations of serious or critical impact, with their nodes. Every rule runs
    (none turned off); resultTypes only spares axe the full node lists of the passes, the
    incomplete and the inapplicable, which this test does not read (axe-core's doc/API.md,
    "Use resultTypes")."""
    page.evaluate(AXE.read_text("utf-8"))
    found = page.evaluate(
        'async () => (await axe.run(document, {resultTypes: ["violations"]})).violations'
    )
    return [v for v in found if v["impact"] in ("serious", "critical")]


def _report(view: str, violations: list[dict]) -> None:
    out = os.environ.get("AXE_REPORT")
    if out:
        nodes = sum(len(v["nodes"]) for v in violations)
        ids = {v["id"]: len(v["nodes"]) for v in violations}
        with open(out, "a", encoding="utf-8") as f:
            f.write(json.dumps({"view": view, "nodes": nodes, "rules": ids}) + "\n")


def _check(
    views: Views, station: Station, name: str, lang: str, width: str, mode: str = ""
) -> None:
    page = views.page(lang, width, mode, name in MAESTRO_PAGES)
    page.goto(station.url + station.path(name))
    expect(page.locator("html")).to_have_attribute("lang", lang)
    _live(page, name)
    if mode == "large":
        expect(page.locator("html")).to_have_attribute("data-text", "3")
    elif mode == "contrast":
        expect(page.locator("html")).to_have_class("hc")
    page.evaluate(SETTLED)
    violations = _serious(page)
    view = f"{name}{'-' + mode if mode else ''} {lang} {WIDTHS[width]}px"
    _report(view, violations)
    summary = [
        f"{v['id']} ({v['impact']}, {len(v['nodes'])} nodes): {v['help']}; first: "
        f"{v['nodes'][0]['target']} {v['nodes'][0].get('failureSummary', '')[:200]}"
        for v in violations
    ]
    assert not violations, f"{view}:\n" + "\n".join(summary)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("name", PAGES)
def test_every_page_has_no_serious_or_critical_axe_violation(views, station, name, lang, width):
    _check(views, station, name, lang, width)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("mode", CARD_MODES)
def test_the_card_page_in_large_text_and_high_contrast_passes_axe(
    views, station, mode, lang, width
):
    _check(views, station, "card", lang, width, mode)


#: a companion page in a given state, set up by `_companion_state` (tables made over HTTP, then
#: what a player taps): the start page, each game's set-up form, each game empty, in play, with a
#: dialog open and finished, a Clue notebook being set up, in use and locked, an unknown table
COMPANION_STATES = [
    "index",
    "missing",
    *(f"new-{g}" for g in ("burako", "rummy", "qwinto", "domino", "clue")),
    "burako-empty",
    "burako-hand",
    "burako-tile-pad",
    "burako-finished",
    "rummy-undone",
    "rummy-finished",
    "qwinto-empty",
    "qwinto-dice-dialog",
    "qwinto-number-pad",
    "qwinto-finished",
    "domino-trump",
    "domino-doubles",
    "domino-tricks",
    "domino-finished",
    "clue-setup",
    "clue-notebook",
    "clue-locked",
]
#: (language, viewport): a phone at its default text in Spanish, and the largest text (the 195 px
#: page of tests/companions/test_largest_text_browser.py) in English
COMPANION_VIEWS = {"es-390": ("es", (390, 844)), "en-largest": ("en", (195, 422))}


def _entries(url: str, code: str, *entries: dict) -> None:
    for entry in entries:
        resp = requests.post(f"{url}/t/{code}/entries", json=entry, timeout=10)
        assert resp.status_code == 201, resp.text


def _new(url: str, game: str, **body) -> str:
    resp = requests.post(f"{url}/t/new/{game}", json=body, timeout=10)
    assert resp.status_code == 201, resp.text
    return resp.json()["code"]


def _companion_state(page: Page, url: str, state: str, lang: str) -> None:
    """Open the companion page of `state` and bring it there, as a player would."""
    game, _, step = state.partition("-")
    four = ["Ana", "Luis", "Caro", "Tom"]
    if state == "index":
        page.goto(f"{url}/t/?lang={lang}")
        return
    if state == "missing":
        page.goto(f"{url}/t/ZZZZ-ZZZZ?lang={lang}")
        return
    if game == "new":
        page.goto(f"{url}/t/new/{step}?lang={lang}")
        return
    if game == "burako":
        code = _new(url, "burako", teams=[four[:2], four[2:]])
        if step == "finished":
            hand = {"puras": 1, "muerto": "taken", "closed": True, "down": 3000, "left": 0}
            _entries(url, code, {"teams": [hand, {"muerto": "not_taken", "down": 10}]})
    elif game == "rummy":
        code = _new(url, "rummy", players=four)
        played = {"closed_by": "Ana", "racks": {"Luis": 106, "Caro": 67, "Tom": 38}}
        _entries(url, code, *[played] * (4 if step == "finished" else 2))
    elif game == "qwinto":
        code = _new(url, "qwinto", players=four)
        if step == "finished":
            for who in four * 3 + ["Ana"]:
                _entries(
                    url,
                    code,
                    {"op": "roll", "player": who, "colours": ["orange"], "sum": 1},
                    {"op": "fail", "player": who},
                )
    elif game == "domino":
        code = _new(url, "domino", players=["Ana", "Beto"], settings={"rubbers_to_win": 1})
        if step == "finished":
            _entries(
                url,
                code,
                {"type": "hand", "trump": 4},
                {"type": "tricks", "player": "Ana", "points": 71},
                {"type": "tricks", "player": "Beto", "points": 40},
            )
    else:  # clue
        # only the locked notebook has a PIN: the phone that opens the others set them up
        pin = {"pin": "4321"} if step == "locked" else {}
        code = _new(url, "clue", players=["Ana", "Beto", "Caro", "Dani"], **pin)
    page.goto(f"{url}/t/{code}?lang={lang}")
    if step == "locked":
        expect(page.locator("#pin")).to_be_visible()
        return
    expect(page.locator("#live")).to_have_attribute("data-state", "live")
    if step == "hand":
        page.locator('[data-field="teams.0.puras"] [data-step="1"]').click()
        page.locator('input[name="teams.1.down"]').fill("120")
        page.locator('input[name="teams.0.muerto"][value="taken"]').check(force=True)
        page.locator('input[name="teams.1.muerto"][value="taken"]').check(force=True)
        page.locator("#save-hand").click()
        expect(page.locator('[data-total="1"]')).to_have_text("220")
        page.locator("#scoreboard .num button").first.click()
    elif step == "tile-pad":
        page.locator('[data-target="teams.0.down"]').click()
        page.locator('#tile-pad [data-tile="J"]').click()
    elif step == "undone":
        page.once("dialog", lambda d: d.accept())
        page.locator("#undo-last").click()
        expect(page.locator("#undone-list button")).to_have_count(1)
    elif step == "dice":
        page.locator("#qw-new-roll").click()
        page.locator('#qw-dice-colours [data-colour="purple"]').click()
    elif step == "number":
        _entries(url, code, {"op": "roll", "player": "Ana", "colours": ["purple"], "sum": 6})
        page.locator('#qw-sheet [data-colour="purple"][data-box="0"]').click()
        expect(page.locator("#qw-pad")).to_be_visible()
    elif step in ("doubles", "tricks"):
        page.locator("[data-suit='4']").click()
        if step == "doubles":
            page.locator("#dm-events [data-player='Beto'] .dm-show").click()
        else:
            page.locator("[data-tile='4-4']").click()
    elif step == "notebook":
        setup = page.get_by_test_id("setup")
        setup.locator("#cl-me button").first.click()
        for card in ("green", "mustard", "candlestick", "knife", "ballroom"):
            setup.locator(f"#cl-mycards [data-value='{card}']").click()
        setup.locator("#cl-setup-save").click()
        page.locator("td[data-card=hall]").first.click()
        expect(page.get_by_test_id("why")).to_be_visible()
    elif step == "finished":
        finished = "#qw-over" if game == "qwinto" else "#winner"
        expect(page.locator(finished)).to_be_visible()


@pytest.mark.parametrize("view", COMPANION_VIEWS)
@pytest.mark.parametrize("state", COMPANION_STATES)
def test_every_companion_page_and_state_has_no_serious_or_critical_axe_violation(
    browser, station, state, view
):
    lang, (width, height) = COMPANION_VIEWS[view]
    context = browser.new_context(
        viewport={"width": width, "height": height},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    try:
        page = context.new_page()
        _companion_state(page, station.url, state, lang)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        page.evaluate(SETTLED)
        violations = _serious(page)
        _report(f"companions {state} {view}", violations)
        summary = [
            f"{v['id']} ({v['impact']}, {len(v['nodes'])} nodes): {v['help']}; "
            + "; ".join(
                f"{n['target']} {n.get('failureSummary', '')[:160]}" for n in v["nodes"][:4]
            )
            for v in violations
        ]
        assert not violations, f"{state} {view}:\n" + "\n".join(summary)
    finally:
        context.close()
