"""The station plays a pattern of the book through the pattern path the Maestro already uses:
the caller page offers it, the settings take it by its key, a claim is judged on all its forms,
and the verdict names the form won (its squares lit; a form of lines, its lines)."""

import pytest
from testkit import page_login

from bingo_hall.seventyfive.cards import LINE_CELLS

from .hall import Hall


@pytest.fixture
def hall(client):
    return Hall(client)


def cells(*lines):
    return sorted({cell for line in lines for cell in LINE_CELLS[line]})


def test_a_double_bingo_is_won_with_two_lines_and_the_verdict_names_them(hall):
    gid = hall.new_game()
    assert hall.post(f"/api/games/{gid}/settings", {"pattern": "double_bingo"}).status_code == 200
    hall.call(gid, *hall.numbers(4, "R1"))
    v = hall.get(f"/api/games/{gid}/check/4").get_json()
    assert not v["bingo"] and v["pattern"]["name"] == "double_bingo"  # one line is not two
    column_b = [n for n in hall.numbers(4, "B") if n != hall.numbers(4, "R1")[0]]
    hall.call(gid, *column_b)
    made = hall.post(f"/api/games/{gid}/claims", {"serial": 4, "player": "Ana"})
    assert made.status_code == 201
    v = made.get_json()["verdict"]
    assert v["bingo"] and v["kind"] == "pattern" and v["winning"] == ["double_bingo"]
    (figure,) = v["lines"]
    assert figure["form_lines"] == ["R1", "B"]
    assert sorted(map(tuple, v["winning_cells"])) == cells("R1", "B")
    assert figure["total"] == sum(set(hall.numbers(4, "R1")) | set(hall.numbers(4, "B")))
    record = hall.get(f"/api/games/{gid}/record", auth=False).get_json()
    assert "double_bingo" in str(record)


def test_a_postage_stamp_lights_the_corner_won_not_the_other_three(hall):
    gid = hall.new_game()
    assert hall.post(f"/api/games/{gid}/settings", {"pattern": "postage_stamp"}).status_code == 200
    card = hall.deck.card(5)
    stamp = [(3, 3), (3, 4), (4, 3), (4, 4)]
    hall.call(gid, *[card.columns[c][r] for r, c in stamp])
    v = hall.get(f"/api/games/{gid}/check/5").get_json()
    assert v["bingo"] and v["kind"] == "pattern"
    assert sorted(map(tuple, v["winning_cells"])) == stamp
    assert v["lines"][0]["form_lines"] == []
    assert sorted(v["lines"][0]["numbers"]) == sorted(card.columns[c][r] for r, c in stamp)


def test_a_false_claim_on_a_crazy_kite_clears_the_kite_nearest_complete(hall):
    gid = hall.new_game()
    assert hall.post(f"/api/games/{gid}/settings", {"pattern": "crazy_kite"}).status_code == 200
    card = hall.deck.card(6)
    head = [card.columns[c][r] for r, c in [(0, 0), (0, 1), (1, 0), (1, 1)]]
    hall.call(gid, *head)
    made = hall.post(f"/api/games/{gid}/claims", {"serial": 6, "player": "Ana"}).get_json()
    assert not made["valid"]
    cleared = {tuple(cell) for cell in made["penalty"]["cells"]}
    assert {(0, 0), (0, 1), (1, 0), (1, 1)} <= cleared and (4, 4) in cleared


def test_the_caller_page_offers_every_pattern_of_the_book_in_the_halls_language(hall, client):
    gid = hall.new_game()
    page_login(client)
    page = client.get(f"/caller/games/{gid}?lang=es").get_data(as_text=True)
    assert '<option value="crazy_kite">Cometa loca</option>' in page
    assert '<option value="postage_stamp">Estampilla (en cualquier esquina)</option>' in page
    assert "El libro de figuras" in page
    page = client.get(f"/caller/games/{gid}?lang=en").get_data(as_text=True)
    assert '<option value="layer_cake">Layer cake</option>' in page
