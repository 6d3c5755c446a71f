"""A random legal player for self-play: it rolls on or stops by a coin toss."""

from __future__ import annotations

import random

from companion.games.daddy_cool import messages as m
from companion.games.daddy_cool.engine import legal_actions
from companion.games.daddy_cool.state import State
from companion.games.messages import REFEREE

REFEREE_CHANCE = 0.05
"""Now and then the referee presses for the seat whose turn it is."""


def random_action(state: State, rnd: random.Random) -> m.Action:
    """One legal action, as a table of random players would take it."""
    actor = REFEREE if rnd.random() < REFEREE_CHANCE else state.turn_seat
    return rnd.choice(legal_actions(state, actor))
