"""The pure round state (issue 24): a round kept from the station's events the way a chess board is
kept from moves. Expected states are written from the rules of the events, not from the code."""

import pytest

from bingo_hall.round_state import EventOutOfOrder, Reveal, RoundState


def _called(*balls: int, round_: int = 1) -> RoundState:
    s = RoundState(balls=75, round=round_, commitment="c1")
    for seq, ball in enumerate(balls, 1):
        s = s.apply("call", {"round": round_, "seq": seq, "ball": ball})
    return s


def test_calls_are_kept_in_the_order_called():
    s = _called(12, 61, 3)
    assert s.balls_called == (12, 61, 3)
    assert s.last is not None and s.last.ball == 3
    assert s.last_seq == 3
    assert s.left == 72


def test_an_undo_takes_back_the_last_call_and_keeps_its_reason_and_its_seq():
    s = _called(12, 61).apply("undo", {"round": 1, "seq": 2, "ball": 61, "reason": "misread"})
    assert s.balls_called == (12,)
    assert [(u.ball, u.reason) for u in s.undone] == [(61, "misread")]
    assert s.last_seq == 2  # the next call is seq 3: a taken-back seq is never reused
    with pytest.raises(EventOutOfOrder):
        s.apply("call", {"round": 1, "seq": 2, "ball": 7})


def test_only_the_last_live_call_can_be_undone():
    with pytest.raises(EventOutOfOrder):
        _called(12, 61).apply("undo", {"round": 1, "seq": 1, "ball": 12, "reason": "x"})


def test_a_call_seen_twice_or_of_another_round_is_refused():
    s = _called(12)
    with pytest.raises(EventOutOfOrder):
        s.apply("call", {"round": 1, "seq": 1, "ball": 12})
    with pytest.raises(EventOutOfOrder):
        s.apply("call", {"round": 2, "seq": 2, "ball": 13})
    with pytest.raises(EventOutOfOrder):
        s.apply("call", {"round": 1, "seq": 2, "ball": 76})  # 75 balls


def test_ninety_balls_accept_ball_90():
    s = RoundState(balls=90).apply("call", {"round": 1, "seq": 1, "ball": 90})
    assert s.balls_called == (90,) and s.left == 89


def test_a_new_round_starts_empty_and_reveals_the_previous_seed():
    previous = {"round": 1, "seed": "ab", "commitment": "c1", "public_input": None}
    s = _called(12, 61).apply("round", {"round": 2, "commitment": "c2", "previous": previous})
    assert (s.round, s.balls_called, s.undone, s.commitment) == (2, (), (), "c2")
    assert s.revealed == (Reveal(1, "ab", "c1", None),)


def test_a_public_input_keeps_the_round():
    s = RoundState(commitment="c1").apply(
        "round", {"round": 1, "commitment": "c1", "public_input": "lluvia"}
    )
    assert (s.round, s.public_input) == (1, "lluvia")


def test_the_end_reveals_every_round():
    rounds = [{"round": 1, "seed": "ab", "commitment": "c1", "public_input": None}]
    s = _called(5).apply("end", {"round": 1, "seed": "ab", "rounds": rounds})
    assert s.ended and s.revealed == (Reveal(1, "ab", "c1", None),)
    assert s.balls_called == (5,)  # the final calls stay to be seen


def test_other_events_leave_the_state_as_it_is():
    s = _called(5)
    assert s.apply("scores", {"round": 1}) is s


def test_a_snapshot_and_the_events_after_it_give_the_same_state_as_all_the_events():
    s = _called(12, 61, 3)
    snap = {
        "balls": 75,
        "round": 1,
        "commitment": "c1",
        "status": "active",
        "calls": [{"seq": 1, "ball": 12}, {"seq": 2, "ball": 61}],
        "undone": [],
        "revealed": [],
    }
    after = RoundState.from_snapshot(snap).apply("call", {"round": 1, "seq": 3, "ball": 3})
    assert after == s
