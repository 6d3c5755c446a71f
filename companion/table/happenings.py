"""What just happened at the table, as numbered facts for whoever carries them off the table.

The table notes a happening where it happens (a turn begins, an attack is carried out, a count
starts or finishes, a weigh-in settles, a cube is called gone, a game ends, a seat's button is
pressed); the MQTT publisher (:mod:`companion.mqtt.publisher`) reads them on its own thread. The
log is bounded: a reader that falls behind loses the oldest, and the table never waits for one.
A happening holds only what the public status shows: no hand, no token, no draw.

>>> log = Happenings(capacity=2)
>>> for seat in (1, 2, 3):
...     log.note("turn", 1_700_000_000.0, seat=seat)
>>> [(h.n, h.fields["seat"]) for h in log.since(0)]
[(2, 2), (3, 3)]
>>> log.since(3)
[]
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Literal

from companion.table.status import GameSummary

Kind = Literal[
    "game-started",
    "turn",
    "attack",
    "count-started",
    "count-finished",
    "weigh-in",
    "melted",
    "game-over",
    "button",
]
KINDS: tuple[Kind, ...] = Kind.__args__  # type: ignore[attr-defined]
CAPACITY = 256
"""The happenings kept for a reader: a whole game's turns at a table of six."""


@dataclass(frozen=True)
class Happening:
    """Happening ``n`` of the table, of ``kind``, at ``time`` (Unix seconds), with its facts."""

    n: int
    kind: Kind
    time: float
    fields: dict[str, Any] = field(default_factory=dict)


class Happenings:
    """The table's recent happenings, numbered from 1; safe from any thread."""

    def __init__(self, capacity: int = CAPACITY) -> None:
        self._kept: deque[Happening] = deque(maxlen=capacity)
        self._n = 0
        self._turn: tuple[str, int | None] | None = None
        self._new = threading.Condition()

    def note(self, kind: Kind, time: float, **fields: Any) -> None:
        """Note that ``kind`` happened at ``time`` (wall seconds: a label, never an interval)."""
        with self._new:
            self._n += 1
            self._kept.append(Happening(self._n, kind, time, fields))
            self._new.notify_all()

    def turn(self, game: GameSummary | None, time: float) -> None:
        """Note a turn whenever a status shows a new game's first or another seat's."""
        turn = None if game is None else (game.commitment, game.turn_seat)
        if turn != self._turn and turn is not None and turn[1] is not None:
            self.note("turn", time, seat=turn[1])
        self._turn = turn

    def since(self, n: int) -> list[Happening]:
        """The happenings after number ``n`` that are still kept, oldest first."""
        with self._new:
            return [h for h in self._kept if h.n > n]

    def wait(self, n: int, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for a happening after number ``n``; whether one is."""
        with self._new:
            return self._new.wait_for(lambda: self._n > n, timeout)
