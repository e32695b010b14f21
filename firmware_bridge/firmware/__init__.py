"""MicroPython reference firmware. On the host it is imported by the emulator and the tests; on
the board these files are copied flat (see README.md) and this file is not needed.

`bingo-hall firmware DIR` copies them out of wherever the kit is installed (a clone or
site-packages), so a host who installed the wheel can flash a board too."""

from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).resolve().parent
_ON_THE_BOARD = ("bhp_device.py", "display.py", "hal_board.py", "config.py", "main.py")


def board_files() -> list[Path]:
    """The files a board holds, side by side: these modules and the host's framing.py, which
    they share (bhp_device imports `framing` flat on the board)."""
    return [_HERE.parent / "framing.py", *(_HERE / name for name in _ON_THE_BOARD)]
