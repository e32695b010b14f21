"""Real Chromium: every pattern of the book on the hall's screens. The projector's /display
(1280x720) and a phone at its largest text (390x844, A+ four times) draw each one without a
layout problem (tests/layout.py); a crazy pattern goes through its forms on the big screen, and
shows them side by side when the screen asks for reduced motion; a claim's verdict names the
form the card completed on /display, on the caller page's check and on the phone; the room is
told the pattern and the form won in the hall's language. The docs' pictures of every pattern
(docs/patterns.md) are taken here, from /display's own drawing of them."""

from __future__ import annotations

from pathlib import Path

import pytest
from layout import PHONE, assert_layout
from playwright.sync_api import Browser, Page, expect
from testkit import caller_game_page, doc_shot

from bingo_hall.prize_names import known_names
from bingo_hall.seventyfive.patterns import BUILT_IN, PatternShape
from bingo_hall.signing import card_path

from .hall import Hall

pytestmark = pytest.mark.browser

SLOW = 15_000  # ms: the pages follow the game's event stream, on a busy shared machine
PROJECTOR = (1280, 720)
KITE = [(0, 0), (0, 1), (1, 0), (1, 1), (2, 2), (3, 3), (4, 4)]  # the book's kite, drawn here


def _phone(browser: Browser, lang: str = "en") -> Page:
    """A phone at the page's largest text (card_access.js keeps it in localStorage)."""
    context = browser.new_context(
        viewport={"width": PHONE[0], "height": PHONE[1]},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        locale=lang,
    )
    context.add_init_script("localStorage.setItem('bingo.text', '4');")
    return context.new_page()


def _play(hall: Hall, gid: int, key: str) -> None:
    assert hall.post(f"/api/games/{gid}/settings", {"pattern": key}).status_code == 200


def _turned(cells, turns: int):
    """Turned a quarter clockwise `turns` times: the top row becomes the right-hand column."""
    for _ in range(turns):
        cells = [(c, 4 - r) for r, c in cells]
    return cells


def test_every_pattern_of_the_book_fits_the_projector_and_the_phone(
    client, live_server, browser, tmp_path
):
    hall = Hall(client)
    gid = hall.new_game()
    display = browser.new_page(viewport={"width": PROJECTOR[0], "height": PROJECTOR[1]})
    display.goto(f"{live_server.url}/display/{gid}")
    expect(display.locator("#station")).to_have_attribute("data-live", "yes")
    phone = _phone(browser)
    phone.goto(live_server.url + card_path(hall.deck.secret, hall.deck.deck_id, 3))
    expect(phone.locator("#verify")).to_have_attribute("data-live", "yes")
    for key, pattern in BUILT_IN.items():
        _play(hall, gid, key)
        for page in (display, phone):
            pic = page.locator(f'.pattern-pic[data-pattern="{key}"]')
            expect(pic).to_be_visible(timeout=SLOW)
            expect(pic).to_have_attribute("data-forms", str(len(pattern.forms)))
            # each grid the picture shows is one of the pattern's forms, square for square
            for grid in pic.locator(".mini-card").all():
                on = grid.evaluate(
                    "g => [...g.children].flatMap((s, i) => s.classList.contains('on') ? [i] : [])"
                )
                assert frozenset(divmod(i, 5) for i in on) in pattern.forms, key
        assert_layout(display, (PROJECTOR,), fit=True)
        assert_layout(phone, (PHONE,))
    # the last pattern played, a call made: the phone says how many more it needs
    hall.call(gid, hall.deck.card(3).number_at(0, 0))
    expect(phone.locator(".need-more")).to_be_visible(timeout=SLOW)
    assert_layout(phone, (PHONE,))
    phone.locator(".need-more").scroll_into_view_if_needed()
    phone.screenshot(path=doc_shot("patterns-phone-need.png", tmp_path))


def test_a_crazy_pattern_goes_through_its_forms_on_the_big_screen(client, live_server, page):
    hall = Hall(client)
    gid = hall.new_game()
    _play(hall, gid, "crazy_kite")
    page.set_viewport_size({"width": PROJECTOR[0], "height": PROJECTOR[1]})
    page.goto(f"{live_server.url}/display/{gid}")
    pic = page.locator(".pattern-pic")
    expect(pic.locator("figcaption")).to_contain_text("any of its 4 forms", timeout=SLOW)
    seen = set()
    for showing in ("0", "1", "2", "3"):
        expect(pic).to_have_attribute("data-showing", showing, timeout=SLOW)
        seen.add(pic.locator(".mini-card").inner_html())
    assert len(seen) == 4  # four different pictures, one form each


