"""The bridge against the real caller station (issue 6, "Host side"): inside the station
(`serve --device`, in-process broker) and as `bingo-hall bridge` over HTTP. The board must show
exactly the station's live calls, in order; a ball from the machine becomes one manual call."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading

import pytest
from testkit import Caller, eventually, page_login


def live_balls(client, game_id: int) -> list[int]:
    return [c["ball"] for c in client.get(f"/api/games/{game_id}").get_json()["calls"]]


def test_the_stations_draws_light_the_board_and_an_undo_unlights(client, emulator, embedded):
    emu = emulator("board")
    embedded(emu.path)
    caller = Caller(client)  # after the bridge: the app's first request
    auth = caller.auth
    game = caller.new_game()
    for _ in range(4):
        assert client.post(f"/api/games/{game}/draw", json={}, headers=auth).status_code == 200
    called = live_balls(client, game)
    eventually(lambda: emu.device.lit == called)
    r = client.post(f"/api/games/{game}/undo", json={"reason": "wrong key"}, headers=auth)
    assert r.status_code == 200
    eventually(lambda: emu.device.lit == called[:-1])


@pytest.mark.slow
def test_a_new_round_and_a_new_game_start_a_dark_board(client, emulator, embedded):
    emu = emulator("board")
    embedded(emu.path)
    caller = Caller(client)  # after the bridge: the app's first request
    auth = caller.auth
    game = caller.new_game(mode="points")
    client.post(f"/api/games/{game}/draw", json={}, headers=auth)
    eventually(lambda: len(emu.device.lit) == 1)
    assert client.post(f"/api/games/{game}/rounds", json={}, headers=auth).status_code == 201
    eventually(lambda: emu.device.lit == [])
    client.post(f"/api/games/{game}/draw", json={}, headers=auth)
    eventually(lambda: emu.device.lit == live_balls(client, game) != [])
    newer = caller.new_game()  # the bridge follows the newest active game
    eventually(lambda: emu.device.lit == [], timeout=5)
    client.post(f"/api/games/{newer}/draw", json={}, headers=auth)
    eventually(lambda: emu.device.lit == live_balls(client, newer) != [])


def test_a_ball_from_the_machine_becomes_one_manual_call(client, emulator, embedded):
    emu = emulator("combo", seed=1)
    bridge = embedded(emu.path)
    caller = Caller(client)  # after the bridge: the app's first request
    auth = caller.auth
    game = caller.new_game(draw="manual")
    eventually(lambda: bridge.status()["state"] == "connected")
    assert client.post("/api/device/drop").status_code == 401  # players cannot drop balls
    r = client.post("/api/device/drop", headers=auth)
    assert r.status_code == 202
    eventually(lambda: len(live_balls(client, game)) == 1)
    ball = live_balls(client, game)[0]
    assert emu.device.dropped == [ball]
    eventually(lambda: emu.device.lit == [ball])  # and the board lights the call
    # once the device holds no unacknowledged event, no copy of the ball can come again
    eventually(lambda: emu.device.pending_events == [])
    assert live_balls(client, game) == [ball]


def test_a_machine_ball_in_an_automatic_game_is_refused_and_shown(client, emulator, embedded):
    emu = emulator("balldrop")
    bridge = embedded(emu.path)
    caller = Caller(client)  # after the bridge: the app's first request
    auth = caller.auth
    game = caller.new_game(draw="auto")
    eventually(lambda: bridge.status()["state"] == "connected")
    emu.device.ball_read(33, now=0)
    eventually(lambda: bridge.status()["state"] == "error")
    assert "ball 33 not entered" in bridge.status()["detail"]
    assert live_balls(client, game) == []
    r = client.post("/api/device/drop", headers=auth)  # so the machine is not even started
    assert r.status_code == 409 and "drawn by hand" in r.get_json()["error"]
    assert emu.device.dropped == [33]
    board = emulator("board")
    other = embedded(board.path)
    eventually(lambda: other.status()["state"] == "connected")
    assert client.post("/api/device/drop", headers=auth).status_code == 409


def test_the_caller_page_shows_the_device_state_in_both_languages(client, emulator, embedded):
    emu = emulator("board")
    bridge = embedded(emu.path)
    caller = Caller(client)  # after the bridge: the app's first request
    game = caller.new_game()
    eventually(lambda: bridge.status()["state"] == "connected")
    page_login(client)
    page = client.get(f"/caller/games/{game}?lang=en").get_data(as_text=True)
    assert "Flashboard" in page and "state-connected" in page and "bhk-emu" in page
    emu.unplug()
    eventually(lambda: bridge.status()["state"] == "retrying")
    page = client.get(f"/caller/games/{game}?lang=es").get_data(as_text=True)
    assert "Tablero luminoso" in page and "reintentando" in page
    # why, in the Maestro's language: unplugged, then not there at all
    assert "El tablero se ha desconectado." in page or "El tablero no está enchufado" in page
    assert client.get("/api/device").get_json()["state"] == "retrying"


@pytest.mark.slow
def test_the_bridge_command_follows_a_station_and_its_ball_machine_over_http(
    app, client, live_server, emulator, caller
):
    auth = caller.auth
    game = caller.new_game(draw="manual")
    emu = emulator("combo", seed=8)
    env = {**os.environ, "BINGO_HALL_PIN": app.config["CALLER_PIN"]}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bingo_hall",
            "bridge",
            "--device",
            emu.path,
            "--station",
            live_server.url,
        ],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: list[str] = []
    threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True).start()
    try:
        eventually(lambda: any("device connected: combo bhk-emu 1.0" in x for x in lines))
        for ball in (7, 52, 33):  # from the cage, typed by the Maestro
            r = client.post(f"/api/games/{game}/calls", json={"ball": ball}, headers=auth)
            assert r.status_code == 201
        eventually(lambda: emu.device.lit == [7, 52, 33])
        client.post(f"/api/games/{game}/undo", json={"reason": "slip"}, headers=auth)
        eventually(lambda: emu.device.lit == [7, 52])
        proc.stdin.write("\n")  # Enter: the machine releases a ball, which becomes the call
        proc.stdin.flush()
        eventually(lambda: len(live_balls(client, game)) == 3)
        ball = live_balls(client, game)[2]
        assert emu.device.dropped == [ball] and ball not in (7, 52)
        eventually(lambda: emu.device.lit == [7, 52, ball])
        eventually(lambda: emu.device.pending_events == [])  # nothing left to resend
        assert live_balls(client, game) == [7, 52, ball]
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=60)
    assert proc.returncode == 0 and proc.stderr.read() == ""


def test_the_bridge_command_refuses_a_wrong_pin_in_one_line(live_server, emulator):
    emu = emulator("board")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "bingo_hall",
            "bridge",
            "--device",
            emu.path,
            "--station",
            live_server.url,
            "--pin",
            "000000",
        ],
        capture_output=True,
        text=True,
        timeout=20,
    )
    assert proc.returncode == 2
    assert proc.stderr == "bingo-hall: error: the station refused the PIN (wrong PIN)\n"


@pytest.mark.process
def test_the_emulate_command_prints_its_port_and_speaks_bhp1_on_it(tmp_path, link):
    path = tmp_path / "board"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bingo_hall",
            "emulate",
            "--kind",
            "balldrop",
            "--link",
            str(path),
            "--no-draw",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert (
            proc.stdout.readline()
            == f"BHP/1 balldrop on {path}  (bingo-hall bridge --device {path} ...)\n"
        )
        balls: list[int] = []
        lk = link(str(path), on_ball=balls.append)
        assert lk.wait_synced()
        assert lk.hello.kind == "balldrop"
        lk.drop()  # as a ball machine it answers DROP with a ball
        eventually(lambda: len(balls) == 1)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    assert proc.returncode == 0 and not path.exists()


def test_a_drop_asked_while_the_machine_is_away_is_refused_not_kept(client, emulator, embedded):
    emu = emulator("balldrop")
    bridge = embedded(emu.path)
    caller = Caller(client)  # after the bridge: the app's first request
    auth = caller.auth
    game = caller.new_game(draw="manual")
    eventually(lambda: bridge.status()["state"] == "connected")
    emu.unplug()
    eventually(lambda: bridge.status()["state"] == "retrying")
    r = client.post("/api/device/drop", headers=auth)
    assert r.status_code == 409 and "not ready" in r.get_json()["error"]
    emu.replug()
    eventually(lambda: bridge.status()["state"] == "connected")
    # the link sends a kept DROP before it is next caught up with everything asked of it
    caught_up = bridge.link.counters["caught_up"]
    eventually(lambda: bridge.link.counters["caught_up"] > caught_up)
    assert emu.device.dropped == [] and live_balls(client, game) == []


def test_without_a_device_the_caller_page_has_no_device_box(client, caller):
    game = caller.new_game()
    page_login(client)
    page = client.get(f"/caller/games/{game}")
    assert page.status_code == 200 and "bhp-device" not in page.get_data(as_text=True)
    assert client.get("/api/device").status_code == 404


def test_a_machine_ball_that_is_already_the_call_is_taken_as_done(client, emulator, embedded):
    # a copy of an event resent across a reconnect (the host forgets eseqs on reconnect)
    emu = emulator("balldrop")
    bridge = embedded(emu.path)
    caller = Caller(client)  # after the bridge: the app's first request
    auth = caller.auth
    game = caller.new_game(draw="manual")
    assert client.post(f"/api/games/{game}/calls", json={"ball": 40}, headers=auth).status_code
    eventually(lambda: bridge.follower.balls == (40,))
    emu.device.ball_read(40, now=0)
    eventually(lambda: emu.device.pending_events == [])  # acknowledged
    assert bridge.status()["state"] == "connected" and live_balls(client, game) == [40]
