"""Tambola (Housie) on the station (issue 28): every prize open at once, a claim names its prize,
one call may complete several prizes, each prize closes at its first award (simultaneous winners
share it), a closed prize's claim is refused saying when it was won, and the round is finished
when every prize is won. The calls are built from the deck's tickets (their printed grids); what
each prize needs is worked out here from the grid, never taken from the code under test."""

from __future__ import annotations

import pytest
from tambolakit import corners, numbers, row, same_call_plan
from testkit import Caller

from bingo_hall.manifest import new_strip_deck


@pytest.fixture(scope="module")
def strips():
    return new_strip_deck(2, seed="tambola", name="Tambola night")


@pytest.fixture
def hall(client, strips):
    return Caller(client, strips)


def claim(hall, gid, serial, prize, status=201, **extra):
    r = hall.post(f"/api/games/{gid}/claims", {"serial": serial, "prize": prize, **extra})
    assert r.status_code == status, r.get_json()
    return r.get_json()


def award(hall, gid, prize, status=200):
    r = hall.post(f"/api/games/{gid}/award", {"prize": prize})
    assert r.status_code == status, r.get_json()
    return r.get_json()


def test_every_tambola_prize_is_open_at_once_and_named_in_english_and_spanish(hall):
    gid = hall.new_game(mode="tambola", draw="manual")
    prizes = hall.get(f"/api/games/{gid}").get_json()["prizes"]
    keys = ["early-five", "top-line", "middle-line", "bottom-line", "four-corners", "full-house"]
    assert prizes["order"] == "open" and prizes["open"] == keys and prizes["sequence"] == keys
    assert prizes["finished"] is False and prizes["awarded"] == []
    assert prizes["names"]["early-five"]["en"] == "Early Five"
    assert prizes["names"]["four-corners"] == {"en": "Four Corners", "es": "Cuatro esquinas"}
    assert hall.get(f"/api/games/{gid}").get_json()["mode"] == "tambola"


def test_early_five_and_top_line_won_on_the_same_call_by_different_tickets(hall, strips):
    a, b, calls = same_call_plan(strips)
    gid = hall.new_game(mode="tambola", draw="manual")
    hall.call(gid, *calls[:-1])
    assert claim(hall, gid, a, "early-five")["valid"] is False  # four numbers are not five
    assert claim(hall, gid, b, "top-line")["valid"] is False
    hall.call(gid, calls[-1])
    five = claim(hall, gid, a, "early-five", player="Asha")
    line = claim(hall, gid, b, "top-line", player="Ravi")
    assert five["valid"] and line["valid"] and five["verdict"]["by_last_call"]
    won = award(hall, gid, "early-five")
    assert [w["serial"] for w in won["winners"]] == [a] and won["at_call"] == len(calls)
    assert "early-five" not in won["open"] and "top-line" in won["open"]
    won = award(hall, gid, "top-line")
    assert [w["player"] for w in won["winners"]] == ["Ravi"] and won["at_call"] == len(calls)
    prizes = hall.get(f"/api/games/{gid}").get_json()["prizes"]
    assert [(p["prize"], p["at_call"]) for p in prizes["awarded"]] == [
        ("early-five", len(calls)),
        ("top-line", len(calls)),
    ]
    assert prizes["open"] == ["middle-line", "bottom-line", "four-corners", "full-house"]


def test_one_call_completes_two_prizes_of_one_ticket_and_simultaneous_claims_share_a_prize(
    hall, strips
):
    a, b, calls = same_call_plan(strips)
    gid = hall.new_game(mode="tambola", draw="manual")
    hall.call(gid, *calls)
    # B's fifth number is the last of its top row: Early Five and Top Line on one call
    check = hall.get(f"/api/games/{gid}/check/{b}").get_json()
    assert set(check["held"]) == {"early-five", "top-line"}
    assert claim(hall, gid, b, "top-line")["valid"]
    assert claim(hall, gid, b, "early-five")["valid"]
    assert claim(hall, gid, a, "early-five")["valid"]
    shared = award(hall, gid, "early-five")
    assert sorted(w["serial"] for w in shared["winners"]) == sorted([a, b])
    assert [w["serial"] for w in award(hall, gid, "top-line")["winners"]] == [b]