def test_with_reduced_motion_the_forms_stand_side_by_side(client, live_server, page):
    hall = Hall(client)
    gid = hall.new_game()
    _play(hall, gid, "postage_stamp")
    page.emulate_media(reduced_motion="reduce")
    page.set_viewport_size({"width": PROJECTOR[0], "height": PROJECTOR[1]})
    page.goto(f"{live_server.url}/display/{gid}?lang=es")
    pic = page.locator(".pattern-pic")
    expect(pic).to_have_attribute("data-still", "yes", timeout=SLOW)
    expect(pic.locator(".mini-card")).to_have_count(4)
    expect(pic.locator("figcaption")).to_have_text("cualquiera de sus 4 formas")
    assert pic.get_attribute("data-showing") is None  # nothing moves


def test_a_double_bingo_is_shown_by_a_few_examples_not_all_its_forms(client, live_server, page):
    hall = Hall(client)
    gid = hall.new_game()
    _play(hall, gid, "triple_bingo")
    page.emulate_media(reduced_motion="reduce")
    page.set_viewport_size({"width": PROJECTOR[0], "height": PROJECTOR[1]})
    page.goto(f"{live_server.url}/display/{gid}")
    pic = page.locator(".pattern-pic")
    expect(pic).to_have_attribute("data-forms", "220", timeout=SLOW)
    expect(pic.locator(".mini-card")).to_have_count(4)
    expect(pic.locator(".mini-card span.on").first).to_be_visible()
    for grid in pic.locator(".mini-card").all():  # three whole lines each: 13 to 15 squares
        assert 13 <= grid.locator("span.on").count() <= 15


def test_a_verdict_names_the_form_won_on_the_display_the_caller_page_and_the_phone(
    client, live_server, page, browser, tmp_path
):
    hall = Hall(client)
    gid = hall.new_game()
    _play(hall, gid, "crazy_kite")
    card = hall.deck.card(6)
    turned = _turned(KITE, 1)  # the kite a quarter turn clockwise: its square top right
    hall.call(gid, *[n for r, c in turned if (n := card.number_at(r, c)) is not None])
    phone = _phone(browser, "es")
    phone.goto(live_server.url + card_path(hall.deck.secret, hall.deck.deck_id, 6) + "?lang=es")
    expect(phone.locator(".verdict-head .form-name")).to_have_text(
        "· con giro de 90°", timeout=SLOW
    )
    page.set_viewport_size({"width": PROJECTOR[0], "height": PROJECTOR[1]})
    page.goto(f"{live_server.url}/display/{gid}")
    expect(page.locator("#station")).to_have_attribute("data-live", "yes")
    assert hall.post(f"/api/games/{gid}/check/6").status_code == 200
    expect(page.locator("#claim-show .show-line").first).to_contain_text(
        "Crazy kite (turned 90°)", timeout=SLOW
    )
    assert_layout(page, (PROJECTOR,), fit=True)
    page.screenshot(path=doc_shot("patterns-display-verdict.png", tmp_path))
    laptop = browser.new_page(viewport={"width": 1366, "height": 768})
    caller_game_page(laptop, live_server.url, gid)
    laptop.fill("#claim-serial", "6")
    laptop.press("#claim-serial", "Enter")
    expect(laptop.locator("#claim-result .lines li.wins .form-name")).to_have_text(
        "(turned 90°)", timeout=SLOW
    )


def test_the_room_is_told_the_pattern_and_the_form_won_in_its_language(client, live_server, page):
    hall = Hall(client)
    gid = hall.new_game()
    _play(hall, gid, "postage_stamp")
    page.set_viewport_size({"width": PROJECTOR[0], "height": PROJECTOR[1]})
    page.goto(f"{live_server.url}/display/{gid}?lang=es")
    expect(page.locator(".pattern-now .label")).to_have_text(
        "Se juega por la figura: Estampilla (en cualquier esquina)", timeout=SLOW
    )
    card = hall.deck.card(7)
    bottom_left = [(3, 0), (3, 1), (4, 0), (4, 1)]
    hall.call(gid, *[card.number_at(r, c) for r, c in bottom_left])
    assert hall.post(f"/api/games/{gid}/claims", {"serial": 7}).get_json()["valid"]
    assert hall.post(f"/api/games/{gid}/award", {}).status_code == 200
    expect(page.locator(".scoreboard .announce")).to_contain_text(
        "¡Bingo! Estampilla (en cualquier esquina), esquina inferior izquierda", timeout=SLOW
    )


