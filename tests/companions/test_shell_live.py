"""The shell on the station's real server: two phones posting at once, and the live stream."""

from __future__ import annotations

import json
import threading
import time

import requests


def hand(down):
    return {"puras": 0, "impuras": 0, "closed": False, "muerto": "not_taken", "down": down}


def test_two_phones_posting_at_the_same_moment_are_both_stored(companions_app, serve):
    server = serve(companions_app)
    code = requests.post(f"{server.url}/t/new/burako", json={"teams": [["A"], ["B"]]}).json()[
        "code"
    ]
    start = threading.Barrier(8)
    answers = []

    def phone(n):
        start.wait()
        r = requests.post(
            f"{server.url}/t/{code}/entries", json={"teams": [hand(n), hand(0)]}, timeout=30
        )
        answers.append(r.status_code)

    threads = [threading.Thread(target=phone, args=(n,)) for n in range(1, 9)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert answers == [201] * 8
    view = requests.get(f"{server.url}/t/{code}/view").json()
    assert len(view["view"]["hands"]) == 8
    # each hand is -100 (no muerto) + its points laid down: 8 * -100 + (1 + 2 + ... + 8)
    assert view["view"]["totals"][0] == -800 + 36


def read_events(lines, wanted, timeout):
    """Parse SSE messages until `wanted(event, data)` is true or the timeout passes."""
    event, data, deadline = None, [], time.monotonic() + timeout
    for line in lines:
        if time.monotonic() > deadline:
            return None
        if line.startswith("event: "):
            event = line[7:]
        elif line.startswith("data: "):
            data.append(line[6:])
        elif line == "" and event:
            payload = json.loads("\n".join(data))
            if wanted(event, payload):
                return payload
            event, data = None, []
    return None


def test_every_phone_gets_the_new_view_within_a_second(companions_app, serve):
    server = serve(companions_app)
    code = requests.post(f"{server.url}/t/new/burako", json={"teams": [["A"], ["B"]]}).json()[
        "code"
    ]
    with requests.get(f"{server.url}/t/{code}/events", stream=True, timeout=10) as stream:
        lines = stream.iter_lines(chunk_size=1, decode_unicode=True)
        first = read_events(lines, lambda e, d: e == "view", 5)
        assert first["totals"] == [0, 0]
        sent = time.monotonic()
        requests.post(f"{server.url}/t/{code}/entries", json={"teams": [hand(40), hand(0)]})
        update = read_events(lines, lambda e, d: e == "view" and d["hands"], 5)
        assert update["totals"] == [-60, -100]
        assert time.monotonic() - sent < 1.0


def test_the_stream_of_an_unknown_table_is_404(companions_app, serve):
    server = serve(companions_app)
    assert requests.get(f"{server.url}/t/NOPE2/events", timeout=5).status_code == 404


def test_a_change_made_by_another_process_reaches_every_phone_with_one_check_per_table(
    companions_app, serve, tmp_path
):
    from bingo_hall.app import create_app
    from bingo_hall.web.instance import hall

    server = serve(companions_app)
    code = requests.post(f"{server.url}/t/new/burako", json={"teams": [["A"], ["B"]]}).json()[
        "code"
    ]
    # Another process on the same database file: its own app, so its own hub (no event here).
    other = create_app(
        {"TESTING": True, "COMPANIONS_ONLY": True, "DATABASE": companions_app.config["DATABASE"]},
        instance_path=str(tmp_path / "other"),
    ).test_client()
    phones = [requests.get(f"{server.url}/t/{code}/events", stream=True, timeout=10) for _ in "abc"]
    try:
        lines = [p.iter_lines(chunk_size=1, decode_unicode=True) for p in phones]
        for phone in lines:
            assert read_events(phone, lambda e, d: e == "view", 5)["totals"] == [0, 0]
        hub = hall(companions_app).hub
        assert len(hub._watches) == 1  # three phones, one table: one watch of its version
        r = other.post(f"/t/{code}/entries", json={"teams": [hand(40), hand(0)]})
        assert r.status_code == 201, r.get_json()
        for phone in lines:  # seen by the watch within POLL_SECONDS, sent to all three
            update = read_events(phone, lambda e, d: e == "view" and d["hands"], 5)
            assert update["totals"] == [-60, -100]
    finally:
        for p in phones:
            p.close()
