"""TOML files whose errors name the file, the line and what is wrong: game data, table configs.

``tomllib`` gives no line numbers for values, so :class:`DataFile` finds the line of a key by
reading the text the way TOML lays it out (``[table]`` and ``[[array]]`` headers, then
``key = ...`` lines). A key path holds names, and the index of an entry where it passes through
an array (``("seat", 1, "colour")`` is the second ``[[seat]]``'s colour). Multi-line strings hold
short text notations, one entry a line, so an entry's line is the key's line plus its offset.
"""

from __future__ import annotations

import difflib
import math
import os
import re
import stat
import tomllib
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, NoReturn

from companion.errors import DataFileError

_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\],]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"^\s*(\"[^\"]*\"|[A-Za-z0-9_-]+)\s*=")

LARGEST_BYTES = 1024 * 1024
"""The longest table config or data file read: far past any, and short of stalling a start."""


def _nonblocking(path: str, flags: int) -> int:
    """Open without waiting: a FIFO with no writer opens at once (and is then refused)."""
    return os.open(path, flags | os.O_NONBLOCK)


Key = str | int
"""A table's key, or the index of an entry where a path passes through an array."""


KINDS = {
    bool: "true or false",
    str: "text in quotes",
    int: "a whole number",
    float: "a number",
    dict: "a table",
    list: "a list",
}
"""How an error names the kind of value a key takes, as the TOML file writes it."""


def label(keys: tuple[Key, ...]) -> str:
    """A key path as a person reads it: dotted names, an array entry by its number from 1.

    >>> label(("sensors", "resolution")), label(("seat", 1, "colour"))
    ('sensors.resolution', 'seat 2: colour')
    """
    for i, key in enumerate(keys):
        if isinstance(key, int):
            rest = label(keys[i + 1 :])
            head = f"{'.'.join(str(k) for k in keys[:i])} {key + 1}"
            return f"{head}: {rest}" if rest else head
    return ".".join(str(k) for k in keys)


def number_problem(value: Any, kind: type, low: float | None, high: float | None) -> str | None:
    """What a value lacks to be a ``kind`` (int or float) from ``low`` to ``high``; None if nothing.

    >>> number_problem(13, int, 9, 12)
    'must be a whole number from 9 to 12, not 13'
    >>> number_problem(0.5, float, 0.3, None) is None
    True
    """
    what = "a whole number" if kind is int else "a number"
    if low is not None and high is not None:
        what += f" from {low:g} to {high:g}"
    elif low is not None:
        what += f" of at least {low:g}"
    elif high is not None:
        what += f" of at most {high:g}"
    numeric = (int,) if kind is int else (int, float)
    if (
        isinstance(value, bool)
        or not isinstance(value, numeric)
        or not math.isfinite(value if isinstance(value, float) else 0)
        or (kind is float and abs(value) > 1e300)
        or (low is not None and value < low)
        or (high is not None and value > high)
    ):
        return f"must be {what}, not {value!r}"
    return None


