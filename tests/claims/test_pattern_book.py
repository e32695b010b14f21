"""The pattern book (seventyfive/pattern_book.toml): every entry a legal set of forms on the card.

The expected forms are worked out here from the file's raw grids with numpy's own rotations and
mirrors, and from the 12 lines listed by hand, not with the kit's generators."""

import tomllib
from importlib import resources
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

from bingo_hall.errors import KitError
from bingo_hall.prize_names import prize_name
from bingo_hall.seventyfive.pattern_book import kit_book, parse_book
from bingo_hall.seventyfive.patterns import BUILT_IN, FOUR_CORNERS, FULL_CARD, X, pattern_from_spec

RAW = tomllib.loads(
    resources.files("bingo_hall.seventyfive").joinpath("pattern_book.toml").read_text("utf-8")
)
BOOK = {e.key: e for e in kit_book()}
EVERY_SQUARE = {(r, c) for r in range(5) for c in range(5)}
LINES = (
    [{(r, c) for c in range(5)} for r in range(5)]
    + [{(r, c) for r in range(5)} for c in range(5)]
    + [{(i, i) for i in range(5)}, {(i, 4 - i) for i in range(5)}]
)


def grid(text):
    rows = [row for row in text.split() if row]
    assert len(rows) == 5 and all(len(row) == 5 for row in rows), text
    return np.array([[ch == "X" for ch in row] for row in rows])


def cells(array):
    return frozenset((int(r), int(c)) for r, c in zip(*np.nonzero(array), strict=True))


def images(array):
    """The eight symmetries of the square, by numpy."""
    out = []
    for a in (array, np.fliplr(array)):
        out += [np.rot90(a, k) for k in range(4)]
    return {cells(a) for a in out}


def test_the_book_holds_at_least_40_patterns_each_named_in_both_languages():
    assert len(BOOK) >= 40
    assert list(BOOK) == list(RAW)
    for key, entry in BOOK.items():
        assert entry.names["en"].strip() and entry.names["es"].strip(), key


def test_every_form_of_every_pattern_is_a_legal_set_of_squares_on_the_card():
    for key, entry in BOOK.items():
        assert entry.forms, key
        assert len(set(entry.forms)) == len(entry.forms), f"{key} repeats a form"
        for form in entry.forms:
            assert form and form <= EVERY_SQUARE, key
            assert form != {(2, 2)}, key


def test_a_drawn_pattern_has_exactly_the_squares_its_grid_marks():
    for key, raw in RAW.items():
        if "grid" in raw and not raw.get("crazy") and not raw.get("pick"):
            grids = raw["grid"] if isinstance(raw["grid"], list) else [raw["grid"]]
            assert BOOK[key].forms == tuple(cells(grid(g)) for g in grids), key


def test_crazy_forms_are_every_rotation_and_reflection_counted_once():
    crazy = [key for key, raw in RAW.items() if raw.get("crazy")]
    assert {"crazy_kite", "crazy_l", "postage_stamp", "six_pack", "nine_pack"} <= set(crazy)
    for key in crazy:
        expected = set().union(*(images(grid(g)) for g in [RAW[key]["grid"]]))
        if RAW[key].get("pick"):
            expected = {frozenset().union(*c) for c in combinations(expected, RAW[key]["pick"])}
        assert set(BOOK[key].forms) == expected, key
        assert len(BOOK[key].forms) == len(expected), key


def test_a_crazy_kite_is_the_kite_in_each_of_its_four_orientations():
    kite = BOOK["kite"].forms[0]
    assert len(BOOK["crazy_kite"].forms) == 4  # the kite is its own mirror along its diagonal
    assert kite in BOOK["crazy_kite"].forms
    heads = [
        {(r, c) for r in rows for c in cols}
        for rows in ((0, 1), (3, 4))
        for cols in ((0, 1), (3, 4))
    ]
    # the kite's head, a 2x2 block, sits in a different corner in each form
    assert sorted(sum(h <= f for f in BOOK["crazy_kite"].forms) for h in heads) == [1, 1, 1, 1]


def test_a_postage_stamp_is_any_of_the_four_corner_two_by_two_blocks():
    stamps = {
        frozenset({(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)}) for r in (0, 3) for c in (0, 3)
    }
    assert set(BOOK["postage_stamp"].forms) == stamps
    assert set(BOOK["double_postage_stamp"].forms) == {a | b for a, b in combinations(stamps, 2)}


def test_six_and_nine_packs_are_blocks_in_a_corner():
    for key, (h, w), count in (("six_pack", (2, 3), 8), ("nine_pack", (3, 3), 4)):
        forms = BOOK[key].forms
        assert len(forms) == count
        for form in forms:
            rows = {r for r, _ in form}
            cols = {c for _, c in form}
            assert len(form) == h * w and {len(rows), len(cols)} == {h, w}
            assert len(rows) * len(cols) == len(form)  # a full rectangle
            assert rows & {0, 4} and cols & {0, 4}  # touching a corner


