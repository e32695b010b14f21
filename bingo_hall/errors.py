"""Errors a party host can read. The CLI prints them as one line; the web turns them into a 4xx.

One convention for every user-facing error, pure modules included: an English `template` with
`%(name)s` placeholders and its parameters, e.g. `KitError("%(n)s balls at most", n=90)`.
`str()` is the English sentence (logs, the CLI); the web translates the template at the edge,
in the reader's language, then fills it in (`text(gettext)`), so a catalog holds one msgid per
message whatever its values.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any


def untranslated(template: str) -> str:
    """The template as written (English): `text()`'s translation when none is given."""
    return template


class KitError(Exception):
    """A problem with the user's input or files, worded for the person running the kit."""

    def __init__(self, template: str = "", /, **params: Any) -> None:
        self.template = template
        self.params = params
        super().__init__(self.text())

    def text(
        self,
        translate: Callable[[str], str] = untranslated,
        number: Callable[[Decimal | float], str] = str,
    ) -> str:
        """The message, translated by `translate` (e.g. flask_babel.gettext), then filled in. A
        parameter that is itself a KitError (a message inside a message: "the deck has 3004
        cards, too many: ...") is translated the same way, so no English sentence ends up
        inside a Spanish one; a decimal number is written by `number` (the reader's decimal
        comma, e.g. flask_babel.format_decimal)."""
        words = translate(self.template)
        if not self.params:
            return words
        params = {k: self._param(v, translate, number) for k, v in self.params.items()}
        return words % params

    @staticmethod
    def _param(
        value: Any, translate: Callable[[str], str], number: Callable[[Decimal | float], str]
    ) -> Any:
        if isinstance(value, KitError):
            return value.text(translate, number)
        if isinstance(value, Decimal | float):
            return number(value)
        return value

    def __str__(self) -> str:
        return self.text()


class LocatedError(KitError):
    """A problem in a host's file (a program, a prize list), located: the message starts with
    the file, and its line when known (`night.toml:12: ...`)."""

    def __init__(self, template: str = "", /, *, source: str = "", line: int = 0, **params: Any):
        self.source = source
        self.line = line
        super().__init__(template, **params)

    def words(
        self,
        translate: Callable[[str], str] = untranslated,
        number: Callable[[Decimal | float], str] = str,
    ) -> str:
        """The message without its place (a subclass may say more, e.g. which game)."""
        return super().text(translate, number)

    def text(
        self,
        translate: Callable[[str], str] = untranslated,
        number: Callable[[Decimal | float], str] = str,
    ) -> str:
        words = self.words(translate, number)
        where = f"{self.source}:{self.line}" if self.line else self.source
        return f"{where}: {words}" if where else words


class DeckError(KitError):
    """A deck cannot be built, or a deck file is not a valid Bingo Hall deck."""
