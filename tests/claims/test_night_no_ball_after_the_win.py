"""Issue 26, item 1: nothing moves on between "Award the round" and "Next round". A drawn ball,
a ball typed from the cage and the ball machine are refused (409, in words) once the round is
awarded, and in a 90-ball game once its last prize is; Next round opens the draw again."""

from __future__ import annotations

from testkit import Caller

from bingo_hall.manifest import new_strip_deck

from .hall import Hall


def _award_a_row(hall: Hall, gid: int, serial: int = 5) -> list[int]:
    row = hall.numbers(serial, "R1")
    hall.call(gid, *row)
    assert hall.post(f"/api/games/{gid}/claims", {"serial": serial}).status_code == 201
    assert hall.post(f"/api/games/{gid}/award").status_code == 200
    return row


def test_no_ball_is_drawn_or_entered_between_the_award_and_next_round(client):
    hall = Hall(client)
    gid = hall.new_game()
    row = _award_a_row(hall, gid)
    other = next(n for n in range(1, 76) if n not in row)
    entered = hall.post(f"/api/games/{gid}/calls", {"ball": other})
    assert entered.status_code == 409
    assert "round 1 has been awarded" in entered.get_json()["error"]
    assert "Next round" in entered.get_json()["error"]
    assert hall.get(f"/api/games/{gid}").get_json()["count"] == len(row)  # the final board
    assert hall.post(f"/api/games/{gid}/rounds").status_code == 201
    hall.call(gid, other)  # the next round takes balls again


def test_an_automatic_draw_is_refused_after_the_award_in_spanish_too(client):
    hall = Hall(client)
    gid = hall.new_game(draw="auto")
    drawn: list[int] = []
    card = hall.deck.card(1)
    # draw until card 1 has some line, then claim and award it
    while not hall.get(f"/api/games/{gid}/check/1?quiet=1").get_json()["bingo"]:
        r = hall.post(f"/api/games/{gid}/draw", {})
        assert r.status_code == 200, r.get_json()
        drawn.append(r.get_json()["ball"])
    assert card.serial == 1
    hall.post(f"/api/games/{gid}/claims", {"serial": 1})
    assert hall.post(f"/api/games/{gid}/award").status_code == 200
    refused = client.post(f"/api/games/{gid}/draw?lang=es", json={}, headers=hall.auth)
    assert refused.status_code == 409
    assert "Siguiente ronda" in refused.get_json()["error"]
    assert hall.get(f"/api/games/{gid}").get_json()["count"] == len(drawn)


def test_a_ninety_ball_round_takes_no_ball_after_its_last_prize(client):
    strips = new_strip_deck(2, seed="no ball after the bingo", name="Tiras")
    hall = Caller(client, strips)
    gid = hall.new_game(draw="manual")
    ticket = strips.cards[0]
    numbers = [n for row in ticket.grid for n in row if n is not None]
    first_row = [n for n in ticket.grid[0] if n is not None]
    hall.call(gid, *first_row)
    hall.post(f"/api/games/{gid}/claims", {"serial": 1})
    assert hall.post(f"/api/games/{gid}/award", {"prize": "linea"}).status_code == 200
    spare = next(n for n in range(1, 91) if n not in numbers)
    hall.call(gid, spare)  # the Bingo is still being played: balls go on
    hall.call(gid, *[n for n in numbers if n not in first_row])
    hall.post(f"/api/games/{gid}/claims", {"serial": 1})
    assert hall.post(f"/api/games/{gid}/award", {"prize": "bingo"}).status_code == 200
    late = next(n for n in range(1, 91) if n not in numbers and n != spare)
    refused = hall.post(f"/api/games/{gid}/calls", {"ball": late})
    assert refused.status_code == 409
    assert "every prize of round 1 has been awarded" in refused.get_json()["error"]
    assert hall.post(f"/api/games/{gid}/rounds").status_code == 201
    hall.call(gid, late)


def _undo(hall, gid: int, lang: str = "en"):
    return hall.client.post(
        f"/api/games/{gid}/undo?lang={lang}", json={"reason": "wrong ball"}, headers=hall.auth
    )


def test_the_winning_call_cannot_be_undone_once_the_round_is_awarded(client):
    """An award stands: taking back the ball it was won on would leave a winner without a line.
    Before the award the same undo is allowed (the Maestro corrects a slip)."""
    hall = Hall(client)
    gid = hall.new_game()
    row = hall.numbers(5, "R1")
    hall.call(gid, *row)
    assert _undo(hall, gid).status_code == 200  # before any claim: a slip is corrected
    hall.call(gid, row[-1])
    assert hall.post(f"/api/games/{gid}/claims", {"serial": 5}).status_code == 201
    assert hall.post(f"/api/games/{gid}/award").status_code == 200
    refused = _undo(hall, gid)
    assert refused.status_code == 409
    assert refused.get_json()["error"] == (
        f"call {len(row)} cannot be undone: a prize of round 1 was awarded on it; the award stands"
    )
    assert "no se puede deshacer" in _undo(hall, gid, "es").get_json()["error"]
    assert hall.get(f"/api/games/{gid}").get_json()["count"] == len(row)  # the final board
    assert hall.post(f"/api/games/{gid}/rounds").status_code == 201
    hall.call(gid, row[0])
    assert _undo(hall, gid).status_code == 200  # the next round's calls are its own


def test_a_ninety_ball_ball_after_the_linea_can_be_undone_but_not_the_linea_s_own(client):
    strips = new_strip_deck(2, seed="undo after the linea", name="Tiras")
    hall = Caller(client, strips)
    gid = hall.new_game(draw="manual")
    ticket = strips.cards[0]
    numbers = {n for row in ticket.grid for n in row if n is not None}
    first_row = [n for n in ticket.grid[0] if n is not None]
    hall.call(gid, *first_row)
    hall.post(f"/api/games/{gid}/claims", {"serial": 1})
    assert hall.post(f"/api/games/{gid}/award", {"prize": "linea"}).status_code == 200
    spare = next(n for n in range(1, 91) if n not in numbers)
    hall.call(gid, spare)
    assert _undo(hall, gid).status_code == 200  # a slip after the línea: taken back
    refused = _undo(hall, gid)  # the línea's own fifth number
    assert refused.status_code == 409 and "the award stands" in refused.get_json()["error"]
    assert hall.get(f"/api/games/{gid}").get_json()["count"] == len(first_row)
