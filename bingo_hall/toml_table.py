"""A table of a host's TOML file (a program, a prize list, a pattern book, a card template) as a
value: its keys checked against the ones the file may use, each value read by the type it must
have, and every problem worded by the file's own parser.

The person who reads the problem is editing the text by hand, so each problem is one line that
names the key (`Table.named`: the key as the file writes it, e.g. `theme.accent`), and the file's
parser decides the rest: its error class, its place in the file (`Problem`, given the path of
keys to the value: the program finds the line from it), the words before the key (`prefix`). A
key that is not there is read as a value of the wrong type: the message says what it must be.

`Lines` finds the line of a key in the text, for the files whose errors name it (tomllib gives
no line for a value).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Protocol, TypeGuard

from .errors import KitError

#: the parsers' shared wording: a setting the table does not know, a text, a whole number, a
#: number, a switch
UNKNOWN = "unknown setting %(key)r (known: %(known)s)"
TEXT = "%(what)s must be a non-empty text"
LONG = "%(what)s is longer than %(n)s characters"
WHOLE = "%(what)s must be a whole number from %(low)s to %(high)s"
NUMBER = "%(what)s must be a number from %(low)s to %(high)s"
SWITCH = "%(what)s must be true or false"


class Problem(Protocol):
    """How a file words a problem with one of its values: its error made of the template and
    its parameters, `path` the keys that lead to the value from the table the file's parser
    read first."""

    def __call__(self, template: str, /, *path: str, **params: Any) -> KitError: ...


def plain(template: str, /, *path: str, **params: Any) -> KitError:
    """A problem as the template says it, with no place."""
    return KitError(template, **params)


class _Missing:
    """No default: the key must be there."""


_MISSING = _Missing()


@dataclass(frozen=True)
class Table:
    """One table of a TOML file, read only through typed getters; `problem` words what is wrong
    in it, `prefix` is what its keys are named after (`prize 2: `, `theme.`)."""

    values: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))
    problem: Problem = field(default=plain, compare=False, repr=False)
    prefix: str = field(default="", compare=False)

    @classmethod
    def from_json(
        cls, data: Mapping[str, Any], problem: Problem = plain, prefix: str = ""
    ) -> Table:
        """The table tomllib (or json) read, as its parser reads it: a copy, so the caller's
        dicts cannot change it afterwards."""
        return cls(MappingProxyType(copy.deepcopy(dict(data))), problem, prefix)

    def to_json(self) -> dict[str, Any]:
        return copy.deepcopy(dict(self.values))

    def within(self, problem: Problem, prefix: str | None = None) -> Table:
        """The same table, its problems worded by `problem` (and its keys named after `prefix`)."""
        return replace(self, problem=problem, prefix=self.prefix if prefix is None else prefix)

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(self.values)

    def __contains__(self, key: str) -> bool:
        return key in self.values

    def __iter__(self) -> Iterator[str]:
        return iter(self.values)

    def named(self, key: str) -> str:
        """The key as the file's reader knows it."""
        return f"{self.prefix}{key}"

    def fail(self, template: str, /, *path: str, **params: Any) -> KitError:
        """This table's problem with the value at `path` (to raise)."""
        return self.problem(template, *path, **params)

    def only(self, known: Sequence[str], template: str = UNKNOWN) -> None:
        """Every key of the table is one of `known`; else `template` names the first other key
        (in sorted order) as `key`, and the known ones as `known`."""
        unknown = sorted(set(self.values) - set(known))
        if unknown:
            raise self.fail(template, unknown[0], key=unknown[0], known=", ".join(known))

    def value(self, key: str, default: object = None) -> Any:
        """The value as written (as tomllib read it), for a setting that takes more than one type
        (a price is "1.50" or 20) or that a checker of its own reads; that checker checks it."""
        return self.values.get(key, default)

    def text(
        self,
        key: str,
        default: str | _Missing = _MISSING,
        *,
        most: int | None = None,
        wrong: str = TEXT,
        long: str = LONG,
    ) -> str:
        """A text, stripped: not empty (`wrong`), of at most `most` characters (`long`)."""
        value = self.values.get(key, default)
        if not isinstance(value, str) or not value.strip():
            raise self.fail(wrong, key, what=self.named(key), n=most)
        if most is not None and len(value.strip()) > most:
            raise self.fail(long, key, what=self.named(key), n=most)
        return value.strip()

    def integer(
        self,
        key: str,
        default: int | _Missing = _MISSING,
        *,
        low: int | None = None,
        high: int | None = None,
        wrong: str = WHOLE,
    ) -> int:
        """A whole number (true and false are not numbers), from `low` to `high` when given;
        `wrong` says it with `what`, `low`, `high` and the `value` written."""
        value = self.values.get(key, default)
        if not is_whole(value, low, high):
            raise self._wrong(wrong, key, value, low, high)
        return value

    def number(
        self,
        key: str,
        default: float | _Missing = _MISSING,
        *,
        low: float | None = None,
        high: float | None = None,
        wrong: str = NUMBER,
    ) -> float:
        """A number, whole or not, from `low` to `high` when given (as `integer`)."""
        value = self.values.get(key, default)
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not _within(value, low, high)
        ):
            raise self._wrong(wrong, key, value, low, high)
        return value

    def boolean(
        self, key: str, default: bool | _Missing = _MISSING, *, wrong: str = SWITCH
    ) -> bool:
        """true or false."""
        value = self.values.get(key, default)
        if not isinstance(value, bool):
            raise self.fail(wrong, key, what=self.named(key), value=_written(value))
        return value

    def table(self, key: str, *, wrong: str, optional: bool = False, prefix: str = "") -> Table:
        """A table inside this one (an empty one when `optional` and not written), its problems
        worded as this table's with its key first on their path; its keys named after `prefix`."""
        value = self.values.get(key, {} if optional else None)
        if not isinstance(value, Mapping):
            raise self.fail(wrong, key, what=self.named(key))
        return Table(MappingProxyType(value), self._inside(key), prefix)

    def tables(
        self,
        key: str,
        *,
        wrong: str,
        item: str,
        each: Callable[[int], Problem] | None = None,
    ) -> tuple[Table, ...]:
        """A list of tables (`[[key]]`, or `key = [{...}, ...]`), not empty (`wrong`), each a
        table (`item`, with its `number` from 1). `each(i)` words the problems of the i-th table
        (from 0); by default, as this table's with the list's key first on their path."""
        value = self.values.get(key)
        if not isinstance(value, list) or not value:
            raise self.fail(wrong, key, what=self.named(key))
        out = []
        for index, entry in enumerate(value):
            problem = each(index) if each is not None else self._inside(key)
            if not isinstance(entry, Mapping):
                raise problem(item, what=self.named(key), number=index + 1)
            out.append(Table(MappingProxyType(entry), problem))
        return tuple(out)

    def with_value(self, key: str, value: object) -> Table:
        """The table with `key` set to `value` (a copy)."""
        return replace(self, values=MappingProxyType({**self.values, key: value}))

    def without(self, key: str) -> Table:
        """The table without `key` (a copy)."""
        return replace(
            self, values=MappingProxyType({k: v for k, v in self.values.items() if k != key})
        )

    def _inside(self, key: str) -> Problem:
        outer = self.problem

        def problem(template: str, /, *path: str, **params: Any) -> KitError:
            return outer(template, key, *path, **params)

        return problem

    def _wrong(
        self, template: str, key: str, value: object, low: float | None, high: float | None
    ) -> KitError:
        return self.fail(
            template, key, what=self.named(key), value=_written(value), low=low, high=high
        )


