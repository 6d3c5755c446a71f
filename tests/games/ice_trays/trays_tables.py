"""Hand-built Ice Trays positions for the tests, and a die that shows the face a test needs.

Lauren, Jonathan and Julia are the players of the rulebook's examples, clockwise at cups 1-3.
With the bundled board, clockwise from cup 1: blue 1, yellow 2 | cup 2 | pink 3, orange 4 |
cup 3 | blue 5, yellow 6 | cup 4 | pink 7, orange 8 | back to cup 1.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from companion.games.dice import Dice
from companion.games.fair import FairRandom
from companion.games.ice_trays.engine import new_game
from companion.games.ice_trays.state import CHOOSE, ROLL, State
from companion.games.seats import SeatInfo

LAUREN, JONATHAN, JULIA, BEN = 1, 2, 3, 4
SEATS = (
    SeatInfo(LAUREN, "Lauren", "blue"),
    SeatInfo(JONATHAN, "Jonathan", "yellow"),
    SeatInfo(JULIA, "Julia", "green"),
)
ALL_SIDES = (1, 2, 3, 4)


def rng() -> FairRandom:
    """The fair random source every position is set up with."""
    return FairRandom(bytes(range(32)))


def position(
    trays: Sequence[int] | Mapping[int, int] | None = None,
    berries: Iterable[int] = ALL_SIDES,
    cubes: Mapping[int, int] | None = None,
    blueberries: Mapping[int, int] | None = None,
    turn: int = LAUREN,
    face: str | None = None,
    seats: Sequence[SeatInfo] = SEATS,
    options: Mapping[str, Any] | None = None,
) -> State:
    """A game in a given position.

    ``trays``: all eight counts, or ``{tray: count}`` changes to the starting three each;
    ``berries``: the sides whose blueberry is still on the board; ``cubes``/``blueberries``:
    what the cups hold. With ``face`` the seat has rolled it and chooses; without, it rolls.
    """
    state, _ = new_game({"first_seat": turn, **(options or {})}, seats, rng())
    counts = list(state.trays)
    if isinstance(trays, Mapping):
        for tray, n in trays.items():
            counts[tray - 1] = n
    elif trays is not None:
        counts = list(trays)
    sides = set(berries)
    return state.evolve(
        trays=tuple(counts),
        berries=tuple(side in sides for side in ALL_SIDES),
        cubes={s.seat: (cubes or {}).get(s.seat, 0) for s in seats},
        blueberries={s.seat: (blueberries or {}).get(s.seat, 0) for s in seats},
        phase=CHOOSE if face else ROLL,
        face=face,
    )


def rolling(state: State, face: str) -> State:
    """The same position, with the fair random positioned so that the next roll shows ``face``."""
    die = Dice.of(state.board.faces, 1)
    for counter in range(state.rng_counter, state.rng_counter + 1000):
        _, rolled = die.roll(rng().at(counter))
        if rolled.faces == (face,):
            return state.evolve(rng_counter=counter)
    raise AssertionError(f"no roll of {face!r} in a thousand draws")
