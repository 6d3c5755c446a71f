"""Why an action is refused: one sentence a player understands, for every illegal action.

The engine decides legality (:func:`~companion.games.cool_am_pool.engine.is_legal`); this module
only explains a refusal, checking the likeliest reasons first, in English and in German.
"""

from __future__ import annotations

from companion.games.cool_am_pool import messages as m
from companion.games.cool_am_pool.board import FIVE, LIFEGUARD, is_closed
from companion.games.cool_am_pool.occupy import reaches
from companion.games.cool_am_pool.state import CHOOSE, DECIDE, OCCUPY, ROLL, SETUP, State
from companion.games.cool_am_pool.state import OVER as GAME_OVER
from companion.games.cool_am_pool.words import closes, colour_words, lounger_words
from companion.games.messages import REFEREE, TABLE, Actor
from companion.games.refusing import NOT_NOW, OVER, no_seat, not_an_actor, not_your_turn
from companion.games.sentence import Sentence

NUMBERS = ["no", "one", "two", "three", "four", "five", "six"]
ZAHLEN = ["keinen", "einen", "zwei", "drei", "vier", "fünf", "sechs"]
"""A number of dice (der Würfel) in the accusative."""

ROLL_FIRST = Sentence("Roll the dice first: all six.", "Würfle zuerst, mit allen sechs Würfeln.")
ROLLED_ENOUGH = Sentence(
    "Rolling is over for this turn: choose a lounger.",
    "Das Würfeln ist für diesen Zug vorbei: Wähle eine Liege.",
)


def why_illegal(state: State, a: m.Action) -> Sentence:
    """A sentence for a player: why this action is not allowed now."""
    name = state.name
    if state.phase == GAME_OVER:
        return OVER
    actor: Actor = a.by  # a seat number, but the referee or the table may try too
    if isinstance(actor, str):
        if actor not in (REFEREE, TABLE):
            return not_an_actor(actor)
    elif type(actor) is not int or state.seat(actor) is None:
        return no_seat(actor)
    if actor != state.turn_seat:
        turn, by, by_de = name(state.turn_seat), state.who(actor), state.who_de(actor)
        if state.phase == SETUP:
            return Sentence(
                f"It is {turn}'s turn to lay a towel, not {by}'s.",
                f"{turn} legt gerade ein Handtuch, nicht {by_de}.",
            )
        return Sentence(not_your_turn(turn, by).en, not_your_turn(turn, by_de).de)
    if isinstance(a, m.PlaceTowel):
        return _towel_refused(state, a)
    if state.phase == SETUP:
        return Sentence(
            f"The towels are laid first: {name(a.by)}, lay a towel on a free lounger.",
            f"Zuerst werden die Handtücher gelegt: {name(a.by)}, leg ein Handtuch auf eine "
            "freie Liege.",
        )
    if isinstance(a, m.Roll):
        if state.phase == CHOOSE:
            return Sentence(
                "Set at least one colour die aside first, or spend a water-ball chip.",
                "Leg zuerst mindestens einen Farbwürfel beiseite oder gib einen "
                "Wasserball-Chip ab.",
            )
        return ROLLED_ENOUGH
    if isinstance(a, m.SpendChip):
        if state.phase == ROLL:
            return Sentence(
                "A water-ball chip voids a roll just made: roll first.",
                "Ein Wasserball-Chip macht den Wurf davor ungültig: Würfle zuerst.",
            )
        if state.phase != CHOOSE:
            return Sentence(
                "A water-ball chip voids only a roll whose dice are not set aside yet.",
                "Ein Wasserball-Chip macht nur einen Wurf ungültig, dessen Würfel noch nicht "
                "beiseitegelegt sind.",
            )
        return Sentence(
            f"{name(a.by)} has no water-ball chips.", f"{name(a.by)} hat keine Wasserball-Chips."
        )
    if isinstance(a, m.SetAside):
        return _aside_refused(state, a)
    if isinstance(a, m.Stop):
        if state.phase == ROLL:
            return ROLL_FIRST
        if state.phase == CHOOSE:
            return Sentence(
                "Set at least one colour die aside first, then stop.",
                "Leg zuerst mindestens einen Farbwürfel beiseite, dann hör auf.",
            )
        return ROLLED_ENOUGH
    if isinstance(a, m.Occupy):
        return _occupy_refused(state, a)
    return NOT_NOW


def _no_lounger(lounger: object) -> Sentence:
    return Sentence(f"There is no lounger {lounger}.", f"Eine Liege {lounger} gibt es nicht.")


def _towel_refused(state: State, a: m.PlaceTowel) -> Sentence:
    if state.phase != SETUP:
        return Sentence(
            "The towels were all laid at the start of the game.",
            "Die Handtücher wurden alle zu Beginn des Spiels gelegt.",
        )
    if type(a.lounger) is not int or not 0 <= a.lounger < len(state.loungers):
        return _no_lounger(a.lounger)
    spot = state.loungers[a.lounger]
    if spot.colour is None:
        return Sentence(
            "The 5-point loungers stay free at the start.",
            "Die 5-Punkte-Liegen bleiben zu Beginn frei.",
        )
    where = lounger_words(spot)
    return Sentence(
        f"A towel already lies on {where.en}.", f"Auf der {where.de} liegt schon ein Handtuch."
    )


