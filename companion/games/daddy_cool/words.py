"""Events told in words a player reads: "Karen rolls 6 dice and gets 3 ice floes."

>>> from companion.games.fair import FairRandom
>>> from companion.games.seats import SeatInfo
>>> from companion.games.daddy_cool.engine import new_game
>>> seats = [SeatInfo(1, "Karen", "blue"), SeatInfo(2, "Tom", "yellow")]
>>> state, events = new_game({}, seats, FairRandom(bytes(32)))
>>> print("\\n".join(narrate(events, state)))
The path is laid: 15 ice floes, cracked ones at 6 and 12, then the wash tub.
Turn 1, Karen:  start[KT] . . . . . C . . . . . C . . . |tub
"""

from __future__ import annotations

from typing import Any

from companion.games.daddy_cool import messages as m
from companion.games.daddy_cool.board import CRACKED, TUB, parse_path
from companion.games.daddy_cool.state import ALL_ASIDE, ON_CRACKED, OVER, START, State
from companion.games.messages import REFEREE


def narrate(events: list[Any], state: State) -> list[str]:
    """The sentences for a list of events; a roll and Daddy Cool's walk make one sentence."""
    lines: list[str] = []
    threw: m.Threw | None = None
    for event in events:
        if isinstance(event, m.Threw) and event.floes:
            threw = event
            continue
        if threw is not None and isinstance(event, m.Walked):
            lines.append(f"{_throw(threw, state)}: Daddy Cool walks {_walk(event)}.")
            threw = None
            continue
        line = describe(event, state)
        if line:
            lines.append(line)
    return lines


def path_line(state: State) -> str:
    """The path in one line, each cub by its initial (by its seat number if initials clash).

    ``start[T] . K . C . . |tub``: Tom at the start, Karen on floe 2, a cracked floe at 4.
    """
    initials = {seat: state.name(seat)[:1].upper() for seat in state.cubs}
    if len(set(initials.values())) < len(initials):
        initials = {seat: str(seat) for seat in state.cubs}
    at: dict[int, str] = {}
    for seat, position in state.cubs.items():
        at[position] = at.get(position, "") + initials[seat]
    cells = [at.get(i, "C" if state.cracked(i) else ".") for i in range(1, state.tub)]
    tub = f"|tub[{at[state.tub]}]" if state.tub in at else "|tub"
    return f"start[{at.get(START, '')}] {' '.join(cells)} {tub}"


def _throw(threw: m.Threw, state: State) -> str:
    who, dice = state.name(threw.seat), _count(threw.dice, "die", "dice")
    what = f"all {dice} again" if threw.again else dice
    roller = f"The referee rolls {what} for {who}" if threw.by == REFEREE else f"{who} rolls {what}"
    floes = "no ice floe" if not threw.floes else _count(threw.floes, "ice floe", "ice floes")
    return f"{roller} and gets {floes}"


def _walk(walked: m.Walked) -> str:
    lost = ""
    if walked.lost:
        beyond = _count(walked.lost, "floe beyond it counts", "floes beyond it count")
        lost = f" ({beyond} for nothing)"
    return f"from {_place(walked.start)} to {_place(walked.end, walked.onto)}{lost}"


def _place(position: int, kind: str = "") -> str:
    if position == START:
        return "the start"
    if kind == TUB:
        return "the wash tub"
    return f"floe {position}{' (cracked)' if kind == CRACKED else ''}"


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def describe(event: Any, state: State) -> str | None:
    """One sentence for an event, or None for events a narrator leaves out."""
    name = state.name
    match event:
        case m.PathLaid(path, floes):
            cracked = [str(i) for i, k in enumerate(parse_path(path), start=1) if k == CRACKED]
            which = f", cracked ones at {' and '.join(cracked)}" if cracked else ""
            return f"The path is laid: {floes} ice floes{which}, then the wash tub."
        case m.TurnStarted(seat, turn, _):
            return f"Turn {turn}, {name(seat)}:  {path_line(state)}"
        case m.Threw():
            return f"{_throw(event, state)}."
        case m.Walked():
            return f"Daddy Cool walks {_walk(event)}."
        case m.NoFloe(seat, stays):
            return f"What a pity! {name(seat)}'s cub stays at {_place(stays)}: the turn is over."
        case m.MustRoll(seat, reasons, dice):
            why = []
            if ON_CRACKED in reasons:
                why.append("Daddy Cool cannot stay on a cracked floe")
            if ALL_ASIDE in reasons:
                why.append("all the dice show ice floes")
            left = "the die left" if dice == 1 else f"the {dice} dice left"
            what = f"all {dice} dice again" if ALL_ASIDE in reasons else left
            because = " and ".join(why)
            return f"{because[:1].upper()}{because[1:]}: {name(seat)} must roll {what}."
        case m.CubJoined(seat, by, start, end):
            gone = _count(end - start, "floe", "floes")
            if state.phase == OVER and end == state.tub:
                return f"{name(seat)}'s cub follows Daddy Cool to the wash tub, {gone} on."
            if by == REFEREE:
                stops = f"The referee stops for {name(seat)}: {name(seat)}'s cub"
            else:
                stops = f"{name(seat)} stops: the cub"
            return f"{stops} joins Daddy Cool on {_place(end)}, {gone} on."
        case m.PathLengthened(_, relaid, kinds, _, _):
            relaid_cracked = sum(1 for k in kinds if k == CRACKED)
            if len(relaid) == 1:
                rest = "the next one is laid before the wash tub"
            else:
                first = {0: "", 1: ", the cracked one first"}.get(
                    relaid_cracked, ", cracked ones first"
                )
                rest = f"the other {len(relaid)} are laid before the wash tub{first}"
            return (
                "The path gets longer: the first floe behind the last cub goes back in the box "
                f"and {rest}."
            )
        case m.Won(seat, _):
            return f"{name(seat)}'s cub is the first at the wash tub: {name(seat)} wins!"
    return None
