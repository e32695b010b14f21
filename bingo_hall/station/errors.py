"""Errors the station turns into a 4xx with JSON `{"error": "..."}` or a readable page.

A message is an English template with named parameters, so the web adapter can translate it
into the Maestro's language (the Spanish is in this area's catalog) and `str()` still gives the
English sentence for logs and the CLI.
"""

from __future__ import annotations

from typing import Any

from ..errors import KitError


class StationError(KitError):
    """A request the station refuses. `status` is the HTTP status the web adapters answer with."""

    status = 400

    def __init__(self, template: str, **params: Any) -> None:
        self.template = template
        self.params = params
        super().__init__(template % params if params else template)


class NotFound(StationError):
    status = 404


class Conflict(StationError):
    """The request clashes with the game's state (already called, game ended, stale seq)."""

    status = 409
