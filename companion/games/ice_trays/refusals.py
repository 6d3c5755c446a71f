"""Why an action is refused: one sentence a player understands, for every illegal action.

The engine decides legality (:func:`~companion.games.ice_trays.engine.is_legal`); this module
only explains a refusal, checking the likeliest reasons first. Every sentence is written in
English and in German, with the German words of the pages (Schale, Becher, Eiswürfel, Joker,
Klauen).

>>> face_name("wild").de, colour_name("pink").de, tray_name("blue", 3).de
('Joker', 'pink', 'Schale 3 (blau)')
"""

from __future__ import annotations

from companion.games.ice_trays import messages as m
from companion.games.ice_trays.board import STEAL, TRAYS, WILD, side_of
from companion.games.ice_trays.ring import DIRECTIONS
from companion.games.ice_trays.state import OVER as GAME_OVER
from companion.games.ice_trays.state import ROLL, State
from companion.games.refusing import NOT_NOW, OVER, no_seat, not_your_turn
from companion.games.sentence import COLOURS_DE, Sentence

FACES_DE = {WILD: "Joker", STEAL: "Klauen"}
"""The die's other faces as the pages name them."""


def colour_name(colour: str) -> Sentence:
    """A colour's name, as an adjective: "blue", "blau"."""
    return Sentence(colour, COLOURS_DE.get(colour, colour))


def colour_noun(colour: str) -> str:
    """A colour's German name as a noun, after "der Farbe": "Blau"."""
    return colour_name(colour).de.capitalize()


def face_name(face: str) -> Sentence:
    """How a face is said: a colour as it is, ``Wild`` and ``Steal`` capitalised ("Joker",
    "Klauen" in German)."""
    if face in FACES_DE:
        return Sentence(face.capitalize(), FACES_DE[face])
    return colour_name(face)


def tray_name(colour: str, tray: int) -> Sentence:
    """A tray with its colour: "blue tray 3", "Schale 3 (blau)" (after an article in German:
    "die Schale 3 (blau)")."""
    return Sentence(f"{colour} tray {tray}", f"Schale {tray} ({colour_name(colour).de})")


def why_illegal(state: State, a: m.Action) -> Sentence:
    """A sentence for a player: why this action is not allowed now."""
    name = state.name
    if state.phase == GAME_OVER:
        return OVER
    if type(a.by) is not int:
        return Sentence(
            f"{a.by!r} is not a seat: in Ice Trays only the seat whose turn it is acts.",
            f"{a.by!r} ist kein Platz: Bei Ice Trays spielt nur der Platz, der am Zug ist.",
        )
    if state.seat(a.by) is None:
        return no_seat(a.by)
    who = name(a.by)
    if a.by != state.turn_seat:
        return not_your_turn(name(state.turn_seat), who)
    if state.phase == ROLL:
        if isinstance(a, m.Roll):
            return NOT_NOW
        return Sentence(f"{who} must roll the die first.", f"{who} muss zuerst würfeln.")
    face = state.face or ""
    shown = face_name(face)
    rolled = Sentence(f"{who} rolled {shown.en}", f"{who} hat {shown.de} gewürfelt")
    if isinstance(a, m.Roll):
        return Sentence(
            f"{rolled.en} already: choose what to do with it.",
            f"{who} hat schon {shown.de} gewürfelt: Wähle, was damit geschieht.",
        )
    if isinstance(a, m.Steal):
        return _no_steal(state, a, face, rolled)
    if face == STEAL:
        return Sentence(
            f"{rolled.en}: take a cube from an opponent's cup.",
            f"{rolled.de}: Klau einen Eiswürfel aus einem fremden Becher.",
        )
    if type(a.tray) is not int or not 1 <= a.tray <= TRAYS:
        return Sentence(
            f"There is no tray {a.tray!r}: the trays are numbered 1 to {TRAYS}.",
            f"Eine Schale {a.tray!r} gibt es nicht: Die Schalen haben die Nummern 1 bis {TRAYS}.",
        )
    colour = state.board.colour(a.tray)
    if face != WILD and colour != face:
        return Sentence(
            f"{rolled.en}, but tray {a.tray} is {colour}.",
            f"{rolled.de}, aber Schale {a.tray} ist {colour_name(colour).de}.",
        )
    if isinstance(a, m.Sow):
        if a.direction not in DIRECTIONS:
            return Sentence(
                f"A direction is 'clockwise' or 'counterclockwise', not {a.direction!r}.",
                "Eine Richtung ist 'clockwise' (im Uhrzeigersinn) oder 'counterclockwise' "
                f"(gegen den Uhrzeigersinn), nicht {a.direction!r}.",
            )
        return Sentence(
            f"Tray {a.tray} has no cubes to sow.",
            f"In Schale {a.tray} liegen keine Eiswürfel zum Verteilen.",
        )
    if isinstance(a, m.TakeBlueberry):
        return _no_blueberry(state, a.tray, face)
    if isinstance(a, m.LastCubes):
        return _no_last_cubes(state, a.tray, face)
    return NOT_NOW


