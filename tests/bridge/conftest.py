"""Bridge fixtures: an emulated device on a real pty, a host link to it, and `eventually`."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from firmware_bridge.emulator import Emulator
from firmware_bridge.host import DeviceLink


def eventually(check: Callable[[], object], timeout: float = 5.0) -> None:
    """Wait for something another thread does, failing with the last value seen."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"not true after {timeout} s: {check.__doc__ or check}")
        time.sleep(0.01)


@pytest.fixture
def emulator(tmp_path):
    """A factory: emulator(kind, **faults) on a pty published at a stable path."""
    made: list[Emulator] = []

    def make(kind: str = "board", **kw) -> Emulator:
        emu = Emulator(kind, link=str(tmp_path / f"bhp{len(made)}"), **kw).start()
        made.append(emu)
        return emu

    yield make
    for emu in made:
        emu.stop()


@pytest.fixture
def link():
    """A factory: link(url, **kw) -> a started DeviceLink, stopped after the test."""
    made: list[DeviceLink] = []

    def make(url: str, **kw) -> DeviceLink:
        made.append(DeviceLink(url, **kw).start())
        return made[-1]

    yield make
    for lk in made:
        lk.stop()
