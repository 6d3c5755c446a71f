"""Events told in words a player reads: "Karen rolls blue." "Karen sows the 3 cubes of ..."

>>> from companion.games.fair import FairRandom
>>> from companion.games.seats import SeatInfo
>>> from companion.games.ice_trays.engine import new_game
>>> seats = [SeatInfo(1, "Karen", "blue"), SeatInfo(2, "Tom", "yellow")]
>>> state, events = new_game({}, seats, FairRandom(bytes(32)))
>>> print("\\n".join(narrate(events, state)))  # doctest: +NORMALIZE_WHITESPACE
The board is set: 3 cubes in each of the 8 trays and a blueberry on each side.
  Karen sits at cup 1, Tom at cup 2; no one at cups 3 and 4.
Turn 1, Karen:  (Karen 0) blue 3, yellow 3, berry (Tom 0) pink 3, orange 3, berry
  (-) blue 3, yellow 3, berry (-) pink 3, orange 3, berry
"""

from __future__ import annotations

from typing import Any

from companion.games.dice import Rolled
from companion.games.ice_trays import messages as m
from companion.games.ice_trays.refusals import face_name
from companion.games.ice_trays.ring import CLOCKWISE, CUPS
from companion.games.ice_trays.state import State

_STUCK = {
    "no-cube-or-blueberry": "neither {face} tray has a cube or its blueberry",
    "no-cube": "no tray has a cube, and Wild takes no blueberry",
    "nothing-to-steal": "no opponent's cup holds a cube to steal",
}


def narrate(events: list[Any], state: State) -> list[str]:
    """The sentences for a list of events (``state`` is the state after them)."""
    lines = []
    for i, event in enumerate(events):
        if isinstance(event, Rolled):
            # The roller is the seat whose turn it still is, unless the turn ended at once.
            stuck = [e for e in events[i:] if isinstance(e, m.NothingToDo)]
            seat = stuck[0].seat if stuck else state.turn_seat
            lines.append(f"{state.name(seat)} rolls {face_name(event.faces[0])}.")
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


def _tray(state: State, tray: int) -> str:
    return f"{state.board.colour(tray)} tray {tray}"


def _place(state: State, seat: int, place: str) -> str:
    kind, number = place.split()
    return f"{state.name(seat)}'s cup" if kind == "cup" else _tray(state, int(number))


def _all_of(n: int) -> str:
    return {1: "the one cube of", 2: "both cubes of"}.get(n, f"the {n} cubes of")


def _cubes(n: int) -> str:
    return f"{n} cube{'' if n == 1 else 's'}"


def describe(event: Any, state: State) -> str | None:
    """One sentence for an event, or None for events a narrator leaves out."""
    name = state.name
    match event:
        case m.BoardSet(colours, per_tray, _, cups):
            seated = [(c, s) for c, s in enumerate(cups, start=1) if s is not None]
            sits = ", ".join(
                f"{name(s)}{' sits' if i == 0 else ''} at cup {c}"
                for i, (c, s) in enumerate(seated)
            )
            empty = [str(c) for c, s in enumerate(cups, start=1) if s is None]
            if empty:
                sits += f"; no one at cup{'s' if len(empty) > 1 else ''} {' and '.join(empty)}"
            return (
                f"The board is set: {per_tray} cubes in each of the {len(colours)} trays and a "
                f"blueberry on each side. {sits}."
            )
        case m.TurnStarted(seat, turn):
            return f"Turn {turn}, {name(seat)}:  {board_line(state)}"
        case m.Sowed(seat, tray, direction, path):
            hand = "to the left" if direction == CLOCKWISE else "to the right"
            into = ", ".join(_place(state, seat, p) for p in path)
            return (
                f"{name(seat)} sows {_all_of(len(path))} {_tray(state, tray)} "
                f"{direction} ({hand}): {into}."
            )
        case m.BlueberryTaken(seat, tray, side):
            return (
                f"The {_tray(state, tray)} is empty: {name(seat)} takes the blueberry of "
                f"side {side} (2 points)."
            )
        case m.LastCubesTaken(seat, tray, cubes):
            what = {1: "the one cube of", 2: "both cubes of"}.get(cubes, f"all {cubes} cubes of")
            return (
                f"Last Cubes: {name(seat)} puts {what} {_tray(state, tray)} "
                f"straight into {name(seat)}'s cup."
            )
        case m.Stole(seat, victim):
            return f"{name(seat)} steals a cube from {name(victim)}'s cup."
        case m.NothingToDo(seat, face, reason):
            why = _STUCK.get(reason, reason).format(face=face)
            return f"Nothing to do: {why}. {name(seat)}'s turn ends."
        case m.GameOver(scores, cubes, winner):
            return _game_over(state, scores, cubes, winner)
    return None


def _game_over(
    state: State, scores: tuple[int, ...], cubes: tuple[int, ...], winner: int | None
) -> str:
    tally = ", ".join(
        f"{s.name} {points} point{'' if points == 1 else 's'} ({_cubes(n)}, "
        f"{state.blueberries[s.seat]} blueberr{'y' if state.blueberries[s.seat] == 1 else 'ies'})"
        for s, points, n in zip(state.seats, scores, cubes, strict=True)
    )
    best = max(scores)
    leaders = [s for s, points in zip(state.seats, scores, strict=True) if points == best]
    if winner is None:
        verdict = f"{' and '.join(s.name for s in leaders)} tie on points and cubes: no winner."
    elif len(leaders) > 1:
        verdict = f"A tie on {best} points: {state.name(winner)} has more cubes and wins!"
    else:
        verdict = f"{state.name(winner)} wins!"
    return f"The board is empty. {tally}. {verdict}"
