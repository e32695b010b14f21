"""A Clue notebook is private (issue 18, item 4): an optional 4-digit PIN chosen at set-up, kept
hashed, asked for once per phone; without it a phone learns only that the table exists, and
wrong PINs are limited per table and per address. Through the HTTP API on real SQLite, and on a
real Chromium at 360 px."""

from __future__ import annotations

import hashlib
import re
import sqlite3

import pytest
from playwright.sync_api import expect

PLAYERS = ["Ana", "Beto", "Caro", "Dani"]
MINE = ["green", "mustard", "candlestick", "knife", "ballroom"]
PIN = "4821"


def notebook(client, pin: str | None = PIN, **extra) -> str:
    body = {"players": PLAYERS, **({"pin": pin} if pin is not None else {}), **extra}
    r = client.post("/t/new/clue", json=body)
    assert r.status_code == 201, r.get_json()
    code = r.get_json()["code"]
    setup = {"type": "setup", "me": "Ana", "cards": MINE}
    assert client.post(f"/t/{code}/entries", json=setup).status_code == 201
    return code


def stored(app, code: str) -> sqlite3.Row:
    conn = sqlite3.connect(app.config["DATABASE"])
    conn.row_factory = sqlite3.Row
    try:
        return conn.execute("SELECT * FROM companion_tables WHERE code = ?", (code,)).fetchone()
    finally:
        conn.close()


def entries(app, code: str) -> int:
    conn = sqlite3.connect(app.config["DATABASE"])
    try:
        query = "SELECT COUNT(*) FROM companion_entries WHERE table_code = ?"
        return conn.execute(query, (code,)).fetchone()[0]
    finally:
        conn.close()


def test_a_notebook_without_a_pin_opens_to_anyone_with_the_code(companions_app):
    code = notebook(companions_app.test_client(), pin=None)
    other = companions_app.test_client()
    assert other.get(f"/t/{code}").status_code == 200
    assert other.get(f"/t/{code}/view").get_json()["view"]["setup"]["me"] == "Ana"


def test_without_the_pin_a_phone_sees_only_that_the_table_exists(companions_app):
    code = notebook(companions_app.test_client())
    other = companions_app.test_client()
    page = other.get(f"/t/{code}?lang=en")
    assert page.status_code == 401
    text = page.get_data(as_text=True)
    assert code in text and "These notes are private" in text
    assert not any(name in text for name in PLAYERS)  # not even who plays
    assert "candlestick" not in text and "table-data" not in text

    view = other.get(f"/t/{code}/view")
    assert view.status_code == 401
    assert view.get_json() == {
        "error": "This notebook is private: open its page and type its PIN.",
        "locked": True,
        "code": code,
        "game": "clue",
    }
    assert other.get(f"/t/{code}/events").status_code == 401
    before = entries(companions_app, code)
    seen = {"type": "seen", "holder": "Beto", "card": "rope"}
    for method, path, body in [
        ("POST", f"/t/{code}/entries", seen),
        ("POST", f"/t/{code}/entries/1/undo", None),
        ("POST", f"/t/{code}/entries/1/restore", None),
        ("PUT", f"/t/{code}/entries/1", seen),
        ("POST", f"/t/{code}/rematch", None),
    ]:
        r = other.open(path, method=method, json=body)
        assert r.status_code == 401, (path, r.get_json())
    assert entries(companions_app, code) == before
    assert stored(companions_app, code)["next_code"] is None  # no rematch either


def test_the_refusal_is_in_spanish_too(companions_app):
    code = notebook(companions_app.test_client())
    other = companions_app.test_client()
    r = other.get(f"/t/{code}/view?lang=es")
    assert r.get_json()["error"] == "Estas notas son privadas: abre su página y escribe su PIN."
    page = other.get(f"/t/{code}?lang=es").get_data(as_text=True)
    assert "Estas notas son privadas" in page


def test_the_phone_that_chose_the_pin_is_not_asked_for_it(companions_app):
    owner = companions_app.test_client()
    code = notebook(owner)
    assert owner.get(f"/t/{code}").status_code == 200
    assert owner.get(f"/t/{code}/view").get_json()["view"]["setup"]["cards"] == MINE


def test_the_pin_is_asked_for_once_per_phone(companions_app):
    code = notebook(companions_app.test_client())
    phone, stranger = companions_app.test_client(), companions_app.test_client()
    r = phone.post(f"/t/{code}/unlock", data={"pin": PIN})
    assert r.status_code == 302 and r.headers["Location"].endswith(f"/t/{code}")
    for _ in range(3):  # remembered: every later request just works
        assert phone.get(f"/t/{code}/view").status_code == 200
    seen = {"type": "seen", "holder": "Beto", "card": "rope"}
    assert phone.post(f"/t/{code}/entries", json=seen).status_code == 201
    assert stranger.get(f"/t/{code}/view").status_code == 401
    # the JSON twin of the form
    r = stranger.post(f"/t/{code}/unlock", json={"pin": PIN})
    assert r.status_code == 200 and r.get_json()["url"] == f"/t/{code}"
    assert stranger.get(f"/t/{code}/view").status_code == 200


def test_the_pin_is_kept_salted_and_hashed(companions_app):
    client = companions_app.test_client()
    first, second = notebook(client), notebook(client)
    a, b = stored(companions_app, first)["pin_hash"], stored(companions_app, second)["pin_hash"]
    # the PIN is not kept as text: each field is hex of a salt or a digest (the PIN's 4 digits
    # can turn up inside random hex by chance, so the check is on the fields, not a substring)
    assert a.startswith("scrypt$") and PIN not in a.split("$")
    _, salt, digest = a.split("$")
    assert len(bytes.fromhex(salt)) == 16 and len(bytes.fromhex(digest)) == 32
    # an scrypt hash of the PIN with that salt, worked out here with hashlib's own scrypt
    assert (
        hashlib.scrypt(PIN.encode(), salt=bytes.fromhex(salt), n=2**14, r=8, p=1, dklen=32).hex()
        == digest
    )
    assert a != b  # the same PIN, a salt per table


