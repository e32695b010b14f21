"""The language a command speaks: the hall's, as the host asked for it.

`--lang` where the command has it, else the environment's language as POSIX reads it (the first
of LC_ALL, LC_MESSAGES and LANG that is set: `LANG=es_AR.UTF-8` is Spanish), else the command's
own default. A command's lines and its errors are its messages' msgids translated through the
kit's catalogs (`bingo_hall.machine.catalogs`), as the pages translate theirs; a `KitError` is
translated at the edge the same way (`KitError.text`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

LANGUAGES = ("es", "en")
#: the variables POSIX reads a program's message language from, the strongest first
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")


def environment_lang(environ: Mapping[str, str] | None = None) -> str | None:
    """The language of the environment's locale ("es_AR.UTF-8" -> "es"); None where it names
    none the kit speaks ("C", "POSIX", "fr_FR") or none is set."""
    env = os.environ if environ is None else environ
    for name in LOCALE_VARIABLES:
        value = env.get(name, "")
        if value:
            code = value.split(".")[0].split("@")[0].split("_")[0].lower()
            return code if code in LANGUAGES else None
    return None


def command_lang(given: str | None, default: str = "en") -> str:
    """What a command speaks: `--lang` if given, else the environment's, else `default`."""
    return given or environment_lang() or default


def lang_in_argv(argv: Sequence[str]) -> str | None:
    """The `--lang` of a command line, for what is said before the command reads its options
    (an error in them)."""
    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv) and argv[i + 1] in LANGUAGES:
            return argv[i + 1]
        if arg.startswith("--lang=") and arg[7:] in LANGUAGES:
            return arg[7:]
    return None


@dataclass(frozen=True)
class Speech:
    """A command's words in `lang`: `say(msgid, **params)` is one line, translated then filled
    in; `number` writes a decimal as the reader does (53,9 in Spanish)."""

    lang: str

    def gettext(self, msgid: str) -> str:
        if self.lang == "en":
            return msgid
        from ..machine.catalogs import translations

        return translations(self.lang).gettext(msgid)

    def say(self, msgid: str, /, **params: Any) -> str:
        words = self.gettext(msgid)
        return words % params if params else words

    def number(self, value: Decimal | float, digits: int | None = None) -> str:
        text = str(value) if digits is None else f"{value:.{digits}f}"
        return text.replace(".", ",") if self.lang == "es" else text

    def error(self, exc: Exception) -> str:
        """An error's one line in this language (a `KitError` translated, else as it is)."""
        from ..errors import KitError

        if isinstance(exc, KitError):
            return exc.text(self.gettext, self.number)
        return str(exc)


def speech(given: str | None = None, default: str = "en") -> Speech:
    """The words of a command whose `--lang` is `given` (None: not given)."""
    return Speech(command_lang(given, default))
