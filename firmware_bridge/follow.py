"""Following the caller station: which balls the board should show, worked out from the station's
live events (docs/api.md, "Live events"), and the loop that feeds them to a `DeviceLink`.

`GameView` (over the pure `bingo_hall.round_state.RoundState`, the one round state the station
and the phones keep too) and `SseParser` are pure. The loop takes a *source*:
`station_client.HttpSource` (the `bingo-hall bridge` command, over HTTP) or
`embedded.BrokerSource` (inside `bingo-hall serve`, on the in-process broker). Both yield the
same SSE messages, so one piece of code serves.
"""

from __future__ import annotations

import json
import re
import secrets
import threading
from collections.abc import Iterator, Mapping
from typing import Any, Protocol

from bingo_hall.round_state import EventOutOfOrder, RoundState, event_from_json

from .protocol import BallRefused

#: the only line ends of an event stream (WHATWG): CR LF, LF, CR; never U+2028 or U+0085, which
#: `str.splitlines()` would also split on
_LINE_END = re.compile(r"\r\n|\r|\n")


class SseParser:
    """Server-Sent Events (WHATWG HTML, "event stream interpretation"), the subset the station
    sends: `event:`, `data:` lines, a blank line ends a message, `:` lines are comments. A
    comment yields ("idle", None) so a follower can look around between events."""

    def __init__(self) -> None:
        self._event = ""
        self._data: list[str] = []

    def line(self, line: str) -> tuple[str, Any] | None:
        line = line.rstrip("\r\n")
        if not line:
            if not self._data:
                self._event = ""
                return None
            event, data = self._event or "message", "\n".join(self._data)
            self._event, self._data = "", []
            try:
                return event, json.loads(data)
            except ValueError:
                return None
        if line.startswith(":"):
            return ("idle", None)
        field, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if field == "event":
            self._event = value
        elif field == "data":
            self._data.append(value)
        return None

    def feed(self, text: str | bytes) -> list[tuple[str, Any]]:
        """Whole messages at once, as the station's broker queues them (str or UTF-8 bytes)."""
        if isinstance(text, bytes):
            text = text.decode("utf-8", "replace")
        out = []
        for line in _LINE_END.split(text.removesuffix("\n").removesuffix("\r")):
            msg = self.line(line)
            if msg is not None:
                out.append(msg)
        msg = self.line("")  # a chunk from the broker is always whole messages
        if msg is not None:
            out.append(msg)
        return out


class GameView:
    """The current round's live calls of one game, kept from its snapshot and events: the pure
    `RoundState` (the station's snapshot and the phones' card pages keep the same one), plus the
    station's count of live calls on each call and undo, which tells a missed event."""

    def __init__(self) -> None:
        self.state: RoundState | None = None

    @property
    def round(self) -> int | None:
        return None if self.state is None else self.state.round

    @property
    def balls(self) -> tuple[int, ...]:
        return () if self.state is None else self.state.balls_called

    @property
    def ended(self) -> bool:
        return self.state is not None and self.state.ended

    def load(self, snap: Mapping[str, Any]) -> None:
        self.state = RoundState.from_json(snap)

    def apply(self, event: str, data: Any) -> bool:
        """Apply one event; False when the view can no longer be trusted (a gap: the caller
        should reload the snapshot). A `round` event starts an empty board (Bingo de Puntos plays
        a round per bingo); the same round again (its public input) changes nothing here."""
        if event == "snapshot":
            self.load(data)
            return True
        if not isinstance(data, Mapping) or event not in ("call", "undo", "round", "end"):
            return True
        if self.state is None:
            return event not in ("call", "undo")
        if event == "round" and data.get("round") == self.state.round:
            return True
        try:
            self.state = self.state.apply(event_from_json(event, data))
        except (EventOutOfOrder, KeyError, TypeError, ValueError):
            return False
        return event not in ("call", "undo") or data.get("count") == len(self.state.calls)


class Source(Protocol):
    def newest_active(self) -> int | None: ...
    def snapshot(self, game_id: int) -> dict[str, Any]: ...
    def events(self, game_id: int) -> Iterator[tuple[str, Any]]: ...
    def enter_ball(self, game_id: int, ball: int, key: str) -> None: ...


class Follower:
    """Keep a device showing the newest active game; turn machine balls into manual calls."""

    def __init__(self, source: Source, link: Any, poll: float = 1.0) -> None:
        self.source = source
        self.link = link
        self.poll = poll
        self.game_id: int | None = None
        self.balls: tuple[int, ...] = ()  # the followed game's live calls
        self.error = ""
        self._stop = threading.Event()
        self._balls = 0  # balls entered; with the session it makes the POST's idempotency key
        self._session = secrets.token_hex(4)

    def stop(self) -> None:
        self._stop.set()

    def on_ball(self, ball: int) -> None:
        """DeviceLink's callback: raise BallRefused to ACK and report, anything else to retry."""
        gid = self.source.newest_active()  # not self.game_id: the game may be seconds old
        if gid is None:
            raise BallRefused("no active game to enter it in")
        if gid == self.game_id and ball in self.balls:
            return  # a copy resent across a reconnect: it is already the call it should be
        self.source.enter_ball(gid, ball, f"bhp-{self._session}-{gid}-{self._balls}")
        self._balls += 1

    def run(self) -> None:
        while not self._stop.is_set():
            try:
                self._follow_newest()
                self.error = ""
            except OSError as exc:  # the station is restarting: the board keeps its lamps
                self.error = f"station unreachable: {exc}"
            except Exception as exc:  # never stop following over one odd message
                self.error = f"follower fault: {exc!r}"
            self._stop.wait(self.poll)

    def _follow_newest(self) -> None:
        gid = self.source.newest_active()
        if gid is None:
            return
        self.game_id = gid
        view = GameView()
        for event, data in self.source.events(gid):
            if self._stop.is_set():
                return
            if event == "idle":
                if self.source.newest_active() != gid:
                    return
                continue
            if not view.apply(event, data):
                view.load(self.source.snapshot(gid))
            self.balls = view.balls
            self.link.show_calls(view.balls)
            if view.ended:
                self.game_id = None
                return
