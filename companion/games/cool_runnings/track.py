"""The track of Cool Runnings: parts in a short notation, the builder, and moving a piece.

A position is a number: 0 is the start area before the first space (it holds any number of
pieces), 1..len(track) are the spaces, and len(track) + 1 means the piece crossed the line.

>>> track = parse_spaces(". . L . I +2 . -1")
>>> [s.symbol for s in track][:5]
['.', '.', 'L', '.', 'I']
>>> step(len(track), occupied={2, 3}, start=1, n=2)
5
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from companion.datafile import DataFile
from companion.errors import BadOptions, DataFileError
from companion.games.fair import FairRandom
from companion.games.sentence import Sentence, counted

TRACK_FILE = "cool-runnings-track.toml"
START = 0
PLAIN, LAVA, ICE, MOVE = "plain", "lava", "ice", "move"


@dataclass(frozen=True)
class Space:
    kind: str
    shift: int = 0

    @property
    def symbol(self) -> str:
        return {PLAIN: ".", LAVA: "L", ICE: "I"}.get(self.kind) or f"{self.shift:+d}"


@dataclass(frozen=True)
class TrackData:
    """The five square parts by name, the goal part, and the hot-day thresholds (ruling 13)."""

    parts: Mapping[str, str]
    goal: str
    five_parts_up_to_c: float
    four_parts_up_to_c: float


def parse_spaces(text: str) -> tuple[Space, ...]:
    """Spaces from the notation ``. L I +2 -1``; ``ValueError`` names the bad symbol."""
    spaces = []
    for symbol in text.split():
        if symbol == ".":
            spaces.append(Space(PLAIN))
        elif symbol.upper() == "L":
            spaces.append(Space(LAVA))
        elif symbol.upper() == "I":
            spaces.append(Space(ICE))
        elif re.fullmatch(r"[+-][0-9]{1,3}", symbol) and int(symbol) != 0:
            spaces.append(Space(MOVE, int(symbol)))
        else:
            raise ValueError(
                f"unknown space {symbol!r}: use '.' (plain), 'L' (lava), 'I' (ice) "
                "or a movement like '+2' or '-1'"
            )
    if not spaces:
        raise ValueError("a part needs at least one space")
    return tuple(spaces)


def load_track(path: str | Path | None = None) -> TrackData:
    """The track data from a track file (the bundled default when ``path`` is None)."""
    doc = DataFile.bundled(TRACK_FILE) if path is None else DataFile.read(path)
    for key in sorted(set(doc.data) - {"parts", "goal", "hot-days"}):
        doc.fail((key,), f"unknown key {key!r}: a track file holds [parts], [goal], [hot-days]")
    parts = doc.get(("parts",), dict)
    if len(parts) < 3:
        doc.fail(("parts",), f"the track needs at least 3 parts, not {len(parts)}")
    for name in parts:
        _check_spaces(doc, ("parts", name))
    goal = _check_spaces(doc, ("goal", "spaces"))
    five = doc.get(("hot-days", "five_parts_up_to_c"), float)
    four = doc.get(("hot-days", "four_parts_up_to_c"), float)
    if four < five:
        doc.fail(("hot-days", "four_parts_up_to_c"), "must not be below five_parts_up_to_c")
    return TrackData({k: " ".join(v.split()) for k, v in parts.items()}, goal, five, four)


@cache
def default_track() -> TrackData:
    return load_track()


def _check_spaces(doc: DataFile, keys: tuple[str, ...]) -> str:
    text = doc.get(keys, str)
    try:
        parse_spaces(text)
    except ValueError as exc:
        line = doc.line_of(*keys)
        raise DataFileError(doc.name, line, f"{'.'.join(keys)}: {exc}") from None
    return " ".join(text.split())


def recommended_parts(air_c: float, data: TrackData | None = None) -> int:
    """How many parts to lay for a table at ``air_c`` degrees (ruling 13: hot days).

    >>> recommended_parts(21.0), recommended_parts(26.5), recommended_parts(31.0)
    (5, 4, 3)
    """
    data = data or default_track()
    if air_c <= data.five_parts_up_to_c:
        return 5
    if air_c <= data.four_parts_up_to_c:
        return 4
    return 3


def choose_parts(
    names: Sequence[str], count: int, rng: FairRandom, order: Sequence[str] | None = None
) -> tuple[str, ...]:
    """The parts to lay, in order: the given ``order``, or ``count`` parts in a random order."""
    if order is not None:
        unknown = [n for n in order if n not in names]
        if unknown:
            listed = ", ".join(names)
            raise BadOptions(
                Sentence(
                    f"there is no part {unknown[0]!r}; the parts are {listed}",
                    f"es gibt kein Teil {unknown[0]!r}; die Teile sind {listed}",
                )
            )
        if len(set(order)) != len(order):
            raise BadOptions(
                Sentence("a part can be laid only once", "ein Teil kann nur einmal gelegt werden")
            )
        if len(order) != count:
            named = _parts(len(order))
            raise BadOptions(
                Sentence(
                    f"part_order names {named.en} but parts is {count}",
                    f"part_order nennt {named.de}, aber parts ist {count}",
                )
            )
        return tuple(order)
    if count > len(names):
        raise BadOptions(too_few_parts(len(names), count))
    return tuple(rng.shuffle(sorted(names))[:count])


def build_track(data: TrackData, order: Iterable[str]) -> tuple[Space, ...]:
    """The spaces of the laid parts in order, then the goal part."""
    spaces: list[Space] = []
    for name in order:
        spaces.extend(parse_spaces(data.parts[name]))
    spaces.extend(parse_spaces(data.goal))
    return tuple(spaces)


def step(length: int, occupied: set[int], start: int, n: int) -> int:
    """Where a piece at ``start`` stops after a move of ``n`` counting free spaces only.

    Occupied spaces are skipped (rule 3). Forwards past the last free space crosses the line
    (``length + 1``); backwards past the first free space ends in the start area (ruling 2).
    """
    if n == 0:
        return start
    direction = 1 if n > 0 else -1
    end = length + 1 if n > 0 else START
    counted = 0
    for position in range(start + direction, end, direction):
        if position not in occupied:
            counted += 1
            if counted == abs(n):
                return position
    return end


def too_few_parts(has: int, count: int) -> Sentence:
    parts = _parts(has)
    return Sentence(
        f"the track has {parts.en}, fewer than the {count} to lay",
        f"die Strecke hat {parts.de}, weniger als die {count} zu legenden",
    )


def _parts(n: int) -> Sentence:
    return counted(n, ("{n} part", "{n} parts"), ("{n} Teil", "{n} Teile"))