def test_a_claim_of_a_prize_already_won_says_on_which_call_it_was_won(hall, strips):
    a, b, calls = same_call_plan(strips)
    gid = hall.new_game(mode="tambola", draw="manual")
    hall.call(gid, *calls)
    claim(hall, gid, a, "early-five")
    award(hall, gid, "early-five")
    late = numbers(strips, 2)[:5]  # another ticket gets its five later
    hall.call(gid, *[n for n in late if n not in calls])
    refused = claim(hall, gid, 2, "early-five", status=409)
    assert refused["error"] == f"Early Five was already won on call {len(calls)}"
    assert award(hall, gid, "early-five", status=409)["error"].startswith("Early Five was already")
    # the Maestro's check of that ticket still shows it holds Early Five, and that it is closed
    page = hall.get(f"/api/games/{gid}/check/2").get_json()
    assert "early-five" not in page["held"]


@pytest.mark.parametrize(
    ("prize", "needed"),
    [
        ("early-five", lambda d, s: numbers(d, s)[5:10]),  # any five: here the middle row
        ("top-line", lambda d, s: row(d, s, 0)),
        ("middle-line", lambda d, s: row(d, s, 1)),
        ("bottom-line", lambda d, s: row(d, s, 2)),
        ("four-corners", corners),
        ("full-house", numbers),
    ],
)
def test_each_prize_is_valid_only_once_its_numbers_are_called(hall, strips, prize, needed):
    serial = 9
    want = needed(strips, serial)
    gid = hall.new_game(mode="tambola", draw="manual")
    hall.call(gid, *want[:-1])
    short = claim(hall, gid, serial, prize)
    assert short["valid"] is False and short["prize"] == prize
    if prize == "early-five":
        assert short["verdict"]["still_needed"] == 1 and short["verdict"]["prize_missing"] == []
    else:
        assert short["verdict"]["prize_missing"] == [want[-1]]
    assert award(hall, gid, prize, status=409)["error"].startswith("no valid claim")
    hall.call(gid, want[-1])
    made = claim(hall, gid, serial, prize)
    assert made["valid"] is True and made["verdict"]["by_last_call"] is True
    assert award(hall, gid, prize)["winners"][0]["serial"] == serial


def test_four_corners_are_the_ends_of_the_top_and_bottom_rows_not_the_middle_row(hall, strips):
    serial = 10
    middle = row(strips, serial, 1)
    gid = hall.new_game(mode="tambola", draw="manual")
    hall.call(gid, middle[0], middle[-1], *corners(strips, serial)[:2])
    v = claim(hall, gid, serial, "four-corners")
    assert v["valid"] is False
    assert v["verdict"]["prize_missing"] == sorted(corners(strips, serial)[2:])


def test_the_round_is_finished_when_every_prize_is_won(hall, strips):
    serial = 3
    gid = hall.new_game(mode="tambola", draw="manual")
    hall.call(gid, *numbers(strips, serial))
    for prize in ["early-five", "top-line", "middle-line", "bottom-line", "four-corners"]:
        assert claim(hall, gid, serial, prize)["valid"]
        assert award(hall, gid, prize)["finished"] is False
    assert claim(hall, gid, serial, "full-house")["valid"]
    done = award(hall, gid, "full-house")
    assert done["finished"] is True and done["open"] == [] and done["next"] is None
    refused = claim(hall, gid, 4, "full-house", status=409)
    assert "every prize of this round has been awarded" in refused["error"]


