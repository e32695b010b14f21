"""Server-Sent Events through the station's real server: a screen gets a full snapshot first, then
each call and undo, and events go out only after the call is in SQLite."""

import json
import sqlite3
import time

import pytest
import requests
from testkit import TEST_PIN, Caller

from bingo_hall.app import create_app
from bingo_hall.manifest import new_deck
from bingo_hall.web.instance import hall


def read_events(lines, count):
    """The next `count` (event, data) pairs from an SSE response's line iterator."""
    out, event, data = [], None, []
    for raw in lines:
        if raw == "":
            if event:
                out.append((event, json.loads("\n".join(data))))
                if len(out) == count:
                    return out
            event, data = None, []
        elif raw.startswith("event:"):
            event = raw[6:].strip()
        elif raw.startswith("data:"):
            data.append(raw[5:].strip())
    return out


def login(url):
    pin = "246810"
    token = requests.post(url + "/api/login", json={"pin": pin}, timeout=5).json()["token"]
    return {"Authorization": "Bearer " + token}


def new_game(url: str, headers: dict, seed: str) -> int:
    """A 5-card deck uploaded over HTTP and a game started with it."""
    deck = new_deck(5, seed=seed)
    requests.post(url + "/api/decks", data=deck.to_json(), headers=headers, timeout=5)
    body = {"deck_id": deck.deck_id}
    r = requests.post(url + "/api/games", json=body, headers=headers, timeout=5)
    return r.json()["game_id"]


def test_a_screen_gets_the_snapshot_then_live_calls_and_undos(live_server):
    url = live_server.url
    h = login(url)
    gid = new_game(url, h, "sse")
    first = requests.post(f"{url}/api/games/{gid}/draw", headers=h, timeout=5).json()
    with requests.get(f"{url}/api/games/{gid}/events", stream=True, timeout=10) as resp:
        assert resp.headers["Content-Type"].startswith("text/event-stream")
        lines = resp.iter_lines(chunk_size=1, decode_unicode=True)
        assert next(lines) == "retry: 2000"  # the browser reconnects by itself after 2 s
        [(kind, snap)] = read_events(lines, 1)
        assert kind == "snapshot" and [c["ball"] for c in snap["calls"]] == [first["ball"]]
        second = requests.post(f"{url}/api/games/{gid}/draw", headers=h, timeout=5).json()
        requests.post(f"{url}/api/games/{gid}/undo", json={"reason": "r"}, headers=h, timeout=5)
        got = read_events(lines, 2)
    assert got[0] == ("call", second)
    assert got[1][0] == "undo" and got[1][1]["ball"] == second["ball"]


def test_a_call_is_in_sqlite_before_it_is_published(app, client, caller):

    h = caller.auth
    gid = caller.new_game()
    seen = []
    hub = hall(app).hub
    original = hub.publish

    def spy(channel, event, data, text=None):
        if event == "call":
            with sqlite3.connect(app.config["DATABASE"]) as conn:
                seen.append(conn.execute("SELECT ball FROM calls").fetchall())
        return original(channel, event, data, text)

    hub.publish = spy
    try:
        ball = client.post(f"/api/games/{gid}/draw", headers=h).get_json()["ball"]
    finally:
        hub.publish = original
    assert seen == [[(ball,)]]  # another connection already saw the committed call


@pytest.mark.slow
def test_a_quiet_stream_sends_a_heartbeat_comment(serve, tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "beat.sqlite"),
            "SECRET_KEY": "test-secret",
            "CALLER_PIN": TEST_PIN,
            "STREAM_HEARTBEAT_S": 1.0,
        },
        instance_path=str(tmp_path),
    )
    live_server = serve(app)
    gid = Caller(app.test_client()).new_game()
    url = f"{live_server.url}/api/games/{gid}/events"
    with requests.get(url, stream=True, timeout=10) as resp:
        lines = resp.iter_lines(chunk_size=1, decode_unicode=True)
        assert next(lines) == "retry: 2000"
        [(kind, _)] = read_events(lines, 1)
        t0 = time.monotonic()
        assert kind == "snapshot"
        assert next(line for line in lines if line.startswith(":")) == ": heartbeat"
        assert time.monotonic() - t0 < 5  # one quiet second, found by the once-a-second tick


def test_a_phone_following_its_card_does_not_take_the_big_screens_claim_verdicts(live_server):
    """A verdict the Maestro checks goes to the big screens; the phones following their cards
    (`?view=card`, as the card page asks) skip it and get the next call as usual."""
    url = live_server.url
    h = login(url)
    gid = new_game(url, h, "room")
    events = f"{url}/api/games/{gid}/events"
    with (
        requests.get(events, stream=True, timeout=10) as big,
        requests.get(events + "?view=card", stream=True, timeout=10) as phone,
    ):
        screens = [r.iter_lines(chunk_size=1, decode_unicode=True) for r in (big, phone)]
        for lines in screens:
            assert read_events(lines, 1)[0][0] == "snapshot"
        r = requests.post(f"{url}/api/games/{gid}/check/3", headers=h, timeout=5)
        assert r.status_code == 200
        call = requests.post(f"{url}/api/games/{gid}/draw", headers=h, timeout=5).json()
        on_big = read_events(screens[0], 2)
        on_phone = read_events(screens[1], 1)
    assert [kind for kind, _ in on_big] == ["verdict", "call"]
    assert on_big[0][1]["serial"] == 3
    assert on_phone == [("call", call)]
