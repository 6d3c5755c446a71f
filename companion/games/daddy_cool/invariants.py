"""What must hold after every action of Daddy Cool, checked by self-play and the tests."""

from __future__ import annotations

from companion.games.daddy_cool.board import TUB
from companion.games.daddy_cool.state import (
    ALL_ASIDE,
    CHOOSE,
    ON_CRACKED,
    OVER,
    ROLL,
    START,
    TURN_START,
    State,
)


def invariants(state: State) -> list[str]:
    """The broken invariants of ``state``, in words; empty when all hold."""
    broken = _floes(state) + _pieces(state) + _turn(state)
    if state.phase != OVER and state.winner is not None:
        broken.append("a winner while the game runs")
    if state.phase == OVER and (state.winner is None or state.cubs[state.winner] != state.tub):
        broken.append(f"the game is over but winner {state.winner} is not at the wash tub")
    return broken


def _floes(state: State) -> list[str]:
    """The path keeps its floes, or loses them to the box only as "The Path Gets Longer" says."""
    broken = []
    kinds = state.options.board.path
    floes = sorted((*state.path, *state.box))
    if floes != list(range(len(kinds))):
        broken.append(f"floes not conserved: path {state.path}, box {state.box}")
    if kinds[state.path[-1]] != TUB:
        broken.append(f"the path does not end with the wash tub: {state.path}")
    if any(kinds[f] == TUB for f in state.box):
        broken.append("the wash tub is in the box")
    if not state.options.lengthen_path and (state.box or state.path != tuple(range(len(kinds)))):
        broken.append("the path changed in the game for the youngest players")
    # Each lengthening takes at least two floes away and puts one in the box, leaving the last
    # cub on the first floe, so between turns fewer than two floes lie behind the last cub.
    if state.options.lengthen_path and state.phase != OVER and min(state.cubs.values()) > 2:
        broken.append(f"two or more floes behind the last cub: {state.cubs}")
    if len(state.path) < 2:
        broken.append("no floe is left before the wash tub")
    return broken


def _pieces(state: State) -> list[str]:
    broken = []
    for seat, position in state.cubs.items():
        if position < START:
            broken.append(f"seat {seat}'s cub is behind the start: {position}")
        if position > state.tub or (position == state.tub and seat != state.winner):
            broken.append(f"seat {seat}'s cub is at {position}, the tub is {state.tub}")
        elif position > START and state.cracked(position):
            # A cub joins Daddy Cool only where he may stop, and lengthening keeps its floe.
            broken.append(f"seat {seat}'s cub stands on a cracked floe at {position}")
    if not START <= state.daddy <= state.tub:
        broken.append(f"Daddy Cool is off the path at {state.daddy}")
    if sorted(state.cubs) != sorted(s.seat for s in state.seats):
        broken.append(f"the cubs {sorted(state.cubs)} are not the seats'")
    return broken


def _turn(state: State) -> list[str]:
    """Daddy Cool, the dice and the choice agree with the rules of a turn."""
    if state.phase == OVER:
        return []
    broken = []
    cub = state.cubs[state.turn_seat]
    dice = state.dice
    if state.phase not in (ROLL, CHOOSE):
        broken.append(f"unknown phase {state.phase!r}")
    if state.daddy < cub:
        broken.append(f"Daddy Cool at {state.daddy} is behind the active cub at {cub}")
    if any(a and s is None for a, s in zip(dice.aside, dice.showing, strict=True)):
        broken.append("a die is set aside without having been rolled")
    if state.forced == (TURN_START,):
        if state.daddy != cub or any(dice.aside) or state.phase != ROLL:
            broken.append("a turn starts with Daddy Cool away from the cub or dice set aside")
    elif state.phase == CHOOSE:
        if state.forced or state.daddy == cub:
            broken.append("the seat may stop without a floe rolled")
        if state.cracked(state.daddy) or all(dice.aside):
            broken.append("the seat may stop on a cracked floe or with every die aside")
    else:
        expected = ((ON_CRACKED,) if state.cracked(state.daddy) else ()) + (
            (ALL_ASIDE,) if all(dice.aside) else ()
        )
        if not state.forced or state.forced != expected:
            broken.append(f"a forced roll for {state.forced}, but the table shows {expected}")
    return broken