def test_a_tambola_claim_must_name_an_open_prize_of_the_game(hall):
    gid = hall.new_game(mode="tambola", draw="manual")
    r = hall.post(f"/api/games/{gid}/claims", {"serial": 1})
    assert r.status_code == 400 and "name the prize" in r.get_json()["error"]
    # the prizes by the names the room uses, and the keys a claim names them by
    assert "Early Five" in r.get_json()["error"] and "early-five" in r.get_json()["error"]
    r = hall.post(f"/api/games/{gid}/claims", {"serial": 1, "prize": "linea"})
    assert r.status_code == 400 and "early-five" in r.get_json()["error"]
    r = hall.post(f"/api/games/{gid}/award", {})
    assert r.status_code == 409 and "no valid claim" in r.get_json()["error"]


def test_an_unknown_ninety_ball_mode_lists_the_plans_the_hall_plays(hall):
    r = hall.post("/api/games", {"deck_id": hall.deck.deck_id, "mode": "housie", "draw": "manual"})
    assert r.status_code == 400
    assert "'tambola'" in r.get_json()["error"] and "'linea-bingo'" in r.get_json()["error"]


def test_the_ledger_pays_each_tambola_prize_to_its_own_winner(hall, strips):
    """Issue 27's ledger asks the game's plan for its prizes: Early Five and Top Line, won on the
    same call by two tickets, are each paid their own amount (fixed by hand: 10 % and 20 % of
    12 tickets at 1,00 € = 1,20 € and 2,40 €)."""
    a, b, calls = same_call_plan(strips)
    gid = hall.new_game(mode="tambola", draw="manual")
    assert hall.post(f"/api/games/{gid}/ledger/price", {"amount": "1"}).status_code == 200
    assert hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "1-12"}).status_code == 201
    r = hall.post(
        f"/api/games/{gid}/ledger/prizes",
        {
            "prizes": {
                "early-five": {"kind": "percent", "percent": 10},
                "top-line": {"kind": "percent", "percent": 20},
            }
        },
    )
    assert r.status_code == 200, r.get_json()
    hall.call(gid, *calls)
    claim(hall, gid, a, "early-five", player="Asha")
    claim(hall, gid, b, "top-line", player="Ravi")
    award(hall, gid, "early-five")
    award(hall, gid, "top-line")
    paid = hall.get(f"/api/games/{gid}/ledger").get_json()["payouts"]
    assert [(p["prize"], p["serial"], p["player"], p["cents"]) for p in paid] == [
        ("early-five", a, "Asha", 120),
        ("top-line", b, "Ravi", 240),
    ]


def test_a_tambola_check_judges_the_prize_the_maestro_chose(hall, strips):
    """The report: ticket 1, "Full House" chosen under "Prize claimed", and Check told the room
    about the Middle Line. The check judges the prize chosen, as the claim and the screens do."""
    gid = hall.new_game(mode="tambola", draw="manual")
    top = row(strips, 1, 0)
    hall.call(gid, *top)  # ticket 1 holds Early Five and Top Line, not the Full House
    rest = sorted(n for n in numbers(strips, 1) if n not in top)
    chosen = hall.get(f"/api/games/{gid}/check/1?prize=full-house").get_json()
    assert chosen["prize"] == "full-house" and chosen["valid"] is False
    assert chosen["prize_missing"] == rest
    # without a prize, the check still judges the first open prize the ticket holds
    assert hall.get(f"/api/games/{gid}/check/1").get_json()["prize"] == "early-five"
    # shown to the room (POST): the hall's screens are told about the Full House too
    shown = hall.post(f"/api/games/{gid}/check/1?prize=full-house")
    assert shown.status_code == 200 and shown.get_json()["prize"] == "full-house"
    on_screen = hall.get(f"/api/games/{gid}/shown").get_json()
    assert on_screen["verdict"]["prize"] == "full-house"
    assert on_screen["verdict"]["prize_missing"] == rest
    # and the claim of it is judged for the same prize
    made = claim(hall, gid, 1, "full-house")
    assert made["prize"] == "full-house" and made["valid"] is False
    r = hall.get(f"/api/games/{gid}/check/1?prize=jackpot")
    assert r.status_code == 400 and "prize is one of" in r.get_json()["error"]
