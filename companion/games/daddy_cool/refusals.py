"""Why an action is refused: one sentence a player understands, for every illegal action.

The engine decides legality (:func:`~companion.games.daddy_cool.engine.is_legal`); this module
only explains a refusal, checking the likeliest reasons first.
"""

from __future__ import annotations

from companion.games.daddy_cool import messages as m
from companion.games.daddy_cool.state import ALL_ASIDE, ON_CRACKED, OVER, TURN_START, State
from companion.games.messages import REFEREE


def why_illegal(state: State, a: m.Action) -> str:
    """A sentence for a player: why this action is not allowed now."""
    if state.phase == OVER:
        return f"The game is over: {state.name(state.winner or 0)}'s cub is at the wash tub."
    if type(a.by) is int:
        if state.seat(a.by) is None:
            return f"There is no seat {a.by} at this table."
        if a.by != state.turn_seat:
            return f"It is {state.name(state.turn_seat)}'s turn, not {state.name(a.by)}'s."
    elif a.by != REFEREE:
        return f"{a.by!r} is not a seat or the referee."
    return must_roll_sentence(state)


def must_roll_sentence(state: State) -> str:
    """Why the active seat cannot stop now and must roll."""
    who = state.name(state.turn_seat)
    dice = len(state.next_roll())
    if TURN_START in state.forced:
        return (
            f"{who} must roll first: the cub can only join Daddy Cool after a roll "
            "that shows an ice floe."
        )
    reasons = []
    if ON_CRACKED in state.forced:
        reasons.append("Daddy Cool cannot stay on a cracked floe")
    if ALL_ASIDE in state.forced:
        reasons.append("all the dice show floes")
    what = "all the dice again" if ALL_ASIDE in state.forced else f"the {_dice(dice)} left"
    because = " and ".join(reasons)
    return f"{because[:1].upper()}{because[1:]}: {who} must roll {what}."


def _dice(n: int) -> str:
    return "die" if n == 1 else f"{n} dice"
