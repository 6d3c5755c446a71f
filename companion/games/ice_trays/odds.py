"""Exact odds of the colour die, for the seat about to roll it.

The die is the one of the data file: each face equally likely, a face written twice twice as
likely. :func:`odds_json` gives the seat on turn, before its roll (``dice_in_hand`` is 1), these
chances, each rounded to 3 decimals:

- ``colour`` (with ``colour``): the die shows that colour; one entry per colour of the die.
- ``wild``: the die shows Wild.
- ``steal``: the die shows Steal.
- ``no-move``: the face rolled allows no move (no cube or blueberry to take, nothing to steal),
  so the turn ends at once.

The faces' entries split the roll's outcomes: they add up to 1. ``no-move`` is not one more
outcome beside them but a share of theirs: the chances of the faces that allow no move, added
up; the pages word it so ("of these, ..."). Once the die is rolled there is nothing left to
chance this turn, and there are no odds.

>>> face_chances(("blue", "blue", "pink", "wild"))
{'blue': Fraction(1, 2), 'pink': Fraction(1, 4), 'wild': Fraction(1, 4)}
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from companion.games.ice_trays.board import STEAL, WILD
from companion.games.ice_trays.engine import moves
from companion.games.ice_trays.state import CHOOSE, ROLL, State

COLOUR, NO_MOVE = "colour", "no-move"
KEYS: tuple[str, ...] = (COLOUR, WILD, STEAL, NO_MOVE)
"""The keys of the chances :func:`odds_json` lists."""


def face_chances(faces: Sequence[str]) -> dict[str, Fraction]:
    """The chance of each face of the die, in the order the faces first appear."""
    return {face: Fraction(n, len(faces)) for face, n in Counter(faces).items()}


def no_move_chance(state: State) -> Fraction:
    """The chance that the roll about to be made allows the seat on turn no move."""
    return sum(
        (
            p
            for face, p in face_chances(state.board.faces).items()
            if not moves(state.evolve(phase=CHOOSE, face=face))
        ),
        start=Fraction(0),
    )


def odds_json(state: State) -> dict[str, Any] | None:
    """The chances of the roll the seat on turn is to make (see the module's keys), or None
    when it is not rolling.

    >>> from companion.games.ice_trays.engine import new_game
    >>> from companion.games.fair import FairRandom
    >>> from companion.games.seats import default_seats
    >>> state, _ = new_game({}, default_seats(2), FairRandom(bytes(32)))
    >>> odds = odds_json(state)
    >>> odds["dice_in_hand"], odds["chances"][0]
    (1, {'key': 'colour', 'p': 0.167, 'colour': 'blue'})

    At the start no cup holds a cube to steal, so Steal allows no move:

    >>> odds["chances"][-1]
    {'key': 'no-move', 'p': 0.167}
    """
    if state.phase != ROLL:
        return None
    chances = [
        _chance(face, p) if face in (WILD, STEAL) else _chance(COLOUR, p, colour=face)
        for face, p in face_chances(state.board.faces).items()
    ]
    chances.append(_chance(NO_MOVE, no_move_chance(state)))
    return {"dice_in_hand": 1, "chances": chances}


def _chance(key: str, p: Fraction, **about: Any) -> dict[str, Any]:
    return {"key": key, "p": round(float(p), 3), **about}
