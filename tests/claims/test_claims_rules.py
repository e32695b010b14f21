"""docs/rules.md §1 (seed bingo-normal-y-de-puntos), checked on hand-made cards.

Every expected figure below is worked out by hand from the cards drawn here, not taken from the
code. CARD is laid out so that R1 totals 180 and the N column 190, the docs/rules.md example:

        B   I   N   G   O
  R1    5  20  34  51  70   = 180
  R2    1  16  36  46  61
  R3    2  17  38  47  62   = 166
  R4    3  18  40  48  63
  R5    4  19  42  49  64   = 178
        15  90 190 241 320   (B I N G O totals)
  D1 = 5+16+38+48+64 = 171     D2 = 70+46+38+18+4 = 176
"""

import pytest

from bingo_hall.errors import KitError
from bingo_hall.seventyfive.cards import Card
from bingo_hall.seventyfive.claims import (
    NORMAL,
    PUNTOS,
    Claim,
    Rules,
    judge,
    next_maestro,
    penalty_for,
    settle,
    standings,
)

CARD = Card(
    serial=1,
    columns=(
        (5, 1, 2, 3, 4),
        (20, 16, 17, 18, 19),
        (34, 36, 38, 40, 42),
        (51, 46, 47, 48, 49),
        (70, 61, 62, 63, 64),
    ),
)
# A second card: R1 = 6+21+31+52+71 = 181, B = 6+7+8+9+10 = 40.
OTHER = Card(
    serial=2,
    columns=(
        (6, 7, 8, 9, 10),
        (21, 22, 23, 24, 25),
        (31, 32, 33, 35, 37),
        (52, 53, 54, 55, 56),
        (71, 72, 73, 74, 75),
    ),
)
FREE_CARD = Card(serial=3, columns=CARD.columns[:2] + ((34, 36, None, 40, 42),) + CARD.columns[3:])

NORMAL_RULES = Rules(mode=NORMAL)
PUNTOS_RULES = Rules(mode=PUNTOS)


def test_any_complete_row_wins_in_bingo_normal():
    v = judge(CARD, [61, 5, 20, 34, 51, 70], NORMAL_RULES)
    assert v.bingo and [f.name for f in v.winning] == ["R1"]
    (r1,) = v.complete
    assert r1.numbers == (5, 20, 34, 51, 70) and r1.total == 180 and not r1.central
    assert r1.by_last_call and v.points is None


def test_four_numbers_of_a_line_are_not_a_bingo():
    v = judge(CARD, [5, 20, 34, 51, 61], NORMAL_RULES)
    assert not v.bingo and v.kind == "none" and v.complete == ()


def test_lines_are_named_columns_by_letter_and_diagonals_d1_d2():
    assert [f.name for f in judge(CARD, [70, 46, 38, 18, 4], NORMAL_RULES).complete] == ["D2"]
    assert [f.name for f in judge(CARD, [5, 16, 38, 48, 64], NORMAL_RULES).complete] == ["D1"]
    assert [f.name for f in judge(CARD, [20, 16, 17, 18, 19], NORMAL_RULES).complete] == ["I"]
    assert [f.name for f in judge(CARD, [1, 16, 36, 46, 61], NORMAL_RULES).complete] == ["R2"]


def test_a_single_line_scores_its_margin_total_in_puntos():
    v = judge(CARD, [4, 19, 42, 49, 64], PUNTOS_RULES)
    assert v.kind == "bingo" and v.points == 178


def test_bingo_central_doubles_a_line_through_the_centre():
    v = judge(CARD, [34, 36, 38, 40, 42], PUNTOS_RULES)
    assert v.kind == "central" and v.points == 190 * 2


def test_bingo_doble_adds_both_totals_and_100():
    # 70 is R1's and O's last number: R1 180 + O 320 + 100.
    v = judge(CARD, [5, 20, 34, 51, 61, 62, 63, 64, 70], PUNTOS_RULES)
    assert v.kind == "doble" and v.points == 180 + 320 + 100
    assert {f.name for f in v.complete} == {"R1", "O"} and all(f.by_last_call for f in v.complete)


def test_doble_central_redoubles_the_central_line():
    # docs/rules.md: R1 180, N 190, the last call 34 completes both: 180·2 + 190·4 + 100 = 1220.
    v = judge(CARD, [5, 20, 51, 70, 36, 38, 40, 42, 34], PUNTOS_RULES)
    assert v.kind == "doble_central" and v.points == 1220