def _aside_refused(state: State, a: m.SetAside) -> Sentence:
    if state.phase == ROLL:
        return ROLL_FIRST
    if state.phase == DECIDE:
        return Sentence(
            "This roll is already set aside: roll the rest again or stop.",
            "Dieser Wurf ist schon beiseitegelegt: Würfle mit dem Rest noch einmal oder hör auf.",
        )
    if state.phase != CHOOSE:
        return ROLLED_ENOUGH
    shown = dict(state.showing_in_hand())
    for die in a.dice:
        if type(die) is not int or not 0 <= die < len(state.dice.faces):
            return Sentence(f"There is no die {die}.", f"Einen Würfel {die} gibt es nicht.")
        if die not in shown:
            return Sentence(
                f"Die {die} is already set aside.", f"Würfel {die} liegt schon beiseite."
            )
        if shown[die] == LIFEGUARD:
            return Sentence(
                f"Die {die} shows the lifeguard: lifeguards are set aside by themselves.",
                f"Würfel {die} zeigt den Bademeister: Bademeister kommen von selbst beiseite.",
            )
    if not a.dice:
        return Sentence(
            "Set aside at least one die showing a colour (or spend a water-ball chip).",
            "Leg mindestens einen Würfel mit einer Farbe beiseite (oder gib einen "
            "Wasserball-Chip ab).",
        )
    return Sentence(
        "Name each die once, in increasing order.",
        "Nenne jeden Würfel nur einmal, der Reihe nach aufsteigend.",
    )


def _occupy_refused(state: State, a: m.Occupy) -> Sentence:
    if state.phase != OCCUPY:
        if state.phase == ROLL:
            return ROLL_FIRST
        return Sentence(
            "Stop rolling first; then take a lounger.",
            "Hör zuerst mit dem Würfeln auf; dann nimm eine Liege.",
        )
    if type(a.lounger) is not int or not 0 <= a.lounger < len(state.loungers):
        return _no_lounger(a.lounger)
    seat, spot = a.by, state.loungers[a.lounger]
    i, name, where = spot.number, state.name, lounger_words(spot)
    result = state.result()
    if not reaches(result, spot):
        if spot.colour is None:
            return Sentence(
                f"A 5-point lounger needs {NUMBERS[FIVE]} dice of one colour.",
                f"Eine 5-Punkte-Liege braucht {ZAHLEN[FIVE]} Würfel einer Farbe.",
            )
        have = result.get(spot.colour, 0)
        colour = colour_words(spot.colour)
        return Sentence(
            f"Lounger {where.en} needs {NUMBERS[spot.row]} {colour.en} dice; "
            f"{name(seat)} set aside {NUMBERS[have] if have else 'none'}.",
            f"Die {where.de} braucht {ZAHLEN[spot.row]} Würfel {colour.de}; "
            f"{name(seat)} hat {'nur ' if have else ''}{ZAHLEN[have]} beiseitegelegt.",
        )
    if spot.colour is not None and is_closed(state.board, state.lifeguard, spot):
        area = closes(state.board, state.lifeguard)
        return Sentence(
            f"The lifeguard is watching {area.en}: no lounger there can be taken now.",
            f"Der Bademeister bewacht {area.de}: Dort kann gerade keine Liege genommen werden.",
        )
    towel, bather = state.towels[i], state.bathers[i]
    if towel is None:
        return Sentence(
            f"{name(seat)} has no towel left for the 5-point lounger.",
            f"{name(seat)} hat kein Handtuch mehr für die 5-Punkte-Liege.",
        )
    if spot.colour is None or towel == bather:
        return Sentence(
            f"Lounger {where.en} is secured by {name(towel)}: nobody can take it any more.",
            f"Die {where.de} gehört {name(towel)} für immer: Niemand kann sie mehr nehmen.",
        )
    if bather is None:
        return Sentence(
            f"{name(seat)} has no bather left to lie on {name(towel)}'s towel.",
            f"{name(seat)} hat keinen Badegast mehr für das Handtuch von {name(towel)}.",
        )
    if bather == seat:
        return Sentence(
            f"{name(seat)} has no towel left to conquer {where.en} for good.",
            f"{name(seat)} hat kein Handtuch mehr, um die {where.de} für immer zu erobern.",
        )
    return Sentence(
        f"{name(bather)}'s bather lies on {name(towel)}'s towel on {where.en}: "
        f"only {name(towel)} can chase it away.",
        f"Der Badegast von {name(bather)} liegt auf dem Handtuch von {name(towel)} auf der "
        f"{where.de}: Nur {name(towel)} kann ihn verjagen.",
    )
