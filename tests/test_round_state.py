"""The pure round state (issue 24): a round kept from the station's events the way a chess board is
kept from moves. Expected states are written from the rules of the events, not from the code."""

import pytest

from bingo_hall.round_state import (
    CallEvent,
    EndEvent,
    EventOutOfOrder,
    Reveal,
    RoundEvent,
    RoundState,
    UndoEvent,
    event_from_json,
)


def _called(*balls: int, round_: int = 1) -> RoundState:
    s = RoundState(balls=75, round=round_, commitment="c1")
    for seq, ball in enumerate(balls, 1):
        s = s.apply(CallEvent(round=round_, seq=seq, ball=ball))
    return s


def test_calls_are_kept_in_the_order_called():
    s = _called(12, 61, 3)
    assert s.balls_called == (12, 61, 3)
    assert s.last is not None and s.last.ball == 3
    assert s.last_seq == 3
    assert s.left == 72


def test_an_undo_takes_back_the_last_call_and_keeps_its_reason_and_its_seq():
    s = _called(12, 61).apply(UndoEvent(round=1, seq=2, reason="misread"))
    assert s.balls_called == (12,)
    assert [(u.ball, u.reason) for u in s.undone] == [(61, "misread")]
    assert s.last_seq == 2  # the next call is seq 3: a taken-back seq is never reused
    with pytest.raises(EventOutOfOrder):
        s.apply(CallEvent(round=1, seq=2, ball=7))


def test_only_the_last_live_call_can_be_undone():
    with pytest.raises(EventOutOfOrder):
        _called(12, 61).apply(UndoEvent(round=1, seq=1, reason="x"))


def test_a_call_seen_twice_or_of_another_round_is_refused():
    s = _called(12)
    with pytest.raises(EventOutOfOrder):
        s.apply(CallEvent(round=1, seq=1, ball=12))
    with pytest.raises(EventOutOfOrder):
        s.apply(CallEvent(round=2, seq=2, ball=13))
    with pytest.raises(EventOutOfOrder):
        s.apply(CallEvent(round=1, seq=2, ball=76))  # 75 balls


def test_ninety_balls_accept_ball_90():
    s = RoundState(balls=90).apply(CallEvent(round=1, seq=1, ball=90))
    assert s.balls_called == (90,) and s.left == 89


def test_a_new_round_starts_empty_and_reveals_the_previous_seed():
    previous = Reveal(round=1, seed="ab", commitment="c1", public_input=None)
    s = _called(12, 61).apply(RoundEvent(round=2, commitment="c2", previous=previous))
    assert (s.round, s.balls_called, s.undone, s.commitment) == (2, (), (), "c2")
    assert s.revealed == (Reveal(1, "ab", "c1", None),)


def test_a_public_input_keeps_the_round():
    s = RoundState(commitment="c1").apply(
        RoundEvent(round=1, commitment="c1", public_input="lluvia")
    )
    assert (s.round, s.public_input) == (1, "lluvia")


def test_the_end_reveals_every_round():
    rounds = (Reveal(round=1, seed="ab", commitment="c1", public_input=None),)
    s = _called(5).apply(EndEvent(rounds=rounds))
    assert s.ended and s.revealed == (Reveal(1, "ab", "c1", None),)
    assert s.balls_called == (5,)  # the final calls stay to be seen


def test_other_events_leave_the_state_as_it_is():
    s = _called(5)
    assert s.apply(event_from_json("scores", {"round": 1})) is s


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
    after = RoundState.from_json(snap).apply(CallEvent(round=1, seq=3, ball=3))
    assert after == s


def test_the_events_the_station_publishes_are_read_into_the_values_a_round_follows():
    """The hub's JSON (the station's own event values, `to_json`) read back at the follower's
    edge: each field lands where the round reads it."""
    from bingo_hall.station.events import CallMade, CallUndone, GameEnded, RoundStarted
    from bingo_hall.station.model import Call, UndoneCall

    call = Call(7, 2, 3, 61, 3, 72, {"en": "G 61"}, "G 61")
    undone = UndoneCall(7, 2, 3, 61, 2, 73, "misread")
    first = Reveal(round=1, seed="ab", commitment="c1", public_input="lluvia")
    published = [
        CallMade(7, call),
        CallUndone(7, undone),
        RoundStarted(7, 2, "c2", None, first),
        GameEnded(7, "cd", 2, (first,)),
    ]
    read = [event_from_json(e.NAME, e.to_json()) for e in published]
    assert read == [
        CallEvent(round=2, seq=3, ball=61),
        UndoEvent(round=2, seq=3, reason="misread"),
        RoundEvent(round=2, commitment="c2", public_input=None, previous=first),
        EndEvent(rounds=(first,)),
    ]


def test_an_event_missing_a_field_or_not_an_object_is_refused_when_read():
    with pytest.raises(KeyError):
        event_from_json("call", {"round": 1, "seq": 1})
    with pytest.raises(TypeError):
        event_from_json("undo", [1, 2])


def test_the_modules_example_holds():
    import doctest

    from bingo_hall import round_state

    results = doctest.testmod(round_state)
    assert results.attempted and not results.failed
