"""A game of 90 balls at the station (issue 17): the kind comes from the deck's manifest, the
committed draw covers 1-90 exactly as docs/fairness.md describes it, calls have no letter and are
spoken as plain numbers, and `bingo-hall audit --balls 90` recomputes the order."""

from __future__ import annotations

import hashlib
import re
import sqlite3

import pytest
from testkit import Caller

from bingo_hall.manifest import new_strip_deck
from bingo_hall.station.schema import MIGRATIONS
from bingo_hall.station.spoken import english_number, spanish_number, spoken_both
from bingo_hall.web.db import connect, migrate

from .helpers import order_from_document


@pytest.fixture(scope="module")
def strips():
    return new_strip_deck(3, seed="sala-90", name="Tiras")


@pytest.fixture
def hall(client, strips):
    return Caller(client, strips)


def test_a_strip_deck_plays_ninety_balls_with_linea_then_bingo_by_default(hall, strips):
    listed = hall.get("/api/decks").get_json()["decks"]
    assert [d["game"] for d in listed] == [90]
    gid = hall.new_game()
    snap = hall.get(f"/api/games/{gid}").get_json()
    assert snap["balls"] == 90 and snap["left"] == 90 and snap["deck"]["game"] == 90
    assert snap["mode"] == "linea-bingo" and snap["free_centre"] is False
    assert snap["prizes"]["sequence"] == ["linea", "bingo"]
    assert snap["prizes"]["current"] == "linea"
    assert snap["scores"] is None


def test_a_ninety_ball_game_may_play_one_line_two_lines_full_house(hall):
    gid = hall.new_game(mode="lines-house")
    snap = hall.get(f"/api/games/{gid}").get_json()
    assert snap["mode"] == "lines-house"
    assert snap["prizes"]["sequence"] == ["one-line", "two-lines", "full-house"]


@pytest.mark.parametrize(
    "extra, words",
    [({"mode": "points"}, "Line then Bingo"), ({"free_centre": True}, "no centre square")],
)
def test_a_ninety_ball_game_refuses_the_seventy_five_ball_options(hall, extra, words):
    r = hall.post("/api/games", {"deck_id": hall.deck.deck_id, **extra})
    assert r.status_code == 400 and words in r.get_json()["error"]


def test_the_ninety_ball_draw_follows_the_fairness_document(hall):
    gid = hall.new_game(public_input="Bingo Gran Vía")
    created = hall.get(f"/api/games/{gid}").get_json()
    drawn = [hall.post(f"/api/games/{gid}/draw", {}).get_json()["ball"] for _ in range(90)]
    r = hall.post(f"/api/games/{gid}/draw", {})
    assert r.status_code == 409 and "90" in r.get_json()["error"]
    seed = bytes.fromhex(hall.post(f"/api/games/{gid}/end").get_json()["seed"])
    assert hashlib.sha256(seed).hexdigest() == created["commitment"]
    assert drawn == order_from_document(seed, "Bingo Gran Vía", balls=90)
    assert sorted(drawn) == list(range(1, 91))


def test_the_seventy_five_ball_order_is_the_first_shuffle_of_the_document():
    """Generalising to N balls left the 75-ball order as it was: the document's own loop."""
    from bingo_hall.draw import draw_order

    seed = bytes(range(32))
    assert list(draw_order(seed, "x")) == order_from_document(seed, "x")
    assert list(draw_order(seed, "x", 90)) == order_from_document(seed, "x", balls=90)
    assert list(draw_order(seed, "x", 90)) != order_from_document(seed, "x")


def test_a_cage_ball_in_a_ninety_ball_game_is_one_to_ninety_with_no_letter(hall):
    gid = hall.new_game(draw="manual")
    r = hall.post(f"/api/games/{gid}/calls", {"ball": 87})
    assert r.status_code == 201
    call = r.get_json()
    assert call["call"] == "87" and call["left"] == 89
    assert call["spoken"] == {"es": "ochenta y siete", "en": "eighty-seven"}
    assert hall.post(f"/api/games/{gid}/calls", {"ball": 90}).status_code == 201
    r = hall.post(f"/api/games/{gid}/calls", {"ball": 91})
    assert r.status_code == 400 and "1 to 90" in r.get_json()["error"]
    r = hall.post(f"/api/games/{gid}/calls", {"ball": 87})
    assert r.status_code == 409 and r.get_json()["error"] == "87 has already been called"
    undone = hall.post(f"/api/games/{gid}/undo", {"reason": "typo"}).get_json()
    assert undone["call"] == "90" and undone["left"] == 89


def test_a_seventy_five_ball_game_still_calls_with_the_letter(client, caller):
    gid = caller.new_game(draw="manual")
    call = caller.post(f"/api/games/{gid}/calls", {"ball": 76})
    assert call.status_code == 400 and "1 to 75" in call.get_json()["error"]
    call = caller.post(f"/api/games/{gid}/calls", {"ball": 31}).get_json()
    assert call["call"] == "N 31" and call["spoken"]["es"] == "N... treinta y uno"
    assert caller.get(f"/api/games/{gid}").get_json()["prizes"] is None


