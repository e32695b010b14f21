"""Issue 20, item 5: the record export opens in a spreadsheet, so no cell a player or the Maestro
typed may start a formula (=, +, -, @, a tab or a CR): such cells get a leading apostrophe."""

import csv
import io

import pytest

from bingo_hall.station.verify.record import spreadsheet_safe

from .hall import Hall

NAME = '=HYPERLINK("http://e.vil/","win")'


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_a_cell_that_starts_a_formula_is_shown_as_text(start):
    assert spreadsheet_safe(start + "1+1") == "'" + start + "1+1"


@pytest.mark.parametrize("value", ["Ana", "1+1", "R1 B", 42, -3, ""])
def test_plain_text_and_numbers_are_left_alone(value):
    assert spreadsheet_safe(value) == value


def test_record_csv_neutralises_a_formula_player_name_and_undo_reason(client):
    hall = Hall(client)
    gid = hall.new_game()
    r2 = hall.numbers(2, "R2")
    hall.call(gid, *r2, 75 if 75 not in r2 else 74)
    undone = hall.post(f"/api/games/{gid}/undo", {"reason": "@SUM(A1:A9)"})
    assert undone.status_code == 200, undone.get_json()
    assert hall.post(f"/api/games/{gid}/claims", {"serial": 2, "player": NAME}).status_code == 201
    text = hall.get(f"/api/games/{gid}/record.csv", auth=False).get_data(as_text=True)
    rows = list(csv.DictReader(io.StringIO(text)))
    (claim,) = [r for r in rows if r["event"] == "claim"]
    (undo,) = [r for r in rows if r["event"] == "undo"]
    assert claim["player"] == "'" + NAME
    assert undo["detail"] == "'@SUM(A1:A9)"
    cells = [cell for r in rows for cell in r.values()]
    assert not any(cell.startswith(("=", "+", "-", "@", "\t", "\r")) for cell in cells)