def test_the_centre_completing_three_lines_is_a_doble_over_all_of_them():
    # 38 completes R3 (166), N (190) and D1 (171), all central: (166+190+171)·4 + 100 = 2208.
    calls = [2, 17, 47, 62, 34, 36, 40, 42, 5, 16, 48, 64, 38]
    v = judge(CARD, calls, PUNTOS_RULES)
    assert {f.name for f in v.winning} == {"R3", "N", "D1"}
    assert v.kind == "doble_central" and v.points == 2208


def test_line_complete_before_the_last_call_scores_as_a_single_bingo():
    # R5 (178) was complete before; 70 completes only R1 (180): no Doble, the best single.
    v = judge(CARD, [4, 19, 42, 49, 64, 5, 20, 34, 51, 70], PUNTOS_RULES)
    assert {f.name: f.by_last_call for f in v.complete} == {"R1": True, "R5": False}
    assert v.kind == "bingo" and v.points == 180


def test_a_missed_line_still_wins_unless_the_hall_plays_completing_call_only():
    calls = [4, 19, 42, 49, 64, 1]
    assert judge(CARD, calls, NORMAL_RULES).bingo
    strict = judge(CARD, calls, Rules(mode=NORMAL, completing_call_only=True))
    assert [f.name for f in strict.complete] == ["R5"] and not strict.bingo


def test_free_centre_option_covers_a_printed_centre_number():
    calls = [34, 36, 40, 42]  # the N column without its centre, 38
    assert not judge(CARD, calls, NORMAL_RULES).bingo
    v = judge(CARD, calls, Rules(mode=PUNTOS, free_centre=True))
    # The printed 38 counts in the total: N is still 190, central, so 380.
    assert [f.name for f in v.winning] == ["N"] and v.points == 380


def test_calling_a_centre_already_covered_by_the_free_marker_completes_nothing():
    # R3 is 2 17 [38] 47 62: with the free centre on it was complete before 38 was called.
    rules = Rules(mode=PUNTOS, free_centre=True)
    v = judge(CARD, [2, 17, 47, 62, 38], rules)
    assert [(f.name, f.by_last_call) for f in v.complete] == [("R3", False)]
    assert v.kind == "central" and v.points == 166 * 2
    strict = Rules(mode=PUNTOS, free_centre=True, completing_call_only=True)
    assert not judge(CARD, [2, 17, 47, 62, 38], strict).bingo


def test_free_centre_counts_on_a_card_printed_with_free():
    calls = [34, 36, 40, 42]
    v = judge(FREE_CARD, calls, Rules(mode=PUNTOS, free_centre=True))
    assert v.points == (34 + 36 + 40 + 42) * 2
    assert judge(FREE_CARD, calls, NORMAL_RULES).bingo  # nothing to call on a printed FREE


def test_false_claim_clears_the_claimed_line_for_the_rest_of_the_game():
    calls = [5, 20, 34, 51]  # R1 without 70: a false BINGO
    assert not judge(CARD, calls, NORMAL_RULES).bingo
    penalty = penalty_for(CARD, calls, NORMAL_RULES)
    assert penalty.figure == "R1" and penalty.after_call == 4
    later = calls + [70, 1, 2, 3, 4]
    v = judge(CARD, later, NORMAL_RULES, [penalty])
    # R1 lost its markers; B shares the cleared 5, so it is not complete either.
    assert not v.bingo and (0, 0) not in v.covered and (0, 4) in v.covered
    # A line that does not touch R1 still wins.
    v = judge(CARD, later + [19, 42, 49, 64], NORMAL_RULES, [penalty])
    assert [f.name for f in v.winning] == ["R5"]


def test_cleared_squares_are_covered_again_by_balls_drawn_after_the_penalty():
    penalty = penalty_for(CARD, [1], NORMAL_RULES, line="R1")
    assert penalty.after_call == 1
    v = judge(CARD, [1, 5, 20, 34, 51, 70], NORMAL_RULES, [penalty])
    assert [f.name for f in v.winning] == ["R1"]


def test_false_claim_without_a_named_line_clears_the_nearest_line():
    calls = [36, 5, 20, 34]  # R1 has 3 covered, N has 2
    assert penalty_for(CARD, calls, NORMAL_RULES).figure == "R1"
    with pytest.raises(KitError):
        penalty_for(CARD, calls, NORMAL_RULES, line="R9")


