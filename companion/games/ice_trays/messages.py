"""The actions an Ice Trays table can take, and the events the engine answers with.

Only the seat whose turn it is acts (``by`` is its number): it rolls, then chooses one move the
face allows. Every type name starts with ``trays-`` so it never clashes with another game's.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass

from companion.games.messages import message

# Actions


@message("trays-roll")
@dataclass(frozen=True)
class Roll:
    """The active seat rolls the colour die (the device rolls it, fairly)."""

    by: int


@message("trays-sow")
@dataclass(frozen=True)
class Sow:
    """Take every cube of ``tray`` and sow them ``direction`` ("clockwise" or
    "counterclockwise"): a colour face allows its two trays, Wild any tray."""

    by: int
    tray: int
    direction: str


@message("trays-take-blueberry")
@dataclass(frozen=True)
class TakeBlueberry:
    """Blueberry bonus: ``tray`` matches the colour rolled and is empty, so the blueberry of its
    side goes to the seat's cup (never with Wild)."""

    by: int
    tray: int


@message("trays-last-cubes")
@dataclass(frozen=True)
class LastCubes:
    """Last Cubes rule: ``tray`` is the only matching tray with cubes and no blueberry lies
    beside a matching tray, so all its cubes go straight to the seat's cup."""

    by: int
    tray: int


@message("trays-steal")
@dataclass(frozen=True)
class Steal:
    """Steal: one cube (never a blueberry) from ``victim``'s cup into the seat's own."""

    by: int
    victim: int


Action = Roll | Sow | TakeBlueberry | LastCubes | Steal
ACTIONS: tuple[type[Action], ...] = typing.get_args(Action)
"""Every kind of action, in the order of the union."""

# Events


@message("trays-board-set")
@dataclass(frozen=True)
class BoardSet:
    """The trays' colours (tray 1 first), the cubes put in each, and who sits at each cup
    (``None`` for a corner no one sits at)."""

    colours: tuple[str, ...]
    cubes_per_tray: int
    capacity: int
    cups: tuple[int | None, ...]


@message("trays-turn-started")
@dataclass(frozen=True)
class TurnStarted:
    seat: int
    turn: int


@message("trays-sowed")
@dataclass(frozen=True)
class Sowed:
    """``path``: where each cube went, in order (``"cup 1"``, ``"tray 8"``, ...)."""

    seat: int
    tray: int
    direction: str
    path: tuple[str, ...]


@message("trays-blueberry-taken")
@dataclass(frozen=True)
class BlueberryTaken:
    seat: int
    tray: int
    side: int


@message("trays-last-cubes-taken")
@dataclass(frozen=True)
class LastCubesTaken:
    seat: int
    tray: int
    cubes: int


@message("trays-stole")
@dataclass(frozen=True)
class Stole:
    seat: int
    victim: int


@message("trays-nothing-to-do")
@dataclass(frozen=True)
class NothingToDo:
    """The face rolled allows no move, so the turn ends by itself. ``reason``:
    ``no-cube-or-blueberry`` (neither tray of the colour has a cube or its blueberry),
    ``no-cube`` (Wild, and no tray has a cube) or ``nothing-to-steal`` (no opponent has a cube)."""

    seat: int
    face: str
    reason: str


@message("trays-game-over")
@dataclass(frozen=True)
class GameOver:
    """The board is empty. ``scores`` and ``cubes`` follow the seats in order; ``winner`` is
    ``None`` when points and then cubes are tied."""

    scores: tuple[int, ...]
    cubes: tuple[int, ...]
    winner: int | None