def test_wrong_pins_wait_after_five_per_address(companions_app):
    client = companions_app.test_client()
    first, second = notebook(client), notebook(client)
    guesser = companions_app.test_client()
    for guess in ("0000", "1111", "2222", "3333", "4444"):
        r = guesser.post(f"/t/{first}/unlock", json={"pin": guess})
        assert r.status_code == 401 and r.get_json()["error"] == "Wrong PIN."
    r = guesser.post(f"/t/{first}/unlock", json={"pin": PIN})  # even the right one must wait
    assert r.status_code == 429 and 0 < int(r.headers["Retry-After"]) <= 300
    assert "Too many wrong PINs" in r.get_json()["error"]
    # the same address on another notebook waits too
    assert guesser.post(f"/t/{second}/unlock", json={"pin": PIN}).status_code == 429
    assert guesser.get(f"/t/{first}/view").status_code == 401


def test_wrong_pins_wait_after_five_per_table_whatever_the_address(companions_app):
    client = companions_app.test_client()
    code, other_code = notebook(client), notebook(client)
    for i in range(5):
        r = companions_app.test_client().post(
            f"/t/{code}/unlock",
            data={"pin": f"{i:04d}"},
            environ_base={"REMOTE_ADDR": f"10.0.0.{i + 10}"},
        )
        assert r.status_code == 401 and "Wrong PIN." in r.get_data(as_text=True)
    fresh = {"REMOTE_ADDR": "10.0.0.99"}
    r = companions_app.test_client().post(
        f"/t/{code}/unlock", data={"pin": PIN}, environ_base=fresh
    )
    assert r.status_code == 429 and "Too many wrong PINs" in r.get_data(as_text=True)
    # another table is not held up by this one's guesses
    r = companions_app.test_client().post(
        f"/t/{other_code}/unlock", data={"pin": PIN}, environ_base=fresh
    )
    assert r.status_code == 302


@pytest.mark.parametrize("pin", ["12", "12345", "١٢٣٤", "²²²²", "abcd", 1234, ["1234"]])
def test_a_pin_is_four_ascii_digits_or_nothing(companions_app, pin):
    r = companions_app.test_client().post("/t/new/clue", json={"players": PLAYERS, "pin": pin})
    assert r.status_code == 400 and r.get_json()["field"] == "pin"
    assert r.get_json()["error"] == "The PIN is 4 digits, or leave it blank"


def test_a_blank_pin_leaves_the_notebook_open(companions_app):
    client = companions_app.test_client()
    r = client.post("/t/new/clue", data={"player": PLAYERS, "pin": "  "})
    assert r.status_code == 302
    code = r.headers["Location"].rsplit("/", 1)[-1]
    assert stored(companions_app, code)["pin_hash"] is None
    assert companions_app.test_client().get(f"/t/{code}/view").status_code == 200


def test_play_again_keeps_the_pin_and_the_owners_phone(companions_app):
    owner = companions_app.test_client()
    code = notebook(owner)
    r = owner.post(f"/t/{code}/rematch")
    assert r.status_code == 201
    new_code = r.get_json()["code"]
    assert owner.get(f"/t/{new_code}/view").status_code == 200
    assert companions_app.test_client().get(f"/t/{new_code}/view").status_code == 401


@pytest.mark.browser
def test_a_second_phone_types_the_pin_once_at_360_px(companions_app, serve, phone, browser):
    server = serve(companions_app)
    phone.goto(f"{server.url}/t/new/clue?lang=en")
    for i, name in enumerate(PLAYERS):
        phone.locator('input[name="player"]').nth(i).fill(name)
    phone.get_by_label("4 digits").fill(PIN)
    phone.get_by_role("button", name="Start the table").click()
    code = phone.get_by_test_id("table-code").inner_text().strip()
    expect(phone.get_by_test_id("setup")).to_be_visible()  # the owner goes straight in

    context = browser.new_context(
        viewport={"width": 360, "height": 740}, device_scale_factor=2, is_mobile=True
    )
    try:
        other = context.new_page()
        other.goto(f"{server.url}/t/{code}?lang=en")
        expect(other.get_by_role("heading", name="These notes are private")).to_be_visible()
        expect(other.get_by_test_id("setup")).to_have_count(0)
        other.get_by_label("PIN").fill("0000")
        other.get_by_role("button", name="Open the notes").click()
        expect(other.get_by_role("alert")).to_have_text("Wrong PIN.")
        width = other.evaluate("document.documentElement.scrollWidth")
        assert width <= 360  # nothing sticks out sideways on a phone
        other.get_by_label("PIN").fill(PIN)
        other.get_by_role("button", name="Open the notes").click()
        expect(other.get_by_test_id("setup")).to_be_visible()
        other.goto(f"{server.url}/t/{code}?lang=en")  # asked once: a reload goes straight in
        expect(other.get_by_test_id("setup")).to_be_visible()
        assert re.search(code, other.title())
    finally:
        context.close()


def test_a_guesser_gets_about_a_hundred_notebook_pins_a_day_so_a_pin_takes_weeks():
    from companions.web.pins import NOTEBOOK_PIN_RULE

    per_day = NOTEBOOK_PIN_RULE.tries_per_day()
    assert per_day <= 24 * 4 + 10  # one every 15 minutes once the waits reach the cap
    assert (10_000 / 2) / per_day > 30  # docs/companions.md: "would take weeks"
