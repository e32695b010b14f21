"""The organiser's station (`bingo-hall linked serve`, docs/linked.md): the seed only from the
window's opening, the calls paced from it, a result checked the moment it arrives and shown on
the organiser's page, and a bad one refused with its reason in one line."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from station.helpers import order_from_document

from bingo_hall.linked.keys import Signer
from bingo_hall.linked.result import make_result
from bingo_hall.manifest import new_strip_deck
from bingo_hall.station.linked.organiser import organiser_app
from linked.hall import WINDOW, organise, signed_head, station_keys

DECK = new_strip_deck(4, seed="organiser page", name="Organiser")


def full_house_at(numbers, order) -> int:
    return max(order.index(n) for n in numbers) + 1


@pytest.fixture
def night(tmp_path):
    keys = station_keys(3)
    org = organise(keys, ["North", "South"], balls=90)
    clock = {"now": (WINDOW.start - timedelta(minutes=10)).timestamp()}
    app = organiser_app(org.game, org.code, tmp_path / "results", 2.0, lambda: clock["now"])
    return org, keys, clock, app.test_client(), tmp_path / "results"


def _won(org, key, name: str):
    order = order_from_document(org.seed, "", 90)
    ticket = min(DECK.cards, key=lambda t: full_house_at(t.numbers, order))
    at = full_house_at(ticket.numbers, order)
    result = make_result(
        org.game,
        name,
        Signer.of_station(key),
        signed_head(key),
        order[:at],
        WINDOW.start + timedelta(minutes=20),
        DECK.deck_id,
        ticket,
    )
    return result, at


def test_the_seed_is_refused_before_the_window_opens_and_given_from_its_start(night):
    org, keys, clock, client, _ = night
    early = client.get("/seed")
    assert early.status_code == 403
    assert "published when the window opens, at 2026-12-05 19:30" in early.get_json()["error"]
    assert org.code not in early.get_data(as_text=True)
    assert org.code not in client.get("/").get_data(as_text=True)
    assert client.get("/calls/events").status_code == 403
    clock["now"] = WINDOW.start.timestamp()
    opened = client.get("/seed").get_json()
    assert (opened["code"], opened["commitment"]) == (org.code, org.game.commitment)


def test_the_calls_are_the_committed_order_paced_from_the_opening(night):
    org, _, clock, client, _ = night
    clock["now"] = WINDOW.start.timestamp() + 2.0 * 4 + 0.5  # the fifth call has been made
    answer = client.get("/calls/events", buffered=False)
    first = next(answer.response).decode()
    answer.close()
    assert first.startswith("event: snapshot\n")
    calls = json.loads(first.split("data: ", 1)[1])["calls"]
    assert calls == order_from_document(org.seed, "", 90)[:5]


def test_a_result_posted_is_checked_at_once_and_the_page_shows_it_verified(night):
    org, keys, clock, client, folder = night
    clock["now"] = WINDOW.start.timestamp()
    client.get(f"/seed?hall={keys[1].fingerprint}")  # Hall 2 fetched the code: playing
    result, at = _won(org, keys[0], "Hall 1")
    r = client.post("/results", data=result.text())
    assert r.status_code == 201, r.get_json()
    assert (r.get_json()["standing"], r.get_json()["count"]) == ("won", at)
    assert len(list(folder.glob("*.json"))) == 1  # kept for the tally
    page = client.get("/?lang=en").get_data(as_text=True)

    def row(key) -> str:
        return page.split(f'id="hall-{key.fingerprint}"')[1].split("</tr>")[0]

    assert f"verified: won at call {at}" in row(keys[0])
    assert 'data-state="playing"' in row(keys[1])
    assert 'data-state="waiting"' in row(keys[2])
    es = client.get("/?lang=es").get_data(as_text=True)
    assert f"verificado: ganó en la bolilla {at}" in es


def test_a_forged_result_is_refused_with_its_reason_and_the_page_says_so(night):
    org, keys, clock, client, _ = night
    clock["now"] = WINDOW.start.timestamp()
    result, _ = _won(org, keys[0], "Hall 1")
    forged = json.loads(result.text())
    forged["count"] -= 1
    forged["calls"] = forged["calls"][:-1]
    r = client.post("/results", data=json.dumps(forged))
    assert r.status_code == 422
    assert "signature does not hold" in r.get_json()["error"]
    row = client.get("/?lang=en").get_data(as_text=True).split(f"hall-{keys[0].fingerprint}")[1]
    assert 'data-state="refused"' in row.split("</tr>")[0]
    assert "refused: " in row.split("</tr>")[0]


def test_a_result_from_a_key_no_hall_registered_is_refused_and_kept_nowhere(night):
    org, _, clock, client, folder = night
    clock["now"] = WINDOW.start.timestamp()
    stranger = station_keys(1)[0]
    result, _ = _won(org, stranger, "Hall 1")
    r = client.post("/results", data=result.text())
    assert r.status_code == 422 and "which no hall of this game registered" in r.get_json()["error"]
    assert list(folder.glob("*.json")) == []
    r = client.post("/results", data="not a result")
    assert r.status_code == 422 and "not JSON" in r.get_json()["error"]


def test_results_carried_in_by_hand_are_read_when_the_organiser_starts(tmp_path):
    keys = station_keys(2)
    org = organise(keys, ["North"], balls=90)
    result, at = _won(org, keys[1], "Hall 2")
    folder = tmp_path / "results"
    folder.mkdir()
    (folder / "from-a-usb-stick.json").write_text(result.text())
    app = organiser_app(org.game, org.code, folder, 2.0, lambda: WINDOW.start.timestamp())
    page = app.test_client().get("/?lang=en").get_data(as_text=True)
    row = page.split(f'id="hall-{keys[1].fingerprint}"')[1].split("</tr>")[0]
    assert f"verified: won at call {at}" in row


def test_a_hall_that_sends_two_different_results_is_refused(night):
    org, keys, clock, client, _ = night
    clock["now"] = WINDOW.start.timestamp()
    result, at = _won(org, keys[0], "Hall 1")
    assert client.post("/results", data=result.text()).status_code == 201
    assert client.post("/results", data=result.text()).status_code == 201  # the same again
    order = order_from_document(org.seed, "", 90)
    none = make_result(
        org.game,
        "Hall 1",
        Signer.of_station(keys[0]),
        signed_head(keys[0]),
        order[: at + 3],
        WINDOW.start + timedelta(minutes=30),
    )
    r = client.post("/results", data=none.text())
    assert r.status_code == 422 and "it sent 2 different results" in r.get_json()["error"]
    halls = client.get("/halls?lang=en").get_json()["halls"]
    assert halls[0]["state"] == "refused"
