"""Why an action is refused: one sentence a player understands, for every illegal action.

The engine decides legality (:func:`~companion.games.daddy_cool.engine.is_legal`); this module
only explains a refusal, checking the likeliest reasons first.
"""

from __future__ import annotations

from companion.games.daddy_cool import messages as m
from companion.games.daddy_cool.state import ALL_ASIDE, ON_CRACKED, OVER, TURN_START, State
from companion.games.messages import REFEREE
from companion.games.refusing import no_seat, not_an_actor, not_your_turn
from companion.games.sentence import Sentence, counted


def why_illegal(state: State, a: m.Action) -> Sentence:
    """A sentence for a player: why this action is not allowed now."""
    if state.phase == OVER:
        who = state.name(state.winner or 0)
        return Sentence(
            f"The game is over: {who}'s cub is at the wash tub.",
            f"Das Spiel ist vorbei: Das Junge von {who} ist am Waschzuber.",
        )
    if type(a.by) is int:
        if state.seat(a.by) is None:
            return no_seat(a.by)
        if a.by != state.turn_seat:
            return not_your_turn(state.name(state.turn_seat), state.name(a.by))
    elif a.by != REFEREE:
        return not_an_actor(a.by, table=False)
    return must_roll_sentence(state)


def must_roll_sentence(state: State) -> Sentence:
    """Why the active seat cannot stop now and must roll."""
    who = state.name(state.turn_seat)
    dice = len(state.next_roll())
    if TURN_START in state.forced:
        return Sentence(
            f"{who} must roll first: the cub can only join Daddy Cool after a roll "
            "that shows an ice floe.",
            f"{who} muss zuerst würfeln: Das Junge darf erst zu Daddy Cool, wenn ein Wurf "
            "eine Eisscholle zeigt.",
        )
    reasons: list[Sentence] = []
    if ON_CRACKED in state.forced:
        reasons.append(
            Sentence(
                "Daddy Cool cannot stay on a cracked floe",
                "Daddy Cool kann nicht auf einer rissigen Scholle bleiben",
            )
        )
    what = dice_left(dice)
    if ALL_ASIDE in state.forced:
        reasons.append(Sentence("all the dice show floes", "alle Würfel zeigen Schollen"))
        what = Sentence("all the dice again", "noch einmal alle Würfel")
    because = both_and(reasons)
    return Sentence(
        f"{capital(because.en)}: {who} must roll {what.en}.",
        f"{capital(because.de)}: {who} muss {what.de} werfen.",
    )


def both_and(parts: list[Sentence]) -> Sentence:
    """Parts joined by "and", "und"."""
    return Sentence(" and ".join(p.en for p in parts), " und ".join(p.de for p in parts))


def dice_left(n: int) -> Sentence:
    """The dice left to roll, after "roll" and before "werfen": "the 4 dice left", "die übrigen
    4 Würfel"."""
    return counted(
        n, ("the die left", "the {n} dice left"), ("den übrigen Würfel", "die übrigen {n} Würfel")
    )


def capital(text: str) -> str:
    """The text with its first letter a capital."""
    return f"{text[:1].upper()}{text[1:]}"
