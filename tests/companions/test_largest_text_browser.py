"""Every game's scorekeeper on a phone at its browser's largest text (a grandmother's phone), in
real Chromium: a short round of each game is played there, and on every state the round passes
through (start page, set-up form, empty table with its invite, a dialog open, a round entered, a
correction, the tile pad, a finished match, a locked notebook) the page is checked twice:

- at 390x844 CSS px, the phone at its default text, and
- at the largest text. A phone's text setting at 200 % is emulated as the browser's 200 % zoom
  does it: the page is laid out on half as many CSS px, 195x422 (`layout.LARGEST_TEXT`), each
  drawn 2 screen px wide (the context's device_scale_factor is 2). Text, boxes and fixed px sizes
  all double against the screen, as the issue measured them ("297 px wide on a 195 px page").
  One context made by `largest_text_phone` serves every test here.

Each check is the shared layout check (tests/layout.py: nothing scrolls sideways, nothing off the
screen or covered, no text spilling out of its box), the tap-target check
(`layout.tap_target_problems`: every control at least 44x44 CSS px at both sizes) and the
whole-text check (`layout.cut_text_problems`: no score or name cut by its box or broken
mid-word). Every problem
of every state is gathered and the test fails with the whole list, so one run shows all of them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import requests
from layout import (
    LARGEST_TEXT,
    PHONE,
    cut_text_problems,
    layout_problems,
    tap_target_problems,
)
from playwright.sync_api import Page, expect
from testkit import doc_shot

pytestmark = pytest.mark.browser
#: what reaches past the screen's right edge, for the message
WIDER = """(w) => [...document.querySelectorAll('body *')]
  .filter((e) => e.getBoundingClientRect().right > w + 0.5).slice(0, 4)
  .map((e) => `${e.tagName.toLowerCase()}.${e.className} "${(e.innerText || '').slice(0, 24)}"`)"""
TABLE_URL = re.compile(r".*/t/([A-Z0-9]{8})(\?.*)?")


@pytest.fixture
def largest_text_phone(browser):
    """A phone at its largest text: 195x422 CSS px drawn at 2 screen px each (see the module)."""
    context = browser.new_context(
        viewport={"width": LARGEST_TEXT[0], "height": LARGEST_TEXT[1]},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    yield context.new_page()
    context.close()


class Checks:
    """The layout and tap-target problems of each state a test passes through, gathered."""

    def __init__(self, page: Page, scratch: Path) -> None:
        self.page, self.scratch, self.found = page, scratch, []

    def state(self, name: str, shot: str = "", at: str = "") -> None:
        page = self.page
        for size in (PHONE, LARGEST_TEXT):
            label = "largest text" if size == LARGEST_TEXT else "390 px"
            self.found += [f"{name} ({label}): {p}" for p in layout_problems(page, [size])]
            # a phone's browser widens its layout to content wider than the screen and zooms
            # out (the layout check, measuring against that width, then sees no sideways scroll)
            laid_out = page.evaluate("window.innerWidth")
            if laid_out > size[0]:
                self.found.append(
                    f"{name} ({label}): laid out {laid_out} px wide on a {size[0]} px screen: "
                    + "; ".join(page.evaluate(WIDER, size[0]))
                )
            self.found += [f"{name} ({label}): {p}" for p in tap_target_problems(page)]
            self.found += [f"{name} ({label}): {p}" for p in cut_text_problems(page)]
        if shot:  # the page at the largest text, as the docs show it, from `at` down
            if at:
                page.locator(at).evaluate("e => e.scrollIntoView({block: 'start'})")
            page.screenshot(path=doc_shot(shot, self.scratch))

    def done(self) -> None:
        assert not self.found, f"{len(self.found)} problems:\n" + "\n".join(self.found)


def _post(url: str, code: str, entry: dict) -> None:
    resp = requests.post(f"{url}/t/{code}/entries", json=entry, timeout=10)
    assert resp.status_code == 201, resp.text


def _start(page: Page, checks: Checks, url: str, game: str, names: list[str]) -> str:
    """Start a table from the set-up form, as a new user does; return its code."""
    page.goto(f"{url}/t/new/{game}?lang=es")
    checks.state(f"{game} set-up")
    boxes = page.locator("input[name=player], input[name^=team]")
    for i, name in enumerate(names):
        boxes.nth(i).fill(name)
    page.get_by_role("button", name="Empezar la mesa").click()
    page.wait_for_url(TABLE_URL)
    expect(page.locator("#live")).to_have_attribute("data-state", "live")
    return TABLE_URL.fullmatch(page.url)[1]


def test_burako_at_the_largest_text_keeps_every_score_whole(panel_app, serve, largest_text_phone):
    server, page = serve(panel_app), largest_text_phone
    checks = Checks(page, Path(panel_app.instance_path))
    page.goto(f"{server.url}/t/?lang=es")
    checks.state("start page")
    code = _start(page, checks, server.url, "burako", ["Ana", "Luis", "Caro", "Tom"])
    checks.state("empty table, invite open")
    team0 = page.locator('fieldset[data-team="0"]')
    team0.locator('[data-field="teams.0.puras"] [data-step="1"]').click()
    team0.get_by_text("Tomó el muerto").click()
    team0.locator('[data-target="teams.0.down"]').click()
    page.locator('#tile-pad [data-tile="1"]').click()
    page.locator('#tile-pad [data-tile="J"]').click()
    checks.state("tile pad open")
    page.locator("#pad-done").click()
    page.locator('fieldset[data-team="1"]').get_by_text("Sin muerto").click()
    page.locator('input[name="teams.1.down"]').fill("3000+565")
    page.get_by_role("button", name="Guardar la mano").click()
    # 200 + 100 + 65 = 365; -100 + 3565 = 3465
    expect(page.locator('[data-total="0"]')).to_have_text("365")
    expect(page.locator('[data-total="1"]')).to_have_text("3465")
    checks.state("a won match", shot="companions-large-burako.png", at="#winner")
    page.get_by_role("button", name="Puntos de la mano 1").click()
    checks.state("a hand's points opened")
    page.get_by_role("button", name="Corregir la mano 1").click()
    checks.state("correcting a hand")
    checks.done()
    assert code


def test_rummy_at_the_largest_text_keeps_every_score_whole(panel_app, serve, largest_text_phone):
    server, page = serve(panel_app), largest_text_phone
    checks = Checks(page, Path(panel_app.instance_path))
    code = _start(page, checks, server.url, "rummy", ["Ana", "Luis", "Caro", "Tom"])
    checks.state("empty table")
    page.locator(".closers label", has_text="Ana").click()
    page.locator('input[name="racks.Luis"]').fill("106")
    page.locator('input[name="racks.Caro"]').fill("67")
    page.locator('input[name="racks.Tom"]').fill("38")
    page.get_by_role("button", name="Guardar la mano").click()
    expect(page.locator('[data-total="1"]')).to_have_text("106")
    checks.state("a game entered", shot="companions-large-rummy.png", at="#scoreboard")
    page.once("dialog", lambda d: d.accept())
    page.get_by_role("button", name="Deshacer la última anotación").click()
    expect(page.locator("#undone-list")).not_to_be_empty()
    checks.state("a game undone")
    for _ in range(4):
        _post(server.url, code, {"closed_by": "Ana", "racks": {"Luis": 5, "Caro": 7, "Tom": 9}})
    expect(page.locator("#winner")).to_be_visible()
    checks.state("a finished match")
    page.goto(f"{server.url}/t/?lang=es")
    expect(page.locator("#recent")).to_be_visible()
    checks.state("the start page, with this phone's tables")
    checks.done()


def test_qwinto_at_the_largest_text_can_be_played(panel_app, serve, largest_text_phone):
    server, page = serve(panel_app), largest_text_phone
    checks = Checks(page, Path(panel_app.instance_path))
    code = _start(page, checks, server.url, "qwinto", ["Ana", "Luis", "Caro", "Tom"])
    checks.state("empty table")
    page.locator("#qw-new-roll").click()
    checks.state("who throws the dice")
    page.locator('#qw-dice-colours [data-colour="purple"]').click()
    page.locator('#qw-dice-numbers [data-value="6"]').click()
    expect(page.locator("#qw-dice")).to_be_hidden()
    page.locator('#qw-sheet [data-colour="purple"][data-box="0"]').click()
    checks.state("the number pad, 6 announced")
    page.locator('#qw-pad-numbers [data-value="6"]').click()
    expect(page.locator('#qw-sheet [data-colour="purple"][data-box="0"]')).to_have_text("6")
    checks.state("a sum written", shot="companions-large-qwinto.png", at="#qw-roll")
    # the rest of the game, by every phone: each player crosses four failed throws in turn
    for who in ["Luis", "Caro", "Tom", "Ana"] * 3 + ["Luis"]:  # Luis's 4th ends it
        _post(server.url, code, {"op": "roll", "player": who, "colours": ["orange"], "sum": 1})
        _post(server.url, code, {"op": "fail", "player": who})
    expect(page.locator("#qw-over")).to_be_visible()
    checks.state("a finished game")
    checks.done()


def test_domino_at_the_largest_text_can_be_played(panel_app, serve, largest_text_phone):
    server, page = serve(panel_app), largest_text_phone
    checks = Checks(page, Path(panel_app.instance_path))
    _start(page, checks, server.url, "domino", ["Ana", "Beto"])
    checks.state("pick the trump")
    page.locator("[data-suit='4']").click()
    expect(page.locator("#dm-hand")).to_be_visible()
    checks.state("a hand in play")
    page.locator("#dm-events [data-player='Beto'] .dm-show").click()
    checks.state("showing doubles")
    page.locator(".dm-decl[data-doubles='2']").click()
    for tile in ["4-4", "4-0", "6-4", "6-6", "3-0"]:
        page.locator(f"[data-tile='{tile}']").click()
    checks.state("counting the tricks", shot="companions-large-domino.png", at="#dm-tricks")
    page.locator("#dm-save-tiles").click()
    expect(page.locator(".dm-tab[aria-selected='true']", has_text="Beto")).to_be_visible()
    page.locator("#dm-points").fill("40")
    page.locator("#dm-save-points").click()
    expect(page.locator("#dm-trump")).to_be_visible()
    page.locator(".dm-rules summary").click()
    checks.state("the second hand, the rules opened")
    checks.done()


def test_clue_at_the_largest_text_keeps_every_card_name_whole(
    panel_app, serve, largest_text_phone, browser
):
    server, page = serve(panel_app), largest_text_phone
    checks = Checks(page, Path(panel_app.instance_path))
    page.goto(f"{server.url}/t/new/clue?lang=es")
    for i, name in enumerate(["Ana", "Beto", "Caro", "Dani"]):
        page.locator("input[name=player]").nth(i).fill(name)
    page.locator("#pin").fill("4321")
    checks.state("clue set-up form")
    page.get_by_role("button", name="Empezar la mesa").click()
    page.wait_for_url(TABLE_URL)
    code = TABLE_URL.fullmatch(page.url)[1]
    setup = page.get_by_test_id("setup")
    expect(setup).to_be_visible()
    checks.state("your notebook")
    setup.locator("#cl-me button", has_text="Ana").click()
    cards = requests.get(f"{server.url}/t/{code}/view?lang=es", timeout=10)
    assert cards.status_code == 401  # another phone, without the PIN
    for card in ("green", "mustard", "candlestick", "knife", "ballroom"):
        setup.locator(f"#cl-mycards [data-value='{card}']").click()
    setup.get_by_role("button", name="Empezar mis apuntes").click()
    grid = page.get_by_test_id("grid")
    expect(grid).to_be_visible()
    checks.state("the notebook", shot="companions-large-clue.png", at="#cl-grid")
    # each player's column says the whole name ("Beto", not "Bet")
    for name in ("Beto", "Caro", "Dani"):
        expect(grid.locator("thead th", has_text=name)).to_have_text(name)
    form = page.locator("#cl-add")
    form.locator("select[name=suggester]").select_option("Ana")
    form.locator("select[name=suspect]").select_option("plum")
    form.locator("select[name=weapon]").select_option("rope")
    form.locator("select[name=room]").select_option("hall")
    form.locator("#cl-shower button", has_text="Beto").click()
    form.locator("#cl-card button").first.click()
    form.locator("#cl-save").click()
    expect(page.get_by_test_id("events").locator("li")).to_have_count(1)
    grid.locator("td[data-card=hall][data-place=Caro]").click()
    checks.state("why a square is marked")
    # another phone opening the notebook without its PIN
    other = browser.new_context(
        viewport={"width": LARGEST_TEXT[0], "height": LARGEST_TEXT[1]},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    try:
        locked = Checks(other.new_page(), Path(panel_app.instance_path))
        locked.page.goto(f"{server.url}/t/{code}?lang=es")
        expect(locked.page.locator("#pin")).to_be_visible()
        locked.state("a locked notebook")
        checks.found += locked.found
    finally:
        other.close()
    checks.done()
