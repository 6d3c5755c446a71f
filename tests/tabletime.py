"""A simulated table whose time the test moves: table seconds pass only when the test says, so
what depends on time (melt curves, sweeps) is checked without waiting for it to pass."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.config import TableConfig, default_config
from companion.table.clock import TableClock
from companion.table.service import TableService

FAST = 200.0
"""A ten-count of 0.8 s steps takes a few hundredths of a second: a test waits for no count."""
WALL = 1_800_000_000.0
WAIT_S = 60.0
"""How long a test waits at most for the sensor loop's next snapshot before it fails."""


class HeldClock(TableClock):
    """A table clock that stands still until :meth:`advance`; its wall moves with it, and
    jumps where :meth:`step_wall` says (a network setting a Pi's clock)."""

    def __init__(self, speed: float = 1.0) -> None:
        self.real_s_passed = 0.0
        self.wall_stepped_s = 0.0
        super().__init__(
            speed,
            monotonic=lambda: self.real_s_passed,
            wall=lambda: WALL + self.wall_stepped_s + self.real_s_passed,
        )

    def advance(self, real_s: float) -> None:
        """Let ``real_s`` seconds pass: ``speed`` times as many table seconds."""
        self.real_s_passed += real_s

    def step_wall(self, s: float) -> None:
        """Set the wall clock ``s`` seconds on (back, when negative); no time passes."""
        self.wall_stepped_s += s


def held_table(
    state_dir: Path,
    clock: HeldClock,
    config: TableConfig | None = None,
    simulate: bool = True,
) -> TableService:
    """A running table without cues, on ``clock``: the simulated 4-seat table, unless
    ``config`` and ``simulate`` say another."""
    table = TableService(
        config or default_config(),
        state_dir,
        simulate=simulate,
        seed=1,
        with_cues=False,
        clock=clock,
    )
    table.start()
    return table


def snapshot_where(table: TableService, ok: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The latest snapshot, or the next ones, until one for which ``ok`` holds."""
    place = table.subscribe(None)
    while True:
        found = place.next(WAIT_S)
        assert found is not None, "the sensor loop published no snapshot"
        if ok(found[1]):
            return found[1]


def advance(table: TableService, clock: HeldClock, real_s: float) -> dict[str, Any]:
    """Move the clock on and return a snapshot made since: the sensor loop publishes one at
    its next pass, as the monotonic clock says a refresh is due (when ``real_s`` >= 2)."""
    clock.advance(real_s)
    now = round(clock.wall(), 3)
    return snapshot_where(table, lambda snapshot: snapshot["time"] >= now)


def fast_table(state_dir: Path, **options: Any) -> TableService:
    """A started simulated table without cues, its time ``FAST`` times quicker than real."""
    table = TableService(
        default_config(), state_dir, simulate=True, speed=FAST, seed=1, with_cues=False, **options
    )
    table.start()
    return table
