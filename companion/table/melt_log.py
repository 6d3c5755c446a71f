"""What a game's melt estimates are made from, kept with the game, and rebuilt after a restart.

The sensing notes each cube set out, each settled weigh-in, each attack and the air (when it
moves by half a degree, or every few minutes) as a :class:`MeltInput` at the game's time, which
runs on across restarts; the table stores them with the game. After a power cut the estimates
and curves are rebuilt from them, as ``companion melt replay`` does. How long the table was off
is the wall clock's difference, when it can be trusted (a Pi has no real-time clock): a clock
that went backwards, or jumped further than a game lasts, is not, and then the estimate says so
(:meth:`~companion.melt.estimator.SeatMelt.lost_track`) until a weigh-in settles it.

>>> log = MeltLog()
>>> log.note(MeltInput(0.0, 1e9, 1, "start_g", 6.0))
>>> log.air(1, 10.0, 1e9 + 10, 21.0), log.air(1, 20.0, 1e9 + 20, 21.2), len(log.take())
(True, False, 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from companion.melt.estimator import SeatMelt
from companion.melt.replay import Replayer, Row
from companion.table.stored import MeltInput

AIR_STEP_C = 0.5
"""A seat's air is noted when it moved this much since it was last noted..."""
AIR_EVERY_S = 300.0
"""... or this long after (game seconds)."""
LONGEST_OFF_S = 12 * 3600.0
"""The longest time off the wall clock is believed for: no game lasts longer."""


class MeltLog:
    """The inputs noted since the table last stored them, and when each seat's air was noted."""

    def __init__(self) -> None:
        self._pending: list[MeltInput] = []
        self._air: dict[int, tuple[float, float]] = {}
        self._refused = False

    def note(self, entry: MeltInput) -> None:
        self._pending.append(entry)

    def air(self, seat: int, t_s: float, wall: float, air_c: float) -> bool:
        """Note a seat's air if it moved or is due; whether it was noted."""
        last = self._air.get(seat)
        if last is not None and abs(air_c - last[1]) < AIR_STEP_C and t_s - last[0] < AIR_EVERY_S:
            return False
        self._air[seat] = (t_s, air_c)
        self.note(MeltInput(t_s, wall, seat, "air_c", round(air_c, 2)))
        return True

    def take(self) -> list[MeltInput]:
        """The inputs to store now (the log forgets them)."""
        taken, self._pending = self._pending, []
        return taken

    def stored(self) -> None:
        """The last inputs taken were stored: a later refusal is said again."""
        self._refused = False

    def give_back(self, inputs: list[MeltInput]) -> bool:
        """Inputs that could not be stored: kept, before any noted since, for the next try;
        whether this is the first refusal in a row (the one to say)."""
        self._pending = inputs + self._pending
        first, self._refused = not self._refused, True
        return first

    def forget(self) -> None:
        """A new game: nothing of the last one is noted any more."""
        self._pending.clear()
        self._air.clear()


@dataclass
class Rebuilt:
    """The estimates as the stored inputs leave them at ``now_s`` of game time; ``off_s`` how
    long the table was off, ``None`` when the wall clock cannot say; ``curve`` each seat's
    estimate at every ``step_s`` from the game's start, as (t_s, grams, sigma_g)."""

    now_s: float
    off_s: float | None
    seats: dict[int, SeatMelt]
    curve: dict[int, list[tuple[float, float, float]]] = field(default_factory=dict)


def rebuild(inputs: Sequence[MeltInput], wall_now: float, step_s: float) -> Rebuilt:
    """Replay a game's stored inputs up to now; see the module's description.

    >>> inputs = [MeltInput(0.0, 1e9, 1, "start_g", 6.0), MeltInput(600.0, 1e9 + 600, 1,
    ...     "weigh_in_g", 5.0)]
    >>> back = rebuild(inputs, wall_now=1e9 + 900, step_s=300.0)
    >>> back.now_s, back.off_s, [p[0] for p in back.curve[1]]
    (900.0, 300.0, [0.0, 300.0, 600.0, 900.0])
    >>> rebuild(inputs, wall_now=1e9 - 5, step_s=300.0).off_s is None
    True
    """
    last = inputs[-1] if inputs else None
    off = None if last is None else wall_now - last.wall
    trusted = off is not None and 0.0 <= off <= LONGEST_OFF_S
    now_s = (last.t_s if last else 0.0) + (off if trusted and off is not None else 0.0)
    replayer = Replayer()
    curve: dict[int, list[tuple[float, float, float]]] = {}
    rows = [
        Row(n, i.t_s, i.seat, i.kind, i.value if i.kind == "attack" else float(i.value))
        for n, i in enumerate(inputs, start=1)
    ]
    points = [k * step_s for k in range(int(now_s // step_s) + 1)]
    # the rows and the curve's points in time order, a row before a point at the same time
    timeline = sorted([(r.t_s, 0, r.line, r) for r in rows] + [(p, 1, 0, None) for p in points])
    for t, _, _, row in timeline:
        if row is None:
            replayer.advance(t)
            for seat in replayer.seats:
                e = replayer.shown(seat, t)
                curve.setdefault(seat, []).append((t, e.grams, e.sigma_g))
        elif row.kind in ("start_g", "air_c") or row.seat in replayer.seats:
            list(replayer.push(row))
    replayer.advance(now_s)
    seats = dict(replayer.seats)
    if not trusted and last is not None:
        seats = {seat: state.lost_track() for seat, state in seats.items()}
    return Rebuilt(now_s, off if trusted else None, seats, curve)
