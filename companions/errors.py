"""Errors a player can read, raised by the pure game engines and shown next to the field."""

from __future__ import annotations

from typing import Any


class EntryError(ValueError):
    """An entry that breaks a rule of the game (or is not a valid entry at all).

    `message` is a fixed English string, translatable as-is; data goes in `params` and is
    substituted with str.format after translation. `field` names the form field to flag, and
    `entry_id` the stored entry that fails when a past entry is undone or corrected.
    """

    def __init__(
        self,
        message: str,
        *,
        field: str | None = None,
        params: dict[str, Any] | None = None,
        entry_id: int | None = None,
    ) -> None:
        self.message = message
        self.field = field
        self.params = params or {}
        self.entry_id = entry_id
        super().__init__(self.text())

    def text(self, translate=lambda s: s) -> str:
        """The message, translated by `translate` (e.g. flask_babel.gettext), then filled in."""
        return translate(self.message).format(**self.params)