def _within(value: float, low: float | None, high: float | None) -> bool:
    return (low is None or value >= low) and (high is None or value <= high)


def is_whole(value: object, low: int | None = None, high: int | None = None) -> TypeGuard[int]:
    """A whole number (true and false are not numbers), from `low` to `high` when given: what
    `Table.integer` reads, for a number inside a list."""
    return isinstance(value, int) and not isinstance(value, bool) and _within(value, low, high)


def _written(value: object) -> object:
    """A value as a message shows it: a key not written is None."""
    return None if isinstance(value, _Missing) else value


class Lines:
    """Where things are in a file's text: the headers of its array of tables (`[[game]]`), and
    a key, at the top of the file or in one of those tables."""

    def __init__(self, text: str, array: str) -> None:
        self.lines = text.splitlines()
        header = re.compile(rf"^\s*\[\[\s*{re.escape(array)}\s*\]\]")
        self.starts = [i + 1 for i, line in enumerate(self.lines) if header.match(line)]

    def block(self, index: int) -> range:
        start = self.starts[index] if index < len(self.starts) else 1
        end = self.starts[index + 1] if index + 1 < len(self.starts) else len(self.lines) + 1
        return range(start, end)

    def of(self, index: int | None, *path: str) -> int:
        """The line of `path` (a key, or a key then a key inside it, searched from the last) in
        table `index` of the array (None: the file's top, before the first); the table's header
        if the key is not written out there (0 at the top)."""
        if index is None:
            lines = range(1, (self.starts[0] if self.starts else len(self.lines) + 1))
        else:
            lines = self.block(index)
        best = lines.start if index is not None else 0
        for depth in range(len(path), 0, -1):
            key = re.escape(path[depth - 1])
            pattern = re.compile(rf'^\s*(?:[\w.-]+\.)?"?{key}"?\s*=|^\s*\[[^\]]*\b{key}\s*\]')
            for number in lines:
                if pattern.search(self.lines[number - 1]):
                    return number
        return best
