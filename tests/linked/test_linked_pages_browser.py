"""The linked game's pages in real Chromium (docs/linked.md): the Maestro starts it from the
organiser's file with the code typed, and calls it from the code; the caller page says whether
the station follows the organiser live or goes on from the code; the projector names the game
and its prize; the organiser's page shows each hall's result as it arrives. Each page in Spanish
and English, axe-clean, laid out whole on the screens it is read on."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from layout import LAPTOP, PHONE, PROJECTORS, assert_layout
from playwright.sync_api import expect
from station.helpers import order_from_document
from testkit import TEST_PIN, Caller, doc_shot, eventually, scripts_ran

from bingo_hall.linked.keys import Signer
from bingo_hall.linked.result import make_result
from bingo_hall.manifest import new_strip_deck
from bingo_hall.station.linked.organiser import organiser_app, serve
from bingo_hall.web import book_store as book
from linked.hall import around_now, organise, signed_head, station_keys

pytestmark = pytest.mark.browser

DECK = new_strip_deck(6, seed="linked pages", name="Linked pages")
AXE = Path(__file__).parent.parent / "a11y" / "node_modules" / "axe-core" / "axe.min.js"


def serious(page) -> list[str]:
    page.evaluate(AXE.read_text("utf-8"))
    found = page.evaluate(
        'async () => (await axe.run(document, {resultTypes: ["violations"]})).violations'
    )
    return [
        f"{v['id']}: {v['help']} {v['nodes'][0]['target']}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


def shot(name: str, scratch: Path) -> str:
    """docs/linked.md shows the English pages; the Spanish ones go to the test's folder."""
    return doc_shot(name, scratch) if name.endswith("-en.png") else str(scratch / name)


def login(page, url: str, lang: str) -> None:
    page.goto(f"{url}/caller/login?lang={lang}")
    page.fill("input[name=pin]", TEST_PIN)
    page.press("input[name=pin]", "Enter")
    page.wait_for_url("**/caller/**")
    page.goto(f"{url}/lang/{lang}?next=/caller/new")  # the switch: the pages after it too


@pytest.fixture
def night(app, client):
    with app.app_context():
        key = book.station_key(app)
    org = organise([key, *station_keys(2)], ["North", "South"], balls=90, window=around_now())
    hall = Caller(client, DECK)
    return org, hall


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("es", ("Con el código", "Juego enlazado", "gana la menor cantidad de bolillas")),
        ("en", ("On the code", "Linked game", "lowest call count wins")),
    ],
)
def test_the_maestro_starts_with_the_code_typed_and_calls_the_order_from_the_code(
    app, live_server, page, night, tmp_path, lang, words
):
    org, hall = night
    game_file = tmp_path / "game.linked.json"
    game_file.write_text(org.game.text())
    login(page, live_server.url, lang)
    page.goto(f"{live_server.url}/caller/new")
    page.click("#linked-start")
    page.set_input_files("input[name=linked_file]", str(game_file))
    page.fill("input[name=code]", "AAAA-BBBB-CCCC-DDDD")  # misheard on the phone
    page.check("input[name=draw][value=manual]")
    page.click("#linked-start button[type=submit]")
    expect(page.locator("#linked-error")).to_be_visible()
    assert "/caller/linked" in page.url
    assert serious(page) == []
    assert_layout(page, (LAPTOP,))
    page.screenshot(path=shot(f"linked-start-{lang}.png", tmp_path), full_page=True)
    page.set_input_files("input[name=linked_file]", str(game_file))
    page.fill("input[name=code]", org.code.lower())
    page.click("#linked-start button[type=submit]")
    page.wait_for_url("**/caller/games/**")
    scripts_ran(page)
    panel = page.locator("#linked")
    expect(panel.locator("[data-when=code]").first).to_contain_text(words[0])
    expect(panel).to_contain_text(words[1])
    expect(panel.locator(".linked-line")).to_contain_text(words[2])
    gid = int(page.url.rstrip("/").split("/")[-1].split("#")[0])
    for _ in range(3):
        page.click("#linked-next")
        page.wait_for_load_state()
    order = order_from_document(org.seed, "", 90)
    calls = [c["ball"] for c in hall.get(f"/api/games/{gid}").get_json()["calls"]]
    assert calls == order[:3]
    expect(page.locator("#last-call")).to_contain_text(str(order[2]))
    assert serious(page) == []
    assert_layout(page, (LAPTOP,))
    page.screenshot(path=shot(f"linked-caller-{lang}.png", tmp_path), full_page=True)


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        (
            "es",
            ("Juego enlazado · premio nacional", "1.000,00", "gana la menor cantidad de bolillas"),
        ),
        ("en", ("Linked game · national prize", "£1,000.00", "lowest call count wins")),
    ],
)
def test_the_projector_names_the_linked_game_its_national_prize_and_how_it_is_won(
    live_server, page, night, tmp_path, lang, words
):
    org, hall = night
    r = hall.post(
        "/api/linked/games",
        {
            "linked": json.loads(org.game.text()),
            "code": org.code,
            "game": {"deck_id": DECK.deck_id, "mode": "house", "draw": "auto"},
        },
    )
    assert r.status_code == 201, r.get_json()
    gid = r.get_json()["game_id"]
    hall.post(f"/api/games/{gid}/draw")
    page.goto(f"{live_server.url}/display?lang={lang}")
    scripts_ran(page)
    line = page.locator("#linked-line")
    said = " ".join(line.inner_text().split())
    assert said.startswith(words[0]) and said.endswith(words[2]) and words[1] in said, said
    assert serious(page) == []
    assert_layout(page, PROJECTORS, fit=True)
    page.set_viewport_size({"width": 1366, "height": 768})
    page.screenshot(path=shot(f"linked-display-{lang}.png", tmp_path))


