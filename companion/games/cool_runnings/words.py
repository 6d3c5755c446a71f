"""Events told in words a player reads: "Tom plays Water bath on Mary"."""

from __future__ import annotations

from typing import Any

from companion.games.cool_runnings import messages as m
from companion.games.cool_runnings.cards import attacks
from companion.games.cool_runnings.state import State
from companion.games.deck import Drew, Shuffled
from companion.games.messages import REFEREE, TABLE, Actor

NUMBERS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]


def describe(event: Any, state: State) -> str | None:
    """One sentence for an event, or None for events a narrator leaves out (secret draws)."""
    name, length = state.name, len(state.track)

    def who(actor: Actor) -> str:
        return {REFEREE: "the referee", TABLE: "the table"}.get(actor, name(actor))  # type: ignore[call-overload]

    def attack(key: str) -> str:
        return attacks()[key].en

    def place(pos: int) -> str:
        if pos == 0:
            return "the start"
        if pos > length:
            return "across the finish line"
        kind = state.track[pos - 1].kind
        extra = {"lava": " (lava)", "ice": " (ice)", "move": f" ({state.track[pos - 1].symbol})"}
        return f"space {pos}{extra.get(kind, '')}"

    match event:
        case m.TrackBuilt(parts, spaces):
            return f"The track is laid: parts {' '.join(parts)} and the goal, {spaces} spaces."
        case Shuffled(pile, cards) if pile == "draw":
            return f"The {len(cards)} cards are shuffled."
        case Shuffled(_, cards):
            return f"The draw pile is empty: {len(cards)} discarded cards make a new one."
        case Drew(to, cards) if to.startswith("hand:"):
            return f"{name(int(to[5:]))} draws {_cards(len(cards))}."
        case m.TurnStarted(seat, turn):
            return f"Turn {turn}: {name(seat)}."
        case m.Attacked(by, _, key, target, deflected):
            verb = "deflects the" if deflected else "plays"
            tail = " to" if deflected else " on"
            return f"{name(by)} {verb} {attack(key)}{tail} {name(target)}."
        case m.Hit(seat, key, carrier, source, ten):
            how = "counts to ten" if ten else "carries it out"
            lava = "" if source == "card" else " from the lava"
            return f"{name(seat)} is hit by the {attack(key)}{lava}: {name(carrier)} {how}."
        case m.CountStarted(seat, counts, _):
            words = ", ".join(
                f"{n} ice cube{'s' if i else ''}" for i, n in enumerate(NUMBERS[:counts])
            )
            return f"{name(seat)} counts: {words}."
        case m.CountEnded(_, by):
            return "The count is over." if by == TABLE else "The referee ends the count."
        case m.GuessedWrong(seat, rnd):
            return f"{name(seat)} guesses wrong: round {rnd}."
        case m.AttackEnded(seat, key, cancelled):
            if cancelled:
                return f"The {attack(key)} on {name(seat)} ends: a cube in it has melted."
            return f"The {attack(key)} on {name(seat)} is done."
        case m.MovePlayed(by, _, piece, steps):
            colour = "blue" if steps > 0 else "red"
            whose = "their own piece" if piece == by else f"{name(piece)}'s piece"
            way = "forwards" if steps > 0 else "back"
            return f"{name(by)} plays the {colour} {abs(steps)} and moves {whose} {way}."
        case m.Moved(piece, start, end, cause):
            via = " by the movement space" if cause == "movement-space" else ""
            if start == end:
                return f"{name(piece)}'s piece cannot move{via} and stays at {place(start)}."
            return f"{name(piece)}'s piece goes{via} from {place(start)} to {place(end)}."
        case m.LavaRevealed(seat, _, key, carrier):
            return f"Lava! The top card shows {attack(key)}: {name(carrier)} attacks {name(seat)}."
        case m.CubeMelted(seat, by):
            said = "" if by == seat else f", says {who(by)}"
            return f"{name(seat)}'s ice cube has melted{said}: {name(seat)} is out."
        case m.TurnEnded(_):
            return None
        case m.Won(seat, how):
            if how == "finish":
                return f"{name(seat)} crosses the finish line and wins!"
            return f"{name(seat)} has the last ice cube standing and wins!"
    return None


def _cards(n: int) -> str:
    return "a card" if n == 1 else f"{n} cards"
