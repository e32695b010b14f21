"""A hall's station and the organiser's, over a real loopback line (docs/linked.md, "At the
station"): the code fetched and checked against the commitment, refused before the window opens,
and a followed call that is not the code's refused, the hall going on from the code."""

from __future__ import annotations

import json
import threading
from datetime import timedelta

import pytest
from station.helpers import order_from_document
from testkit import Caller, eventually

from bingo_hall.manifest import new_strip_deck
from bingo_hall.station.linked.organiser import organiser_app, serve
from bingo_hall.web import book_store as book
from linked.hall import around_now, organise, station_keys

pytestmark = pytest.mark.process

DECK = new_strip_deck(4, seed="linked live", name="Linked live")


@pytest.fixture
def served(tmp_path):
    """Serve an organiser's game on a free loopback port: its address."""
    servers = []

    def start(org, every: float = 0.3, now=None) -> str:
        extra = {} if now is None else {"now": now}
        app = organiser_app(org.game, org.code, tmp_path / f"results{len(servers)}", every, **extra)
        server = serve(app, "127.0.0.1", 0)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}"

    yield start
    for server in servers:
        server.shutdown()


@pytest.fixture
def hall(app, client):
    with app.app_context():
        key = book.station_key(app)
    return key, Caller(client, DECK)


def _start(hall, org, **how):
    return hall.post(
        "/api/linked/games",
        {
            "linked": json.loads(org.game.text()),
            "game": {"deck_id": DECK.deck_id, "mode": "house", "draw": "auto"},
            **how,
        },
    )


def test_the_code_fetched_from_the_organiser_starts_the_order_of_the_commitment(hall, served):
    key, maestro = hall
    org = organise([key, *station_keys(1)], ["North"], balls=90, window=around_now())
    r = _start(maestro, org, organiser=served(org))
    assert r.status_code == 201, r.get_json()
    gid = r.get_json()["game_id"]
    assert r.get_json()["commitment"] == org.game.commitment
    drawn = [maestro.post(f"/api/games/{gid}/draw").get_json()["ball"] for _ in range(5)]
    assert drawn == order_from_document(org.seed, "", 90)[:5]


def test_a_code_asked_for_before_the_window_opens_is_refused_and_nothing_starts(hall, served):
    key, maestro = hall
    org = organise([key], ["North"], balls=90, window=around_now())
    early = (org.game.window.start - timedelta(minutes=30)).timestamp()
    r = _start(maestro, org, organiser=served(org, now=lambda: early))
    assert r.status_code == 409
    assert "the organiser refused the code" in r.get_json()["error"]
    assert "published when the window opens" in r.get_json()["error"]
    assert maestro.get("/api/games").get_json()["games"] == []


def test_an_organiser_that_does_not_answer_is_told_in_one_line(hall, served):
    key, maestro = hall
    org = organise([key], ["North"], balls=90, window=around_now())
    url = served(org)
    r = _start(maestro, org, organiser=url.rsplit(":", 1)[0] + ":9")  # nothing listens there
    assert (
        r.status_code == 409 and "does not answer: type the code instead" in r.get_json()["error"]
    )


def test_a_followed_call_off_the_code_is_refused_and_the_hall_goes_on_from_the_code(hall, served):
    """The hall follows the wrong organiser (another game's station): the first call it is
    given is not its code's, so nothing is called and the hall goes on from its code."""
    key, maestro = hall
    org = organise([key], ["North"], balls=90, window=around_now())
    other = organise([key], ["North"], balls=90, window=around_now())
    r = _start(maestro, org, code=org.code, organiser=served(other), follow=True)
    assert r.status_code == 201, r.get_json()
    gid = r.get_json()["game_id"]

    def on_the_code() -> bool:
        """the hall's station stopped following"""
        return maestro.get(f"/api/linked/games/{gid}").get_json()["live"]["mode"] == "code"

    eventually(on_the_code)
    view = maestro.get(f"/api/linked/games/{gid}").get_json()
    order = order_from_document(org.seed, "", 90)
    assert f"but the committed order's is {order[0]}" in view["live"]["reason"]
    assert maestro.get(f"/api/games/{gid}").get_json()["calls"] == []
    assert maestro.post(f"/api/linked/games/{gid}/next").status_code == 200
    called = [c["ball"] for c in maestro.get(f"/api/games/{gid}").get_json()["calls"]]
    assert called == order[:1]


def test_while_the_hall_follows_the_organiser_no_ball_is_called_by_hand(hall, served):
    """A ball typed from the cage, or drawn, while the hall follows the organiser could be off
    the committed order (and the tally would refuse the hall's result): the station refuses it
    in words, and calls by hand again once the Maestro stops following."""
    key, maestro = hall
    org = organise([key], ["North"], balls=90, window=around_now())
    r = _start(maestro, org, code=org.code, organiser=served(org), follow=True)
    assert r.status_code == 201, r.get_json()
    gid = r.get_json()["game_id"]
    order = order_from_document(org.seed, "", 90)

    def followed_a_call() -> bool:
        """the organiser's first call reached the hall"""
        return len(maestro.get(f"/api/games/{gid}").get_json()["calls"]) >= 1

    eventually(followed_a_call)
    assert maestro.get(f"/api/linked/games/{gid}").get_json()["live"]["mode"] == "following"
    off_order = next(b for b in range(1, 91) if b not in order[:10])
    typed = maestro.post(f"/api/games/{gid}/calls", {"ball": off_order})
    assert typed.status_code == 409
    assert "follows the organiser's calls" in typed.get_json()["error"]
    assert maestro.post(f"/api/games/{gid}/draw").status_code == 409
    called = [c["ball"] for c in maestro.get(f"/api/games/{gid}").get_json()["calls"]]
    assert off_order not in called and called == order[: len(called)]
    stopped = maestro.client.delete(f"/api/linked/games/{gid}/follow", headers=maestro.auth)
    assert stopped.status_code == 200, stopped.get_json()
    made = len(maestro.get(f"/api/games/{gid}").get_json()["calls"])
    assert maestro.post(f"/api/linked/games/{gid}/next").status_code == 200
    called = [c["ball"] for c in maestro.get(f"/api/games/{gid}").get_json()["calls"]]
    assert called == order[: made + 1]
