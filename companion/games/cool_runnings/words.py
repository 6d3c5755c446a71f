"""Events told in words a player reads: "Tom plays Water bath on Mary."

>>> from companion.games.fair import FairRandom
>>> from companion.games.seats import SeatInfo
>>> from companion.games.cool_runnings.engine import new_game
>>> seats = [SeatInfo(1, "Karen", "blue"), SeatInfo(2, "Tom", "yellow")]
>>> order = {"part_order": ["A", "B", "C", "D", "E"]}
>>> state, events = new_game(order, seats, FairRandom(bytes(32)))
>>> narrate(events, state)[0]
'The track is laid: parts A B C D E and the goal, 38 spaces.'
"""

from __future__ import annotations

from typing import Any

from companion.games.cool_runnings import messages as m
from companion.games.cool_runnings.cards import attacks
from companion.games.cool_runnings.state import State
from companion.games.deck import Shuffled
from companion.games.messages import TABLE

NUMBERS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]


def narrate(events: list[Any], state: State) -> list[str]:
    """The sentences for a list of events; a card's move and where it took the piece are one."""
    lines: list[str] = []
    played: m.MovePlayed | None = None
    for event in events:
        if isinstance(event, m.MovePlayed):
            played = event
            continue
        if played is not None and isinstance(event, m.Moved) and event.cause == "card":
            lines.append(_move_line(played, event, state))
            played = None
            continue
        line = describe(event, state)
        if line:
            lines.append(line)
    return lines


def track_line(state: State) -> str:
    """The track in one line: the start area, every space, and each piece by its initial.

    ``start[KT] . M L . I +2 ... |`` : Karen and Tom at the start, Mary on space 2.
    """
    initials = {seat: state.name(seat)[:1].upper() for seat in state.positions}
    at = {pos: initials[seat] for seat, pos in state.positions.items()}
    start = "".join(initials[s] for s, p in state.positions.items() if p == 0)
    cells = [at.get(i + 1, space.symbol) for i, space in enumerate(state.track)]
    return f"start[{start}] {' '.join(cells)} |finish"


def _move_line(played: m.MovePlayed, moved: m.Moved, state: State) -> str:
    name = state.name
    colour = "blue" if played.steps > 0 else "red"
    whose = "their own piece" if played.piece == played.by else f"{name(played.piece)}'s piece"
    card = f"{name(played.by)} plays the {colour} {abs(played.steps)} on {whose}"
    if moved.start == moved.end:
        return f"{card}: it cannot move."
    return f"{card}: {_from_to(state, moved.start, moved.end)}."


def _from_to(state: State, start: int, end: int) -> str:
    if end > len(state.track):
        return f"from {_place(state, start)} across the finish line"
    return f"from {_place(state, start)} to {_place(state, end)}"


def _place(state: State, pos: int) -> str:
    if pos == 0:
        return "the start"
    if pos > len(state.track):
        return "across the finish line"
    space = state.track[pos - 1]
    extra = {"lava": " (lava)", "ice": " (ice)", "move": f" ({space.symbol})"}
    return f"space {pos}{extra.get(space.kind, '')}"


def describe(event: Any, state: State) -> str | None:
    """One sentence for an event, or None for events a narrator leaves out (secret draws)."""
    name = state.name

    def attack(key: str) -> str:
        return attacks()[key].en

    def place(pos: int) -> str:
        return _place(state, pos)

    match event:
        case m.TrackBuilt(parts, spaces):
            return f"The track is laid: parts {' '.join(parts)} and the goal, {spaces} spaces."
        case Shuffled(pile, cards) if pile == "draw":
            return f"The {len(cards)} cards are shuffled."
        case Shuffled(_, cards):
            return f"The draw pile is empty: {len(cards)} discarded cards make a new one."
        case m.TurnStarted(seat, turn):
            return f"Turn {turn}, {name(seat)}:  {track_line(state)}"
        case m.Attacked(by, _, key, target, deflected):
            verb = "deflects the" if deflected else "plays"
            tail = " to" if deflected else " on"
            return f"{name(by)} {verb} {attack(key)}{tail} {name(target)}."
        case m.Hit(seat, key, carrier, source, ten):
            lava = "" if source == "card" else " from the lava"
            how = (
                f"{name(carrier)} does it while {name(seat)} counts to ten"
                if ten
                else (f"{name(carrier)} carries it out")
            )
            return f"{name(seat)} is hit by the {attack(key)}{lava}: {how}."
        case m.CountStarted(seat, counts, _):
            words = ", ".join(
                f"{n} ice cube{'s' if i else ''}" for i, n in enumerate(NUMBERS[: counts - 1])
            )
            return f"{name(seat)} counts: {words}, ..."
        case m.CountEnded(_, by):
            return (
                f"... {NUMBERS[-1]} ice cubes!" if by == TABLE else "The referee stops the count."
            )
        case m.GuessedWrong(seat, rnd):
            return f"{name(seat)} guesses wrong: round {rnd}."
        case m.AttackEnded(seat, key, cancelled):
            if cancelled:
                return f"The {attack(key)} on {name(seat)} is called off: a cube in it melted."
            return f"The {attack(key)} on {name(seat)} is done."
        case m.Moved(piece, start, end, cause):
            via = " by the movement space" if cause == "movement-space" else ""
            if start == end:
                return f"{name(piece)}'s piece cannot move{via} and stays at {place(start)}."
            return f"{name(piece)}'s piece goes{via} {_from_to(state, start, end)}."
        case m.LavaRevealed(seat, _, key, carrier):
            return f"Lava! The top card shows {attack(key)}: {name(carrier)} attacks {name(seat)}."
        case m.CubeMelted(seat, by):
            said = "" if by == seat else f", says {state.who(by)}"
            return f"{name(seat)}'s ice cube has melted{said}: {name(seat)} is out."
        case m.Won(seat, how):
            if how == "finish":
                return f"{name(seat)} crosses the finish line and wins!"
            return f"{name(seat)} has the last ice cube standing and wins!"
    return None
