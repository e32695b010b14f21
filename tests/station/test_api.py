"""The JSON API with the Flask test client: auth, decks, games, draws, manual entry, undo, rounds,
the end's seed reveal, and the bad inputs of issue 4 (4xx with a JSON error, never a 500)."""

import hashlib
import json

import pytest
from testkit import Caller, restart_with_pin

from bingo_hall.seventyfive.cards import letter_of
from bingo_hall.station import games

from .helpers import order_from_document


@pytest.fixture
def auth(client, caller):
    return caller.auth


def draw(client, auth, gid, **body):
    return client.post(f"/api/games/{gid}/draw", json=body, headers=auth)


def test_caller_actions_need_the_pin(client, auth, caller):
    gid = caller.new_game()
    for path in ("draw", "calls", "undo", "end", "rounds"):
        r = client.post(f"/api/games/{gid}/{path}", json={})
        assert r.status_code == 401 and "error" in r.get_json()
    assert client.get("/api/decks").status_code == 401
    assert client.post("/api/games", json={}).status_code == 401


def test_players_can_view_a_game_but_never_see_an_unrevealed_seed(client, auth, caller):
    gid = caller.new_game()
    draw(client, auth, gid)
    r = client.get(f"/api/games/{gid}")
    assert r.status_code == 200 and r.get_json()["revealed"] == []
    import sqlite3

    with sqlite3.connect(client.application.config["DATABASE"]) as conn:
        seed_hex = conn.execute("SELECT seed FROM rounds").fetchone()[0]
    for path in (f"/api/games/{gid}", "/api/games", "/display", f"/display/{gid}"):
        assert seed_hex not in client.get(path).get_data(as_text=True)
    assert client.get("/display").status_code == 200


def test_a_wrong_pin_is_refused_and_repeated_wrong_pins_are_rate_limited(client):
    lan = {"REMOTE_ADDR": "192.168.1.40"}  # a phone on the Wi-Fi (the laptop is never locked)
    for _ in range(5):
        r = client.post("/api/login", json={"pin": "000000"}, environ_base=lan)
        assert r.status_code == 401
    r = client.post("/api/login", json={"pin": "000000"}, environ_base=lan)
    assert r.status_code == 429 and int(r.headers["Retry-After"]) > 0
    # even the right PIN waits now: a guesser cannot keep trying
    right = client.application.config["CALLER_PIN"]
    assert client.post("/api/login", json={"pin": right}, environ_base=lan).status_code == 429


def test_deck_upload_validates_and_the_list_hides_the_secret(client, auth, caller):
    deck = caller.deck
    listed = client.get("/api/decks", headers=auth).get_json()["decks"]
    assert [d["deck_id"] for d in listed] == [deck.deck_id]
    assert "secret" not in listed[0] and deck.secret not in str(listed)
    bad = json.loads(deck.to_json())  # the deck file
    bad["cards"][0]["columns"][0][0] = 99
    r = client.post("/api/decks", json=bad, headers=auth)
    assert r.status_code == 400 and "card 1" in r.get_json()["error"]


def test_new_game_returns_the_commitment_and_the_end_reveals_its_seed(client, auth, caller):
    deck = caller.deck
    r = client.post("/api/games", json={"deck_id": deck.deck_id, "mode": "normal"}, headers=auth)
    created = r.get_json()
    balls = [draw(client, auth, created["game_id"]).get_json()["ball"] for _ in range(10)]
    end = client.post(f"/api/games/{created['game_id']}/end", headers=auth).get_json()
    seed = bytes.fromhex(end["seed"])
    assert hashlib.sha256(seed).hexdigest() == created["commitment"]
    assert balls == order_from_document(seed)[:10]


def test_public_input_is_mixed_into_the_order(client, auth, caller):
    gid = caller.new_game(public_input="Abuela Rosa 72")
    balls = [draw(client, auth, gid).get_json()["ball"] for _ in range(5)]
    seed = bytes.fromhex(client.post(f"/api/games/{gid}/end", headers=auth).get_json()["seed"])
    assert balls == order_from_document(seed, "Abuela Rosa 72")[:5]


def test_public_input_can_only_be_set_before_the_first_ball(client, auth, caller):
    gid = caller.new_game()
    r = client.post(f"/api/games/{gid}/public-input", json={"public_input": "42"}, headers=auth)
    assert r.status_code == 200
    draw(client, auth, gid)
    r = client.post(f"/api/games/{gid}/public-input", json={"public_input": "43"}, headers=auth)
    assert r.status_code == 409


def test_a_draw_names_the_ball_with_its_letter(client, auth, caller):
    gid = caller.new_game()
    d = draw(client, auth, gid).get_json()
    assert d["seq"] == 1 and d["call"] == f"{letter_of(d['ball'])} {d['ball']}"
    assert d["count"] == 1 and d["left"] == 74