def test_the_caller_page_says_following_live_then_on_the_code_when_the_maestro_stops(
    live_server, page, night, tmp_path
):
    org, hall = night
    folder = tmp_path / "organiser"
    organiser = serve(organiser_app(org.game, org.code, folder, 0.5), "127.0.0.1", 0)
    threading.Thread(target=organiser.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{organiser.server_address[1]}"
        r = hall.post(
            "/api/linked/games",
            {
                "linked": json.loads(org.game.text()),
                "organiser": url,
                "follow": True,
                "game": {"deck_id": DECK.deck_id, "mode": "house"},
            },
        )
        assert r.status_code == 201, r.get_json()
        gid = r.get_json()["game_id"]
        login(page, live_server.url, "en")
        page.goto(f"{live_server.url}/caller/games/{gid}")
        scripts_ran(page)
        following = page.locator("#linked-live [data-when=following]")
        expect(following).to_be_visible()
        expect(following).to_contain_text(url)
        eventually(lambda: len(hall.get(f"/api/games/{gid}").get_json()["calls"]) >= 2)
        page.screenshot(path=doc_shot("linked-following-en.png", tmp_path), full_page=True)
        page.click("#linked-stop")
        on_code = page.locator("#linked-live [data-when=code]")
        expect(on_code).to_be_visible()
        expect(on_code).to_contain_text("stopped following")
        expect(page.locator("#linked-next")).to_be_visible()
        assert serious(page) == []
        assert_layout(page, (LAPTOP,))
    finally:
        organiser.shutdown()


@pytest.mark.parametrize(("lang", "verified"), [("es", "verificado"), ("en", "verified")])
def test_the_organisers_page_shows_each_result_as_it_arrives(page, tmp_path, lang, verified):
    keys = station_keys(3)
    org = organise(keys, ["North", "South"], balls=90, window=around_now())
    folder = tmp_path / "results"
    app = organiser_app(org.game, org.code, folder, 2.0)
    server = serve(app, "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}"
        page.goto(f"{url}/?lang={lang}")
        main = page.locator("#organiser")
        expect(main).to_have_attribute("data-live", "yes")
        row = page.locator(f"#hall-{keys[0].fingerprint}")
        expect(row).to_have_attribute("data-state", "waiting")
        count = page.locator("#calls [data-field=count]")
        before = int(count.inner_text())
        expect(count).to_have_text(str(before + 1), timeout=30_000)  # the next call, live
        order = order_from_document(org.seed, "", 90)
        ticket = min(DECK.cards, key=lambda t: max(order.index(n) for n in t.numbers))
        at = max(order.index(n) for n in ticket.numbers) + 1
        result = make_result(
            org.game,
            "Hall 1",
            Signer.of_station(keys[0]),
            signed_head(keys[0]),
            order[:at],
            org.game.window.start,
            DECK.deck_id,
            ticket,
        )
        answer = app.test_client().post("/results", data=result.text())
        assert answer.status_code == 201
        expect(row).to_have_attribute("data-state", "verified")  # without a reload
        expect(row.locator(".state")).to_contain_text(f"{verified}")
        expect(row.locator(".state")).to_contain_text(str(at))
        assert serious(page) == []
        assert_layout(page, (LAPTOP, PHONE))
        page.set_viewport_size({"width": 1366, "height": 768})
        page.screenshot(path=shot(f"linked-organiser-{lang}.png", tmp_path), full_page=True)
    finally:
        server.shutdown()
