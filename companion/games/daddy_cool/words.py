"""Events told in words a player reads: "Karen rolls 6 dice and gets 3 ice floes."

>>> from companion.games.fair import FairRandom
>>> from companion.games.seats import SeatInfo
>>> from companion.games.daddy_cool.engine import new_game
>>> seats = [SeatInfo(1, "Karen", "blue"), SeatInfo(2, "Tom", "yellow")]
>>> state, events = new_game({}, seats, FairRandom(bytes(32)))
>>> print("\\n".join(str(line) for line in narrate(events, state)))
The path is laid: 15 ice floes, cracked ones at 6 and 12, then the wash tub.
Turn 1: Karen.  start[KT] . . . . . C . . . . . C . . . |tub
>>> print("\\n".join(line.de for line in narrate(events, state)))
Der Weg liegt: 15 Eisschollen, die rissigen bei 6 und 12, dann der Waschzuber.
Zug 1: Karen.
"""

from __future__ import annotations

from typing import Any

from companion.games.daddy_cool import messages as m
from companion.games.daddy_cool.board import CRACKED, TUB, parse_path
from companion.games.daddy_cool.refusals import both_and, capital, dice_left
from companion.games.daddy_cool.state import ALL_ASIDE, ON_CRACKED, OVER, START, State
from companion.games.messages import REFEREE
from companion.games.sentence import Sentence, counted


def narrate(events: list[Any], state: State) -> list[Sentence]:
    """The sentences for a list of events; a roll and Daddy Cool's walk make one sentence."""
    lines: list[Sentence] = []
    threw: m.Threw | None = None
    for event in events:
        if isinstance(event, m.Threw) and event.floes:
            threw = event
            continue
        if threw is not None and isinstance(event, m.Walked):
            roll, walk = _throw(threw, state), _walk(event)
            lines.append(
                Sentence(
                    f"{roll.en}: Daddy Cool walks {walk.en}.",
                    f"{roll.de}: Daddy Cool geht {walk.de}.",
                )
            )
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


def _throw(threw: m.Threw, state: State) -> Sentence:
    """Who rolls how many dice and what they show, without the full stop."""
    who, n = state.name(threw.seat), threw.dice
    what = _all_again(n)
    if not threw.again:
        what = counted(n, ("{n} die", "{n} dice"), ("einen Würfel", "{n} Würfel"))
    if threw.by == REFEREE:
        roller = Sentence(
            f"The referee rolls {what.en} for {who}", f"Die Spielleitung wirft {what.de} für {who}"
        )
    else:
        roller = Sentence(f"{who} rolls {what.en}", f"{who} wirft {what.de}")
    floes = Sentence("no ice floe", "keine Eisscholle")
    if threw.floes:
        floes = _ice_floes(threw.floes)
    return Sentence(f"{roller.en} and gets {floes.en}", f"{roller.de} und bekommt {floes.de}")


def _walk(walked: m.Walked) -> Sentence:
    """Daddy Cool's walk, after "walks" and "geht": "from floe 3 to floe 5 (cracked)"."""
    lost = Sentence("", "")
    if walked.lost:
        beyond = counted(
            walked.lost,
            ("{n} floe beyond it counts", "{n} floes beyond it count"),
            ("eine Scholle darüber hinaus zählt", "{n} Schollen darüber hinaus zählen"),
        )
        lost = Sentence(f" ({beyond.en} for nothing)", f" ({beyond.de} nicht)")
    begin, to = _place(walked.start), _place(walked.end, walked.onto)
    begin_de = "vom Ufer" if walked.start == START else f"von Scholle {walked.start}"
    to_de = "zum Waschzuber" if walked.onto == TUB else to.de
    return Sentence(f"from {begin.en} to {to.en}{lost.en}", f"{begin_de} {to_de}{lost.de}")


def _place(position: int, kind: str = "") -> Sentence:
    """A place on the path: in English after "at", "to", "from"; in German where something is
    ("am Ufer", "auf Scholle 5 (rissig)", "am Waschzuber")."""
    if position == START:
        return Sentence("the start", "am Ufer")
    if kind == TUB:
        return Sentence("the wash tub", "am Waschzuber")
    if kind == CRACKED:
        return Sentence(f"floe {position} (cracked)", f"auf Scholle {position} (rissig)")
    return Sentence(f"floe {position}", f"auf Scholle {position}")


def _floes(n: int) -> Sentence:
    """Floes walked: "1 floe", "eine Scholle"; a count of one is said in German in words."""
    return counted(n, ("{n} floe", "{n} floes"), ("eine Scholle", "{n} Schollen"))


def _ice_floes(n: int) -> Sentence:
    return counted(n, ("{n} ice floe", "{n} ice floes"), ("eine Eisscholle", "{n} Eisschollen"))


