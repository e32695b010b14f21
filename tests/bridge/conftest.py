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


def bearer(client) -> dict[str, str]:
    """The caller's token, as the bridge command gets it (POST /api/login)."""
    r = client.post("/api/login", json={"pin": client.application.config["CALLER_PIN"]})
    assert r.status_code == 200, r.get_json()
    return {"Authorization": "Bearer " + r.get_json()["token"]}


def new_game(client, headers, draw: str = "auto", **extra) -> int:
    """Load a small deck and start a game on it through the station's API."""
    from bingo_hall.manifest import new_deck

    deck = new_deck(6, seed="bridge tests", name="Bridge")
    r = client.post(
        "/api/decks", data=deck.to_json(), headers=headers, content_type="application/json"
    )
    assert r.status_code in (200, 201), r.get_json()
    r = client.post(
        "/api/games", json={"deck_id": deck.deck_id, "draw": draw, **extra}, headers=headers
    )
    assert r.status_code == 201, r.get_json()
    return r.get_json()["game_id"]