def test_the_docs_show_every_pattern_as_display_draws_it(client, live_server, page, tmp_path):
    """Contact sheets of the book, twelve patterns a sheet, each drawn by /display's own
    pattern.js with its stylesheets, the forms side by side (reduced motion), four at most."""
    hall = Hall(client)
    gid = hall.new_game()
    page.emulate_media(reduced_motion="reduce")
    page.set_viewport_size({"width": PROJECTOR[0], "height": PROJECTOR[1]})
    page.goto(f"{live_server.url}/display/{gid}")
    expect(page.locator("#station")).to_have_attribute("data-live", "yes")
    entries = [
        {"key": k, "names": dict(known_names()[k]), "shape": PatternShape.of(p).to_json()}
        for k, p in BUILT_IN.items()
    ]
    per_sheet = 12
    for n, start in enumerate(range(0, len(entries), per_sheet), 1):
        page.evaluate(SHEET, entries[start : start + per_sheet])
        expect(page.locator("#sheet .pattern-pic")).to_have_count(
            len(entries[start : start + per_sheet])
        )
        assert_layout(page, (PROJECTOR,), fit=True)
        page.locator("#sheet").screenshot(path=doc_shot(f"patterns-sheet-{n}.png", tmp_path))


#: the sheet: /display's page put away, then each pattern drawn by /static/pattern.js, as
#: /display draws the one played, its name in both languages above it
SHEET = """async (entries) => {
  const { drawPattern } = await import("/static/pattern.js");
  const words = JSON.parse(document.getElementById("score-strings").textContent);
  // the page's own parts put away, its stylesheets (and its words) kept
  document.getElementById("sheet")?.remove();
  for (const part of document.body.children) {
    if (!["LINK", "SCRIPT", "STYLE"].includes(part.tagName)) part.style.display = "none";
  }
  const sheet = document.createElement("main");
  sheet.id = "sheet";
  Object.assign(sheet.style, { display: "grid", gridTemplateColumns: "repeat(3, 1fr)",
    gap: "10px 24px", padding: "12px 24px", boxSizing: "border-box", height: "max-content",
    alignContent: "start", flex: "none" });
  for (const e of entries) {
    const cell = document.createElement("section");
    Object.assign(cell.style,
      { minWidth: "0", display: "flex", flexDirection: "column", gap: "4px" });
    const name = document.createElement("h2");
    Object.assign(name.style, { margin: "0", fontSize: "17px", lineHeight: "1.2" });
    name.textContent = e.names.en + " · " + e.names.es;
    const pic = drawPattern(e.shape, words, "en");
    // the squares smaller than on /display, so that four forms stand side by side in a cell
    pic.querySelectorAll(".mini-card").forEach((g) => {
      g.style.gridTemplateColumns = "repeat(5, 13px)";
      g.querySelectorAll("span").forEach(
        (sq) => Object.assign(sq.style, { width: "13px", height: "13px" }));
    });
    cell.append(name, pic);
    sheet.append(cell);
  }
  document.body.append(sheet);
}"""


AXE = Path(__file__).parent.parent / "a11y" / "node_modules" / "axe-core" / "axe.min.js"


def _serious(page: Page) -> list[str]:
    """axe-core's serious and critical violations on the page as it stands, every rule on."""
    page.evaluate(AXE.read_text("utf-8"))
    found = page.evaluate(
        'async () => (await axe.run(document, {resultTypes: ["violations"]})).violations'
    )
    return [f"{v['id']}: {v['nodes'][0]['target']}" for v in found if v["impact"] in
            ("serious", "critical")]  # fmt: skip


def test_the_pattern_picture_passes_axe_on_the_display_and_the_phone(
    client, live_server, page, browser
):
    hall = Hall(client)
    gid = hall.new_game()
    _play(hall, gid, "crazy_kite")
    hall.call(gid, hall.deck.card(2).number_at(0, 0))
    page.set_viewport_size({"width": PROJECTOR[0], "height": PROJECTOR[1]})
    page.goto(f"{live_server.url}/display/{gid}?lang=es")
    expect(page.locator(".pattern-pic figcaption")).to_contain_text("cualquiera", timeout=SLOW)
    assert not _serious(page)
    phone = _phone(browser, "es")
    phone.goto(live_server.url + card_path(hall.deck.secret, hall.deck.deck_id, 2) + "?lang=es")
    expect(phone.locator(".need-more")).to_have_text("le faltan 6", timeout=SLOW)
    assert not _serious(phone)
