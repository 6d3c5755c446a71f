"""Events told in words a player reads: "Tom plays Water bath on Mary."

What a player would call out at the table is marked to be said aloud (:attr:`Sentence.aloud`):
an attack played or deflected, one to carry out, lava, a melted cube, the winner. A hit that
starts a ten-count is not: the table page says the count itself, and a sentence said then would
be cut short by its first number.

>>> from companion.games.fair import FairRandom
>>> from companion.games.seats import SeatInfo
>>> from companion.games.cool_runnings.engine import new_game
>>> seats = [SeatInfo(1, "Karen", "blue"), SeatInfo(2, "Tom", "yellow")]
>>> order = {"part_order": ["A", "B", "C", "D", "E"]}
>>> state, events = new_game(order, seats, FairRandom(bytes(32)))
>>> print(narrate(events, state)[0].en)
The track is laid: parts A B C D E and the goal, 38 spaces.
>>> print(narrate(events, state)[0].de)
Die Strecke liegt: Teile A B C D E und das Ziel, 38 Felder.
"""

from __future__ import annotations

from typing import Any

from companion.games.cool_runnings import messages as m
from companion.games.cool_runnings.cards import attacks
from companion.games.cool_runnings.refusals import attack_name
from companion.games.cool_runnings.state import State
from companion.games.deck import Shuffled
from companion.games.messages import TABLE
from companion.games.sentence import Sentence, counted

