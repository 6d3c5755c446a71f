"""Events told in words a player reads: "Tom puts a bather on Mary's towel on blue 2b."

>>> from companion.games.fair import FairRandom
>>> from companion.games.seats import SeatInfo
>>> from companion.games.cool_am_pool.engine import new_game
>>> seats = [SeatInfo(1, "Karen", "blue"), SeatInfo(2, "Tom", "yellow")]
>>> state, events = new_game({}, seats, FairRandom(bytes(32)))
>>> narrate(events, state)[0][:58]
'Each player lays 12 towels on the loungers of rows 2 to 4,'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from companion.games.cool_am_pool import messages as m
from companion.games.cool_am_pool.board import COLUMN, LIFEGUARD, BoardData, Lounger, closed
from companion.games.cool_am_pool.state import FIVE_POINT, FOREIGN, OWN, RECONQUER, State
from companion.games.dice import Rolled

NUMBERS = ["no", "one", "two", "three", "four", "five", "six"]


def narrate(events: list[Any], state: State) -> list[str]:
    """The sentences for a list of events; events a player need not hear are left out."""
    return [line for event in events if (line := describe(event, state))]


def dice_words(faces: Iterable[str], board: BoardData) -> str:
    """Faces grouped by colour, the board's order, lifeguards last: "two red, one blue".

    >>> from companion.games.cool_am_pool.board import default_board
    >>> dice_words(["blue", "lifeguard", "red", "red"], default_board())
    'two red, one blue and one lifeguard'
    """
    count = Counter(faces)
    parts = [f"{NUMBERS[count[f]]} {f}" for f in board.colours if count[f]]
    if count[LIFEGUARD]:
        parts.append(_lifeguards(count[LIFEGUARD]))
    if not parts:
        return "no dice"
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


def _lifeguards(n: int) -> str:
    return f"{NUMBERS[n]} lifeguard{'' if n == 1 else 's'}"


def closes(board: BoardData, position: int) -> str:
    """What the lifeguard at ``position`` closes, in words."""
    kind, what = closed(board, position)
    return f"the {what} column" if kind == COLUMN else f"row {what}"


def describe(event: Any, state: State) -> str | None:
    """One sentence for an event, or None for an event the narrator leaves out."""
    name, board = state.name, state.board

    def label(number: int) -> str:
        return state.loungers[number].label

    match event:
        case m.SetupStarted(first, towels):
            return (
                f"Each player lays {towels} towels on the loungers of rows 2 to 4, one at a time, "
                f"{name(first)} first; the 5-point loungers stay free."
            )
        case m.TowelPlaced(seat, lounger):
            return f"{name(seat)} lays a towel on {label(lounger)}."
        case m.TurnStarted(seat, turn):
            chips = state.chips[seat]
            return (
                f"Turn {turn}, {name(seat)} ({chips} chip{'' if chips == 1 else 's'}); "
                f"the lifeguard closes {closes(board, state.lifeguard)}; "
                f"{state.without_bather()} towels are without a bather."
            )
        case Rolled(dice, faces):
            dice_count = f"{len(dice)} dice" if len(dice) > 1 else "the last die"
            return f"{name(state.turn_seat)} rolls {dice_count}: {dice_words(faces, board)}."
        case m.ChipSpent(seat, chips):
            return (
                f"{name(seat)} throws a water ball into the pool ({chips} left): "
                "that roll does not count, the same dice are rolled again."
            )
        case m.DiceSetAside(seat, _, colours, lifeguards):
            if not colours:
                guards = dice_words([LIFEGUARD] * len(lifeguards), board)
                return f"No colour shows: {name(seat)} sets {guards} aside."
            guards = f" (and {_lifeguards(len(lifeguards))})" if lifeguards else ""
            return f"{name(seat)} sets aside {dice_words(colours, board)}{guards}."
        case m.LifeguardMoved(steps, _, end):
            where = board.track[end]
            space = f"a {where}" if where.isdigit() else f"the {where} space"
            walk = "space" if steps == 1 else "spaces"
            return (
                f"The lifeguard walks {steps} {walk} clockwise to {space}: "
                f"{closes(board, end)} is closed."
            )
        case m.Stopped(seat, result, all_aside):
            have = dice_words(result, board) if result else "no colour dice"
            if all_aside:
                return f"All six dice are aside: {name(seat)} has {have}."
            return f"{name(seat)} stops with {have}."
        case m.LoungerTaken(seat, lounger, how, other):
            return _taken(state, seat, state.loungers[lounger], how, other)
        case m.ChipsTaken(seat, got, chips):
            if got == 0:
                return (
                    f"{name(seat)} already holds {chips} chips, the most allowed, and takes none."
                )
            s = "" if got == 1 else "s"
            return f"{name(seat)} takes {got} water-ball chip{s} from the pool (now {chips})."
        case m.NoLounger(seat):
            return (
                f"{name(seat)}'s dice allow no lounger that is free to take "
                f"(the lifeguard closes {closes(board, state.lifeguard)}): the turn ends."
            )
        case m.LastRound(free, last):
            return (
                f"Only {free} towels are without a bather: the round is completed, "
                f"{name(last)} plays last."
            )
        case m.GameOver(seats, scores, bathers, winner, tie_break):
            return _game_over(state, seats, scores, bathers, winner, tie_break)
    return None


def _taken(state: State, seat: int, spot: Lounger, how: str, other: int | None) -> str:
    taker, where, row = state.name(seat), spot.label, spot.row
    if how == OWN:
        return f"{taker} turns their towel on {where} over: secured for good ({row} points)."
    if how == FIVE_POINT:
        return f"{taker} takes {where}, a lounger right by the pool, for good (5 points)!"
    owner = state.name(other) if other is not None else "another player"
    if how == FOREIGN:
        return f"{taker} puts a bather on {owner}'s towel on {where}."
    if how == RECONQUER:
        return (
            f"{taker} reconquers {where}: {owner}'s bather goes home and "
            f"{taker}'s towel is turned over ({row} points)."
        )
    return (
        f"{taker} conquers {where} for good: {owner}'s towel goes back, "
        f"{taker}'s own towel lies there bather side up ({row} points)."
    )


def _game_over(
    state: State,
    seats: tuple[int, ...],
    scores: tuple[int, ...],
    bathers: tuple[int, ...],
    winner: int | None,
    tie_break: bool,
) -> str:
    name = state.name
    table = ", ".join(f"{name(s)} {p}" for s, p in zip(seats, scores, strict=True))
    line = f"The game is over. Points: {table}."
    if winner is None:
        return f"{line} Still tied after counting bathers: nobody wins alone."
    if tie_break:
        count = dict(zip(seats, bathers, strict=True))[winner]
        return f"{line} A tie on points: {name(winner)} has more bathers ({count}) and wins!"
    return f"{line} {name(winner)} wins!"
