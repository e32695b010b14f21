"""The host's half of BHP/1 as pure values (firmware_bridge/PROTOCOL.md, "Host -> device",
"Device -> host")."""

from __future__ import annotations

import pytest

from firmware_bridge.protocol import (
    Command,
    Event,
    Hello,
    ProtocolError,
    Reply,
    apply,
    next_seq,
    parse_device_message,
    parse_hello,
    plan,
)


def test_seq_runs_from_1_to_65535_and_wraps_to_1():
    assert next_seq(0) == 1
    assert next_seq(1) == 2
    assert next_seq(65534) == 65535
    assert next_seq(65535) == 1


def test_commands_are_c_seq_verb_arg():
    assert Command(12, "SHOW", "42").payload() == "C12 SHOW 42"
    assert Command(65535, "CLEAR").payload() == "C65535 CLEAR"


def test_replies_and_events_are_read():
    assert parse_device_message(b"R12 OK") == Reply(12, True, ())
    assert parse_device_message("R3 ERR ARG") == Reply(3, False, ("ARG",))
    assert parse_device_message("R1 OK combo bhk-ref 1.0") == Reply(
        1, True, ("combo", "bhk-ref", "1.0")
    )
    assert parse_device_message("E9 BALL 75") == Event(9, 75)


@pytest.mark.parametrize(
    "payload",
    [
        "E9 BALL 76",
        "E9 BALL 0",
        "E0 BALL 3",
        "E9 BALL 07",
        "E9 BALL",
        "E9 BALLS 3",
        "R0 OK",
        "R70000 OK",
        "R5",
        "R5 MAYBE",
        "R5 ERR",
        "X1 OK",
        "",
        "E9 BALL -3",
        "R+5 OK",
        "E9 BALL ²",
        "R① OK",
    ],
)
def test_anything_else_is_a_protocol_error_not_a_ball(payload):
    with pytest.raises(ProtocolError):
        parse_device_message(payload)


def test_hello_reply_names_kind_firmware_and_version():
    assert parse_hello(Reply(1, True, ("balldrop", "acme-drop", "2.3"))) == Hello(
        "balldrop", "acme-drop", "2.3"
    )
    assert Hello("combo", "x", "1").drops_balls and not Hello("board", "x", "1").drops_balls
    for bad in (Reply(1, True, ("toaster", "x", "1")), Reply(1, True, ()), Reply(1, False, ("V",))):
        with pytest.raises(ProtocolError):
            parse_hello(bad)


def test_new_calls_become_shows_in_order():
    assert plan((5, 20), (5, 20, 33, 61)) == [("SHOW", 33), ("SHOW", 61)]


def test_an_undo_becomes_a_hide():
    assert plan((5, 20, 33), (5, 20)) == [("HIDE", 33)]


def test_an_undo_then_a_new_call_hides_then_shows():
    assert plan((5, 20, 33), (5, 20, 41)) == [("HIDE", 33), ("SHOW", 41)]


def test_a_new_game_is_a_clear():
    assert plan((5, 20, 33), ()) == [("CLEAR", None)]
    # a new game whose first ball is not the old one: cheaper to start over than to HIDE all
    assert plan((5, 20, 33), (7,)) == [("CLEAR", None), ("SHOW", 7)]


def test_nothing_to_do_when_the_board_is_right():
    assert plan((1, 2, 3), (1, 2, 3)) == []


def test_the_hosts_model_follows_acknowledged_commands():
    shown = ()
    for verb, ball in [("SHOW", 5), ("SHOW", 9), ("SHOW", 5), ("HIDE", 9), ("PING", None)]:
        shown = apply(shown, verb, ball)
    assert shown == (5,)
    assert apply((1, 2), "CLEAR", None) == ()


def test_every_plan_reaches_the_wanted_board():
    import random

    rng = random.Random(6)
    for _ in range(500):
        shown = tuple(rng.sample(range(1, 76), rng.randrange(0, 10)))
        keep = rng.randrange(0, len(shown) + 1)
        extra = [b for b in rng.sample(range(1, 76), 8) if b not in shown][: rng.randrange(0, 5)]
        wanted = shown[:keep] + tuple(extra)
        board = shown
        for verb, ball in plan(shown, wanted):
            board = apply(board, verb, ball)
        assert board == wanted