NUMBERS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
ZAHLEN = ["ein", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun", "zehn"]


def narrate(events: list[Any], state: State) -> list[Sentence]:
    """The sentences for a list of events; a card's move and where it took the piece are one."""
    lines: list[Sentence] = []
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


def _move_line(played: m.MovePlayed, moved: m.Moved, state: State) -> Sentence:
    name = state.name
    steps = abs(played.steps)
    forward = played.steps > 0
    own = played.piece == played.by
    by = name(played.by)
    en = f"{by} plays the {'blue' if forward else 'red'} {steps} on "
    en += "their own piece" if own else f"{name(played.piece)}'s piece"
    de = f"{by} spielt die {'blaue' if forward else 'rote'} {steps} auf "
    de += "die eigene Figur" if own else f"die Figur von {name(played.piece)}"
    if moved.start == moved.end:
        return Sentence(f"{en}: it cannot move.", f"{de}: Sie kann nicht ziehen.")
    way = _from_to(state, moved.start, moved.end)
    return Sentence(f"{en}: {way.en}.", f"{de}: {way.de}.")


def _from_to(state: State, start: int, end: int) -> Sentence:
    begin = _place(state, start)
    if end > len(state.track):
        return Sentence(f"from {begin.en} across the finish line", f"von {begin.de} ins Ziel")
    to = _place(state, end)
    return Sentence(f"from {begin.en} to {to.en}", f"von {begin.de} auf {to.de}")


def _place(state: State, pos: int) -> Sentence:
    if pos == 0:
        return Sentence("the start", "dem Start")
    if pos > len(state.track):
        return Sentence("across the finish line", "im Ziel")
    space = state.track[pos - 1]
    marks = {"lava": ("lava", "Lava"), "ice": ("ice", "Eis"), "move": (space.symbol,) * 2}
    if space.kind not in marks:
        return Sentence(f"space {pos}", f"Feld {pos}")
    en, de = marks[space.kind]
    return Sentence(f"space {pos} ({en})", f"Feld {pos} ({de})")


def _counted(counts: int) -> Sentence:
    """How far a count goes, told once, not counted: the table page shows each count as it comes
    ("ten ice cubes")."""
    return Sentence(f"{NUMBERS[counts - 1]} ice cubes", f"{ZAHLEN[counts - 1]} Eiswürfel")


def describe(event: Any, state: State) -> Sentence | None:
    """One sentence for an event, or None for events a narrator leaves out (secret draws)."""
    name = state.name

    match event:
        case m.TrackBuilt(parts, spaces):
            laid = " ".join(parts)
            many = counted(spaces, ("{n} space", "{n} spaces"), ("{n} Feld", "{n} Felder"))
            return Sentence(
                f"The track is laid: parts {laid} and the goal, {many.en}.",
                f"Die Strecke liegt: Teile {laid} und das Ziel, {many.de}.",
            )
        case Shuffled(pile, cards) if pile == "draw":
            return counted(
                len(cards),
                ("The one card is shuffled.", "The {n} cards are shuffled."),
                ("Die eine Karte ist gemischt.", "Die {n} Karten sind gemischt."),
            )
        case Shuffled(_, cards):
            discarded = counted(
                len(cards),
                ("{n} discarded card makes", "{n} discarded cards make"),
                ("{n} abgelegte Karte wird", "{n} abgelegte Karten werden"),
            )
            return Sentence(
                f"The draw pile is empty: {discarded.en} a new one.",
                f"Der Nachziehstapel ist leer: {discarded.de} der neue.",
            )
        case m.TurnStarted(seat, turn):
            return Sentence(
                f"Turn {turn}: {name(seat)}.", f"Zug {turn}: {name(seat)}.", track_line(state)
            )
        case m.Attacked(by, _, key, target, deflected):
            what = attack_name(key)
            if deflected:
                return Sentence(
                    f"{name(by)} deflects the {what.en} to {name(target)}.",
                    f"{name(by)} lenkt den Angriff {what.de} auf {name(target)} um.",
                ).out_loud()
            return Sentence(
                f"{name(by)} plays {what.en} on {name(target)}.",
                f"{name(by)} spielt {what.de} gegen {name(target)}.",
            ).out_loud()
        case m.Hit(seat, key, carrier, source, ten):
            what, who, doer = attack_name(key), name(seat), name(carrier)
            lava = Sentence("", "") if source == "card" else Sentence(" from the lava", " der Lava")
            if ten:
                how = Sentence(
                    f"{doer} does it while {who} counts to ten",
                    f"{doer} führt ihn aus, während {who} bis zehn zählt",
                )
            else:
                how = Sentence(f"{doer} carries it out", f"{doer} führt ihn aus")
            hit = Sentence(
                f"{who} is hit by the {what.en}{lava.en}: {how.en}.",
                f"Der Angriff {what.de}{lava.de} trifft {who}: {how.de}.",
            )
            return hit if ten else hit.out_loud()
        case m.CountStarted(seat, counts, _):
            return Sentence(
                f"The count for {name(seat)} starts: {_counted(counts).en}.",
                f"Das Zählen für {name(seat)} beginnt: {_counted(counts).de}.",
            )
        case m.CountEnded(seat, by):
            if by == TABLE:
                return Sentence(
                    f"The count for {name(seat)} is over.",
                    f"Das Zählen für {name(seat)} ist vorbei.",
                )
            return Sentence(
                f"The referee stops the count for {name(seat)}.",
                f"Die Spielleitung beendet das Zählen für {name(seat)}.",
            )
        case m.GuessedWrong(seat, rnd):
            return Sentence(
                f"{name(seat)} guesses wrong: round {rnd}.",
                f"{name(seat)} rät falsch: Runde {rnd}.",
            )
        case m.AttackEnded(seat, key, cancelled, out):
            what, who = attack_name(key), name(seat)
            if cancelled and out is not None:
                return Sentence(
                    f"{name(out)} is out: the {what.en} on {who} is called off.",
                    f"{name(out)} ist raus: Der Angriff {what.de} an {who} fällt aus.",
                )
            if cancelled:
                return Sentence(
                    f"The {what.en} on {who} is called off: a cube in it melted.",
                    f"Der Angriff {what.de} an {who} fällt aus: Ein Würfel darin ist geschmolzen.",
                )
            return Sentence(
                f"The {what.en} on {who} is done.", f"Der Angriff {what.de} an {who} ist vorbei."
            )
        case m.Moved(piece, start, end, cause):
            who = name(piece)
            via = ("by the movement space", "durch das Bewegungsfeld")
            if start == end:
                where = _place(state, start)
                if cause == "movement-space":
                    return Sentence(
                        f"{who}'s piece cannot move {via[0]} and stays at {where.en}.",
                        f"Die Figur von {who} kann {via[1]} nicht ziehen "
                        f"und bleibt auf {where.de}.",
                    )
                return Sentence(
                    f"{who}'s piece cannot move and stays at {where.en}.",
                    f"Die Figur von {who} kann nicht ziehen und bleibt auf {where.de}.",
                )
            way = _from_to(state, start, end)
            if cause == "movement-space":
                return Sentence(
                    f"{who}'s piece goes {via[0]} {way.en}.",
                    f"Die Figur von {who} zieht {via[1]} {way.de}.",
                )
            return Sentence(f"{who}'s piece goes {way.en}.", f"Die Figur von {who} zieht {way.de}.")
        case m.LavaRevealed(seat, _, key, carrier):
            what = attack_name(key)
            lava = Sentence(
                f"Lava! The top card shows {what.en}: {name(carrier)} attacks {name(seat)}.",
                f"Lava! Die oberste Karte zeigt {what.de}: {name(carrier)} greift {name(seat)} an.",
            )
            return lava if attacks()[key].ten_count else lava.out_loud()
        case m.CubeMelted(seat, by):
            who = name(seat)
            if by == seat:
                return Sentence(
                    f"{who}'s ice cube has melted: {who} is out.",
                    f"Der Eiswürfel von {who} ist geschmolzen: {who} ist raus.",
                ).out_loud()
            return Sentence(
                f"{who}'s ice cube has melted, says {state.who(by)}: {who} is out.",
                f"Der Eiswürfel von {who} ist geschmolzen, sagt {state.who_de(by)}: "
                f"{who} ist raus.",
            ).out_loud()
        case m.Won(seat, how):
            who = name(seat)
            if how == "finish":
                return Sentence(
                    f"{who} crosses the finish line and wins!",
                    f"{who} erreicht das Ziel und gewinnt!",
                ).out_loud()
            return Sentence(
                f"{who} has the last ice cube standing and wins!",
                f"{who} hat den letzten Eiswürfel und gewinnt!",
            ).out_loud()
    return None
