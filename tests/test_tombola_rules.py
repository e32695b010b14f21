"""Italian Tombola as a built-in prize list (issue 37 item 3): ambo, terno, quaterna, cinquina
(2, 3, 4, 5 numbers called on ONE row of the cartella) and tombola (all 15), played one after
another, each closing when won. The cases count by hand on a ticket worked out on paper; the
property recounts each prize from the printed grid itself, not from the rule objects."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bingo_hall.ninety.prize_list_file import PrizeListError, parse_prize_list
from bingo_hall.ninety.prize_rules import BUILT_IN, TOMBOLA, check_prize_claim
from bingo_hall.ninety.strips import draw_strip
from bingo_hall.ninety.tickets import Ticket, check_ticket
from bingo_hall.rng import seed_bytes

_ = None
# Worked on paper: top row 3 15 34 52 71; middle 17 22 45 60 77; bottom 8 28 39 58 90.
CARTELLA = Ticket(
    serial=7,
    strip=2,
    grid=(
        (3, 15, _, 34, _, 52, _, 71, _),
        (_, 17, 22, _, 45, _, 60, 77, _),
        (8, _, 28, 39, _, 58, _, _, 90),
    ),
)
TOP = [3, 15, 34, 52, 71]
MIDDLE = [17, 22, 45, 60, 77]
BOTTOM = [8, 28, 39, 58, 90]
NOT_ON_IT = [1, 2, 4, 5, 6]

ORDER = ["ambo", "terno", "quaterna", "cinquina", "tombola"]


def valid(prize, calls, awarded=()):
    return check_prize_claim(TOMBOLA, CARTELLA, calls, prize, awarded).valid


def test_the_paper_cartella_is_a_valid_90_ball_ticket():
    check_ticket(CARTELLA)


def test_tombola_is_a_built_in_list_under_its_key_with_the_five_prizes_in_order():
    assert BUILT_IN["tombola"] is TOMBOLA
    assert [p.key for p in TOMBOLA.prizes] == ORDER
    assert not TOMBOLA.open_at_once and TOMBOLA.tabellone


def test_each_prize_has_its_italian_name_glossed_in_english_and_spanish():
    ambo = TOMBOLA.prize("ambo")
    assert ambo.name("en") == "Ambo (two in a row)"
    assert ambo.name("es") == "Ambo (dos en una fila)"
    for p in TOMBOLA.prizes:  # the Italian word leads in both languages
        assert p.name("en").lower().startswith(p.key) and p.name("es").lower().startswith(p.key)


def test_ambo_is_two_numbers_called_on_one_row():
    # two called on the top row: ambo
    assert valid("ambo", [TOP[0], 1, TOP[3]])


def test_two_numbers_on_two_different_rows_are_not_ambo():
    calls = [TOP[0], MIDDLE[1], BOTTOM[2], *NOT_ON_IT]  # one on each row: 3 called, no ambo
    verdict = check_prize_claim(TOMBOLA, CARTELLA, calls, "ambo")
    assert not verdict.valid and verdict.result.still_needed == 1


def test_terno_quaterna_and_cinquina_count_three_four_and_five_on_one_row():
    # 2 on the top row and 2 on the middle: ambo only, terno still needs one
    calls = [TOP[0], TOP[1], MIDDLE[0], MIDDLE[1]]
    assert valid("ambo", calls)
    assert not valid("terno", calls, ["ambo"])
    assert valid("terno", [*calls, MIDDLE[4]], ["ambo"])  # 3 on the middle row
    three_each = [*TOP[:3], *MIDDLE[:3], *BOTTOM[:3]]  # 9 called, never 4 on a row
    assert not valid("quaterna", three_each, ["ambo", "terno"])
    assert valid("quaterna", [*three_each, BOTTOM[3]], ["ambo", "terno"])
    four_each = [*TOP[:4], *MIDDLE[:4], *BOTTOM[:4]]  # 12 called, no row complete
    done = ["ambo", "terno", "quaterna"]
    assert not valid("cinquina", four_each, done)
    assert valid("cinquina", [*four_each, MIDDLE[4]], done)


def test_tombola_needs_all_fifteen():
    done = ORDER[:4]
    assert not valid("tombola", [*TOP, *MIDDLE, *BOTTOM[:4]], done)
    assert valid("tombola", [*TOP, *MIDDLE, *BOTTOM], done)


def test_the_prizes_go_in_order_and_each_closes_when_won():
    calls = [*TOP]  # the top row complete: it holds ambo, terno, quaterna and cinquina
    assert [p.key for p in TOMBOLA.open_prizes([])] == ["ambo"]
    assert not valid("terno", calls)  # terno is not open before ambo is won
    assert valid("ambo", calls)
    assert [p.key for p in TOMBOLA.held(CARTELLA, calls, ["ambo"])] == ["terno"]
    closed = check_prize_claim(TOMBOLA, CARTELLA, calls, "ambo", ["ambo"])
    assert not closed.valid and not closed.open and closed.result.holds
    assert not TOMBOLA.finished(ORDER[:4]) and TOMBOLA.finished(ORDER)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 5), st.data())
def test_on_any_printed_ticket_each_prize_holds_exactly_when_a_row_has_enough_called(seed, t, data):
    ticket = draw_strip(seed_bytes(seed), 1).tickets[t]
    grid_rows = [[n for n in r if n is not None] for r in ticket.grid]
    calls = data.draw(st.sets(st.integers(1, 90), max_size=40))
    best = max(sum(1 for n in r if n in calls) for r in grid_rows)
    on_ticket = sum(1 for r in grid_rows for n in r if n in calls)
    needed = {"ambo": 2, "terno": 3, "quaterna": 4, "cinquina": 5}
    for key, count in needed.items():
        holds = check_prize_claim(TOMBOLA, ticket, list(calls), key).result.holds
        assert holds == (best >= count), key
    assert check_prize_claim(TOMBOLA, ticket, list(calls), "tombola").result.holds == (
        on_ticket == 15
    )


def test_a_hosts_list_counts_numbers_on_one_row_with_in_a_row():
    own = parse_prize_list(
        'name = "Tombolino"\n[[prize]]\nkey = "terno"\nin_a_row = 3\n'
        '[[prize]]\nkey = "tombola"\nlines = 3\n',
        "tombolino.toml",
    )
    three_each = [*TOP[:2], *MIDDLE[:2], *BOTTOM[:3]]  # 3 on the bottom row only
    assert check_prize_claim(own, CARTELLA, three_each, "terno").valid
    assert not check_prize_claim(own, CARTELLA, three_each[:-1], "terno").valid


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        ("in_a_row = 6", "in_a_row must be a whole number from 1 to 5"),
        ("in_a_row = 2\nrows = ['top']", "in_a_row cannot be combined with rows"),
    ],
)
def test_a_bad_in_a_row_is_refused_in_words(entry, words):
    with pytest.raises(PrizeListError, match=words):
        parse_prize_list(f'[[prize]]\nkey = "x"\n{entry}\n', "bad.toml")
