"""The options a game of Cool am Pool starts with, and the state of a game in play."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

from companion.games.cool_am_pool.board import (
    LIFEGUARD,
    TOWELS_EACH,
    BoardData,
    Lounger,
    board_from_json,
    board_to_json,
    default_board,
    load_board,
)
from companion.games.dice import Dice
from companion.games.frame import GameState
from companion.games.refereeing import first_seat_option, known_options
from companion.games.seats import SeatInfo

DICE = 6
BATHERS_EACH = 5
CHIPS = 16
MAX_CHIPS = 4
"""A player holds at most four water-ball chips."""
CHIPS_FOR_FOREIGN = 2
""""Impudence wins": two chips for a bather on a foreign towel."""
END_AT = 4
"""The game ends when this many towels or fewer are without a bather (after the round)."""

Phase = Literal["setup", "roll", "choose", "decide", "occupy", "over"]
"""Phases: towels are laid; the turn's first roll; after a roll (a chip or set dice aside);
roll again or stop; choose the lounger; the game is over."""
SETUP: Final = "setup"
ROLL: Final = "roll"
CHOOSE: Final = "choose"
DECIDE: Final = "decide"
OCCUPY: Final = "occupy"
OVER: Final = "over"

OWN, FOREIGN, RECONQUER, CONQUER, FIVE_POINT = (
    "own",
    "foreign",
    "reconquer",
    "conquer",
    "five-point",
)
"""The ways to take a lounger: turn one's own towel; a bather on a free foreign towel; reconquer
one's own towel from a foreign bather; finally conquer a foreign towel one's bather lies on; a
5-point lounger with five of a colour."""


@dataclass(frozen=True)
class Options:
    """How a game is set up. The board travels with the game, so exports replay exactly."""

    first_seat: int | None = None
    board: BoardData = field(default_factory=default_board)


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
(``[games.cool-am-pool]``), read and checked (errors name the file and its line), as options."""


@dataclass(frozen=True)
class State(GameState):
    """Everything about a game in play.

    ``towels[i]`` is the seat whose towel lies on lounger ``i`` and ``bathers[i]`` the seat whose
    bather lies on it: the same seat for a towel turned to its bather side, another seat for a
    bather figure on a foreign towel. Supplies and chips are kept per seat.
    """

    phase: Phase
    options: Options
    loungers: tuple[Lounger, ...]
    towels: tuple[int | None, ...]
    bathers: tuple[int | None, ...]
    towel_supply: dict[int, int]
    bather_supply: dict[int, int]
    chips: dict[int, int]
    pool: int
    lifeguard: int
    dice: Dice
    first_seat: int
    last_round: bool

    @property
    def board(self) -> BoardData:
        return self.options.board

    def last_of_round(self) -> int:
        """The seat whose turn completes a round: the one before the starting seat."""
        return self.clockwise_after(self.first_seat)[-1]

    def result(self) -> dict[str, int]:
        """The colour dice set aside this turn, by colour, in the board's order of colours
        (lifeguards are not a result)."""
        count: dict[str, int] = {}
        for face, aside in zip(self.dice.showing, self.dice.aside, strict=True):
            if aside and face is not None and face != LIFEGUARD:
                count[face] = count.get(face, 0) + 1
        return {c: count[c] for c in self.options.board.colours if c in count}

    def showing_in_hand(self) -> list[tuple[int, str]]:
        """The dice not set aside, with the face each shows (after a roll)."""
        return [
            (i, face)
            for i, (face, aside) in enumerate(zip(self.dice.showing, self.dice.aside, strict=True))
            if not aside and face is not None
        ]

    def without_bather(self) -> int:
        """Towels without a bather on them: the count that ends the game."""
        return sum(
            1 for t, b in zip(self.towels, self.bathers, strict=True) if t is not None and b is None
        )

    def towels_laid(self, seat: int) -> int:
        return sum(1 for t in self.towels if t == seat)


def fresh_dice(board: BoardData) -> Dice:
    """The six dice, all in hand, none rolled yet."""
    return Dice.of(board.faces, DICE)


def starting_supply(seats: tuple[SeatInfo, ...]) -> tuple[dict[int, int], dict[int, int]]:
    """Every seat's towels and bathers before setup."""
    return (
        {s.seat: TOWELS_EACH for s in seats},
        {s.seat: BATHERS_EACH for s in seats},
    )
