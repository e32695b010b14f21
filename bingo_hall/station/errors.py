"""Errors the station turns into a 4xx with JSON `{"error": "..."}` or a readable page."""

from __future__ import annotations

from ..errors import KitError


class StationError(KitError):
    """A request the station refuses. `status` is the HTTP status the web adapters answer with."""

    status = 400


class NotFound(StationError):
    status = 404


class Conflict(StationError):
    """The request clashes with the game's state (already called, game ended, stale seq)."""

    status = 409
