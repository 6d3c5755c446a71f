"""What a game asks of the table: one small vocabulary that every game speaks.

A game's rules say what happens (its events); its ``effects(events, state)`` says what the table
must do about them (``state`` is the one they led to), in these words, and ``standing(state)``
what must be going on at the table while a
game is in that state (cubes out, a count running), for a game just started or restored after a
power cut. The table carries effects out by their class and never reads a game's name or an
event's type, so a new game needs no line of the table.

>>> Melt(2, "squeeze")
Melt(seat=2, kind='squeeze')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class CubeOut:
    """A fresh ice cube stands at ``seat``: the table starts its estimate and asks a weigh-in."""

    seat: int


@dataclass(frozen=True)
class StartCount:
    """Count ``counts`` beats for ``seat`` at ``pace_s`` table seconds each; when the count ends,
    the table takes the action ``then`` (if it is still legal)."""

    seat: int
    pace_s: float
    counts: int
    then: Any


@dataclass(frozen=True)
class EndCount:
    """The running count is over before its end (skipped, or its attack cancelled)."""

    seat: int


@dataclass(frozen=True)
class TurnCue:
    """``seat``'s turn starts: the your-turn cue plays for it."""

    seat: int


@dataclass(frozen=True)
class AskWeighIn:
    """``seat`` should set its cap on the pad: the table asks, and the cue plays."""

    seat: int


@dataclass(frozen=True)
class Melt:
    """An attack of ``kind`` (a kind the melt model knows) was carried out on ``seat``'s cube."""

    seat: int
    kind: str


@dataclass(frozen=True)
class GameOver:
    """The rules ended the game; ``winner`` is ``None`` for a tie."""

    winner: int | None


Effect = CubeOut | StartCount | EndCount | TurnCue | AskWeighIn | Melt | GameOver


@dataclass(frozen=True)
class TableFacts:
    """What the table knows that a game's set-up may use: the air now (``None`` while no probe
    reads and none was given), the table's ten-count pace, and the options of the table's own
    box for the game (its data files: ``[games.<game>]``)."""

    air_c: float | None
    count_pace_s: float
    own: Mapping[str, Any] = field(default_factory=dict)


def no_defaults(facts: TableFacts) -> dict[str, Any]:
    """A game that takes no option from the table."""
    return {}


def nothing_standing(state: Any) -> list[Effect]:
    """A game that needs nothing of the table between its events (no cubes, no counts)."""
    return []


def turns_and_end(
    turn_started: type[Any], game_over: type[Any], winner: str = "winner"
) -> Callable[[Iterable[Any], Any], list[Effect]]:
    """The effects of a game whose table only cues turns and the winner: ``turn_started``
    events (with a ``seat``) cue that seat's turn, a ``game_over`` event names the winner in its
    field ``winner``.

    >>> @dataclass(frozen=True)
    ... class Turn:
    ...     seat: int
    >>> @dataclass(frozen=True)
    ... class Over:
    ...     seat: int
    >>> turns_and_end(Turn, Over, winner="seat")([Turn(2), Over(2)], None)
    [TurnCue(seat=2), GameOver(winner=2)]
    """

    def effects(events: Iterable[Any], state: Any) -> list[Effect]:
        out: list[Effect] = []
        for event in events:
            if isinstance(event, turn_started):
                out.append(TurnCue(event.seat))
            elif isinstance(event, game_over):
                out.append(GameOver(getattr(event, winner)))
        return out

    return effects
