"""The caller station over HTTP (docs/api.md), with the standard library only: the bridge runs on
any laptop or Raspberry Pi next to the board without extra packages.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

from bingo_hall.errors import KitError

from .follow import SseParser
from .protocol import BallRefused

TIMEOUT = 5.0
STREAM_TIMEOUT = 40.0  # more than the station's 15 s heartbeat


class StationError(KitError):
    """The station said no (wrong PIN, bad URL): the bridge cannot run."""


class HttpSource:
    def __init__(self, base_url: str, pin: str) -> None:
        self.base = base_url.rstrip("/")
        self.pin = pin
        self.token: str | None = None

    def _request(
        self, method: str, path: str, body: dict[str, object] | None = None, **headers: str
    ) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("Accept", "application/json")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        if self.token:
            req.add_header("Authorization", f"Bearer {self.token}")
        for k, v in headers.items():
            req.add_header(k.replace("_", "-"), v)
        with urllib.request.urlopen(req, timeout=TIMEOUT) as resp:
            return json.loads(resp.read() or b"{}")

    def login(self) -> None:
        try:
            self.token = self._request("POST", "/api/login", {"pin": self.pin})["token"]
        except urllib.error.HTTPError as exc:
            raise StationError("the station refused the PIN (%(why)s)", why=_message(exc)) from None
        except (urllib.error.URLError, OSError, ValueError, KeyError) as exc:
            raise StationError(
                "cannot reach the station at %(base)s: %(exc)s", base=self.base, exc=exc
            ) from None

    def newest_active(self) -> int | None:
        games = self._request("GET", "/api/games")["games"]
        return next((g["game_id"] for g in games if g["status"] == "active"), None)

    def snapshot(self, game_id: int) -> dict[str, Any]:
        snapshot: dict[str, Any] = self._request("GET", f"/api/games/{game_id}")
        return snapshot

    def events(self, game_id: int) -> Iterator[tuple[str, Any]]:
        req = urllib.request.Request(f"{self.base}/api/games/{game_id}/events")
        req.add_header("Accept", "text/event-stream")
        parser = SseParser()
        with urllib.request.urlopen(req, timeout=STREAM_TIMEOUT) as resp:
            while raw := resp.readline():
                msg = parser.line(raw.decode("utf-8", "replace"))
                if msg is not None:
                    yield msg

    def enter_ball(self, game_id: int, ball: int, key: str) -> None:
        """A ball from the machine becomes a manual call. 4xx: refused (ACK and report);
        a 401 means the token was lost, so log in again and let the device resend."""
        try:
            self._request(
                "POST", f"/api/games/{game_id}/calls", {"ball": ball}, Idempotency_Key=key
            )
        except urllib.error.HTTPError as exc:
            if exc.code == 401:
                self.login()
                raise OSError("logged in again") from None
            if 400 <= exc.code < 500:
                raise BallRefused(_message(exc)) from None
            raise


def _message(exc: urllib.error.HTTPError) -> str:
    try:
        return str(json.loads(exc.read())["error"])
    except (ValueError, KeyError, TypeError, OSError):
        return f"HTTP {exc.code}"
