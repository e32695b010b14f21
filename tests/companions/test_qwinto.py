"""The Qwinto sheet engine against `dice-sheet-qwinto.es.txt` and docs/rules.md §4.

Expected values are taken from the notes' table and the seed's text, or worked out by hand in the
comments; none is copied from the engine's output.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companions import qwinto
from companions.errors import EntryError
from companions.qwinto import Sheet

# docs/rules.md §4, typed in from the notes' table: column -> boxes (O/Y/P + index), top to bottom.
NOTES_TABLE = {
    0: "P0",
    1: "Y0 P1",
    2: "O0 Y1 P2",
    3: "O1 Y2 P3",
    4: "O2 Y3",
    5: "Y4 P4",
    6: "O3 P5",
    7: "O4 Y5 P6",
    8: "O5 Y6 P7",
    9: "O6 Y7 P8",
    10: "O7 Y8",
    11: "O8",
}
LETTER = {"O": "orange", "Y": "yellow", "P": "purple"}


def filled(boxes: dict[str, dict[int, int]], fails: int = 0) -> Sheet:
    sheet = Sheet()
    for colour, numbers in boxes.items():
        for box, value in numbers.items():
            sheet.place(colour, box, value)
    for _ in range(fails):
        sheet.fail()
    return sheet


# --- the layout -------------------------------------------------------------------------------


def test_layout_matches_the_notes_table_box_by_box():
    for column, boxes in NOTES_TABLE.items():
        expected = tuple((LETTER[b[0]], int(b[1])) for b in boxes.split())
        assert qwinto.column_boxes(column) == expected, column


def test_each_row_has_nine_boxes_a_gap_and_spans_ten_columns():
    spans = {"orange": (2, 11, 5), "yellow": (1, 10, 6), "purple": (0, 9, 4)}
    assert [r.colour for r in qwinto.LAYOUT] == ["orange", "yellow", "purple"]  # top to bottom
    for row in qwinto.LAYOUT:
        first, last, gap = spans[row.colour]
        assert row.gap == gap
        assert row.columns == tuple(c for c in range(first, last + 1) if c != gap)


def test_the_five_three_box_columns_each_have_one_pentagon():
    assert qwinto.BONUS_COLUMNS == (2, 3, 7, 8, 9)
    pentagons = {"P2": 2, "O1": 3, "O4": 7, "Y6": 8, "P8": 9}
    for name, column in pentagons.items():
        assert qwinto.pentagon_of(column) == (LETTER[name[0]], int(name[1]))
    assert len(qwinto.PENTAGONS) == 5


# --- rule 1: numbers increase left to right within a row ---------------------------------------


def test_a_number_larger_than_everything_to_its_left_is_accepted_with_gaps_between():
    sheet = filled({"yellow": {0: 3, 4: 9}})
    sheet.place("yellow", 8, 17)
    assert sheet.boxes["yellow"] == [3, None, None, None, 9, None, None, None, 17]


def test_a_number_not_larger_than_its_left_is_refused_with_the_rule():
    sheet = filled({"orange": {2: 8}})
    with pytest.raises(EntryError, match="not larger than every number before it") as err:
        sheet.place("orange", 5, 8)  # equal is not larger: no repeats in a row
    assert err.value.params == {"value": 8, "left": 8}
    with pytest.raises(EntryError, match="not larger than every number before it"):
        sheet.place("orange", 6, 5)


def test_a_number_not_smaller_than_its_right_is_refused_with_the_rule():
    sheet = filled({"purple": {6: 10}})
    with pytest.raises(EntryError, match="not smaller than every number after it"):
        sheet.place("purple", 0, 12)
    with pytest.raises(EntryError, match="not smaller than every number after it"):
        sheet.place("purple", 5, 10)
    sheet.place("purple", 5, 9)


def test_a_box_may_be_left_unfillable_as_in_luis_example():
    # "en la línea lila Luis ya no puede anotar ningún número entre el 6 y el 7"
    sheet = filled({"purple": {2: 6, 4: 7}})
    for value in range(1, 19):
        assert not sheet.fits("purple", 3, value)


# --- rule 2: no repeats within a column -------------------------------------------------------


def test_a_number_already_in_a_three_box_column_is_refused():
    sheet = filled({"orange": {0: 4}})  # column 2: O0 Y1 P2
    with pytest.raises(EntryError, match="already in this column"):
        sheet.place("purple", 2, 4)
    with pytest.raises(EntryError, match="already in this column"):
        sheet.place("yellow", 1, 4)
    sheet.place("yellow", 1, 5)


def test_a_number_already_in_a_two_box_column_is_refused():
    sheet = filled({"yellow": {4: 11}})  # column 5: Y4 P4
    with pytest.raises(EntryError, match="already in this column"):
        sheet.place("purple", 4, 11)
    sheet.place("purple", 4, 12)


def test_the_same_number_in_different_columns_is_fine():
    sheet = filled({"orange": {0: 7}})  # column 2
    sheet.place("yellow", 2, 7)  # column 3
    assert sheet.boxes["yellow"][2] == 7


# --- the box, the sum, failed throws ----------------------------------------------------------


def test_a_full_box_is_refused():
    sheet = filled({"orange": {3: 9}})
    with pytest.raises(EntryError, match="already full"):
        sheet.place("orange", 3, 10)


@pytest.mark.parametrize("value", [0, 19, -3, 2.5, "7", None, True])
def test_sums_outside_1_to_18_are_refused(value):
    with pytest.raises(EntryError, match="from 1 to 18"):
        Sheet().place("yellow", 0, value)


@pytest.mark.parametrize(("colour", "box"), [("red", 0), ("orange", 9), ("purple", -1)])
def test_unknown_rows_and_boxes_are_refused(colour, box):
    with pytest.raises(EntryError, match="no such"):
        Sheet().place(colour, box, 5)


def test_the_fourth_failed_throw_ends_the_game():
    sheet = filled({}, fails=3)
    assert not sheet.game_over
    sheet.fail()
    assert sheet.game_over
    with pytest.raises(EntryError):
        sheet.fail()
    with pytest.raises(EntryError, match="game is over"):
        sheet.place("orange", 0, 1)


def test_two_complete_rows_end_the_game():
    sheet = filled({"orange": dict(enumerate(range(1, 10)))})
    assert sheet.complete_rows == ("orange",) and not sheet.game_over
    sheet = filled({"orange": dict(enumerate(range(1, 10))), "purple": {}})
    for box, value in enumerate(range(10, 19)):
        sheet.place("purple", box, value)
    assert sheet.complete_rows == ("orange", "purple")
    assert sheet.game_over


# --- scoring ----------------------------------------------------------------------------------


def test_an_incomplete_row_scores_one_a_number():
    sheet = filled({"yellow": {0: 2, 3: 9, 8: 18}, "orange": {1: 15}})
    assert sheet.breakdown().rows == {"orange": 1, "yellow": 3, "purple": 0}
    assert sheet.score() == 4


def test_a_complete_row_scores_its_rightmost_number():
    sheet = filled({"purple": dict(enumerate([1, 2, 3, 5, 8, 9, 11, 12, 14]))})
    assert sheet.breakdown().rows["purple"] == 14


def test_a_complete_three_box_column_scores_its_pentagon_and_two_box_columns_nothing():
    # column 9 is O6 Y7 P8 with the pentagon on P8
    sheet = filled({"orange": {6: 3}, "yellow": {7: 4}, "purple": {8: 15}})
    assert sheet.breakdown().columns == {9: 15}
    # 3 rows with one number each, plus the pentagon
    assert sheet.score() == 3 + 15
    two_box = filled({"orange": {7: 3}, "yellow": {8: 4}})  # column 10: O7 Y8
    assert two_box.breakdown().columns == {}


def test_each_failed_throw_costs_five():
    sheet = filled({"orange": {0: 1}}, fails=3)
    assert sheet.breakdown().fails == -15
    assert sheet.score() == 1 - 15


def test_sonias_sheet_scores_43_as_in_the_seed():
    """Seed: one row with 6 numbers scores 6; three complete 3-box columns with pentagons 5, 10
    and 12; two failed throws, -10; 43 in all. So the rows make 43 + 10 - 27 = 26: here yellow is
    complete ending in 16, orange has 6 numbers and purple 4 (16 + 6 + 4 = 26).
    Columns 3 (O1=5), 7 (O4=10) and 8 (Y6=12) are complete; 2 and 9 are not."""
    sonia = filled(
        {
            "yellow": dict(enumerate([1, 2, 4, 6, 7, 9, 12, 13, 16])),
            "orange": {0: 3, 1: 5, 2: 7, 4: 10, 5: 11, 8: 15},
            "purple": {0: 1, 3: 6, 6: 8, 7: 13},
        },
        fails=2,
    )
    score = sonia.breakdown()
    assert score.rows == {"orange": 6, "yellow": 16, "purple": 4}
    assert score.columns == {3: 5, 7: 10, 8: 12}
    assert score.fails == -10
    assert score.total == sonia.score() == 43
    assert sonia.complete_rows == ("yellow",)
    assert not sonia.game_over


# --- any sequence of attempts, against an oracle written from the notes' table ------------------

NOTES_COLUMN = {
    (LETTER[b[0]], int(b[1])): column
    for column, boxes in NOTES_TABLE.items()
    for b in boxes.split()
}


def oracle_allows(boxes: dict, colour: str, box: int, value: int) -> bool:
    """The seed's two rules, restated independently of the engine."""
    if (colour, box) in boxes:
        return False
    same_row = [(b, v) for (c, b), v in boxes.items() if c == colour]
    if any(b < box and v >= value for b, v in same_row):
        return False
    if any(b > box and v <= value for b, v in same_row):
        return False
    column = NOTES_COLUMN[(colour, box)]
    return all(v != value for key, v in boxes.items() if NOTES_COLUMN[key] == column)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["orange", "yellow", "purple"]),
            st.integers(0, 8),
            st.integers(1, 18),
        ),
        max_size=60,
    )
)
def test_any_sequence_of_placements_obeys_the_seeds_two_rules(attempts):
    sheet, boxes = Sheet(), {}
    for colour, box, value in attempts:
        expected = oracle_allows(boxes, colour, box, value) and not sheet.game_over
        try:
            sheet.place(colour, box, value)
            accepted = True
        except EntryError:
            accepted = False
        assert accepted == expected, (colour, box, value, boxes)
        if accepted:
            boxes[(colour, box)] = value
    rows = {}
    for colour in ("orange", "yellow", "purple"):
        row = [boxes.get((colour, b)) for b in range(9)]
        rows[colour] = row[8] if None not in row else sum(v is not None for v in row)
    pentagons = {"P2": 2, "O1": 3, "O4": 7, "Y6": 8, "P8": 9}
    bonus = 0
    for name, column in pentagons.items():
        members = [key for key, col in NOTES_COLUMN.items() if col == column]
        if all(key in boxes for key in members):
            bonus += boxes[(LETTER[name[0]], int(name[1]))]
    assert sheet.score() == sum(rows.values()) + bonus
