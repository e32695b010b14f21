"""Real Chromium (pytest-playwright, Debian's Chromium: benchmarks/_browser.py) against the
station's real server: the Maestro logs in and draws, the board lights up, a second screen on
/display follows live without a reload, undo, manual entry on the Tabla Confrontadora, and the
language switch."""

import re

import pytest
from playwright.sync_api import expect

from bingo_hall.variants import DEFAULT_BALLS as BALLS

pytestmark = pytest.mark.browser
SLOW = 15_000  # ms: a second page waits on the event stream, on a busy shared machine


@pytest.fixture
def game(client, caller):
    return caller.new_game(mode="points")


@pytest.fixture
def manual_game(client, caller):
    return caller.new_game(draw="manual")


def log_in(page, url, pin, lang="en"):
    """Log in; on a game's caller page, wait until its scripts run (the live stream is open), so
    a click that follows is not lost on a busy machine."""
    page.goto(f"{url}/caller/login?lang={lang}")
    page.fill("input[name=pin]", pin)
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r"/caller/(?!login)"))
    if "/caller/games/" in page.url:
        expect(page.locator("#station")).to_have_attribute("data-live", "yes")


def test_maestro_logs_in_draws_and_the_board_lights_up(page, live_server, app, game):
    log_in(page, live_server.url, app.config["CALLER_PIN"])
    expect(page).to_have_url(f"{live_server.url}/caller/games/{game}")
    page.click("#draw")
    expect(page.locator(".tabla .ball.called")).to_have_count(1)
    last = page.locator(".tabla .ball.last")
    expect(last).to_have_count(1)
    expect(page.locator("#last-call")).to_have_text(last.get_attribute("aria-label"))
    page.keyboard.press("Space")  # the space bar draws too
    expect(page.locator(".tabla .ball.called")).to_have_count(2)
    expect(page.locator('[data-field="left"]').first).to_have_text(str(BALLS - 2))


def test_a_display_page_follows_the_draws_live_without_reload(
    page, browser, live_server, app, game
):
    screen = browser.new_page(viewport={"width": 1920, "height": 1080})
    screen.goto(f"{live_server.url}/display?lang=es")
    expect(screen.locator("#station")).to_have_attribute("data-live", "yes", timeout=SLOW)
    screen.evaluate("window.notReloaded = true")
    log_in(page, live_server.url, app.config["CALLER_PIN"])
    page.click("#draw")
    expect(page.locator(".tabla .ball.last")).to_have_count(1)
    called = page.locator(".tabla .ball.last").get_attribute("data-ball")
    expect(screen.locator("#last-call .number")).to_have_text(called, timeout=SLOW)
    expect(screen.locator(f'.tabla .ball[data-ball="{called}"]')).to_have_class(
        re.compile(r"\bcalled last\b"), timeout=SLOW
    )
    from bingo_hall.station.spoken import spoken_call

    expect(screen.locator("#spoken")).to_have_text(spoken_call(int(called), "es"))
    assert screen.evaluate("window.notReloaded") is True
    screen.close()


def test_undo_unlights_the_ball_on_the_caller_page_and_the_display(
    page, browser, live_server, app, game
):
    screen = browser.new_page()
    screen.goto(f"{live_server.url}/display")
    log_in(page, live_server.url, app.config["CALLER_PIN"])
    page.click("#draw")
    page.click("#draw")
    expect(screen.locator(".tabla .ball.called")).to_have_count(2, timeout=SLOW)
    page.fill("#undo-reason", "second ball fell back in")
    page.click("#undo button")
    expect(page.locator(".tabla .ball.called")).to_have_count(1)
    expect(screen.locator(".tabla .ball.called")).to_have_count(1, timeout=SLOW)
    expect(page.locator("#undone-log")).to_contain_text("second ball fell back in")
    screen.close()


def test_a_cage_ball_is_entered_by_clicking_the_tabla(page, live_server, app, manual_game):
    log_in(page, live_server.url, app.config["CALLER_PIN"])
    page.click('.tabla .ball[data-ball="31"]')
    expect(page.locator("#last-call")).to_have_text("N 31")
    page.fill("#manual-ball", "80")
    page.click("#manual button[type=submit]")
    expect(page.locator("#message")).to_contain_text("1 to 75")
    expect(page.locator(".tabla .ball.called")).to_have_count(1)


def test_the_language_switch_turns_the_pages_spanish_and_back(page, live_server, app, game):
    log_in(page, live_server.url, app.config["CALLER_PIN"])
    expect(page.locator("#draw")).to_contain_text("Draw")
    page.click(".langs a[lang=es]")
    expect(page.locator("#draw")).to_contain_text("Sacar bola")
    expect(page.locator(".board-area > h2")).to_have_text(
        "Tabla Confrontadora"
    )  # a name, never translated
    page.goto(f"{live_server.url}/display")
    expect(page.locator("#voice")).to_contain_text("Voz")
    page.click(".langs a[lang=en]")
    expect(page.locator("#voice")).to_contain_text("Voice")


def test_a_waiting_display_picks_up_the_new_game_by_itself(page, live_server, client, caller):
    page.goto(f"{live_server.url}/display?lang=en")
    expect(page.locator(".display-waiting")).to_be_visible()
    h = caller.auth
    gid = caller.new_game()
    ball = client.post(f"/api/games/{gid}/draw", headers=h).get_json()["ball"]
    expect(page.locator("#last-call .number")).to_have_text(str(ball), timeout=15000)


def test_a_display_that_lost_the_station_catches_up_on_reconnect(page, app, client, caller, serve):
    h = caller.auth
    gid = caller.new_game()
    server = serve(app)
    port = server.port
    page.goto(f"http://127.0.0.1:{port}/display/{gid}")
    expect(page.locator("#station")).to_have_attribute("data-live", "yes", timeout=SLOW)
    server.close()  # the laptop's station goes away (its open streams with it)...
    expect(page.locator("#offline")).to_be_visible(timeout=SLOW)
    missed = [client.post(f"/api/games/{gid}/draw", headers=h).get_json() for _ in range(3)]
    serve(app, port)  # ...and comes back on the same address
    expect(page.locator("#offline")).to_be_hidden(timeout=SLOW)
    expect(page.locator(".tabla .ball.called")).to_have_count(3, timeout=SLOW)
    expect(page.locator("#last-call .number")).to_have_text(str(missed[-1]["ball"]))


def test_the_voice_says_each_call_in_the_display_language(page, live_server, client, caller):
    page.add_init_script(
        "window.said = [];"
        "speechSynthesis.speak = (u) => window.said.push([u.text, u.lang]);"
        "speechSynthesis.cancel = () => {};"
    )
    h = caller.auth
    gid = caller.new_game()
    page.goto(f"{live_server.url}/display?lang=es")
    expect(page.locator("#station")).to_have_attribute("data-live", "yes", timeout=SLOW)
    page.click("#voice")
    expect(page.locator("#voice")).to_have_text("Voz: sí")
    ball = client.post(f"/api/games/{gid}/draw", headers=h).get_json()["ball"]
    from bingo_hall.station.spoken import spoken_call

    words = spoken_call(ball, "es")
    expect(page.locator("#spoken")).to_have_text(words, timeout=SLOW)
    assert page.evaluate("window.said").count([words, "es-ES"]) == 1
