"""A random legal player for self-play, with random melt-outs so that every ending happens."""

from __future__ import annotations

import random

from companion.games.cool_runnings import messages as m
from companion.games.cool_runnings.engine import legal_actions
from companion.games.cool_runnings.state import COUNT, DEFLECT, PLAY, State
from companion.games.messages import REFEREE, TABLE

MELT_CHANCE = 0.006
"""Chance per action that some cube is declared melted: a few melt-outs in a typical game."""
REFEREE_CHANCE = 0.05


def random_action(state: State, rnd: random.Random) -> m.Action:
    """One legal action, as a table of random players would take it.

    The seat the game waits for acts; now and then the referee steps in instead, and now and
    then a cube melts.
    """
    if rnd.random() < MELT_CHANCE:
        return rnd.choice([a for a in legal_actions(state, REFEREE) if isinstance(a, m.Melted)])
    waited = _waited_for(state)
    actors = (REFEREE, waited) if rnd.random() < REFEREE_CHANCE else (waited,)
    for actor in actors:
        choices = [a for a in legal_actions(state, actor) if not isinstance(a, m.Melted)]
        if choices:
            return rnd.choice(choices)
    return rnd.choice(legal_actions(state, waited))


def _waited_for(state: State) -> int | str:
    p = state.pending
    if state.phase == PLAY or p is None:
        return state.turn_seat
    if state.phase == DEFLECT:
        return p.target
    if state.phase == COUNT:
        return TABLE
    return p.carrier
