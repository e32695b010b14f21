"""The big screen fits the projector in every state (issue 26, item 4): real Chromium renders
/display at 1366x768, 1280x720 and 1920x1080 with calls only, scores with 8 players, a claim
shown, the final board, and a 90-ball game with its prizes (and a ticket shown), and nothing that
matters to the room (join QR, commitment, the card shown and its totals, the board, the last
ball, the scores) reaches past the edges of the screen."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from testkit import Caller, scripts_ran

from bingo_hall.manifest import new_deck, new_strip_deck

SIZES = [(1366, 768), (1280, 720), (1920, 1080)]
PLAYERS = ["Ana María", "Beto", "Carla", "Dani", "Eusebio", "Fernanda", "Gustavo", "Hortensia"]
ALWAYS = [".join svg.qr", ".join [data-join]", "[data-field=commitment]", ".tabla"]
HERO = ["#last-call", "#recent"]
SHOWN = ["#claim-show .show-head", "#claim-show .vcard"]
SCORES = [".scoreboard table", ".scoreboard tr:last-child"]

OUTSIDE = """(selectors) => {
  const w = window.innerWidth, h = window.innerHeight, out = [];
  for (const sel of selectors) {
    const found = document.querySelectorAll(sel);
    if (!found.length) { out.push(sel + ": missing"); continue; }
    for (const e of found) {
      const r = e.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) { out.push(sel + ": not shown"); continue; }
      if (r.left < -1 || r.top < -1 || r.right > w + 1 || r.bottom > h + 1)
        out.push(`${sel}: ${Math.round(r.left)},${Math.round(r.top)} to ` +
                 `${Math.round(r.right)},${Math.round(r.bottom)} on ${w}x${h}`);
    }
  }
  const d = document.documentElement;
  if (d.scrollHeight > h + 1 || d.scrollWidth > w + 1)
    out.push(`page ${d.scrollWidth}x${d.scrollHeight} on ${w}x${h}`);
  return out;
}"""


def overflow(page, selectors: list[str]) -> list[str]:
    found = []
    for w, h in SIZES:
        page.set_viewport_size({"width": w, "height": h})
        found += page.evaluate(OUTSIDE, selectors)
    return found


@pytest.fixture
def hall(client):
    """A 75-ball points game with 8 players (no teams), 20 calls including card 5's top row."""
    deck = new_deck(40, seed="fits", name="Fiesta de la Asociación de Vecinos")
    hall = Caller(client, deck)
    gid = hall.new_game("points", "manual")
    for name in PLAYERS:
        assert hall.post(f"/api/games/{gid}/players", {"name": name}).status_code == 201
    card = deck.card(5)
    row = [card.number_at(0, c) for c in range(5)]
    others = [n for n in range(1, 76) if n not in set(card.numbers)][:15]
    hall.call(gid, *others, *row)
    hall.gid, hall.serial = gid, 5
    return hall


@pytest.mark.browser
def test_calls_and_scores_with_8_players_fit_the_screen(hall, live_server, page):
    page.goto(f"{live_server.url}/display/{hall.gid}")
    expect(page.locator(".scoreboard tr")).to_have_count(len(PLAYERS) + 1)
    assert overflow(page, ALWAYS + HERO + SCORES) == []


@pytest.mark.browser
def test_a_claim_shown_fits_the_screen_with_its_totals(hall, live_server, page):
    page.goto(f"{live_server.url}/display/{hall.gid}")
    scripts_ran(page)  # a check is shown to the screens that are listening, not replayed later
    expect(page.locator(".scoreboard tr")).to_have_count(len(PLAYERS) + 1)
    assert hall.post(f"/api/games/{hall.gid}/check/{hall.serial}").status_code == 200
    expect(page.locator("#claim-show .vcard")).to_be_visible()
    assert overflow(page, ALWAYS + SHOWN + ["#claim-show .vcard tr.tots td.tot"]) == []


@pytest.mark.browser
def test_the_final_board_fits_the_screen(hall, live_server, page):
    made = hall.post(f"/api/games/{hall.gid}/claims", {"serial": hall.serial, "player": "Beto"})
    assert made.status_code == 201, made.get_json()
    assert hall.post(f"/api/games/{hall.gid}/award", {}).status_code == 200
    page.goto(f"{live_server.url}/display/{hall.gid}")
    expect(page.locator("#claim-show .show-final")).to_be_visible()
    shown = SHOWN + ["#claim-show .vcard tr.tots td.tot", "#claim-show .show-final"]
    assert overflow(page, ALWAYS + shown + SCORES) == []


@pytest.mark.browser
def test_calls_only_fit_the_screen(caller, live_server, page):
    gid = caller.new_game("normal", "manual")
    caller.call(gid, 3, 18, 38, 50, 66, 7)
    page.goto(f"{live_server.url}/display/{gid}")
    expect(page.locator("#recent .chip")).to_have_count(5)
    assert overflow(page, ALWAYS + HERO) == []


@pytest.mark.browser
def test_a_90_ball_game_with_its_prizes_and_a_ticket_fits_the_screen(client, live_server, page):
    hall = Caller(client, new_strip_deck(3, seed="fits-90", name="Sala Gran Vía"))
    gid = hall.new_game("lines-house", "manual")
    ticket = hall.deck.card(4)
    hall.call(gid, *[n for n in ticket.rows[0] if n], 90, 45, 60, 2, 81)
    page.goto(f"{live_server.url}/display/{gid}")
    scripts_ran(page)
    expect(page.locator("#prize-steps li")).to_have_count(3)
    assert overflow(page, ALWAYS + HERO + ["#prize-board"]) == []
    assert hall.post(f"/api/games/{gid}/check/4").status_code == 200
    expect(page.locator("#claim-show .vcard")).to_be_visible()
    assert overflow(page, ALWAYS + SHOWN + ["#prize-board"]) == []
