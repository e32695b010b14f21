"""A program's own pattern (a `[patterns.KEY]` table of the program file, docs/program.md) is
named as the file names it, in the reader's language, wherever a person meets it: the room's
announcement before and after the round is won, and the phone's pattern line; never by its key.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from testkit import Caller

from bingo_hall.manifest import new_deck
from bingo_hall.signing import card_path

PROGRAM = """\
name = "Rails night"
currency = "GBP"

[patterns.top_and_bottom]
en = "Top and bottom"
es = "Arriba y abajo"
grid = "XXXXX/...../...../...../XXXXX"

[[game]]
name = "Rails"
name_es = "Vías"
pattern = "top_and_bottom"
draw = "manual"
prizes = { bingo = "10" }
"""
RAILS = [(r, c) for r in (0, 4) for c in range(5)]


def started(client, seed: str) -> tuple[Caller, object, int]:
    cards = new_deck(6, seed=seed, name="Rails cards")
    hall = Caller(client, cards)
    assert hall.post("/api/program", {"text": PROGRAM, "source": "rails.toml"}).status_code == 200
    r = hall.post("/api/program/next", {"confirm": True})
    assert r.status_code == 200, r.get_json()
    return hall, cards, r.get_json()["game_id"]


def test_the_room_is_told_a_programs_own_pattern_by_its_names_not_its_key(client):
    hall, cards, gid = started(client, "own names")
    settings = hall.get(f"/api/games/{gid}/scores").get_json()["settings"]
    assert settings["spoken"] == {
        "es": "Se juega por la figura: Arriba y abajo",
        "en": "Playing for the pattern: Top and bottom",
    }
    assert settings["names"] == {"en": "Top and bottom", "es": "Arriba y abajo"}
    card = cards.card(2)
    hall.call(gid, *(card.number_at(r, c) for r, c in RAILS))
    assert hall.post(f"/api/games/{gid}/claims", {"serial": 2}).get_json()["valid"]
    assert hall.post(f"/api/games/{gid}/award", {}).status_code == 200
    board = hall.get(f"/api/games/{gid}/scores").get_json()["awarded"]
    assert board["spoken"]["es"].startswith("¡Bingo! Arriba y abajo"), board["spoken"]
    assert board["spoken"]["en"].startswith("Bingo! Top and bottom"), board["spoken"]


@pytest.mark.browser
@pytest.mark.parametrize(("lang", "name"), [("es", "Arriba y abajo"), ("en", "Top and bottom")])
def test_the_phone_names_a_programs_own_pattern_as_the_file_does(
    client, live_server, page, lang, name
):
    hall, cards, gid = started(client, f"own names {lang}")
    card = cards.card(1)
    hall.call(gid, card.number_at(0, 0))
    page.goto(live_server.url + card_path(cards.secret, cards.deck_id, 1) + f"?lang={lang}")
    line = page.locator("[data-part=pattern]")
    expect(line.locator("b").first).to_have_text(name)
    assert "top_and_bottom" not in page.locator("#verdict").inner_text()


@pytest.mark.parametrize(
    "names",
    ["Rails", {"top_and_bottom": "Rails"}, {"top_and_bottom": {"fr": "Rails"}}, {"x": {"en": ""}}],
)
def test_a_new_games_pattern_names_that_are_not_names_are_refused_in_one_line(client, names):
    hall = Caller(client, new_deck(3, seed="bad names", name="Cards"))
    r = hall.post(
        "/api/games",
        {"deck_id": hall.deck.deck_id, "options": {"pattern": "x", "pattern_names": names}},
    )
    assert r.status_code == 400
    assert r.get_json()["error"].startswith("pattern_names: each pattern's key with its en and es")
