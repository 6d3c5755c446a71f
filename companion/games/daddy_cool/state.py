"""The options a game of Daddy Cool starts with, and the state of a game in play.

Positions are numbers on the path in play: 0 is the start in front of the first floe, ``i`` is
the ``i``-th floe, and ``len(path)`` is the wash tub. When the path gets longer the positions
of the cubs shift with their floes (see :func:`~companion.games.daddy_cool.board.lengthen`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

from companion.errors import BadOptions
from companion.games.daddy_cool.board import (
    CRACKED,
    Board,
    check_dice,
    default_board,
    load_board,
    parse_die,
    parse_path,
    path_notation,
)
from companion.games.dice import Dice
from companion.games.frame import GameState
from companion.games.refereeing import first_seat_option, known_options
from companion.games.sentence import Sentence

START = 0
Phase = Literal["roll", "choose", "over"]
"""Phases: the seat must roll; the seat may roll on or stop; the game is over."""
ROLL: Final = "roll"
CHOOSE: Final = "choose"
OVER: Final = "over"
TURN_START, ON_CRACKED, ALL_ASIDE = "turn-start", "cracked-floe", "all-dice-aside"
"""Why a roll is forced: the first roll of a turn, Daddy Cool on a cracked floe, every die
set aside."""
_DIE = "floe floe floe blank blank blank"


@dataclass(frozen=True)
class Options:
    """How a game is set up. The board travels with the game, so exports replay exactly.

    ``lengthen_path`` False is the game for the youngest players: the path stays as laid.
    """

    first_seat: int | None = None
    lengthen_path: bool = True
    board: Board = field(default_factory=default_board)


def options_from_json(raw: Mapping[str, Any] | None) -> Options:
    """Options from JSON; missing ones take their defaults, unknown ones are refused."""
    raw = known_options(raw, {"first_seat", "lengthen_path", "path", "dice"})
    first = first_seat_option(raw)
    lengthen = raw.get("lengthen_path", True)
    if not isinstance(lengthen, bool):
        raise BadOptions(
            Sentence(
                f"lengthen_path must be true or false, not {lengthen!r}",
                f"lengthen_path muss true oder false sein, nicht {lengthen!r}",
            )
        )
    board = default_board()
    path, dice = board.path, board.dice
    if "path" in raw:
        if not isinstance(raw["path"], str):
            raise BadOptions(
                Sentence(
                    "path must be a string like '. . C . T'",
                    "path muss ein Text wie '. . C . T' sein",
                )
            )
        try:
            path = parse_path(raw["path"])
        except ValueError as exc:
            raise BadOptions(Sentence.join(": ", "path", str(exc))) from None
    if "dice" in raw:
        dice = _dice_from_json(raw["dice"])
    return Options(first, lengthen, Board(path, dice))


def _dice_from_json(raw: Any) -> tuple[tuple[str, ...], ...]:
    if not isinstance(raw, list | tuple):
        raise BadOptions(
            Sentence(
                f"dice must be a list of dice like {_DIE!r}",
                f"dice muss eine Liste von Würfeln wie {_DIE!r} sein",
            )
        )
    dice = []
    for i, text in enumerate(raw, start=1):
        if not isinstance(text, str):
            raise BadOptions(
                Sentence(
                    f"die {i} must be a string like {_DIE!r}",
                    f"Würfel {i} muss ein Text wie {_DIE!r} sein",
                )
            )
        try:
            dice.append(parse_die(text))
        except ValueError as exc:
            raise BadOptions(
                Sentence.join(": ", Sentence(f"die {i}", f"Würfel {i}"), str(exc))
            ) from None
    problem = check_dice(dice)
    if problem:
        raise BadOptions(Sentence.join(": ", "dice", problem))
    return tuple(dice)


def options_to_json(options: Options) -> dict[str, Any]:
    return {
        "first_seat": options.first_seat,
        "lengthen_path": options.lengthen_path,
        **_board_to_json(options.board),
    }


def _board_to_json(board: Board) -> dict[str, Any]:
    return {"path": path_notation(board.path), "dice": [" ".join(faces) for faces in board.dice]}


DATA_FILES: Mapping[str, Callable[[Path], dict[str, Any]]] = {
    "board": lambda path: _board_to_json(load_board(path)),
}
"""The table's own box: each data file a table config may name for the game
(``[games.daddy-cool]``), read and checked (errors name the file and its line), as options."""


@dataclass(frozen=True)
class State(GameState):
    """Everything about a game in play.

    ``path`` holds floe identities (indices into ``options.board.path``), the tub last; ``box``
    the floes put back in the box, in the order they went. ``cubs`` maps each seat to its
    cub's position, ``daddy`` is Daddy Cool's. ``forced`` says why the next roll is forced
    (empty when the seat may stop).
    """

    phase: Phase
    options: Options
    path: tuple[int, ...]
    box: tuple[int, ...]
    cubs: dict[int, int]
    daddy: int
    dice: Dice
    forced: tuple[str, ...]
    winner: int | None

    @property
    def tub(self) -> int:
        """The position of the wash tub: the end of the path."""
        return len(self.path)

    def kind(self, position: int) -> str | None:
        """The kind of floe at a position; None for the start."""
        return self.options.board.path[self.path[position - 1]] if position > START else None

    def cracked(self, position: int) -> bool:
        return self.kind(position) == CRACKED

    @property
    def gain(self) -> int:
        """How far the active cub would go by joining Daddy Cool now."""
        return self.daddy - self.cubs[self.turn_seat]

    def next_roll(self) -> tuple[int, ...]:
        """The dice the next roll throws: those in hand, or all of them once all are aside."""
        return self.dice.in_hand() or tuple(range(len(self.dice.faces)))


def fresh_dice(board: Board) -> Dice:
    """The dice of a board, all in hand, none rolled yet."""
    count = len(board.dice)
    return Dice(board.dice, (None,) * count, (False,) * count)
