"""A 90-ball game on the serial bridge (issue 17): the host shows balls 1-90, and the reference
flashboard, which has 75 lamps, refuses 76-90 with ERR ARG while every other call stays lit and
the Maestro is told which balls have no lamp."""

from __future__ import annotations

from testkit import Caller, eventually

from bingo_hall.manifest import new_strip_deck
from firmware_bridge.embedded import register as start_in_station


def test_a_seventy_five_lamp_board_lights_every_call_it_has_a_lamp_for(client, app, emulator):
    emu = emulator("board")
    bridge = start_in_station(app, emu.path)
    try:
        hall = Caller(client, new_strip_deck(1, seed="bridge-90"))
        gid = hall.new_game(draw="manual")
        hall.call(gid, 12, 87, 75)
        eventually(lambda: emu.device.lit == [12, 75])
        eventually(lambda: "no lamp for 87" in bridge.status()["detail"])
        assert bridge.link.counters["errors"] == 1
        hall.post(f"/api/games/{gid}/undo", {"reason": "wrong ball"})
        hall.post(f"/api/games/{gid}/undo", {"reason": "wrong ball"})
        eventually(lambda: emu.device.lit == [12])
        eventually(lambda: "no lamp" not in bridge.status()["detail"])
    finally:
        bridge.stop()
