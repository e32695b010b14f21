"""The reader of a host's TOML tables (bingo_hall/toml_table.py): each value read by its type, an
unknown key or a value of the wrong type refused in one line that names the key, worded and
placed by the file's own parser."""

from __future__ import annotations

import tomllib
from typing import Any

import pytest

from bingo_hall.errors import KitError
from bingo_hall.toml_table import Lines, Table


class Placed(KitError):
    """A file's own error, keeping the path of keys the reader gave it."""

    def __init__(self, template: str, /, *path: str, **params: Any) -> None:
        self.path = path
        super().__init__(template, **params)


def read(text: str) -> Table:
    return Table.from_json(tomllib.loads(text), Placed)


def refused(read_it: Any) -> Placed:
    with pytest.raises(Placed) as caught:
        read_it()
    return caught.value


def test_a_value_of_the_wrong_type_is_refused_naming_its_key():
    table = read('name = 7\ncount = "3"\nopen = "yes"\nsize = true\ntheme = 1')
    assert str(refused(lambda: table.text("name"))) == "name must be a non-empty text"
    assert str(refused(lambda: table.integer("count", low=1, high=5))) == (
        "count must be a whole number from 1 to 5"
    )
    assert str(refused(lambda: table.boolean("open"))) == "open must be true or false"
    # true is not a number, though Python counts it as 1
    assert refused(lambda: table.number("size", low=0, high=40)).params["value"] is True
    assert refused(lambda: table.integer("size")).path == ("size",)
    assert refused(lambda: table.table("theme", wrong="%(what)s is a table")).path == ("theme",)


def test_a_number_out_of_its_range_is_refused_with_the_range():
    table = read("columns = 9\nmargin = 2.5")
    problem = refused(lambda: table.integer("columns", low=1, high=4))
    assert (problem.params["low"], problem.params["high"], problem.params["value"]) == (1, 4, 9)
    assert table.number("margin", low=0, high=40) == 2.5


def test_an_unknown_key_is_refused_naming_the_first_in_order_and_the_known_ones():
    table = read('name = "x"\nzebra = 1\ncolour = "red"')
    problem = refused(lambda: table.only(("name", "balls")))
    assert str(problem) == "unknown setting 'colour' (known: name, balls)"
    assert problem.path == ("colour",)
    table.only(("name", "zebra", "colour"))  # every key known: nothing to say


def test_a_missing_key_is_refused_with_the_words_of_its_type_unless_it_has_a_default():
    table = read('other = "x"')
    assert str(refused(lambda: table.text("name"))) == "name must be a non-empty text"
    problem = refused(lambda: table.integer("rows", low=1, high=4))
    assert problem.params["value"] is None and problem.path == ("rows",)
    assert str(refused(lambda: table.tables("game", wrong="no games", item="-"))) == "no games"
    assert table.text("name", "Bingo night") == "Bingo night"
    assert table.integer("rows", 2) == 2
    assert table.table("theme", wrong="-", optional=True).keys == ()


def test_a_text_is_stripped_and_held_to_its_length():
    table = read('name = "  Lines  "\nlong = "abcdef"\nblank = "   "')
    assert table.text("name", most=5) == "Lines"
    assert str(refused(lambda: table.text("long", most=5))) == "long is longer than 5 characters"
    assert str(refused(lambda: table.text("blank"))) == "blank must be a non-empty text"


def test_a_problem_inside_a_table_is_placed_by_the_keys_that_lead_to_it():
    table = read('[theme]\naccent = 3\n[[prize]]\nkey = "a"\n[[prize]]\nkey = 5')
    theme = table.table("theme", wrong="-", prefix="theme.")
    problem = refused(lambda: theme.text("accent"))
    assert problem.path == ("theme", "accent")
    assert str(problem) == "theme.accent must be a non-empty text"
    first, second = table.tables("prize", wrong="-", item="-")
    assert first.text("key") == "a"
    assert refused(lambda: second.text("key")).path == ("prize", "key")


def test_a_list_item_that_is_not_a_table_is_refused_with_its_number():
    table = read('prize = [{ key = "a" }, 3]')
    problem = refused(lambda: table.tables("prize", wrong="-", item="prize %(number)s: no table"))
    assert str(problem) == "prize 2: no table"


def test_each_table_of_a_list_may_be_worded_by_its_own_problem():
    table = read("[[game]]\nballs = 80\n[[game]]\nballs = 75")

    def in_game(index: int) -> Any:
        def problem(template: str, /, *path: str, **params: Any) -> Placed:
            return Placed("game %(n)s: %(problem)s", *path, n=index + 1,
                          problem=KitError(template, **params))  # fmt: skip

        return problem

    games = table.tables("game", wrong="-", item="-", each=in_game)
    wrong = "balls is 75 or 90"
    assert str(refused(lambda: games[0].integer("balls", low=75, high=75, wrong=wrong))) == (
        "game 1: balls is 75 or 90"
    )
    assert games[1].integer("balls", low=75, high=75, wrong=wrong) == 75


def test_the_table_read_is_a_value_its_source_cannot_change():
    source = {"prizes": {"bingo": "20"}, "name": "Lines"}
    table = Table.from_json(source)
    source["prizes"]["bingo"] = "99"
    source["name"] = "Other"
    assert table.to_json() == {"prizes": {"bingo": "20"}, "name": "Lines"}
    renamed = table.with_value("name", "Copy")
    assert (renamed.text("name"), table.text("name")) == ("Copy", "Lines")
    assert "name" not in table.without("name") and "name" in table
    assert table == Table.from_json({"prizes": {"bingo": "20"}, "name": "Lines"})
    with pytest.raises(TypeError):
        table.values["name"] = "x"  # type: ignore[index]


def test_the_line_of_a_key_is_found_in_the_table_of_the_list_that_has_it():
    text = 'name = "Night"\n\n[[game]]\nname = "A"\n\n[[game]]\nname = "B"\nprice = "x"\n'
    lines = Lines(text, "game")
    assert lines.of(None, "name") == 1
    assert lines.of(0, "name") == 4 and lines.of(1, "name") == 7
    assert lines.of(1, "price") == 8
    assert lines.of(0, "price") == 3  # not written in that game: its header
    assert lines.of(None, "currency") == 0  # not written at the top: no line
