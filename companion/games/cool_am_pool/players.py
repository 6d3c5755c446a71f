"""A random legal player for self-play that plays roughly like a family at the table.

It mostly goes for one colour (the one it holds most of, and not the column the lifeguard
closes when another will do), throws a water ball now and then, stops more readily the more it
has, and takes any lounger its dice allow. Now and then it sets aside a random handful instead,
so that odd choices are played too.
"""

from __future__ import annotations

import random
from collections import Counter

from companion.games.cool_am_pool import messages as m
from companion.games.cool_am_pool.board import COLUMN, LIFEGUARD, closed
from companion.games.cool_am_pool.engine import legal_actions
from companion.games.cool_am_pool.state import CHOOSE, DECIDE, ROLL, State

CHIP_CHANCE = 0.2
"""Chance of spending a chip on a roll that adds nothing to the colour aimed at."""
ODD_CHANCE = 0.1
"""Chance of setting aside a random handful of colour dice instead of one colour."""
STOP_CHANCE = {0: 0.02, 1: 0.05, 2: 0.2, 3: 0.45, 4: 0.8}
"""Chance of stopping by the most dice of one colour set aside (five or more: always)."""


def random_action(state: State, rnd: random.Random) -> m.Action:
    """One legal action for the seat whose turn it is."""
    seat = state.turn_seat
    if state.phase == ROLL:
        return m.Roll(seat)
    if state.phase == DECIDE:
        most = max(state.result().values(), default=0)
        return m.Stop(seat) if rnd.random() < STOP_CHANCE.get(most, 1.0) else m.Roll(seat)
    if state.phase == CHOOSE:
        return _choose(state, seat, rnd)
    return rnd.choice(legal_actions(state, seat))


def _choose(state: State, seat: int, rnd: random.Random) -> m.Action:
    shown = [(i, face) for i, face in state.showing_in_hand() if face != LIFEGUARD]
    result = state.result()
    aim = max(result, key=result.__getitem__, default=None)
    useless = aim is None or all(face != aim for _, face in shown)
    if state.chips[seat] and useless and rnd.random() < CHIP_CHANCE:
        return m.SpendChip(seat)
    if not shown:
        return m.SetAside(seat, ())
    if rnd.random() < ODD_CHANCE:
        options = [a for a in legal_actions(state, seat) if isinstance(a, m.SetAside)]
        return rnd.choice(options)
    counts = Counter(face for _, face in shown)
    counts.update(result)
    kind, what = closed(state.board, state.lifeguard)
    open_faces = {face for _, face in shown if kind != COLUMN or face != what}
    faces = open_faces or {face for _, face in shown}
    best = max(counts[face] for face in faces)
    colour = rnd.choice(sorted(face for face in faces if counts[face] == best))
    return m.SetAside(seat, tuple(i for i, face in shown if face == colour))
