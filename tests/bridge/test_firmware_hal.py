"""The reference firmware as it runs on the board: main.py with the real hardware layer
(firmware/hal_board.py) and display code, on the host, with a fake `machine` and `neopixel`
whose link UART is a real pty, against the real host bridge (issue 6, "Reference firmware")."""

from __future__ import annotations

import os
import select
import sys
import threading
import tty
import types
from pathlib import Path

import pytest
from testkit import eventually

import firmware_bridge.firmware as firmware_pkg
from firmware_bridge.firmware import main as firmware

FIRMWARE = Path(firmware_pkg.__file__).parent


class Pin:
    OUT, IN, PULL_UP = 1, 0, 1
    history: dict[int, list[int]] = {}

    def __init__(self, n, mode=None, pull=None, value=None):  # machine.Pin's signature
        self.n = n
        Pin.history.setdefault(n, [])
        if value is not None:
            self.value(value)

    def value(self, v=None):
        if v is not None:
            Pin.history[self.n].append(v)
        return Pin.history[self.n][-1] if Pin.history[self.n] else 0


class Board:
    """The fake MCU: the link UART is a pty master, the scanner UART a byte buffer."""

    def __init__(self, master: int) -> None:
        self.master = master
        self.scanner = bytearray()
        self.strip: list | None = None

    def machine(self) -> types.ModuleType:
        board = self

        class UART:
            def __init__(self, uid, baud, tx=None, rx=None, timeout=0):
                self.uid = uid

            def read(self):
                if self.uid == 1:  # the scanner (config.SCANNER_UART_ID)
                    data, board.scanner[:] = bytes(board.scanner), b""
                    return data or None
                if select.select([board.master], [], [], 0.002)[0]:
                    return os.read(board.master, 4096)
                return None

            def write(self, data):
                os.write(board.master, data)

        return types.SimpleNamespace(UART=UART, Pin=Pin, SPI=None)

    def neopixel(self) -> types.ModuleType:
        board = self

        class NeoPixel(list):
            def __init__(self, pin, n):
                super().__init__([(0, 0, 0)] * n)
                board.strip = self

            def write(self):
                pass

        return types.SimpleNamespace(NeoPixel=NeoPixel)


@pytest.fixture
def board(monkeypatch, tmp_path):
    master, slave = os.openpty()
    tty.setraw(slave)
    fake = Board(master)
    monkeypatch.setitem(sys.modules, "machine", fake.machine())
    monkeypatch.setitem(sys.modules, "neopixel", fake.neopixel())
    monkeypatch.syspath_prepend(str(FIRMWARE))  # the board's flat layout
    flat = ("config", "hal_board", "bhp_device", "display")
    for name in flat:
        sys.modules.pop(name, None)
    import config
    import hal_board

    cfg = types.SimpleNamespace(**{k: getattr(config, k) for k in dir(config) if k.isupper()})
    cfg.LINK = "uart"
    hal = hal_board.Hal(cfg)
    device = firmware.build(hal, "combo")
    running = True
    thread = threading.Thread(target=firmware.loop, args=(device, hal, lambda: not running))
    thread.start()
    fake.path = os.ttyname(slave)
    fake.device = device
    yield fake
    running = False
    thread.join(timeout=2)
    os.close(master)
    os.close(slave)
    for name in flat:
        sys.modules.pop(name, None)


def lit_pixels(strip) -> set[int]:
    return {i for i, colour in enumerate(strip) if colour != (0, 0, 0)}


def test_the_board_lights_the_calls_on_its_ws2812_strip(board, link):
    lk = link(board.path)
    lk.show_calls([1, 16, 9])
    assert lk.wait_synced()
    assert lk.status()["detail"].startswith("combo bhk-ref 1.0")
    # config.SERPENTINE: B1 -> 0, I16 -> end of row 2 = 29, last call 9 -> 8, then the digit 9
    # on the units' seven pixels (82..88): 0x6F = segments a b c d f g
    assert lit_pixels(board.strip) == {0, 29, 8} | {82 + s for s in (0, 1, 2, 3, 5, 6)}
    lk.show_calls([1, 16])  # undo the 9: I16 becomes the last call, "16" on the digits
    assert lk.wait_synced()
    assert lit_pixels(board.strip) == {0, 29} | {75 + 1, 75 + 2} | {
        82 + s for s in (0, 2, 3, 4, 5, 6)
    }


def test_drop_pulses_the_solenoid_and_the_scanned_ball_becomes_one_call(board, link):
    balls: list[int] = []
    lk = link(board.path, on_ball=balls.append)
    assert lk.wait_synced()
    lk.drop()
    solenoid = Pin.history[15]  # config.SOLENOID_PIN
    eventually(lambda: solenoid[-2:] == [1, 0])  # on, then off after the 80 ms pulse
    board.scanner += b"junk\r\n42\r\n"  # the label on the ball rolls past the scanner
    eventually(lambda: balls == [42])
    eventually(lambda: board.device.pending_events == [])
    assert balls == [42]


def test_a_jumper_on_the_safe_pin_keeps_the_firmware_from_starting(board):
    import config
    import hal_board

    Pin.history[config.SAFE_PIN] = [1]  # pulled up: no jumper
    assert not hal_board.safe_mode(config)
    Pin.history[config.SAFE_PIN] = [0]  # jumper to GND
    assert hal_board.safe_mode(config)
