"""TOML files whose errors name the file, the line and what is wrong: game data, table configs.

``tomllib`` gives no line numbers for values, so :class:`DataFile` finds the line of a key by
reading the text the way TOML lays it out (``[table]`` headers, then ``key = ...`` lines).
Multi-line strings hold short text notations, one entry a line, so an entry's line is the
key's line plus its offset.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, NoReturn

from companion.errors import DataFileError

_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"^\s*(\"[^\"]*\"|[A-Za-z0-9_-]+)\s*=")


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
        return cls(name, text, data)

    @classmethod
    def read(cls, path: str | Path) -> DataFile:
        """Read a file a table points to."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise DataFileError(str(path), None, f"cannot be read: {exc.strerror}") from None
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

    def line_of(self, *keys: str) -> int | None:
        """The line on which ``table.key`` (given as its parts), or a ``[table]``, is defined."""
        *table, key = keys
        current: list[str] = []
        for number, line in self._lines():
            header = _HEADER.match(line)
            if header:
                current = [p.strip().strip('"') for p in header.group(1).split(".")]
                if current == list(keys):
                    return number
                continue
            found = _KEY.match(line)
            if found and current == table and found.group(1).strip('"') == key:
                return number
        return None

    def fail(self, keys: tuple[str, ...], message: str, offset: int = 0) -> NoReturn:
        """Raise an error at the line of ``keys`` (plus ``offset`` lines into its value)."""
        line = self.line_of(*keys)
        raise DataFileError(self.name, line + offset if line else None, message)

    def get(self, keys: tuple[str, ...], kind: type, default: Any = None) -> Any:
        """A value of the given type at ``keys``, or ``default`` when it is absent."""
        node: Any = self.data
        for k in keys:
            if not isinstance(node, dict) or k not in node:
                if default is not None:
                    return default
                self.fail(keys[:-1] or keys, f"missing key {'.'.join(keys)!r}")
            node = node[k]
        if kind is float and isinstance(node, int) and not isinstance(node, bool):
            node = float(node)
        if not isinstance(node, kind) or (kind is int and isinstance(node, bool)):
            self.fail(keys, f"{'.'.join(keys)} must be {kind.__name__}, not {node!r}")
        return node

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

    def _lines(self) -> Iterator[tuple[int, str]]:
        return enumerate(self.text.split("\n"), start=1)
