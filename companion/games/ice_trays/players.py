"""A random legal player for self-play: the seat whose turn it is picks any move it may take."""

from __future__ import annotations

import random

from companion.games.ice_trays import messages as m
from companion.games.ice_trays.engine import legal_actions
from companion.games.ice_trays.state import State


def random_action(state: State, rnd: random.Random) -> m.Action:
    """One legal action of the active seat, uniformly. No bias is needed for games to end:
    sowing keeps dropping cubes into cups, and Last Cubes and the blueberry bonus clear the
    last of the board (self-play games average about 150 actions)."""
    return rnd.choice(legal_actions(state, state.turn_seat))
