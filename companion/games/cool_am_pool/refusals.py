"""Why an action is refused: one sentence a player understands, for every illegal action.

The engine decides legality (:func:`~companion.games.cool_am_pool.engine.is_legal`); this module
only explains a refusal, checking the likeliest reasons first.
"""

from __future__ import annotations

from companion.games.cool_am_pool import messages as m
from companion.games.cool_am_pool.board import COLUMN, FIVE, LIFEGUARD, closed, is_closed
from companion.games.cool_am_pool.occupy import reaches
from companion.games.cool_am_pool.state import (
    CHOOSE,
    DECIDE,
    OCCUPY,
    OVER,
    ROLL,
    SETUP,
    State,
)

NUMBERS = ["no", "one", "two", "three", "four", "five", "six"]


def why_illegal(state: State, a: m.Action) -> str:
    """A sentence for a player: why this action is not allowed now."""
    name = state.name
    if state.phase == OVER:
        return "The game is over."
    if type(a.by) is not int or state.seat(a.by) is None:
        return f"There is no seat {a.by} at this table."
    if a.by != state.turn_seat:
        doing = "turn to lay a towel" if state.phase == SETUP else "turn"
        return f"It is {name(state.turn_seat)}'s {doing}, not {name(a.by)}'s."
    if isinstance(a, m.PlaceTowel):
        return _towel_refused(state, a)
    if state.phase == SETUP:
        return f"The towels are laid first: {name(a.by)}, lay a towel on a free lounger."
    if isinstance(a, m.Roll):
        if state.phase == CHOOSE:
            return "Set at least one colour die aside first, or spend a water-ball chip."
        return "Rolling is over for this turn: choose a lounger."
    if isinstance(a, m.SpendChip):
        if state.phase == ROLL:
            return "A water-ball chip voids a roll just made: roll first."
        if state.phase != CHOOSE:
            return "A water-ball chip voids only a roll whose dice are not set aside yet."
        return f"{name(a.by)} has no water-ball chips."
    if isinstance(a, m.SetAside):
        return _aside_refused(state, a)
    if isinstance(a, m.Stop):
        if state.phase == ROLL:
            return "Roll the dice first: all six."
        if state.phase == CHOOSE:
            return "Set at least one colour die aside first, then stop."
        return "Rolling is over for this turn: choose a lounger."
    if isinstance(a, m.Occupy):
        return _occupy_refused(state, a)
    return "That action is not allowed now."


def _towel_refused(state: State, a: m.PlaceTowel) -> str:
    if state.phase != SETUP:
        return "The towels were all laid at the start of the game."
    if type(a.lounger) is not int or not 0 <= a.lounger < len(state.loungers):
        return f"There is no lounger {a.lounger}."
    spot = state.loungers[a.lounger]
    if spot.colour is None:
        return "The 5-point loungers stay free at the start."
    return f"A towel already lies on {spot.label}."


def _aside_refused(state: State, a: m.SetAside) -> str:
    if state.phase == ROLL:
        return "Roll the dice first: all six."
    if state.phase == DECIDE:
        return "This roll is already set aside: roll the rest again or stop."
    if state.phase != CHOOSE:
        return "Rolling is over for this turn: choose a lounger."
    shown = dict(state.showing_in_hand())
    for die in a.dice:
        if type(die) is not int or not 0 <= die < len(state.dice.faces):
            return f"There is no die {die}."
        if die not in shown:
            return f"Die {die} is already set aside."
        if shown[die] == LIFEGUARD:
            return f"Die {die} shows the lifeguard: lifeguards are set aside by themselves."
    if not a.dice:
        return "Set aside at least one die showing a colour (or spend a water-ball chip)."
    return "Name each die once, in increasing order."


def _occupy_refused(state: State, a: m.Occupy) -> str:
    if state.phase != OCCUPY:
        if state.phase == ROLL:
            return "Roll the dice first: all six."
        return "Stop rolling first; then take a lounger."
    if type(a.lounger) is not int or not 0 <= a.lounger < len(state.loungers):
        return f"There is no lounger {a.lounger}."
    seat, spot = a.by, state.loungers[a.lounger]
    i, name = spot.number, state.name
    result = state.result()
    if not reaches(result, spot):
        if spot.colour is None:
            return f"A 5-point lounger needs {NUMBERS[FIVE]} dice of one colour."
        have = result.get(spot.colour, 0)
        return (
            f"Lounger {spot.label} needs {NUMBERS[spot.row]} {spot.colour} dice; "
            f"{name(seat)} set aside {NUMBERS[have] if have else 'none'}."
        )
    if spot.colour is not None and is_closed(state.board, state.lifeguard, spot):
        kind, what = closed(state.board, state.lifeguard)
        area = f"the {what} column" if kind == COLUMN else f"row {what}"
        return f"The lifeguard is watching {area}: no lounger there can be taken now."
    towel, bather = state.towels[i], state.bathers[i]
    if towel is None:
        return f"{name(seat)} has no towel left for the 5-point lounger."
    if spot.colour is None or towel == bather:
        return f"Lounger {spot.label} is secured by {name(towel)}: nobody can take it any more."
    if bather is None:
        return f"{name(seat)} has no bather left to lie on {name(towel)}'s towel."
    if bather == seat:
        return f"{name(seat)} has no towel left to conquer {spot.label} for good."
    return (
        f"{name(bather)}'s bather lies on {name(towel)}'s towel on {spot.label}: "
        f"only {name(towel)} can chase it away."
    )
