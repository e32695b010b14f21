"""Bridge fixtures: an emulated device on a real pty and a host link to it."""

from __future__ import annotations

import pytest

from firmware_bridge.embedded import register as start_in_station
from firmware_bridge.emulator import Emulator
from firmware_bridge.host import DeviceLink


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


@pytest.fixture
def embedded(app):
    """start(url) runs the bridge inside `app`, as `bingo-hall serve --device url` does."""
    started = []

    def start(url: str):
        started.append(start_in_station(app, url))
        return started[-1]

    yield start
    for bridge in started:
        bridge.stop()
