"""Events told in words a player reads: "Karen rolls blue." "Karen sows the 3 cubes of ..."

Every sentence is written in English and in German (:class:`~companion.games.sentence.Sentence`),
with the German words of the pages: Schale, Becher, Eiswürfel (a "Würfel" is the die),
Blaubeere, Joker, Klauen. A turn's line
carries the board in one line of text, which the command line prints after it.

>>> from companion.games.fair import FairRandom
>>> from companion.games.seats import SeatInfo
>>> from companion.games.ice_trays.engine import new_game
>>> seats = [SeatInfo(1, "Karen", "blue"), SeatInfo(2, "Tom", "yellow")]
>>> state, events = new_game({}, seats, FairRandom(bytes(32)))
>>> print("\\n".join(str(line) for line in narrate(events, state)))
... # doctest: +NORMALIZE_WHITESPACE
The board is set: 3 cubes in each of the 8 trays and a blueberry on each side.
  Karen sits at cup 1, Tom at cup 2; no one at cups 3 and 4.
Turn 1: Karen.  (Karen 0) blue 3, yellow 3, berry (Tom 0) pink 3, orange 3, berry
  (-) blue 3, yellow 3, berry (-) pink 3, orange 3, berry
>>> print("\\n".join(line.de for line in narrate(events, state)))
... # doctest: +NORMALIZE_WHITESPACE
Der Spielplan ist aufgebaut: 3 Eiswürfel in jeder der 8 Schalen und eine Blaubeere an
  jeder Seite. Karen sitzt an Becher 1, Tom an Becher 2; an Becher 3 und 4 sitzt niemand.
Zug 1: Karen.
"""

from __future__ import annotations

from typing import Any

from companion.games.dice import Rolled
from companion.games.ice_trays import messages as m
from companion.games.ice_trays.refusals import colour_noun, face_name, tray_name
from companion.games.ice_trays.ring import CLOCKWISE, COUNTERCLOCKWISE, CUPS
from companion.games.ice_trays.state import State
from companion.games.sentence import Sentence, counted

_STUCK = {
    "no-cube-or-blueberry": (
        "neither {face} tray has a cube or its blueberry",
        "Beide Schalen der Farbe {face} sind leer und ihre Blaubeeren schon genommen",
    ),
    "no-cube": (
        "no tray has a cube, and Wild takes no blueberry",
        "Keine Schale hat noch Eiswürfel, und mit Joker nimmt man keine Blaubeere",
    ),
    "nothing-to-steal": (
        "no opponent's cup holds a cube to steal",
        "In keinem fremden Becher liegt ein Eiswürfel zum Klauen",
    ),
}
_DIRECTIONS = {
    CLOCKWISE: ("to the left", "im Uhrzeigersinn (nach links)"),
    COUNTERCLOCKWISE: ("to the right", "gegen den Uhrzeigersinn (nach rechts)"),
}


def narrate(events: list[Any], state: State) -> list[Sentence]:
    """The sentences for a list of events (``state`` is the state after them)."""
    lines = []
    for i, event in enumerate(events):
        if isinstance(event, Rolled):
            # The roller is the seat whose turn it still is, unless the turn ended at once.
            stuck = [e for e in events[i:] if isinstance(e, m.NothingToDo)]
            who = state.name(stuck[0].seat if stuck else state.turn_seat)
            face = face_name(event.faces[0])
            lines.append(Sentence(f"{who} rolls {face.en}.", f"{who} würfelt {face.de}."))
            continue
        line = describe(event, state)
        if line:
            lines.append(line)
    return lines


def board_line(state: State) -> str:
    """The ring in one line, clockwise from cup 1: each cup with its owner's cubes (and
    blueberries), then the trays of the side after it and whether its blueberry is there.

    ``(Karen 2 +1 berry) blue 0, yellow 4 (Tom 0) pink 3, orange 5, berry (-) ...``
    """
    parts = []
    for cup in range(1, CUPS + 1):
        seat = state.seat_at(cup)
        if seat is None:
            parts.append("(-)")
        else:
            berries = state.blueberries[seat]
            extra = f" +{berries} berr{'y' if berries == 1 else 'ies'}" if berries else ""
            parts.append(f"({state.name(seat)} {state.cubes[seat]}{extra})")
        trays = [f"{state.board.colour(t)} {state.trays[t - 1]}" for t in (2 * cup - 1, 2 * cup)]
        berry = ", berry" if state.berries[cup - 1] else ""
        parts.append(", ".join(trays) + berry)
    return " ".join(parts)


def _tray(state: State, tray: int) -> Sentence:
    """ "blue tray 3", "Schale 3 (blau)"."""
    return tray_name(state.board.colour(tray), tray)


def _place(state: State, seat: int, place: str) -> Sentence:
    """Where a sown cube went: "Karen's cup", "Becher von Karen", or a tray."""
    kind, number = place.split()
    if kind == "cup":
        who = state.name(seat)
        return Sentence(f"{who}'s cup", f"Becher von {who}")
    return _tray(state, int(number))


def _all_of(n: int, every: bool = False) -> Sentence:
    """The cubes of a tray, before the tray: "the one cube of", "both cubes of", "the 4 cubes
    of" ("all 4 cubes of" when ``every`` one goes); "beide Eiswürfel der"."""
    if n == 2:
        return Sentence("both cubes of", "beide Eiswürfel der")
    the, die = ("all", "alle") if every else ("the", "die")
    return counted(
        n,
        ("the one cube of", f"{the} {{n}} cubes of"),
        ("den einen Eiswürfel der", f"{die} {{n}} Eiswürfel der"),
    )


def _cubes(n: int) -> Sentence:
    return counted(n, ("{n} cube", "{n} cubes"), ("{n} Eiswürfel", "{n} Eiswürfel"))


