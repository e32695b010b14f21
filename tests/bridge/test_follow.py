"""Which balls the board should show, from the station's live events (docs/api.md, "Live
events"): pure, with event streams written by hand."""

from __future__ import annotations

from bingo_hall.round_state import RoundState, event_from_json
from firmware_bridge.follow import GameView, SseParser

STREAM = (
    "retry: 2000\n\n"
    'event: snapshot\ndata: {"round": 1, "status": "active", "calls": '
    '[{"seq": 1, "ball": 12}, {"seq": 2, "ball": 47}]}\n\n'
    ": heartbeat\n\n"
    'event: call\ndata: {"seq": 3, "ball": 61, "round": 1, "count": 3}\n\n'
    'event: undo\ndata: {"seq": 3, "ball": 61, "round": 1, "count": 2}\n\n'
    'event: call\ndata: {"seq": 4, "ball": 5, "round": 1, "count": 3}\n\n'
)


def events(text: str) -> list:
    parser = SseParser()
    return [m for line in text.splitlines(keepends=True) if (m := parser.line(line))]


def test_the_board_follows_snapshot_calls_and_undos():
    view = GameView()
    seen = []
    for event, data in events(STREAM):
        if event != "idle":
            assert view.apply(event, data)
            seen.append(view.balls)
    assert seen == [(12, 47), (12, 47, 61), (12, 47), (12, 47, 5)]


def test_a_heartbeat_comment_is_a_moment_to_look_around():
    assert ("idle", None) in events(STREAM)


def test_a_new_round_starts_a_dark_board():
    view = GameView()
    view.load({"round": 1, "calls": [{"seq": 1, "ball": 12}]})
    assert view.apply("round", {"round": 2, "commitment": "ab"})
    assert view.balls == ()
    # setting the public input re-announces the same round: nothing changes
    assert view.apply("call", {"seq": 1, "ball": 40, "round": 2, "count": 1})
    assert view.apply("round", {"round": 2, "public_input": "x"})
    assert view.balls == (40,)


def test_a_missed_event_is_noticed_so_the_snapshot_is_read_again():
    view = GameView()
    view.load({"round": 1, "calls": [{"seq": 1, "ball": 12}]})
    # seq 2 never arrived: the station says 3 calls, the view has 2
    assert not view.apply("call", {"seq": 3, "ball": 70, "round": 1, "count": 3})
    # a call of another round than the one followed
    assert not view.apply("call", {"seq": 1, "ball": 9, "round": 4, "count": 1})


def test_the_end_of_a_game_is_noticed_and_the_board_kept():
    view = GameView()
    view.load({"round": 1, "status": "active", "calls": [{"seq": 1, "ball": 12}]})
    assert view.apply("end", {"seed": "00", "round": 1, "rounds": []})
    assert view.ended and view.balls == (12,)


def test_the_brokers_messages_are_read_as_bytes_or_text():
    message = 'event: call\ndata: {"seq": 1, "ball": 33, "round": 1, "count": 1}\n\n'
    expected = [("call", {"seq": 1, "ball": 33, "round": 1, "count": 1})]
    assert SseParser().feed(message) == expected
    assert SseParser().feed(message.encode()) == expected


def test_other_areas_events_and_bad_json_are_ignored():
    view = GameView()
    view.load({"round": 1, "calls": []})
    msgs = events('event: scores\ndata: {"x": 1}\n\nevent: call\ndata: {not json\n\n')
    assert msgs == [("scores", {"x": 1})]
    assert view.apply("scores", {"x": 1}) and view.balls == ()


def test_the_board_keeps_the_one_round_state_the_station_and_the_phones_keep():
    """The bridge follows a game with the pure RoundState: fed the same events, its state is the
    state a phone's card page or the station's snapshot would have."""
    view, state = GameView(), None
    for event, data in events(STREAM):
        if event == "idle":
            continue
        assert view.apply(event, data)
        state = (
            RoundState.from_json(data)
            if state is None
            else state.apply(event_from_json(event, data))
        )
    assert view.state == state and view.balls == state.balls_called == (12, 47, 5)