@dataclass(frozen=True)
class DataFile:
    """A parsed TOML file with its text and a name to print in errors."""

    name: str
    text: str
    data: dict[str, Any]

    @classmethod
    def parse(cls, name: str, text: str) -> DataFile:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            match = re.search(r"line (\d+)", str(exc))
            line = int(match.group(1)) if match else None
            raise DataFileError(name, line, f"not valid TOML: {exc}") from None
        except RecursionError:
            raise DataFileError(name, None, "not valid TOML: nested too deeply") from None
        except ValueError:  # a whole number of more digits than Python reads
            raise DataFileError(name, None, "not valid TOML: a number far too long") from None
        return cls(name, text, data)

    @classmethod
    def read(cls, path: str | Path) -> DataFile:
        """Read a file a table points to: a regular file (a FIFO or a device would block the
        start, or never end) of at most :data:`LARGEST_BYTES`."""
        try:
            with open(path, "rb", opener=_nonblocking) as f:
                if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                    raise DataFileError(
                        str(path), None, "is not a regular file: give the path of a TOML file"
                    )
                data = f.read(LARGEST_BYTES + 1)
        except OSError as exc:
            raise DataFileError(str(path), None, f"cannot be read: {exc.strerror}") from None
        if len(data) > LARGEST_BYTES:
            raise DataFileError(
                str(path), None, f"is over {LARGEST_BYTES // 1024} KB: no table file is that long"
            )
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise DataFileError(str(path), None, "is not UTF-8 text") from None
        return cls.parse(str(path), text)

    @classmethod
    def bundled(cls, filename: str) -> DataFile:
        """Read one of the files shipped in ``companion/games/data``."""
        text = (
            resources.files("companion.games")
            .joinpath("data")
            .joinpath(filename)
            .read_text("utf-8")
        )
        return cls.parse(f"companion/games/data/{filename}", text)

    def line_of(self, *keys: Key) -> int | None:
        """The line on which ``table.key`` (given as its parts), or a ``[table]``, is defined.

        An ``[[array]]`` header counts its entries, so ``line_of("seat", 2)`` is the third
        ``[[seat]]`` and ``line_of("seat")`` the first.
        """
        *table, key = keys
        current: list[Key] = []
        counts: dict[tuple[str, ...], int] = {}
        for number, line in self._lines():
            header = _HEADER.match(line)
            if header:
                names = tuple(p.strip().strip('"') for p in header.group(2).split("."))
                if header.group(1) == "[[":
                    counts[names] = counts.get(names, -1) + 1
                current = []
                for i, name in enumerate(names):
                    current.append(name)
                    if names[: i + 1] in counts:
                        current.append(counts[names[: i + 1]])
                whole = current[:-1] if isinstance(current[-1], int) else current
                if list(keys) in (current, whole):
                    return number
                continue
            found = _KEY.match(line)
            if found and current == table and found.group(1).strip('"') == key:
                return number
        return None

    def line_of_word(self, keys: tuple[Key, ...], word: str, nth: int = 0) -> int | None:
        """The line of the ``nth`` ``word`` from the line of ``keys`` on, within its table.

        Inline tables and arrays have no lines of their own keys; this finds a name in them.
        """
        start = self.line_of(*keys)
        if start is None:
            return None
        pattern = re.compile(rf"(?<![\w-]){re.escape(word)}(?![\w-])")
        seen = 0
        for number, line in self._lines():
            if number < start:
                continue
            if number > start and _HEADER.match(line):
                break
            seen += len(pattern.findall(line.split("#", 1)[0]))
            if seen > nth:
                return number
        return None

    def fail(self, keys: tuple[Key, ...], message: str, offset: int = 0) -> NoReturn:
        """Raise an error at the line of ``keys`` (plus ``offset`` lines into its value).

        A key without a line of its own (in an inline table) is reported at its table's line.
        """
        line = self.line_of(*keys)
        if line is not None:
            line += offset
        for end in range(len(keys) - 1, 0, -1):
            if line is not None:
                break
            line = self.line_of(*keys[:end])
        raise DataFileError(self.name, line, message)

    def has(self, keys: tuple[Key, ...]) -> bool:
        """Whether the file gives a value at ``keys``."""
        return self._node(keys) is not _ABSENT

    def get(self, keys: tuple[Key, ...], kind: type, default: Any = None) -> Any:
        """A value of the given type at ``keys``, or ``default`` when it is absent."""
        node = self._node(keys)
        if node is _ABSENT:
            if default is not None:
                return default
            self.fail(keys[:-1] or keys, f"missing key {label(keys)!r}")
        if kind is float and isinstance(node, int) and not isinstance(node, bool):
            node = float(node)
        if not isinstance(node, kind) or (kind is int and isinstance(node, bool)):
            self.fail(keys, f"{label(keys)} must be {KINDS.get(kind, kind.__name__)}, not {node!r}")
        return node

    def number(
        self,
        keys: tuple[Key, ...],
        kind: type,
        default: float | None,
        low: float | None = None,
        high: float | None = None,
    ) -> Any:
        """A whole number (``int``) or a number (``float``) from ``low`` to ``high``, or default."""
        if not self.has(keys):
            return default
        value = self._node(keys)
        problem = number_problem(value, kind, low, high)
        if problem:
            self.fail(keys, f"{label(keys)} {problem}")
        return float(value) if kind is float else value

    def choice(self, keys: tuple[Key, ...], choices: tuple[Any, ...], default: Any) -> Any:
        """One of ``choices``, or the default when absent; a near miss is named."""
        if not self.has(keys):
            return default
        value = self._node(keys)
        if value not in choices or type(value) not in {type(c) for c in choices}:
            allowed = ", ".join(repr(c) for c in choices)
            close = difflib.get_close_matches(str(value), [str(c) for c in choices], n=1)
            hint = f" (did you mean {close[0]!r}?)" if close and isinstance(value, str) else ""
            self.fail(keys, f"{label(keys)} must be one of {allowed}, not {value!r}{hint}")
        return value

    def known_keys(self, keys: tuple[Key, ...], known: Collection[str], where: str) -> None:
        """Refuse any key of the table at ``keys`` that is not ``known``, naming the closest.

        A typo must not be silently ignored: ``unknown key 'thermometrs' in [sensors]: did you
        mean 'thermometers'?``.
        """
        node = self._node(keys) if keys else self.data
        if not isinstance(node, dict):
            return
        for key in node:
            if key not in known:
                close = difflib.get_close_matches(key, sorted(known), n=1)
                hint = (
                    f"did you mean {close[0]!r}?"
                    if close
                    else f"the keys are {', '.join(sorted(known))}"
                )
                self.fail((*keys, key), f"unknown key {key!r} in {where}: {hint}")

    def notation_lines(self, keys: tuple[str, ...]) -> Iterator[tuple[int, str]]:
        """The entries of a multi-line string: (offset from the key's line, text) per entry.

        Blank lines and ``#`` comments are skipped; ``offset`` is what :meth:`fail` takes.
        """
        value = self.get(keys, str)
        line = self.line_of(*keys)
        after = self.text.split("\n")[line - 1].split("=", 1)[1].strip() if line else '"""'
        first = 1 if after in ('"""', "'''") else 0
        for i, raw in enumerate(value.split("\n")):
            entry = raw.split("#", 1)[0].strip()
            if entry:
                yield i + first, entry

    def _node(self, keys: tuple[Key, ...]) -> Any:
        node: Any = self.data
        for k in keys:
            if isinstance(k, int):
                if not isinstance(node, list) or not 0 <= k < len(node):
                    return _ABSENT
            elif not isinstance(node, dict) or k not in node:
                return _ABSENT
            node = node[k]
        return node

    def _lines(self) -> Iterator[tuple[int, str]]:
        return enumerate(self.text.split("\n"), start=1)


_ABSENT = object()
