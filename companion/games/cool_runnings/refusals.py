"""Why an action is refused: one sentence a player understands, for every illegal action.

The engine decides legality (:func:`~companion.games.cool_runnings.engine.is_legal`); this
module only explains a refusal, checking the likeliest reasons first.
"""

from __future__ import annotations

from companion.games.cool_runnings import messages as m
from companion.games.cool_runnings.cards import attacks
from companion.games.cool_runnings.state import CARRY_OUT, COUNT, DEFLECT, PLAY, State
from companion.games.cool_runnings.state import OVER as GAME_OVER
from companion.games.messages import REFEREE, TABLE
from companion.games.refusing import NOT_NOW, OVER, no_seat, not_an_actor, not_your_turn
from companion.games.sentence import Sentence


def why_illegal(state: State, a: m.Action) -> Sentence:
    """A sentence for a player: why this action is not allowed now."""
    name = state.name
    if state.phase == GAME_OVER:
        return OVER
    if isinstance(a.by, int):
        if state.seat(a.by) is None:
            return no_seat(a.by)
        if not state.in_game(a.by):
            return _out(state, a.by)
    elif a.by not in (REFEREE, TABLE):
        return not_an_actor(a.by)
    p = state.pending
    if isinstance(a, m.Melted):
        who = name(a.seat)
        if state.seat(a.seat) is None or not state.in_game(a.seat):
            return Sentence(f"{who} is not in the game.", f"{who} spielt nicht mit.")
        return Sentence(
            f"Only {who} or the referee can say that {who}'s cube has melted.",
            f"Nur {who} oder die Spielleitung kann sagen, dass der Würfel von {who} "
            "geschmolzen ist.",
        )
    if isinstance(a, m.PlayAttack | m.PlayMove):
        if state.phase != PLAY:
            return _waiting_for(state)
        if a.by != state.turn_seat:
            return not_your_turn(name(state.turn_seat), name(a.by))
        if a.card not in state.hand(a.by):
            return _not_held(name(a.by))
        if isinstance(a, m.PlayMove):
            return Sentence(
                f"{name(a.piece)} has no piece on the track.",
                f"{name(a.piece)} hat keine Figur auf der Strecke.",
            )
        return _bad_target(state, a.by, a.target)
    if isinstance(a, m.Deflect | m.TakeHit):
        if state.phase != DEFLECT or p is None:
            return Sentence(
                "No attack is waiting to be deflected.", "Kein Angriff wartet auf Abwehr."
            )
        if a.by != p.target and not (isinstance(a, m.TakeHit) and a.by == REFEREE):
            what = attack_name(p.attack)
            return Sentence(
                f"The {what.en} is aimed at {name(p.target)}, not {state.who(a.by)}.",
                f"Der Angriff {what.de} zielt auf {name(p.target)}, "
                f"nicht auf {state.who_de(a.by)}.",
            )
        if isinstance(a, m.Deflect):
            if a.card not in state.hand(a.by):
                return _not_held(name(a.by))
            if state.card(a.card).attack != p.attack:
                what = attack_name(p.attack)
                return Sentence(
                    f"To deflect a {what.en}, play a {what.en} card.",
                    f"Um den Angriff {what.de} abzuwehren, spiel eine Karte {what.de}.",
                )
            if a.target == a.by:
                return Sentence(
                    f"{name(a.by)} cannot deflect the attack onto {name(a.by)}.",
                    f"{name(a.by)} kann den Angriff nicht auf sich selbst umlenken.",
                )
            return _bad_target(state, a.by, a.target)
        return Sentence(
            "Only the attacked seat or the referee can take the hit.",
            "Nur der angegriffene Platz oder die Spielleitung kann den Treffer nehmen.",
        )
    if isinstance(a, m.CountFinished):
        if state.phase != COUNT:
            return Sentence("No ten-count is running.", "Es wird gerade nicht bis zehn gezählt.")
        return Sentence(
            "Only the table's timer or the referee ends a ten-count.",
            "Nur der Zähler des Tisches oder die Spielleitung beendet das Zählen.",
        )
    if state.phase != CARRY_OUT or p is None:
        return Sentence(
            "No attack is waiting to be carried out.", "Kein Angriff wartet auf Ausführung."
        )
    if isinstance(a, m.WrongGuess) and p.attack != "guessing-game":
        return Sentence("Only the Guessing game has guesses.", "Nur beim Ratespiel wird geraten.")
    carrier, what = name(p.carrier), attack_name(p.attack)
    return Sentence(
        f"{carrier} carries out the {what.en}: only {carrier} or the referee says how it went.",
        f"{carrier} führt den Angriff {what.de} aus: Nur {carrier} oder die Spielleitung sagt, "
        "wie es ausging.",
    )


def _bad_target(state: State, attacker: int, target: int) -> Sentence:
    if state.seat(target) is None:
        return no_seat(target)
    if target == attacker:
        return Sentence(
            f"{state.name(attacker)} cannot attack their own cube.",
            f"{state.name(attacker)} kann nicht den eigenen Würfel angreifen.",
        )
    if not state.in_game(target):
        return _out(state, target)
    if state.on_ice(target):
        who = state.name(target)
        return Sentence(
            f"{who}'s piece is on an ice space: it cannot be attacked.",
            f"Die Figur von {who} steht auf einem Eisfeld: {who} kann nicht angegriffen werden.",
        )
    return NOT_NOW


def _waiting_for(state: State) -> Sentence:
    p = state.pending
    assert p is not None
    what = attack_name(p.attack)
    if state.phase == DEFLECT:
        who = state.name(p.target)
        return Sentence(
            f"{who} must first answer the {what.en}.",
            f"{who} muss erst auf den Angriff {what.de} antworten.",
        )
    if state.phase == COUNT:
        who = state.name(p.target)
        return Sentence(
            f"The ten-count of the {what.en} on {who} is still running.",
            f"Für den Angriff {what.de} an {who} wird noch bis zehn gezählt.",
        )
    who = state.name(p.carrier)
    return Sentence(
        f"{who} must first carry out the {what.en}.",
        f"{who} muss erst den Angriff {what.de} ausführen.",
    )


def _out(state: State, seat: int) -> Sentence:
    who = state.name(seat)
    return Sentence(
        f"{who}'s cube has melted: {who} is out of the game.",
        f"Der Würfel von {who} ist geschmolzen: {who} ist aus dem Spiel.",
    )


def _not_held(who: str) -> Sentence:
    return Sentence(f"{who} does not hold that card.", f"{who} hat diese Karte nicht.")


def attack_name(key: str) -> Sentence:
    """An attack's name in both languages, for after "the" and after "den Angriff": "Water
    bath", "„Wasserbad“"."""
    a = attacks()[key]
    return Sentence(a.en, f"„{a.de}“")
