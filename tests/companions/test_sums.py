"""Score fields accept sums like 12+11+7 (issue 7), read without eval."""

import pytest

from companions.errors import EntryError, parse_sum


@pytest.mark.parametrize(
    "text,total", [("12+11+7", 30), (" 12 + 3 ", 15), ("40", 40), ("", 0), (None, 0), (7, 7)]
)
def test_a_sum_is_added_up(text, total):
    assert parse_sum(text) == total


@pytest.mark.parametrize(
    "text", ["-3", "12-3", "abc", "1e3", "2**10", "__import__('os')", "12++3", "+", "٣", True, 1.5]
)
def test_anything_but_a_plain_sum_is_refused(text):
    with pytest.raises(EntryError) as err:
        parse_sum(text, field="down")
    assert err.value.field == "down"


def test_huge_numbers_are_refused():
    with pytest.raises(EntryError):
        parse_sum("9999999")
