"""The book's entries of the games, the draw, the claims and the night sales are read as values
(bingo_hall/audit/entry_data.py): each field by its name and with its type, so that an entry the
replay cannot trust is reported, never read half-way (a ball written as text would be a ball the
round never called)."""

from __future__ import annotations

import pytest

from bingo_hall.audit.entry_data import (
    Called,
    Claimed,
    GameOpened,
    MoneyBallChosen,
    NightShared,
    NightSold,
    PrizeSettled,
    RoundOpened,
    Seat,
)


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
        (MoneyBallChosen, {"game_id": 1, "round": 1, "money_ball": 7, "drawn": "yes"}),
        (GameOpened, {"game_id": 1, "deck_id": "d", "mode": "normal", "options": []}),
        (
            NightSold,
            {
                "night_sale_id": 1,
                "serials": "1-6",
                "cards": 6,
                "cents": 600,
                "price": 100,
                "book": 1,
                "games": [1, "2"],
                "shares": [300, 300],
            },
        ),
    ],
)
def test_an_entry_with_a_field_missing_or_of_another_type_cannot_be_read(kind, data):
    with pytest.raises((KeyError, TypeError)):
        kind.from_json(data)


def test_a_game_from_before_the_ninety_ball_game_is_read_as_a_75_ball_game_without_a_plan():
    game = GameOpened.from_json(
        {"game_id": 2, "deck_id": "d1", "mode": "normal", "free_centre": True, "draw": "auto"}
    )
    assert (game.balls, game.prizes, game.prize_list, dict(game.options)) == (75, None, None, {})


def test_a_night_sales_share_is_read_with_its_game_and_round():
    share = NightShared.from_json(
        {
            "game_id": 3,
            "night_sale_id": 1,
            "place": 2,
            "serials": "1-6",
            "cards": 6,
            "cents": 150,
            "made_in": 1,
        }
    )
    assert (share.game_id, share.place, share.cents, share.made_in) == (3, 2, 150, 1)