def test_free_centre_marker_is_removed_by_a_penalty_on_a_central_line():
    rules = Rules(mode=NORMAL, free_centre=True)
    penalty = penalty_for(CARD, [34], rules, line="N")
    v = judge(CARD, [34, 36, 40, 42, 2, 17, 47, 62], rules, [penalty])
    assert (2, 2) not in v.covered and not v.bingo


def _claim(claim_id, card, calls, rules, player=None):
    return Claim(claim_id, card.serial, player, judge(card, calls, rules))


def test_simultaneous_claims_in_normal_go_to_the_highest_line_total():
    # Both complete R1 on the call of 6: CARD's R1 is 180, OTHER's 181.
    calls = [5, 20, 34, 51, 70, 21, 31, 52, 71, 6]
    a = _claim(1, CARD, calls, NORMAL_RULES)
    b = _claim(2, OTHER, calls, NORMAL_RULES)
    assert settle([a, b]) is b


def test_doble_beats_single_on_the_same_call_even_with_fewer_points():
    # CARD has N (central, 380); OTHER's last call 6 completes R1 and B: 181 + 40 + 100 = 321.
    calls = [34, 36, 38, 40, 42, 21, 31, 52, 71, 7, 8, 9, 10, 6]
    single = _claim(1, CARD, calls, PUNTOS_RULES, "Ana")
    doble = _claim(2, OTHER, calls, PUNTOS_RULES, "Beto")
    assert single.verdict.points == 380 and doble.verdict.points == 321
    assert settle([single, doble]) is doble


def test_the_earliest_valid_call_takes_the_round_and_a_tie_goes_to_the_first_claim():
    early = _claim(5, CARD, [5, 20, 34, 51, 70], NORMAL_RULES)
    late = _claim(3, OTHER, [5, 20, 34, 51, 70, 6, 21, 31, 52, 71], NORMAL_RULES)
    assert settle([late, early]) is early
    twin_a = _claim(7, CARD, [5, 20, 34, 51, 70], NORMAL_RULES)
    twin_b = _claim(8, CARD, [5, 20, 34, 51, 70], NORMAL_RULES)
    assert settle([twin_b, twin_a]) is twin_a
    assert settle([_claim(9, CARD, [5], NORMAL_RULES)]) is None


def test_sociedad_credits_a_partners_bingo_to_one_team_total():
    teams = {"Ana": "Norte", "Beto": "Norte", "Carla": "Sur", "Dani": "Sur"}
    s = standings(["Ana", "Carla", "Beto", "Dani"], teams, [("Ana", 600), ("Beto", 380)])
    top = s.sides[0]
    assert (top.name, top.members, top.points) == ("Norte", ("Ana", "Beto"), 980)
    assert s.sides[1].points == 0 and s.winner is None


def test_first_side_to_reach_or_pass_the_target_wins():
    s = standings(["Ana", "Beto"], {}, [("Ana", 999), ("Beto", 1000), ("Ana", 500)])
    assert s.winner == "Beto" and s.sides[0].name == "Ana" and s.sides[0].points == 1499
    assert standings(["Ana"], {}, [("Ana", 300)], target=300).winner == "Ana"


def test_maestro_passes_to_the_left_in_puntos_and_wraps_around():
    seats = ["Ana", "Beto", "Carla"]
    assert next_maestro(seats, "Ana", "Carla", PUNTOS_RULES) == "Beto"
    assert next_maestro(seats, "Carla", "Beto", PUNTOS_RULES) == "Ana"


def test_in_normal_the_winner_becomes_maestro_only_with_the_option():
    seats = ["Ana", "Beto", "Carla"]
    assert next_maestro(seats, "Ana", "Carla", NORMAL_RULES) == "Ana"
    option = Rules(mode=NORMAL, winner_becomes_maestro=True)
    assert next_maestro(seats, "Ana", "Carla", option) == "Carla"


@pytest.mark.parametrize(
    "kwargs",
    [
        {"mode": "bonus"},
        {"target": 0},
        {"target": "1000"},
        {"target": 10**30},
        {"mode": PUNTOS, "pattern": 1},
    ],
)
def test_rules_refuse_settings_a_host_could_mistype(kwargs):
    with pytest.raises(KitError):
        Rules(**kwargs)
