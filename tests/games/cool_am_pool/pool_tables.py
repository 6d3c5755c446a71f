"""Hand-built Cool am Pool tables and loaded dice for the tests (not a test module itself).

Dice results are never left to luck: :class:`Loaded` stands in for the fair random source and
shows the planned faces, each roll written as a string of face names (``"red red lifeguard"``),
one per die rolled, in the order of the dice. Loungers are named by their labels (``"red 3a"``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from gameplay import Loaded

from companion.games.cool_am_pool import messages as m
from companion.games.cool_am_pool.board import LIFEGUARD, TOWELS_EACH
from companion.games.cool_am_pool.engine import apply, new_game
from companion.games.cool_am_pool.state import (
    BATHERS_EACH,
    CHIPS,
    CHOOSE,
    DECIDE,
    ROLL,
    State,
)
from companion.games.dice import Dice
from companion.games.fair import FairRandom
from companion.games.seats import SeatInfo

KAREN, TOM, MARY, BEN = 1, 2, 3, 4
SEATS = (
    SeatInfo(KAREN, "Karen", "blue"),
    SeatInfo(TOM, "Tom", "yellow"),
    SeatInfo(MARY, "Mary", "green"),
)
FOUR = (*SEATS, SeatInfo(BEN, "Ben", "pink"))
TWO = SEATS[:2]


def fresh(seats: Sequence[SeatInfo] = SEATS, **options: Any) -> State:
    """A new game, before the first towel is laid."""
    state, _ = new_game(options, seats, FairRandom(bytes(range(32))))
    return state


def spot(state: State, label: str) -> int:
    """The number of the lounger with this label."""
    for lounger in state.loungers:
        if lounger.label == label:
            return lounger.number
    raise AssertionError(f"no lounger {label!r}")


def labels(state: State, numbers: Iterable[int]) -> list[str]:
    """The labels of lounger numbers, sorted."""
    return sorted(state.loungers[n].label for n in numbers)


def space(state: State, name: str, nth: int = 0) -> int:
    """The track position of the ``nth`` space named ``name`` (a colour, or "2", "3", "4")."""
    found = [i for i, s in enumerate(state.board.track) if s == name]
    return found[nth]


def table(
    towels: Mapping[str, int] | None = None,
    bathers: Mapping[str, int] | None = None,
    chips: Mapping[int, int] | None = None,
    lifeguard: str | int = "purple",
    turn: int = KAREN,
    seats: Sequence[SeatInfo] = SEATS,
    aside: Sequence[str] = (),
    hand: Sequence[str] = (),
    phase: str | None = None,
) -> State:
    """A game after setup, at ``turn``'s turn.

    ``towels`` and ``bathers`` say whose lie on which loungers (by label); the other loungers of
    rows 2-4 get towels seat after seat. Supplies hold whatever is not on the board. ``aside``
    are the colour dice set aside this turn, ``hand`` the faces the other dice show after a roll
    (then the phase is "choose"; with only ``aside`` it is "decide"). ``lifeguard`` is the space
    the lifeguard stands on: after that roll's lifeguards moved it, when there is one.
    """
    state = fresh(seats)
    order = [s.seat for s in seats]
    towels, bathers, chips = dict(towels or {}), dict(bathers or {}), dict(chips or {})
    known = {lounger.label for lounger in state.loungers}
    assert set(towels) | set(bathers) <= known, set(towels) | set(bathers) - known
    on: list[int | None] = [None] * len(state.loungers)
    lying: list[int | None] = [None] * len(state.loungers)
    rest = iter(order * 30)
    for lounger in state.loungers:
        if lounger.label in towels:
            on[lounger.number] = towels[lounger.label]
        elif lounger.colour is not None:
            on[lounger.number] = next(rest)
        lying[lounger.number] = bathers.get(lounger.label)
    figures = {
        seat: sum(1 for t, b in zip(on, lying, strict=True) if b == seat and t != seat)
        for seat in order
    }
    dice = Dice.of(state.board.faces, 6)
    faces: list[str | None] = [*aside, *hand]
    faces += [None] * (6 - len(faces))
    dice = Dice(dice.faces, tuple(faces), tuple(i < len(aside) for i in range(6)))
    if phase is None:
        phase = CHOOSE if hand else DECIDE if aside else ROLL
    position = lifeguard if isinstance(lifeguard, int) else space(state, lifeguard)
    return state.evolve(
        towels=tuple(on),
        bathers=tuple(lying),
        towel_supply={s: TOWELS_EACH - on.count(s) for s in order},
        bather_supply={s: BATHERS_EACH - figures[s] for s in order},
        chips={s: chips.get(s, 0) for s in order},
        pool=CHIPS - sum(chips.values()),
        lifeguard=position,
        dice=dice,
        turn_seat=turn,
        turn=5,
        phase=phase,
    )


def act(state: State, action: m.Action, *rolls: str) -> tuple[State, list[Any]]:
    """Apply ``action`` with dice that show ``rolls``; every planned face must be used."""
    dice = Loaded(face for roll in rolls for face in roll.split())
    state, events = apply(state, action, dice)
    assert dice.spent, f"planned faces left over: {dice.planned}"
    return state, events


def faces_in_hand(state: State) -> list[str]:
    return [face for _, face in state.showing_in_hand()]


def lifeguards(state: State) -> list[int]:
    """The dice in hand showing the lifeguard."""
    return [i for i, face in state.showing_in_hand() if face == LIFEGUARD]
