"""Cells a spreadsheet opens safely: the game record's CSV and the night's summary share it."""

from __future__ import annotations

from typing import Any

#: what makes a spreadsheet read a cell as a formula (OWASP "CSV injection")
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value: Any) -> Any:
    """A text cell that a spreadsheet would run as a formula gets a leading apostrophe, so a
    player named `=HYPERLINK(...)` is shown as text; numbers stay numbers."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value