def _listed(parts: list[str], last: str) -> str:
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} {last} {parts[-1]}"


def describe(event: Any, state: State) -> Sentence | None:
    """One sentence for an event, or None for events a narrator leaves out."""
    name = state.name
    match event:
        case m.BoardSet(colours, per_tray, _, cups):
            return _board_set(state, len(colours), per_tray, cups)
        case m.TurnStarted(seat, turn):
            return Sentence(
                f"Turn {turn}: {name(seat)}.", f"Zug {turn}: {name(seat)}.", board_line(state)
            )
        case m.Sowed(seat, tray, direction, path):
            hand = _DIRECTIONS.get(direction, ("", direction))
            into = Sentence.join(", ", *(_place(state, seat, p) for p in path))
            what, where = _all_of(len(path)), _tray(state, tray)
            how = f"{direction} ({hand[0]})" if hand[0] else direction
            return Sentence(
                f"{name(seat)} sows {what.en} {where.en} {how}: {into.en}.",
                f"{name(seat)} verteilt {what.de} {where.de} {hand[1]}: {into.de}.",
            )
        case m.BlueberryTaken(seat, tray, side):
            where = _tray(state, tray)
            return Sentence(
                f"The {where.en} is empty: {name(seat)} takes the blueberry of "
                f"side {side} (2 points).",
                f"{where.de} ist leer: {name(seat)} nimmt die Blaubeere von Seite {side} "
                "(2 Punkte).",
            )
        case m.LastCubesTaken(seat, tray, cubes):
            where, what = _tray(state, tray), _all_of(cubes, every=True)
            return Sentence(
                f"Last Cubes: {name(seat)} puts {what.en} {where.en} straight into "
                f"{name(seat)}'s cup.",
                f"Letzte Eiswürfel: {name(seat)} legt {what.de} {where.de} direkt in den "
                "eigenen Becher.",
            )
        case m.Stole(seat, victim):
            return Sentence(
                f"{name(seat)} steals a cube from {name(victim)}'s cup.",
                f"{name(seat)} klaut einen Eiswürfel aus dem Becher von {name(victim)}.",
            )
        case m.NothingToDo(seat, face, reason):
            en, de = _STUCK.get(reason, (reason, reason))
            why = Sentence(en.format(face=face), de.format(face=colour_noun(face)))
            return Sentence(
                f"Nothing to do: {why.en}. {name(seat)}'s turn ends.",
                f"Nichts zu tun: {why.de}. Der Zug von {name(seat)} endet.",
            )
        case m.GameOver(scores, cubes, winner):
            return _game_over(state, scores, cubes, winner)
    return None


def _board_set(state: State, trays: int, per_tray: int, cups: tuple[int | None, ...]) -> Sentence:
    name = state.name
    seated = [(c, s) for c, s in enumerate(cups, start=1) if s is not None]
    sits = Sentence.join(
        ", ",
        *(
            Sentence(
                f"{name(s)}{' sits' if i == 0 else ''} at cup {c}",
                f"{name(s)}{' sitzt' if i == 0 else ''} an Becher {c}",
            )
            for i, (c, s) in enumerate(seated)
        ),
    )
    empty = [str(c) for c, s in enumerate(cups, start=1) if s is None]
    if empty:
        sits = Sentence(
            f"{sits.en}; no one at cup{'s' if len(empty) > 1 else ''} {' and '.join(empty)}",
            f"{sits.de}; an Becher {' und '.join(empty)} sitzt niemand",
        )
    each = _cubes(per_tray)
    return Sentence(
        f"The board is set: {each.en} in each of the {trays} trays and a "
        f"blueberry on each side. {sits.en}.",
        f"Der Spielplan ist aufgebaut: {each.de} in jeder der {trays} Schalen und eine "
        f"Blaubeere an jeder Seite. {sits.de}.",
    )


def _game_over(
    state: State, scores: tuple[int, ...], cubes: tuple[int, ...], winner: int | None
) -> Sentence:
    tallies = []
    for s, points, n in zip(state.seats, scores, cubes, strict=True):
        score = counted(points, ("{n} point", "{n} points"), ("{n} Punkt", "{n} Punkte"))
        held = _cubes(n)
        berries = counted(
            state.blueberries[s.seat],
            ("{n} blueberry", "{n} blueberries"),
            ("{n} Blaubeere", "{n} Blaubeeren"),
        )
        tallies.append(
            Sentence(
                f"{s.name} {score.en} ({held.en}, {berries.en})",
                f"{s.name} {score.de} ({held.de}, {berries.de})",
            )
        )
    tally = Sentence.join(", ", *tallies)
    best = max(scores)
    leaders = [s.name for s, points in zip(state.seats, scores, strict=True) if points == best]
    if winner is None:
        verdict = Sentence(
            f"{' and '.join(leaders)} tie on points and cubes: no winner.",
            f"{_listed(leaders, 'und')} haben gleich viele Punkte und Eiswürfel: Niemand gewinnt.",
        )
    elif len(leaders) > 1:
        who = state.name(winner)
        tie = counted(best, ("{n} point", "{n} points"), ("{n} Punkt", "{n} Punkten"))
        verdict = Sentence(
            f"A tie on {tie.en}: {who} has more cubes and wins!",
            f"Gleichstand mit {tie.de}: {who} hat mehr Eiswürfel und gewinnt!",
        )
    else:
        who = state.name(winner)
        verdict = Sentence(f"{who} wins!", f"{who} gewinnt!")
    return Sentence(
        f"The board is empty. {tally.en}. {verdict.en}",
        f"Der Spielplan ist leer. {tally.de}. {verdict.de}",
    )
