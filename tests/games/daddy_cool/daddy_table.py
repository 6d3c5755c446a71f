"""Hand-built Daddy Cool tables and loaded dice for the tests (not a test module itself).

Dice results are never left to luck: :class:`Loaded` stands in for the fair random source and
shows the planned faces, written one roll a string, ``F`` a floe and ``-`` a blank, one
character per die rolled in the order of the dice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gameplay import Loaded
from hypothesis import strategies as st

from companion.games.daddy_cool import messages as m
from companion.games.daddy_cool.board import BLANK, FLOE
from companion.games.daddy_cool.engine import apply, new_game
from companion.games.daddy_cool.state import State
from companion.games.fair import FairRandom
from companion.games.seats import SeatInfo

KAREN, TOM, MARY, BEN = 1, 2, 3, 4
SEATS = (
    SeatInfo(KAREN, "Karen", "blue"),
    SeatInfo(TOM, "Tom", "yellow"),
    SeatInfo(MARY, "Mary", "green"),
)
FOUR = (*SEATS, SeatInfo(BEN, "Ben", "pink"))
RULEBOOK_PATH = ". . . . . C . . . . . C . . . T"
PATHS = (None, ". . C . T", "C . C . . C T", ". . . . . . . . T")
DICE = (None, ["floe blank"] * 3, ["floe", "blank blank floe", "floe floe blank blank"])


def drawn_board(draw: st.DrawFn, seats: tuple) -> dict:
    """Options on a drawn board: a path, dice, and the path lengthening on or off."""
    options: dict = {"lengthen_path": draw(st.booleans())}
    path, dice = draw(st.sampled_from(PATHS)), draw(st.sampled_from(DICE))
    return options | ({"path": path} if path else {}) | ({"dice": dice} if dice else {})


def table(
    cubs: Mapping[int, int] | None = None,
    turn: int = KAREN,
    path: str = RULEBOOK_PATH,
    seats: Sequence[SeatInfo] = SEATS,
    **options: Any,
) -> State:
    """A game at the start of ``turn``'s turn, the cubs where given (the others at the start)."""
    state, _ = new_game({"path": path, **options}, seats, FairRandom(bytes(range(32))))
    positions = {s.seat: (cubs or {}).get(s.seat, 0) for s in seats}
    return state.evolve(cubs=positions, turn_seat=turn, daddy=positions[turn])


def act(state: State, action: m.Action, *rolls: str) -> tuple[State, list[Any]]:
    """Apply ``action`` with dice that show ``rolls``; every planned roll must be used."""
    dice = Loaded(FLOE if c == "F" else BLANK for roll in rolls for c in roll)
    state, events = apply(state, action, dice)
    assert dice.spent, f"planned faces left over: {dice.planned}"
    return state, events


def roll(state: State, *rolls: str, by: int | str | None = None) -> tuple[State, list[Any]]:
    """The active seat (or ``by``) rolls, and the dice show ``rolls``."""
    return act(state, m.Roll(state.turn_seat if by is None else by), *rolls)


def stop(state: State, by: int | str | None = None) -> tuple[State, list[Any]]:
    return act(state, m.Stop(state.turn_seat if by is None else by))