def test_a_double_click_with_the_same_expect_seq_draws_one_ball(client, auth, caller):
    gid = caller.new_game()
    first = draw(client, auth, gid, expect_seq=0)
    second = draw(client, auth, gid, expect_seq=0)
    assert first.status_code == 200 and second.status_code == 409
    assert len(client.get(f"/api/games/{gid}").get_json()["calls"]) == 1


def test_a_retry_with_the_same_idempotency_key_gets_the_same_ball(client, auth, caller):
    gid = caller.new_game()
    h = {**auth, "Idempotency-Key": "click-1"}
    a = client.post(f"/api/games/{gid}/draw", headers=h).get_json()
    b = client.post(f"/api/games/{gid}/draw", headers=h).get_json()
    assert a == b
    assert len(client.get(f"/api/games/{gid}").get_json()["calls"]) == 1


def test_after_75_balls_a_draw_is_refused(client, auth, caller):
    gid = caller.new_game()
    balls = [draw(client, auth, gid).get_json()["ball"] for _ in range(75)]
    assert sorted(balls) == list(range(1, 76))
    r = draw(client, auth, gid)
    assert r.status_code == 409 and "75" in r.get_json()["error"]


def test_manual_entry_refuses_balls_out_of_range_and_repeats(client, auth, caller):
    gid = caller.new_game(draw="manual")
    ok = client.post(f"/api/games/{gid}/calls", json={"ball": 31}, headers=auth)
    assert ok.status_code == 201 and ok.get_json()["call"] == "N 31"
    for bad in (0, 76, "x", None, [31]):
        r = client.post(f"/api/games/{gid}/calls", json={"ball": bad}, headers=auth)
        assert r.status_code == 400, bad
    again = client.post(f"/api/games/{gid}/calls", json={"ball": 31}, headers=auth)
    assert again.status_code == 409 and "already" in again.get_json()["error"]
    assert draw(client, auth, gid).status_code == 409  # a cage game has no auto draw


def test_undo_takes_back_the_last_call_and_logs_the_reason(client, auth, caller):
    gid = caller.new_game(draw="manual")
    for ball in (5, 20, 33):
        client.post(f"/api/games/{gid}/calls", json={"ball": ball}, headers=auth)
    r = client.post(f"/api/games/{gid}/undo", json={"reason": "typed 33, was 38"}, headers=auth)
    assert r.status_code == 200 and r.get_json()["ball"] == 33
    snap = client.get(f"/api/games/{gid}").get_json()
    assert [c["ball"] for c in snap["calls"]] == [5, 20]
    assert snap["undone"][0]["reason"] == "typed 33, was 38"
    # the ball can now be entered correctly, and seq keeps growing
    r = client.post(f"/api/games/{gid}/calls", json={"ball": 38, "expect_seq": 3}, headers=auth)
    assert r.get_json()["seq"] == 4


def test_undo_needs_a_reason_and_a_doubled_undo_takes_back_only_one_call(client, auth, caller):
    gid = caller.new_game()
    calls = [draw(client, auth, gid).get_json() for _ in range(3)]
    assert client.post(f"/api/games/{gid}/undo", json={}, headers=auth).status_code == 400
    body = {"reason": "double click test", "seq": calls[-1]["seq"]}
    assert client.post(f"/api/games/{gid}/undo", json=body, headers=auth).status_code == 200
    assert client.post(f"/api/games/{gid}/undo", json=body, headers=auth).status_code == 409
    assert len(client.get(f"/api/games/{gid}").get_json()["calls"]) == 2


def test_an_undone_auto_ball_is_drawn_again_next(client, auth, caller):
    gid = caller.new_game()
    drawn = draw(client, auth, gid).get_json()
    client.post(f"/api/games/{gid}/undo", json={"reason": "test"}, headers=auth)
    assert draw(client, auth, gid).get_json()["ball"] == drawn["ball"]


def test_next_round_reveals_the_old_seed_and_starts_with_no_calls(client, auth, caller):
    gid = caller.new_game(mode="points")
    first = client.get(f"/api/games/{gid}").get_json()
    draw(client, auth, gid)
    r = client.post(f"/api/games/{gid}/rounds", json={}, headers=auth).get_json()
    assert r["round"] == 2 and r["commitment"] != first["commitment"]
    prev = bytes.fromhex(r["previous"]["seed"])
    assert hashlib.sha256(prev).hexdigest() == first["commitment"]
    snap = client.get(f"/api/games/{gid}").get_json()
    assert snap["round"] == 2 and snap["calls"] == [] and len(snap["revealed"]) == 1


def test_an_ended_game_takes_no_more_calls(client, auth, caller):
    gid = caller.new_game()
    client.post(f"/api/games/{gid}/end", headers=auth)
    assert draw(client, auth, gid).status_code == 409
    assert client.get(f"/api/games/{gid}").get_json()["status"] == "ended"


def test_games_are_listed_newest_first(client, auth, caller):
    a = caller.new_game()
    b = caller.new_game()
    listed = client.get("/api/games").get_json()["games"]
    assert [g["game_id"] for g in listed] == [b, a]


