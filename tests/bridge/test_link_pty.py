"""The host bridge against the emulated device over a real pty (issue 6, "Tests"): calls light
the board, an undo unlights, a ball event becomes a call exactly once, and the board is right
again after an unplug, a power loss or a noisy line."""

from __future__ import annotations

import os

import pytest
from testkit import eventually

from firmware_bridge.framing import encode


def test_a_games_calls_light_the_board_and_the_last_is_the_last_call(emulator, link):
    emu = emulator("board")
    lk = link(emu.path)
    lk.show_calls([5, 20, 33])
    assert lk.wait_synced()
    assert emu.device.lit == [5, 20, 33] and lk.status()["state"] == "connected"
    assert lk.status()["detail"].startswith("board bhk-emu 1.0")


def test_an_undo_unlights_the_ball(emulator, link):
    emu = emulator("board")
    lk = link(emu.path)
    lk.show_calls([5, 20, 33])
    assert lk.wait_synced()
    lk.show_calls([5, 20])
    assert lk.wait_synced()
    assert emu.device.lit == [5, 20]


def test_a_ball_event_becomes_a_call_exactly_once(emulator, link):
    emu = emulator("balldrop", seed=3)
    balls: list[int] = []
    lk = link(emu.path, on_ball=balls.append)
    assert lk.wait_synced()
    lk.drop()
    eventually(lambda: balls)
    eventually(lambda: emu.device.pending_events == [])  # the device got the ACK
    assert len(balls) == 1 and 1 <= balls[0] <= 75


def test_a_repeated_ball_event_is_acked_but_entered_once(emulator, link):
    emu = emulator("balldrop")
    balls: list[int] = []
    lk = link(emu.path, on_ball=balls.append)
    assert lk.wait_synced()
    emu.device.ball_read(17, now=0)
    emu.inject(encode("E1 BALL 17"))  # a resend, as after a lost ACK
    eventually(lambda: lk.counters["duplicates"] >= 1)
    assert balls == [17]


def test_a_ball_the_station_refuses_is_acked_and_reported(emulator, link):
    from firmware_bridge.protocol import BallRefused

    def refuse(ball):
        raise BallRefused("ball already called")

    emu = emulator("balldrop")
    lk = link(emu.path, on_ball=refuse)
    assert lk.wait_synced()
    emu.device.ball_read(9, now=0)
    eventually(lambda: emu.device.pending_events == [])
    assert lk.status() == {
        "state": "error",
        "detail": "ball 9 not entered: ball already called",
        "reason": "",
    }


def test_a_refused_ball_stays_reported_while_the_link_lights_earlier_calls(emulator, link):
    """The follower may still be lighting the calls made before the refused ball (a busy
    station): those SHOWs must not wipe the refusal off the caller page. Next round does."""
    from firmware_bridge.protocol import BallRefused

    def refuse(ball):
        raise BallRefused("press Next round first")

    emu = emulator("balldrop")
    lk = link(emu.path, on_ball=refuse)
    lk.show_calls([5])
    assert lk.wait_synced()
    emu.device.ball_read(9, now=0)
    eventually(lambda: emu.device.pending_events == [])
    lk.show_calls([5, 20, 33])  # calls made before the ball, lit late
    assert lk.wait_synced() and emu.device.lit == [5, 20, 33]
    assert lk.status()["state"] == "error"
    assert lk.status()["detail"] == "ball 9 not entered: press Next round first"
    lk.show_calls([])  # Next round: the calls start again
    assert lk.wait_synced() and emu.device.lit == []
    eventually(lambda: lk.status()["state"] == "connected")


def test_the_next_ball_entered_ends_the_report_of_a_refused_one(emulator, link):
    from firmware_bridge.protocol import BallRefused

    entered: list[int] = []

    def refuse_the_first(ball):
        if not entered and ball == 9:
            entered.append(0)
            raise BallRefused("ball already called")
        entered.append(ball)
        lk.show_calls([ball])  # as the follower does once the call is made

    emu = emulator("balldrop")
    lk = link(emu.path, on_ball=refuse_the_first)
    assert lk.wait_synced()
    emu.device.ball_read(9, now=0)
    eventually(lambda: lk.status()["state"] == "error")
    emu.device.ball_read(12, now=0)
    eventually(lambda: emu.device.lit == [12] and lk.status()["state"] == "connected")
    assert "not entered" not in lk.status()["detail"]


def test_a_ball_the_station_could_not_take_is_entered_when_the_device_resends(emulator, link):
    tries: list[int] = []

    def flaky(ball):
        tries.append(ball)
        if len(tries) == 1:
            raise OSError("station restarting")

    emu = emulator("balldrop")
    lk = link(emu.path, on_ball=flaky)
    assert lk.wait_synced()
    emu.device.ball_read(9, now=int(__import__("time").monotonic() * 1000))
    eventually(lambda: emu.device.pending_events == [], timeout=3)
    assert tries == [9, 9] and lk.counters["events"] == 1


