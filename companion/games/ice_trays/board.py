"""The Ice Trays board as data: the colour of each tray, a tray's capacity, and the die's faces.

The rulebook fixes the counts (8 trays, 2 per colour, 4 cups, 4 blueberries); where each colour
lies, how many cubes a tray holds and the faces of the die are unverified defaults in
``data/ice-trays.toml``, which a table can edit to match its own box.

>>> board = default_board()
>>> board.colour(1), board.trays_of("orange"), board.capacity
('blue', (4, 8), 5)
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from companion.datafile import DataFile
from companion.errors import BadOptions
from companion.games.sentence import Sentence

BOARD_FILE = "ice-trays.toml"
SIDES = 4
TRAYS_PER_SIDE = 2
TRAYS = SIDES * TRAYS_PER_SIDE
START_CUBES = 3
"""Cubes in each tray at the start (rulebook: 24 cubes, 3 in each of the 8 trays)."""
WILD, STEAL = "wild", "steal"

_COLOUR = re.compile(r"^[a-z][a-z-]*$")


@dataclass(frozen=True)
class Board:
    """``sides``: the colours of each side's two trays, clockwise from cup 1; tray ``t`` (1..8)
    is ``sides[(t - 1) // 2][(t - 1) % 2]``."""

    sides: tuple[tuple[str, ...], ...]
    capacity: int
    faces: tuple[str, ...]

    def colour(self, tray: int) -> str:
        return self.sides[(tray - 1) // TRAYS_PER_SIDE][(tray - 1) % TRAYS_PER_SIDE]

    def trays_of(self, colour: str) -> tuple[int, ...]:
        """The trays of a colour; every tray for Wild, none for Steal."""
        return self._trays_by_face.get(colour, ())

    @cached_property
    def _trays_by_face(self) -> dict[str, tuple[int, ...]]:
        # Asked on every move of every game: worked out once per board.
        every = tuple(range(1, TRAYS + 1))
        by_face = {c: tuple(t for t in every if self.colour(t) == c) for c in self.colours}
        return by_face | {WILD: every}

    @property
    def colours(self) -> tuple[str, ...]:
        """The colours of the board, in the order they first appear clockwise."""
        return tuple(dict.fromkeys(c for side in self.sides for c in side))


def side_of(tray: int) -> int:
    """The side (1..4) a tray lies on, whose blueberry it shares with its neighbour.

    >>> [side_of(t) for t in range(1, 9)]
    [1, 1, 2, 2, 3, 3, 4, 4]
    """
    return (tray - 1) // TRAYS_PER_SIDE + 1


def check_board(sides: Sequence[Sequence[str]], capacity: int, faces: Sequence[str]) -> Board:
    """A board from its parts; ``ValueError`` says what is wrong, as a player would mend it."""
    check_sides(sides)
    check_capacity(capacity)
    check_faces(faces, sides)
    return Board(tuple(tuple(side) for side in sides), capacity, tuple(faces))


def check_side(side: Sequence[str], number: int) -> None:
    """One side's colours: two different colour names (a blueberry sits between two colours)."""
    if len(side) != TRAYS_PER_SIDE:
        raise ValueError(
            f"side {number} names {len(side)} trays; a side is 2 colours, like 'blue yellow'"
        )
    for colour in side:
        if not isinstance(colour, str) or not _COLOUR.match(colour) or colour in (WILD, STEAL):
            raise ValueError(f"side {number}: {colour!r} is not a colour name like 'blue'")
    if side[0] == side[1]:
        raise ValueError(f"side {number}: its two trays must have different colours")


def check_sides(sides: Sequence[Sequence[str]]) -> None:
    """Four sides of two colours each, every colour on exactly two trays."""
    if len(sides) != SIDES:
        raise ValueError(f"the board has {SIDES} sides, not {len(sides)}")
    for number, side in enumerate(sides, start=1):
        check_side(side, number)
    counts = Counter(c for side in sides for c in side)
    odd = [c for c, n in counts.items() if n != TRAYS_PER_SIDE]
    if odd:
        raise ValueError(
            f"each colour has 2 trays, but {odd[0]!r} has {counts[odd[0]]} "
            f"(the colours are {', '.join(counts)})"
        )


def check_capacity(capacity: Any) -> None:
    if isinstance(capacity, bool) or not isinstance(capacity, int) or capacity < START_CUBES:
        raise ValueError(
            f"capacity must be a whole number of at least {START_CUBES} "
            f"(a tray starts with {START_CUBES} cubes), not {capacity!r}"
        )


def check_faces(faces: Sequence[str], sides: Sequence[Sequence[str]]) -> None:
    """The die shows the board's colours, Wild and Steal; a colour missing on either is a typo."""
    colours = {c for side in sides for c in side}
    if not faces:
        raise ValueError("the die needs at least one face")
    for face in faces:
        if face not in colours and face not in (WILD, STEAL):
            raise ValueError(
                f"the die face {face!r} is no colour of the board, nor 'wild' or 'steal'"
            )
    missing = sorted(colours - set(faces))
    if missing:
        raise ValueError(f"the colour {missing[0]!r} is on the board but not on the die")


def load_board(path: str | Path | None = None) -> Board:
    """The board from a data file (the bundled default when ``path`` is None)."""
    doc = DataFile.bundled(BOARD_FILE) if path is None else DataFile.read(path)
    _no_unknown(doc, (), {"board", "die"})
    _no_unknown(doc, ("board",), {"sides", "capacity"})
    _no_unknown(doc, ("die",), {"faces"})
    sides: list[tuple[str, ...]] = []
    for offset, entry in doc.notation_lines(("board", "sides")):
        side = tuple(entry.split())
        try:
            check_side(side, len(sides) + 1)
        except ValueError as exc:
            doc.fail(("board", "sides"), str(exc), offset)
        sides.append(side)
    capacity = doc.get(("board", "capacity"), int)
    faces = tuple(doc.get(("die", "faces"), str).split())
    checks: list[tuple[tuple[str, str], Callable[[], None]]] = [
        (("board", "sides"), lambda: check_sides(sides)),
        (("board", "capacity"), lambda: check_capacity(capacity)),
        (("die", "faces"), lambda: check_faces(faces, sides)),
    ]
    for keys, check in checks:
        try:
            check()
        except ValueError as exc:
            doc.fail(keys, str(exc))
    return Board(tuple(sides), capacity, faces)


def _no_unknown(doc: DataFile, keys: tuple[str, ...], known: set[str]) -> None:
    node = doc.get(keys, dict) if keys else doc.data
    for key in sorted(set(node) - known):
        where = ".".join((*keys, key))
        doc.fail(
            (*keys, key), f"unknown key {where!r}: the keys here are {', '.join(sorted(known))}"
        )


@cache
def default_board() -> Board:
    return load_board()


def board_to_json(board: Board) -> dict[str, Any]:
    return {
        "sides": [list(side) for side in board.sides],
        "capacity": board.capacity,
        "faces": list(board.faces),
    }


def board_from_json(raw: Any) -> Board:
    """A board as it travels in a game's options; :class:`BadOptions` says what is wrong."""
    if not isinstance(raw, Mapping) or set(raw) != {"sides", "capacity", "faces"}:
        raise BadOptions(
            Sentence(
                "board must be an object with 'sides', 'capacity' and 'faces'",
                "board muss ein Objekt mit 'sides', 'capacity' und 'faces' sein",
            )
        )
    sides, faces = raw["sides"], raw["faces"]
    if (
        not isinstance(sides, list | tuple)
        or not all(isinstance(s, list | tuple) for s in sides)
        or not isinstance(faces, list | tuple)
        or not all(isinstance(f, str) for f in faces)
    ):
        raise BadOptions(
            Sentence(
                "board: sides is a list of colour pairs and faces a list of names, "
                "like [['blue', 'yellow'], ...] and ['blue', ..., 'wild', 'steal']",
                "board: sides ist eine Liste von Farbpaaren und faces eine Liste von Namen, "
                "wie [['blue', 'yellow'], ...] und ['blue', ..., 'wild', 'steal']",
            )
        )
    try:
        return check_board(sides, raw["capacity"], faces)
    except ValueError as exc:
        raise BadOptions(Sentence.join(": ", "board", str(exc))) from None