@pytest.mark.parametrize(
    ("method", "path", "data", "status"),
    [
        ("get", "/api/games/999", None, 404),
        ("get", "/api/games/abc", None, 404),
        ("post", "/api/games/999/draw", "{}", 404),
        ("post", "/api/games/1/draw", "{not json", 400),
        ("post", "/api/games/1/calls", "[1, 2]", 400),
        ("post", "/api/games", '{"deck_id": "NOPE1234"}', 404),
        ("post", "/api/games", '{"deck_id": 5}', 400),
        ("post", "/api/login", "", 400),
        ("get", "/api/nothing-here", None, 404),
        ("delete", "/api/games/1", None, 405),
    ],
)
def test_bad_input_gets_a_json_4xx(client, auth, method, path, data, status, caller):
    caller.new_game()
    r = getattr(client, method)(path, data=data, headers=auth, content_type="application/json")
    assert r.status_code == status and isinstance(r.get_json()["error"], str)


def test_snapshot_extenders_add_their_keys(client, auth, caller):
    gid = caller.new_game()

    def scores(conn, game_id):
        return {"scores": {"game": game_id}}

    with client.application.app_context():
        games.add_snapshot_extender(scores)
    assert client.get(f"/api/games/{gid}").get_json()["scores"] == {"game": gid}


def test_pages_need_a_csrf_token_for_changes(client, auth, caller):
    gid = caller.new_game()
    pin = client.application.config["CALLER_PIN"]
    login_page = client.get("/caller/login")
    token = login_page.get_data(as_text=True).split('name="csrf_token" value="')[1].split('"')[0]
    r = client.post("/caller/login", data={"pin": pin, "csrf_token": token})
    assert r.status_code == 302
    assert client.post(f"/api/games/{gid}/draw", json={}).status_code == 403
    with client.session_transaction() as s:
        csrf = s["csrf"]
    r = client.post(f"/api/games/{gid}/draw", json={}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200


def test_caller_pages_send_players_to_the_login(client):
    r = client.get("/caller/")
    assert r.status_code == 302 and "/caller/login" in r.headers["Location"]
    page = client.get("/caller/games/1?lang=es")
    assert page.status_code == 302
    missing = client.get("/nowhere?lang=es")
    assert missing.status_code == 404 and "Esa página no existe." in missing.get_data(as_text=True)


def test_a_new_game_from_the_caller_page_ends_the_one_in_progress(client, auth, caller):
    first = caller.new_game()
    deck_id = client.get(f"/api/games/{first}").get_json()["deck_id"]
    token = client.get("/caller/login").get_data(as_text=True)
    token = token.split('name="csrf_token" value="')[1].split('"')[0]
    pin = client.application.config["CALLER_PIN"]
    client.post("/caller/login", data={"pin": pin, "csrf_token": token})
    with client.session_transaction() as s:
        csrf = s["csrf"]
    r = client.post("/caller/new", data={"deck_id": deck_id, "mode": "normal", "csrf_token": csrf})
    assert r.status_code == 302
    listed = client.get("/api/games").get_json()["games"]
    assert [(g["game_id"], g["status"]) for g in listed] == [
        (first + 1, "active"),
        (first, "ended"),
    ]
    assert client.get(f"/api/games/{first}").get_json()["revealed"][0]["round"] == 1


def test_errors_speak_the_maestros_language(client, auth, caller):
    gid = caller.new_game(draw="manual")
    client.post(f"/api/games/{gid}/calls", json={"ball": 31}, headers=auth)
    client.set_cookie("lang", "es")
    r = client.post(f"/api/games/{gid}/calls", json={"ball": 31}, headers=auth)
    assert r.status_code == 409 and r.get_json()["error"] == "el N 31 ya salió"
    r = client.post(f"/api/games/{gid}/calls", json={"ball": 99}, headers=auth)
    assert r.get_json()["error"] == "una bola es un número entero del 1 al 75, no 99"


def test_changing_the_pin_ends_old_tokens_and_sessions(client, auth, caller):
    gid = caller.new_game()
    restart_with_pin(client.application, "975310")
    r = client.post(f"/api/games/{gid}/draw", headers=auth)
    assert r.status_code == 401
    new_login = Caller(client)  # logs in again, with the new PIN
    assert client.post(f"/api/games/{gid}/draw", headers=new_login.auth).status_code == 200


def test_changing_the_pin_ends_page_logins_too(client, auth, caller):
    caller.new_game()
    token = client.get("/caller/login").get_data(as_text=True)
    token = token.split('name="csrf_token" value="')[1].split('"')[0]
    client.post(
        "/caller/login", data={"pin": client.application.config["CALLER_PIN"], "csrf_token": token}
    )
    assert client.get("/caller/games/1").status_code == 200
    restart_with_pin(client.application, "975310")
    assert client.get("/caller/games/1").status_code == 302