@pytest.mark.parametrize(
    "n, es, en",
    [
        (80, "ochenta", "eighty"),
        (81, "ochenta y uno", "eighty-one"),
        (87, "ochenta y siete", "eighty-seven"),
        (90, "noventa", "ninety"),
    ],
)
def test_numbers_up_to_ninety_are_spoken_in_both_languages(n, es, en):
    assert spanish_number(n) == es and english_number(n) == en
    assert spoken_both(n, 90) == {"es": es, "en": en}


def test_audit_recomputes_a_ninety_ball_order(kit_cli):
    seed = bytes.fromhex("5a" * 32)
    code, out, _ = kit_cli(["audit", "--seed", seed.hex(), "--balls", "90"])
    assert code in (0, None)
    lines = dict(line.split(": ", 1) for line in out.splitlines())
    assert [int(b) for b in lines["order"].split()] == order_from_document(seed, balls=90)
    assert "B " not in lines["calls"]
    order = order_from_document(seed, balls=90)
    calls = ",".join(map(str, order[:12]))
    code, out, _ = kit_cli(["audit", "--seed", seed.hex(), "--game", "90", "--calls", calls])
    assert code in (0, None) and "the 12 calls follow the committed order" in out
    code, _, err = kit_cli(["audit", "--seed", seed.hex(), "--balls", "80"])
    assert code == 2 and err.count("\n") == 1 and "75 or 90" in err


def test_the_migration_keeps_every_call_and_admits_balls_up_to_ninety(tmp_path):
    """A station database made before 90-ball games: its calls survive step 2 unchanged."""
    conn = connect(str(tmp_path / "old.sqlite"), create=True)
    migrate(conn, {"station": MIGRATIONS[:1]})
    conn.execute(
        "INSERT INTO decks (deck_id, name, free_centre, cards, manifest) "
        "VALUES ('D', 'd', 0, 1, '{}')"
    )
    conn.execute(
        "INSERT INTO games (deck_id, mode, free_centre, draw) VALUES ('D', 'normal', 0, 'auto')"
    )
    conn.execute("INSERT INTO rounds (game_id, number, seed, commitment) VALUES (1, 1, 's', 'c')")
    conn.execute("INSERT INTO calls (round_id, seq, ball, source) VALUES (1, 1, 75, 'auto')")
    conn.execute(
        "INSERT INTO calls (round_id, seq, ball, source, undone_at, undo_reason) "
        "VALUES (1, 2, 12, 'manual', 'then', 'typo')"
    )
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute("INSERT INTO calls (round_id, seq, ball, source) VALUES (1, 3, 87, 'auto')")
    before = conn.execute("SELECT * FROM calls ORDER BY id").fetchall()
    migrate(conn, {"station": MIGRATIONS})
    after = conn.execute(
        "SELECT id, round_id, seq, ball, source, called_at, undone_at, undo_reason FROM calls "
        "ORDER BY id"
    ).fetchall()
    assert [tuple(r) for r in after] == [tuple(r) for r in before]
    assert tuple(conn.execute("SELECT balls, prizes FROM games").fetchone()) == (75, None)
    conn.execute("INSERT INTO calls (round_id, seq, ball, source) VALUES (1, 3, 87, 'auto')")
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute("INSERT INTO calls (round_id, seq, ball, source) VALUES (1, 4, 91, 'auto')")
    with pytest.raises(sqlite3.IntegrityError):  # the live-ball index came back with the table
        conn.execute("INSERT INTO calls (round_id, seq, ball, source) VALUES (1, 5, 75, 'auto')")
    conn.close()


def test_the_new_game_form_starts_a_ninety_ball_game_with_the_prizes_chosen(client, hall, strips):
    login = client.get("/caller/login").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', login).group(1)
    pin = client.application.config["CALLER_PIN"]
    client.post("/caller/login", data={"pin": pin, "csrf_token": token})
    page = client.get("/caller/new").get_data(as_text=True)
    assert 'name="prizes" value="lines-house"' in page and "90 balls" in page
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    form = {"csrf_token": token, "deck_id": strips.deck_id, "mode": "normal", "draw": "auto"}
    r = client.post("/caller/new", data={**form, "prizes": "lines-house"})
    assert r.status_code == 302
    gid = int(r.headers["Location"].rsplit("/", 1)[1])
    snap = hall.get(f"/api/games/{gid}").get_json()
    assert snap["balls"] == 90 and snap["mode"] == "lines-house"
    page = client.get(f"/caller/games/{gid}").get_data(as_text=True)
    assert page.count('class="tabla-row"') == 9 and 'id="prize-steps"' in page
