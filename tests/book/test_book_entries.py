"""The book's entries of the draw and the claims are read as values
(bingo_hall/audit/entry_data.py): each field by its name and with its type, so that an entry the
replay cannot trust is reported, never read half-way (a ball written as text would be a ball the
round never called)."""

from __future__ import annotations

import pytest

from bingo_hall.audit.entry_data import Called, Claimed, PrizeSettled, RoundOpened, Seat


def test_an_entry_is_read_field_by_field_into_its_value():
    call = Called.from_json(
        {"game_id": 3, "round": 2, "seq": 5, "ball": 61, "source": "auto", "extra": "kept out"}
    )
    assert (call.game_id, call.round, call.seq, call.ball, call.source) == (3, 2, 5, 61, "auto")
    prize = PrizeSettled.from_json(
        {
            "game_id": 1,
            "round": 1,
            "prize": "linea",
            "at_call": 12,
            "winners": [{"claim_id": 4, "serial": 7}, {"claim_id": 5, "serial": 9}],
        }
    )
    assert prize.winners == (Seat(4, 7), Seat(5, 9))
    assert (
        RoundOpened.from_json(
            {"game_id": 1, "round": 1, "commitment": "ab", "public_input": None}
        ).public_input
        is None
    )


@pytest.mark.parametrize(
    ("kind", "data"),
    [
        (Called, {"game_id": 1, "round": 1, "seq": 1, "ball": "61", "source": "auto"}),
        (Called, {"game_id": 1, "round": 1, "seq": 1, "ball": True, "source": "auto"}),
        (Claimed, {"game_id": 1, "round": 1, "claim_id": 1, "serial": 2}),  # no at_call
        (
            PrizeSettled,
            {"game_id": 1, "round": 1, "prize": "linea", "at_call": 3, "winners": {"serial": 1}},
        ),
        (RoundOpened, {"game_id": 1, "round": 1, "commitment": 7, "public_input": None}),
    ],
)
def test_an_entry_with_a_field_missing_or_of_another_type_cannot_be_read(kind, data):
    with pytest.raises((KeyError, TypeError)):
        kind.from_json(data)
