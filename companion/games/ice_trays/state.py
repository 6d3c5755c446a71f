"""The options a game of Ice Trays starts with, and the state of a game in play."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

from companion.games.frame import GameState
from companion.games.ice_trays.board import (
    Board,
    board_from_json,
    board_to_json,
    default_board,
    load_board,
    side_of,
)
from companion.games.refereeing import first_seat_option, known_options

Phase = Literal["roll", "choose", "over"]
"""Where a game stands: its phases, by name."""
ROLL: Final = "roll"
CHOOSE: Final = "choose"
OVER: Final = "over"
CUBE_POINTS, BLUEBERRY_POINTS = 1, 2


@dataclass(frozen=True)
class Options:
    """How a game is set up. The board travels with the game, so an export replays exactly."""

    first_seat: int | None = None
    board: Board = field(default_factory=default_board)


def options_from_json(raw: Mapping[str, Any] | None) -> Options:
    """Options from JSON; missing ones take their defaults, unknown ones are refused."""
    raw = known_options(raw, {"first_seat", "board"})
    first = first_seat_option(raw)
    board = board_from_json(raw["board"]) if "board" in raw else default_board()
    return Options(first, board)


def options_to_json(options: Options) -> dict[str, Any]:
    return {"first_seat": options.first_seat, "board": board_to_json(options.board)}


DATA_FILES: Mapping[str, Callable[[Path], dict[str, Any]]] = {
    "board": lambda path: {"board": board_to_json(load_board(path))},
}
"""The table's own box: each data file a table config may name for the game
(``[games.ice-trays]``), read and checked (errors name the file and its line), as options."""


@dataclass(frozen=True)
class State(GameState):
    """Everything about a game in play.

    Seats sit at cups 1, 2, ... in seat order (clockwise), so two players sit side by side.
    ``trays`` counts the cubes of trays 1..8, ``berries`` says whether each side's blueberry is
    still on the board, and ``cubes``/``blueberries`` hold what each seat's cup has collected.
    ``face`` is the face rolled this turn (``None`` before the roll).
    """

    phase: Phase
    options: Options
    trays: tuple[int, ...]
    berries: tuple[bool, ...]
    cubes: dict[int, int]
    blueberries: dict[int, int]
    face: str | None

    @property
    def board(self) -> Board:
        return self.options.board

    def cup_of(self, seat: int) -> int:
        """The cup a seat sits at: the first seat at cup 1, the next clockwise at cup 2, ..."""
        return next(i for i, s in enumerate(self.seats, start=1) if s.seat == seat)

    def seat_at(self, cup: int) -> int | None:
        """Who sits at a cup, or ``None`` for an empty corner."""
        return self.seats[cup - 1].seat if cup <= len(self.seats) else None

    def berry_beside(self, tray: int) -> bool:
        """Whether the blueberry of the tray's side is still on the board."""
        return self.berries[side_of(tray) - 1]

    def points(self, seat: int) -> int:
        """A cube scores 1, a blueberry 2."""
        return self.cubes[seat] * CUBE_POINTS + self.blueberries[seat] * BLUEBERRY_POINTS

    @property
    def board_empty(self) -> bool:
        """No cube and no blueberry left on the board: the game ends."""
        return not any(self.trays) and not any(self.berries)
