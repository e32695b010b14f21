"""Issue 26, item 1 on the serial bridge: after the round is awarded the ball machine is not
started (409 in words), and a ball the machine reads anyway is refused and shown on the bridge."""

from __future__ import annotations

from testkit import Caller, eventually

from bingo_hall.manifest import new_deck


def test_the_ball_machine_gives_no_ball_between_the_award_and_next_round(
    client, emulator, embedded
):
    emu = emulator("combo", seed=1)
    bridge = embedded(emu.path)
    deck = new_deck(12, seed="machine after award", name="Máquina")
    caller = Caller(client, deck)
    game = caller.new_game(draw="manual")
    eventually(lambda: bridge.status()["state"] == "connected", timeout=20)
    row = [n for n in deck.card(1).rows[0] if n is not None]
    caller.call(game, *row)
    caller.post(f"/api/games/{game}/claims", {"serial": 1})
    assert caller.post(f"/api/games/{game}/award").status_code == 200
    r = caller.post("/api/device/drop")
    assert r.status_code == 409 and "press Next round" in r.get_json()["error"]
    assert emu.device.dropped == []  # the machine was not started
    late = next(n for n in range(1, 76) if n not in row)
    emu.device.ball_read(late, now=0)  # a ball rolls in anyway
    eventually(lambda: bridge.status()["state"] == "error", timeout=20)  # a busy machine
    assert f"ball {late} not entered" in bridge.status()["detail"]
    assert len(client.get(f"/api/games/{game}").get_json()["calls"]) == len(row)
