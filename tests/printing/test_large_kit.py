"""The large-print kit (issue 36: `bingo-hall kit --large-print`): the Tabla Confrontadora and
its tokens with numbers of at least 30 pt (half as large again as the standard board's 20 pt),
each with clear room in its spot, black on white, lines of 1 pt or more, each token the
size of its spot; the rules sheet at 18 pt. Read back from the PDF with pypdfium2; the board's
rows are worked out here from the rules (B 1-15 ... O 61-75; 1-90 in rows of ten)."""

from __future__ import annotations

import pytest

from bingo_hall.cli import main
from bingo_hall.printing import render_kit_pdf

from .pdfread import Word, open_pdf, page_shapes, page_words
from .test_large_print import check_ink_and_lines

NUMBER_PT, RULES_PT = 30, 18
BOARDS = {
    75: [(letter, list(range(15 * k + 1, 15 * k + 16))) for k, letter in enumerate("BINGO")],
    90: [("", list(range(10 * k + 1, 10 * k + 11))) for k in range(9)],
}


def lines_of(words: list[Word]) -> list[list[Word]]:
    lines: list[list[Word]] = []
    for w in sorted(words, key=lambda w: -w.cy):
        if lines and abs(lines[-1][0].cy - w.cy) < 0.4 * w.height:
            lines[-1].append(w)
        else:
            lines.append([w])
    return [sorted(line, key=lambda w: w.x0) for line in lines]


def grid_steps(page) -> tuple[set[float], set[float]]:
    """The widths and heights of the cells between the page's vertical and horizontal lines."""
    xs, ys = set(), set()
    for shape in page_shapes(page):
        if shape.stroked and len(shape.points) == 2:
            (x0, y0), (x1, y1) = shape.points
            if abs(x0 - x1) < 0.01:
                xs.add(round(x0, 1))
            elif abs(y0 - y1) < 0.01:
                ys.add(round(y0, 1))

    def steps(values):
        v = sorted(values)
        return {round(b - a, 1) for a, b in zip(v, v[1:])}

    return steps(xs), steps(ys)


@pytest.fixture(
    scope="module",
    params=[(75, "a4", "es"), (75, "letter", "en"), (90, "a4", "en"), (90, "letter", "es")],
    ids=str,
)
def kit(request):
    game, paper, lang = request.param
    return game, lang, open_pdf(render_kit_pdf(lang=lang, paper=paper, game=game, large_print=True))


def test_the_large_tabla_holds_every_ball_in_its_row_at_30_pt_with_room_between(kit):
    game, _, pdf = kit
    page = pdf[0]
    _, height = page.get_size()
    below_title = [w for w in page_words(page) if w.cy < height - 80]
    rows = lines_of(below_title)
    expected = BOARDS[game]
    assert len(rows) == len(expected)
    for line, (letter, balls) in zip(rows, expected):
        texts = [w.text for w in line]
        if letter:
            assert texts[0] == letter  # the row's letter before its numbers
            texts = texts[1:]
        assert [int(t) for t in texts] == balls
        # "10 11 12" must not read as one figure: a fifth of a spot clear between neighbours
        numbers = line[1:] if letter else line
        pitch = (numbers[-1].cx - numbers[0].cx) / (len(numbers) - 1)
        assert min(b.x0 - a.x1 for a, b in zip(numbers, numbers[1:])) > 0.2 * pitch
    numbers = [w for w in below_title if w.text.isdigit()]
    assert min(s for w in numbers for s in w.sizes) >= NUMBER_PT
    check_ink_and_lines(page)


def test_the_large_tokens_are_each_ball_at_30_pt_cut_to_the_size_of_its_spot(kit):
    game, _, pdf = kit
    board, tokens = pdf[0], pdf[1]
    assert board.get_size() == tokens.get_size()
    _, height = tokens.get_size()
    words = [w for w in page_words(tokens) if w.cy < height - 80]
    numbers = [w for w in words if w.text.isdigit()]
    assert sorted(int(w.text) for w in numbers) == list(range(1, game + 1))
    assert min(s for w in numbers for s in w.sizes) >= NUMBER_PT
    for letter, balls in BOARDS[game]:  # each 75-ball token: its letter over its number
        for n in balls:
            (w,) = [w for w in numbers if int(w.text) == n]
            over = [x for x in words if x.text == letter and abs(x.cx - w.cx) < 5 and x.y0 > w.y1]
            assert len(over) == (1 if letter else 0), n
    board_w, board_h = grid_steps(board)
    token_w, token_h = grid_steps(tokens)
    # the board's spots are all one size, and every token is that size
    spot_w = max(board_w)
    assert {round(w) for w in token_w} == {round(spot_w)}
    assert {round(h) for h in token_h} == {round(h) for h in board_h}
    check_ink_and_lines(tokens)


def test_the_large_rules_sheet_is_the_same_text_set_at_18_pt_black_on_white(kit):
    game, lang, pdf = kit
    rules = [pdf[i] for i in range(2, len(pdf))]
    words = [w for page in rules for w in page_words(page)]
    standard = open_pdf(render_kit_pdf(lang=lang, game=game))
    same = [w.text for i in range(2, len(standard)) for w in page_words(standard[i])]
    assert [w.text for w in words] == same  # every word of the sheet, in order
    assert len(rules) > len(standard) - 2  # ...over more pages
    assert min(s for w in words for s in w.sizes) >= RULES_PT
    assert all(max(w.fill) == 0 for w in words)  # black, on the white page
    assert not any(s.filled or s.stroked for page in rules for s in page_shapes(page))


def test_kit_large_print_from_the_command_line(tmp_path, capsys):
    out = tmp_path / "kit.pdf"
    main(["kit", "--large-print", "--lang", "en", "-o", str(out)])
    assert "wrote" in capsys.readouterr().out
    pdf = open_pdf(out.read_bytes())
    width, height = pdf[0].get_size()
    assert width > height  # the 75-ball board takes the page's long side for 15 numbers a row
    sizes = [s for w in page_words(pdf[0]) if w.text.isdigit() for s in w.sizes]
    assert min(sizes) >= NUMBER_PT
