"""A linked game at a real station (the app, its SQLite and its book): the Maestro gives the
organiser's game and types the code, the station calls the order every hall calls, and the
hall's result, made from its first valid claim, is one the organiser's tally counts."""

from __future__ import annotations

import json

import pytest
from station.helpers import order_from_document
from testkit import Caller

from bingo_hall.linked.tally import State, Submission, tally
from bingo_hall.manifest import new_deck, new_strip_deck
from bingo_hall.web import book_store as book
from linked.hall import around_now, during, organise, station_keys

DECK = new_strip_deck(10, seed="linked station", name="Linked night")


@pytest.fixture
def hall(client):
    return Caller(client, DECK)


def _organised(app, others: int = 2):
    with app.app_context():
        key = book.station_key(app)
    return organise([key, *station_keys(others)], ["North", "South"], balls=90, window=around_now())


def _start(hall, org, code=None, draw="auto"):
    return hall.post(
        "/api/linked/games",
        {
            "linked": json.loads(org.game.text()),
            "code": code if code is not None else org.code.lower().replace("-", " "),
            "game": {"deck_id": DECK.deck_id, "mode": "house", "draw": draw},
        },
    )


def _first_full_house(order):
    """The brute force: the deck's ticket whose 15 numbers are all called first, and when."""
    at = {t.serial: max(order.index(n) for n in t.numbers) + 1 for t in DECK.cards}
    serial = min(at, key=lambda s: (at[s], s))
    return serial, at[serial]


def test_the_station_calls_the_order_every_hall_calls_and_its_result_is_counted(app, hall):
    org = _organised(app)
    r = _start(hall, org)
    assert r.status_code == 201, r.get_json()
    started = r.get_json()
    assert started["commitment"] == org.game.commitment and started["hall"] == "Hall 1"
    gid = started["game_id"]
    order = order_from_document(org.seed, "", 90)
    serial, at = _first_full_house(order)
    drawn = [hall.post(f"/api/games/{gid}/draw").get_json()["ball"] for _ in range(at)]
    assert drawn == order[:at]
    r = hall.post(f"/api/games/{gid}/claims", {"serial": serial, "prize": "full-house"})
    assert r.status_code == 201, r.get_json()
    made = hall.post(f"/api/linked/games/{gid}/result")
    assert made.status_code == 200, made.get_json()
    result = made.get_json()
    assert result["count"] == at and result["serial"] == serial
    assert result["calls"] == order[:at] and result["deck"] == DECK.deck_id
    sent = hall.get(f"/api/linked/games/{gid}/result")
    assert "attachment" in sent.headers["Content-Disposition"]
    again = hall.post(f"/api/linked/games/{gid}/result").get_json()
    assert again == json.loads(sent.get_data(as_text=True)) == result  # made once
    made_tally = tally(
        org.game,
        org.code,
        [Submission("hall-1.json", sent.get_data(as_text=True))],
        during(120),
        org.key,
    )
    mine = made_tally.standings[0]
    assert (mine.state, mine.count, mine.serial, mine.reason) == (State.WON, at, serial, None)
    assert made_tally.awards[0].winners == ("Hall 1",)


def test_a_code_that_is_not_the_committed_one_starts_nothing(app, hall):
    org = _organised(app)
    r = _start(hall, org, code="AAAA-BBBB-CCCC-DDDD")
    assert r.status_code == 400
    assert "does not match this game's commitment" in r.get_json()["error"]
    assert hall.get("/api/games").get_json()["games"] == []


def test_a_station_whose_key_the_game_did_not_register_is_told_so(app, hall):
    org = organise(station_keys(2), ["North"], balls=90)
    r = _start(hall, org)
    assert r.status_code == 409
    assert "not one the linked game registered" in r.get_json()["error"]


def test_no_winner_is_sent_only_when_the_maestro_closes_the_game_without_one(app, hall):
    org = _organised(app)
    gid = _start(hall, org).get_json()["game_id"]
    for _ in range(20):
        hall.post(f"/api/games/{gid}/draw")
    r = hall.post(f"/api/linked/games/{gid}/result")
    assert r.status_code == 409 and "no valid claim" in r.get_json()["error"]
    r = hall.post(f"/api/linked/games/{gid}/result", {"no_winner": True})
    assert r.status_code == 200
    result = r.get_json()
    assert result["outcome"] == "no-winner" and len(result["calls"]) == 20
    made = tally(
        org.game, org.code, [Submission("hall-1.json", json.dumps(result))], during(120), org.key
    )
    assert made.standings[0].state == State.NO_WINNER


def test_the_hall_book_replays_its_linked_night_and_holds_its_result(app, hall, kit_cli, tmp_path):
    """The organiser's check of a winning hall (docs/linked.md): its exported book replays, the
    linked round's revealed seed is the one the code stands for, and it records the result."""
    org = _organised(app)
    gid = _start(hall, org).get_json()["game_id"]
    order = order_from_document(org.seed, "", 90)
    serial, at = _first_full_house(order)
    for _ in range(at):
        hall.post(f"/api/games/{gid}/draw")
    hall.post(f"/api/games/{gid}/claims", {"serial": serial, "prize": "full-house"})
    result = hall.post(f"/api/linked/games/{gid}/result").get_json()
    assert hall.post(f"/api/games/{gid}/end").status_code == 200
    deck_file = tmp_path / "night.deck.json"
    deck_file.write_text(DECK.to_json())
    out = tmp_path / "book.jsonl"
    assert kit_cli(["book", "export", "--db", app.config["DATABASE"], "-o", str(out)])[0] == 0
    code, said, _ = kit_cli(
        [
            "book",
            "verify",
            str(out),
            "--deck",
            str(deck_file),
            "--key",
            result["book"]["fingerprint"],
            "--head",
            f"{result['book']['seq']}:{result['book']['hash']}",
        ]
    )
    assert code == 0, said
    entries = [json.loads(line) for line in out.read_text().splitlines()[1:-1]]
    reveal = next(e for e in entries if e["kind"] == "reveal" and e["data"]["game_id"] == gid)
    assert bytes.fromhex(reveal["data"]["seed"]) == org.seed
    recorded = next(e for e in entries if e["kind"] == "linked.result")
    assert recorded["data"]["result"] == result


def test_a_deck_of_another_game_is_refused_before_anything_starts(app, client):
    cards = new_deck(12, seed="75 in a 90 game")
    hall = Caller(client, cards)
    org = _organised(app)
    r = hall.post(
        "/api/linked/games",
        {
            "linked": json.loads(org.game.text()),
            "code": org.code,
            "game": {"deck_id": cards.deck_id, "mode": "normal", "draw": "auto"},
        },
    )
    assert r.status_code == 409 and "plays 90 balls" in r.get_json()["error"]
    assert hall.get("/api/games").get_json()["games"] == []


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("es", "no coincide con el orden sellado de esta partida"),
        ("en", "does not match this game's commitment"),
    ],
)
def test_a_mistyped_code_is_told_in_the_readers_language(app, hall, lang, words):
    org = _organised(app)
    payload = {
        "linked": json.loads(org.game.text()),
        "code": "AAAA-BBBB-CCCC-DDDD",
        "game": {"deck_id": DECK.deck_id, "mode": "house"},
    }
    r = hall.client.post(f"/api/linked/games?lang={lang}", json=payload, headers=hall.auth)
    assert r.status_code == 400 and words in r.get_json()["error"]