def test_unplug_and_replug_mid_game_ends_with_the_board_correct(emulator, link):
    emu = emulator("board")
    lk = link(emu.path)
    lk.show_calls([5, 20, 33])
    assert lk.wait_synced()
    emu.unplug()  # power lost too: the board comes back dark
    eventually(lambda: lk.status()["state"] == "retrying")
    lk.show_calls([5, 20, 33, 48])  # the game goes on meanwhile
    lk.show_calls([5, 20, 33, 48, 70])
    emu.replug()
    eventually(lambda: emu.device.lit == [5, 20, 33, 48, 70])
    assert lk.status()["state"] == "connected" and lk.counters["connects"] == 2
    assert emu.boots == 2


def test_a_board_that_was_never_plugged_in_is_waited_for(tmp_path, link):
    from firmware_bridge.emulator import Emulator

    path = str(tmp_path / "later")
    lk = link(path)
    lk.show_calls([1, 2])
    eventually(lambda: lk.status()["state"] == "retrying")
    assert lk.status()["detail"] == f"{path} is not there: is the board plugged in?"
    assert lk.status()["reason"] == "absent"
    emu = Emulator("board", link=path).start()
    try:
        eventually(lambda: emu.device.lit == [1, 2])
    finally:
        emu.stop()


def test_a_silent_device_is_noticed_and_retried(emulator, link):
    emu = emulator("board")
    lk = link(emu.path, reply_timeout=0.05)
    assert lk.wait_synced()
    emu.drop_bytes = 1.0  # the cable still there, but nothing gets through
    lk.show_calls([8])
    eventually(lambda: lk.status()["state"] == "retrying")
    assert "no answer to SHOW after 6 tries" in lk.status()["detail"]
    emu.drop_bytes = 0.0
    eventually(lambda: emu.device.lit == [8])


@pytest.mark.slow
def test_a_noisy_line_still_ends_with_the_board_correct(emulator, link):
    emu = emulator("board", drop_bytes=0.02, bad_checksum=0.2, seed=11)
    lk = link(emu.path)
    calls = [3, 18, 44, 61, 75, 9, 27, 50, 66, 12]
    for n in range(1, len(calls) + 1):
        lk.show_calls(calls[:n])
    lk.show_calls(calls[:-1])  # and an undo
    eventually(lambda: emu.device.lit == calls[:-1] and lk.wait_synced(0.01), timeout=20)
    assert lk.counters["resends"] > 0  # the faults really happened
    assert emu.device.decoder.dropped + lk.decoder.dropped > 0


def test_a_board_that_kept_power_through_a_cable_pull_is_put_right(emulator, link):
    emu = emulator("board")
    lk = link(emu.path)
    lk.show_calls([5, 20, 33])
    assert lk.wait_synced()
    emu.unplug(power_loss=False)  # the board keeps showing 5 20 33
    eventually(lambda: lk.status()["state"] == "retrying")
    lk.show_calls([5, 20])  # meanwhile the Maestro undid 33
    emu.replug()
    eventually(lambda: emu.device.lit == [5, 20] and lk.status()["state"] == "connected")
    assert emu.boots == 1


def test_a_device_that_refuses_bhp1_is_shown_as_an_error(tmp_path, link):
    import threading
    import tty

    from firmware_bridge.framing import FrameDecoder

    master, slave = os.openpty()
    tty.setraw(slave)
    stop = threading.Event()

    def old_firmware():  # answers every command with ERR VERSION
        decoder = FrameDecoder()
        while not stop.is_set():
            try:
                data = os.read(master, 256)
            except OSError:
                return
            for payload in decoder.feed(data):
                seq = payload.split(b" ")[0][1:].decode()
                os.write(master, encode(f"R{seq} ERR VERSION"))

    threading.Thread(target=old_firmware, daemon=True).start()
    try:
        lk = link(os.ttyname(slave))
        eventually(lambda: lk.status()["state"] == "error")
        assert lk.status()["detail"] == "device refused HELLO BHP/1 (VERSION)"
    finally:
        stop.set()
        os.close(slave)
        os.close(master)


def test_a_malformed_device_url_is_an_error_not_a_retry(link):
    lk = link("nosuch://board")
    eventually(lambda: lk.status()["state"] == "error")
    assert "is not a serial port URL" in lk.status()["detail"]


def test_the_emulator_on_tcp_is_driven_through_a_socket_url(emulator, link):
    emu = emulator("board", tcp=0)  # for Windows, where there are no ptys
    assert emu.path.startswith("socket://127.0.0.1:")
    lk = link(emu.path)
    lk.show_calls([31, 2])
    assert lk.wait_synced()
    assert emu.device.lit == [31, 2]
    emu.unplug()
    lk.show_calls([31, 2, 64])
    emu.replug()  # the same port again
    eventually(lambda: emu.device.lit == [31, 2, 64])
