"""Why an action is refused: one sentence a player understands, for every illegal action.

The engine decides legality (:func:`~companion.games.cool_runnings.engine.is_legal`); this
module only explains a refusal, checking the likeliest reasons first.
"""

from __future__ import annotations

from companion.games.cool_runnings import messages as m
from companion.games.cool_runnings.cards import attacks
from companion.games.cool_runnings.state import CARRY_OUT, COUNT, DEFLECT, OVER, PLAY, State
from companion.games.messages import REFEREE, TABLE


def why_illegal(state: State, a: m.Action) -> str:
    """A sentence for a player: why this action is not allowed now."""
    name = state.name
    if state.phase == OVER:
        return "The game is over."
    if isinstance(a.by, int):
        if state.seat(a.by) is None:
            return f"There is no seat {a.by} at this table."
        if not state.in_game(a.by):
            return f"{name(a.by)}'s cube has melted: {name(a.by)} is out of the game."
    elif a.by not in (REFEREE, TABLE):
        return f"{a.by!r} is not a seat, the referee or the table."
    p = state.pending
    if isinstance(a, m.Melted):
        if state.seat(a.seat) is None or not state.in_game(a.seat):
            return f"{name(a.seat)} is not in the game."
        return f"Only {name(a.seat)} or the referee can say that {name(a.seat)}'s cube has melted."
    if isinstance(a, m.PlayAttack | m.PlayMove):
        if state.phase != PLAY:
            return _waiting_for(state)
        if a.by != state.turn_seat:
            return f"It is {name(state.turn_seat)}'s turn, not {name(a.by)}'s."
        if a.card not in state.hand(a.by):
            return f"{name(a.by)} does not hold that card."
        if isinstance(a, m.PlayMove):
            return f"{name(a.piece)} has no piece on the track."
        return _bad_target(state, a.by, a.target)
    if isinstance(a, m.Deflect | m.TakeHit):
        if state.phase != DEFLECT or p is None:
            return "No attack is waiting to be deflected."
        if a.by != p.target and not (isinstance(a, m.TakeHit) and a.by == REFEREE):
            aimed = f"The {_attack_name(p.attack)} is aimed at {name(p.target)}"
            return f"{aimed}, not {state.who(a.by)}."
        if isinstance(a, m.Deflect):
            if a.card not in state.hand(a.by):
                return f"{name(a.by)} does not hold that card."
            if state.card(a.card).attack != p.attack:
                return (
                    f"To deflect a {_attack_name(p.attack)}, play a {_attack_name(p.attack)} card."
                )
            if a.target == a.by:
                return f"{name(a.by)} cannot deflect the attack onto {name(a.by)}."
            return _bad_target(state, a.by, a.target)
        return "Only the attacked seat or the referee can take the hit."
    if isinstance(a, m.CountFinished):
        if state.phase != COUNT:
            return "No ten-count is running."
        return "Only the table's timer or the referee ends a ten-count."
    if state.phase != CARRY_OUT or p is None:
        return "No attack is waiting to be carried out."
    if isinstance(a, m.WrongGuess) and p.attack != "guessing-game":
        return "Only the Guessing game has guesses."
    carrier, what = name(p.carrier), _attack_name(p.attack)
    return f"{carrier} carries out the {what}: only {carrier} or the referee says how it went."


def _bad_target(state: State, attacker: int, target: int) -> str:
    if state.seat(target) is None:
        return f"There is no seat {target} at this table."
    if target == attacker:
        return f"{state.name(attacker)} cannot attack their own cube."
    if not state.in_game(target):
        return f"{state.name(target)}'s cube has melted: {state.name(target)} is out of the game."
    if state.on_ice(target):
        return f"{state.name(target)}'s piece is on an ice space: it cannot be attacked."
    return "That action is not allowed now."


def _waiting_for(state: State) -> str:
    p = state.pending
    assert p is not None
    what = _attack_name(p.attack)
    if state.phase == DEFLECT:
        return f"{state.name(p.target)} must first answer the {what}."
    if state.phase == COUNT:
        return f"The ten-count of the {what} on {state.name(p.target)} is still running."
    return f"{state.name(p.carrier)} must first carry out the {what}."


def _attack_name(key: str) -> str:
    return attacks()[key].en