def test_double_and_triple_bingo_are_any_two_or_three_distinct_lines():
    lines = [frozenset(line) for line in LINES]
    for key, n in (("double_bingo", 2), ("triple_bingo", 3)):
        expected = {frozenset().union(*c) for c in combinations(lines, n)}
        assert set(BOOK[key].forms) == expected and len(BOOK[key].forms) == len(expected)


def test_a_hardway_line_never_passes_through_the_free_centre():
    hard = [frozenset(line) for line in LINES if (2, 2) not in line]
    assert len(hard) == 8
    assert set(BOOK["hardway"].forms) == set(hard)
    assert set(BOOK["double_hardway"].forms) == {a | b for a, b in combinations(hard, 2)}
    assert all((2, 2) not in f for f in BOOK["double_hardway"].forms)


def test_the_frames_are_the_inside_and_outside_squares():
    assert BOOK["small_frame"].forms == ({(r, c) for r in (1, 2, 3) for c in (1, 2, 3)} - {(2, 2)},)
    assert BOOK["large_frame"].forms == (
        {(r, c) for r in range(5) for c in range(5) if r in (0, 4) or c in (0, 4)},
    )


def test_the_book_has_the_patterns_halls_call():
    wanted = {
        "full_card", "four_corners", "x", "postage_stamp", "double_postage_stamp", "six_pack",
        "nine_pack", "kite", "crazy_kite", "diamond", "arrow", "plus", "layer_cake", "airplane",
        "small_frame", "large_frame", "double_bingo", "triple_bingo", "hardway", "double_hardway",
        "crazy_l", "letter_a", "letter_t", "letter_z",
    }  # fmt: skip
    assert wanted <= set(BOOK)
    assert BOOK["full_card"].forms == (frozenset(EVERY_SQUARE),)
    assert BOOK["full_card"].names["es"] == "Cartón lleno"
    es = {key: BOOK[key].names["es"].lower() for key in BOOK}
    for key, word in (
        ("postage_stamp", "estampilla"), ("kite", "cometa"), ("diamond", "diamante"),
        ("arrow", "flecha"), ("plus", "cruz"), ("airplane", "avión"), ("small_frame", "marco"),
    ):  # fmt: skip
        assert word in es[key]


def test_the_named_constants_are_the_books_own():
    for constant in (FOUR_CORNERS, X, FULL_CARD):
        assert BOOK[constant.name].forms == constant.forms
        assert BUILT_IN[constant.name] is constant
    assert pattern_from_spec("crazy_kite") == BUILT_IN["crazy_kite"]


HOST = """
[top_and_bottom]
en = "Top and bottom"
es = "Arriba y abajo"
grid = "XXXXX/...../...../...../XXXXX"

[crazy_corner]
en = "Crazy corner"
es = "Esquina loca"
grid = ["XXX../X..../X..../...../.....", "..XXX/....X/....X/...../....."]
crazy = true
"""


def test_every_pattern_of_the_book_is_named_for_a_reader_in_both_languages():
    assert prize_name("crazy_kite", "es") == "Cometa loca"
    assert prize_name("postage_stamp", "en").startswith("Postage stamp")
    for key, raw in RAW.items():
        assert (prize_name(key, "en"), prize_name(key, "es")) == (raw["en"], raw["es"])


def test_a_hosts_book_adds_patterns_written_the_same_way():
    top, corner = parse_book(HOST, "mine.toml", taken=BOOK)
    assert top.forms == (frozenset({(0, c) for c in range(5)} | {(4, c) for c in range(5)}),)
    assert len(corner.forms) == 4  # the two grids are mirrors: 16 images, 4 distinct


@pytest.mark.parametrize(
    "text, words",
    [
        ('[kite]\nen = "K"\nes = "C"\ngrid = "XX.../XX.../...../...../....."', "already has"),
        ('[mine]\nen = "M"\nes = "M"\ngrid = "XX.../XX..."', "5 rows"),
        ('[mine]\nen = "M"\nes = "M"\ngrid = "...../...../..X../...../....."', "centre"),
        ('[mine]\nen = "M"\nes = "M"\nlines = 9\nhardway = true', "at most 8"),
        ('[mine]\nen = "M"\nes = "M"', "grid"),
        ('[mine]\nen = "M"\ngrid = "XXXXX/...../...../...../....."', "es is"),
        ('[lines]\nen = "M"\nes = "M"\nlines = 1', "key"),
        ("[mine\n", "mine.toml"),
    ],
)
def test_a_hosts_book_that_cannot_be_played_is_refused_in_one_line(text, words):
    with pytest.raises(KitError) as exc:
        parse_book(text, "mine.toml", taken=BOOK)
    message = str(exc.value)
    assert words in message and "\n" not in message and message.startswith("mine.toml")


def test_the_docs_show_every_pattern_of_the_book_with_its_grid():
    doc = (Path(__file__).parents[2] / "docs" / "patterns.md").read_text(encoding="utf-8")
    for key, raw in RAW.items():
        assert f"Key `{key}`" in doc and f"### {raw['en']} · {raw['es']}" in doc, key
        if "grid" in raw:
            picture = "\n".join(" ".join(row) for row in raw["grid"].split())
            assert picture in doc.replace("B I N G O\n", ""), key
