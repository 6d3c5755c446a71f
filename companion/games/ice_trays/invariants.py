"""What must hold after every action of Ice Trays, checked by self-play and the tests."""

from __future__ import annotations

from companion.games.ice_trays.board import START_CUBES, TRAYS
from companion.games.ice_trays.engine import moves
from companion.games.ice_trays.state import CHOOSE, OVER, ROLL, State

CUBES = START_CUBES * TRAYS
BLUEBERRIES = TRAYS // 2


def invariants(state: State) -> list[str]:
    """The broken invariants of ``state``, in words; empty when all hold."""
    broken = []
    cubes = sum(state.trays) + sum(state.cubes.values())
    if cubes != CUBES:
        broken.append(f"cubes not conserved: {cubes} on the board and in the cups, not {CUBES}")
    berries = sum(state.berries) + sum(state.blueberries.values())
    if berries != BLUEBERRIES:
        broken.append(f"blueberries not conserved: {berries}, not {BLUEBERRIES}")
    over = [t for t, n in enumerate(state.trays, start=1) if not 0 <= n <= state.board.capacity]
    if over:
        broken.append(f"trays {over} hold {[state.trays[t - 1] for t in over]} cubes")
    if any(n < 0 for n in (*state.cubes.values(), *state.blueberries.values())):
        broken.append(f"a cup holds less than nothing: {state.cubes} {state.blueberries}")
    if state.seat(state.turn_seat) is None:
        broken.append(f"the turn is with seat {state.turn_seat}, who is not at the table")
    if (state.phase == OVER) != state.board_empty:
        left = f"{sum(state.trays)} cubes and {sum(state.berries)} blueberries on the board"
        broken.append(f"phase {state.phase} with {left}")
    if state.phase == ROLL and state.face is not None:
        broken.append(f"the face {state.face} shows before the roll")
    if state.phase == CHOOSE and (state.face is None or not moves(state)):
        broken.append(f"waiting for a choice after {state.face} with nothing to choose")
    return broken