def _all_again(n: int) -> Sentence:
    """Every die rolled once more: "all 6 dice again", "noch einmal alle 6 Würfel"."""
    return counted(
        n,
        ("the die again", "all {n} dice again"),
        ("noch einmal den Würfel", "noch einmal alle {n} Würfel"),
    )


def describe(event: Any, state: State) -> Sentence | None:
    """One sentence for an event, or None for events a narrator leaves out."""
    name = state.name
    match event:
        case m.PathLaid(path, floes):
            cracked = [str(i) for i, k in enumerate(parse_path(path), start=1) if k == CRACKED]
            which = Sentence("", "")
            if cracked:
                at = Sentence(" and ".join(cracked), " und ".join(cracked))
                which = counted(
                    len(cracked),
                    (f", a cracked one at {at.en}", f", cracked ones at {at.en}"),
                    (f", die rissige bei {at.de}", f", die rissigen bei {at.de}"),
                )
            laid = _ice_floes(floes)
            return Sentence(
                f"The path is laid: {laid.en}{which.en}, then the wash tub.",
                f"Der Weg liegt: {laid.de}{which.de}, dann der Waschzuber.",
            )
        case m.TurnStarted(seat, turn, _):
            who = name(seat)
            return Sentence(f"Turn {turn}: {who}.", f"Zug {turn}: {who}.", path_line(state))
        case m.Threw():
            roll = _throw(event, state)
            return Sentence(f"{roll.en}.", f"{roll.de}.")
        case m.Walked():
            walk = _walk(event)
            return Sentence(f"Daddy Cool walks {walk.en}.", f"Daddy Cool geht {walk.de}.")
        case m.NoFloe(seat, stays):
            who, where = name(seat), _place(stays)
            return Sentence(
                f"What a pity! {who}'s cub stays at {where.en}: the turn is over.",
                f"Schade! Das Junge von {who} bleibt {where.de}: Der Zug ist vorbei.",
            )
        case m.MustRoll(seat, reasons, dice):
            why = []
            if ON_CRACKED in reasons:
                why.append(
                    Sentence(
                        "Daddy Cool cannot stay on a cracked floe",
                        "Daddy Cool kann nicht auf einer rissigen Scholle bleiben",
                    )
                )
            what = dice_left(dice)
            if ALL_ASIDE in reasons:
                why.append(
                    Sentence("all the dice show ice floes", "alle Würfel zeigen Eisschollen")
                )
                what = _all_again(dice)
            because, who = both_and(why), name(seat)
            return Sentence(
                f"{capital(because.en)}: {who} must roll {what.en}.",
                f"{capital(because.de)}: {who} muss {what.de} werfen.",
            )
        case m.CubJoined(seat, by, start, end):
            who, gone, where = name(seat), _floes(end - start), _place(end)
            if state.phase == OVER and end == state.tub:
                return Sentence(
                    f"{who}'s cub follows Daddy Cool to the wash tub, {gone.en} on.",
                    f"Das Junge von {who} folgt Daddy Cool zum Waschzuber, {gone.de} weiter.",
                )
            if by == REFEREE:
                stops = Sentence(
                    f"The referee stops for {who}: {who}'s cub",
                    f"Die Spielleitung hört für {who} auf: Das Junge von {who}",
                )
            else:
                stops = Sentence(f"{who} stops: the cub", f"{who} hört auf: Das Junge")
            return Sentence(
                f"{stops.en} joins Daddy Cool on {where.en}, {gone.en} on.",
                f"{stops.de} geht zu Daddy Cool {where.de}, {gone.de} weiter.",
            )
        case m.PathLengthened(_, relaid, kinds, _, _):
            relaid_cracked = sum(1 for k in kinds if k == CRACKED)
            if len(relaid) == 1:
                rest = Sentence(
                    "the next one is laid before the wash tub",
                    "die nächste wird vor den Waschzuber gelegt",
                )
            else:
                first = {
                    0: Sentence("", ""),
                    1: Sentence(", the cracked one first", ", die rissige zuerst"),
                }.get(relaid_cracked, Sentence(", cracked ones first", ", die rissigen zuerst"))
                n = len(relaid)
                rest = Sentence(
                    f"the other {n} are laid before the wash tub{first.en}",
                    f"die anderen {n} werden vor den Waschzuber gelegt{first.de}",
                )
            return Sentence(
                "The path gets longer: the first floe behind the last cub goes back in the box "
                f"and {rest.en}.",
                "Der Weg wird länger: Die erste Scholle hinter dem letzten Jungen kommt zurück "
                f"in die Schachtel, und {rest.de}.",
            )
        case m.Won(seat, _):
            who = name(seat)
            return Sentence(
                f"{who}'s cub is the first at the wash tub: {who} wins!",
                f"Das Junge von {who} kommt als erstes am Waschzuber an: {who} gewinnt!",
            )
    return None