def _no_steal(state: State, a: m.Steal, face: str, rolled: Sentence) -> Sentence:
    who = state.name(a.by)
    if face != STEAL:
        return Sentence(
            f"{rolled.en}: only the Steal face steals.",
            f"{rolled.de}: Klauen darf nur, wer Klauen würfelt.",
        )
    if a.victim == a.by:
        return Sentence(
            f"{who} cannot steal from their own cup.",
            f"{who} kann nicht aus dem eigenen Becher klauen.",
        )
    if type(a.victim) is not int or state.seat(a.victim) is None:
        return no_seat(a.victim)
    victim = state.name(a.victim)
    return Sentence(
        f"{victim}'s cup has no cube to steal, and a blueberry cannot be stolen.",
        f"Im Becher von {victim} liegt kein Eiswürfel zum Klauen, und Blaubeeren kann man "
        "nicht klauen.",
    )


def _no_blueberry(state: State, tray: int, face: str) -> Sentence:
    if face == WILD:
        return Sentence(
            "A blueberry cannot be taken with Wild.",
            "Mit Joker kann man keine Blaubeere nehmen.",
        )
    if state.trays[tray - 1]:
        return Sentence(
            f"Tray {tray} still holds cubes: a blueberry is taken only beside an empty "
            "tray of the colour rolled.",
            f"In Schale {tray} liegen noch Eiswürfel: Eine Blaubeere nimmt man nur neben einer "
            "leeren Schale der gewürfelten Farbe.",
        )
    side = side_of(tray)
    return Sentence(
        f"The blueberry of side {side} has been taken already.",
        f"Die Blaubeere von Seite {side} ist schon genommen.",
    )


def _no_last_cubes(state: State, tray: int, face: str) -> Sentence:
    if not state.trays[tray - 1]:
        return Sentence(f"Tray {tray} has no cubes.", f"In Schale {tray} liegen keine Eiswürfel.")
    if face == WILD:
        return Sentence(
            "With Wild, the Last Cubes rule needs this to be the only tray with cubes "
            "and no blueberry left on the board.",
            "Mit Joker gilt die Regel „Letzte Eiswürfel“ nur, wenn dies die einzige Schale mit "
            "Eiswürfeln ist und keine Blaubeere mehr auf dem Spielplan liegt.",
        )
    colour = colour_noun(face)
    return Sentence(
        f"The Last Cubes rule needs this to be the only {face} tray with cubes, "
        f"and no blueberry beside either {face} tray.",
        f"Die Regel „Letzte Eiswürfel“ gilt nur, wenn dies die einzige Schale der Farbe {colour} "
        f"mit Eiswürfeln ist und neben keiner Schale der Farbe {colour} eine Blaubeere liegt.",
    )
