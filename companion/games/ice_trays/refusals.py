"""Why an action is refused: one sentence a player understands, for every illegal action.

The engine decides legality (:func:`~companion.games.ice_trays.engine.is_legal`); this module
only explains a refusal, checking the likeliest reasons first.
"""

from __future__ import annotations

from companion.games.ice_trays import messages as m
from companion.games.ice_trays.board import STEAL, TRAYS, WILD, side_of
from companion.games.ice_trays.ring import DIRECTIONS
from companion.games.ice_trays.state import OVER, ROLL, State


def face_name(face: str) -> str:
    """How a face is said: a colour as it is, ``Wild`` and ``Steal`` capitalised."""
    return face.capitalize() if face in (WILD, STEAL) else face


def why_illegal(state: State, a: m.Action) -> str:
    """A sentence for a player: why this action is not allowed now."""
    name = state.name
    if state.phase == OVER:
        return "The game is over."
    if type(a.by) is not int:
        return f"{a.by!r} is not a seat: in Ice Trays only the seat whose turn it is acts."
    if state.seat(a.by) is None:
        return f"There is no seat {a.by} at this table."
    if a.by != state.turn_seat:
        return f"It is {name(state.turn_seat)}'s turn, not {name(a.by)}'s."
    if state.phase == ROLL:
        if isinstance(a, m.Roll):
            return "That action is not allowed now."
        return f"{name(a.by)} must roll the die first."
    face = state.face or ""
    rolled = f"{name(a.by)} rolled {face_name(face)}"
    if isinstance(a, m.Roll):
        return f"{rolled} already: choose what to do with it."
    if isinstance(a, m.Steal):
        if face != STEAL:
            return f"{rolled}: only the Steal face steals."
        if a.victim == a.by:
            return f"{name(a.by)} cannot steal from their own cup."
        if type(a.victim) is not int or state.seat(a.victim) is None:
            return f"There is no seat {a.victim} at this table."
        return f"{name(a.victim)}'s cup has no cube to steal, and a blueberry cannot be stolen."
    if face == STEAL:
        return f"{rolled}: take a cube from an opponent's cup."
    if type(a.tray) is not int or not 1 <= a.tray <= TRAYS:
        return f"There is no tray {a.tray!r}: the trays are numbered 1 to {TRAYS}."
    colour = state.board.colour(a.tray)
    if face != WILD and colour != face:
        return f"{rolled}, but tray {a.tray} is {colour}."
    if isinstance(a, m.Sow):
        if a.direction not in DIRECTIONS:
            return f"A direction is 'clockwise' or 'counterclockwise', not {a.direction!r}."
        return f"Tray {a.tray} has no cubes to sow."
    if isinstance(a, m.TakeBlueberry):
        if face == WILD:
            return "A blueberry cannot be taken with Wild."
        if state.trays[a.tray - 1]:
            return (
                f"Tray {a.tray} still holds cubes: a blueberry is taken only beside an empty "
                f"tray of the colour rolled."
            )
        return f"The blueberry of side {side_of(a.tray)} has been taken already."
    if isinstance(a, m.LastCubes):
        if not state.trays[a.tray - 1]:
            return f"Tray {a.tray} has no cubes."
        if face == WILD:
            return (
                "With Wild, the Last Cubes rule needs this to be the only tray with cubes "
                "and no blueberry left on the board."
            )
        return (
            f"The Last Cubes rule needs this to be the only {face} tray with cubes, "
            f"and no blueberry beside either {face} tray."
        )
    return "That action is not allowed now."
