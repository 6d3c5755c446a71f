"""A wall clock that steps mid-game changes nothing the table times: a Pi has no real-time clock,
so its clock starts where it was last saved and jumps when a network sets it.

On a held clock whose wall the test steps (back an hour, on a day, back a minute) while a game
of Cool Runnings runs on the simulated table: a running ten-count keeps its pace on the
monotonic clock, the snapshots keep coming at their refresh (never more than one refresh without
one), every cube's estimate goes on melting smoothly, and only the status's ``time`` jumps, as
far as the wall did.
"""

from __future__ import annotations

import itertools
import math
import random
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from seating import seated
from tabletime import WAIT_S, HeldClock
from waiting import wait_until

from companion.config import default_config
from companion.errors import IllegalAction
from companion.games.messages import REFEREE
from companion.table import sensing
from companion.table.hub import Subscription
from companion.table.service import REFRESH_S, TableService

STEPS_S = {"back an hour": -3600.0, "on a day": 86400.0, "back a minute": -60.0}
STEP_S = 0.25
"""Real seconds the held clock moves at a time: the snapshots' times are known to this."""
PACE_S = 1.0
COUNTS = 10
TEN_S = 1.0
"""After "ten" the table lets the long tone sound this long before the count is over."""
MELT_STEP_G = 0.02
"""The most a cube's estimate may move from one snapshot to the next (a refresh apart) without
a weigh-in or an attack: a 6 g cube melts in an hour or two, a thousandth of a gram a second,
and the status rounds to hundredths. A clock's step read as time passed would move it grams."""
SEED = 3


@dataclass
class SteppedTable:
    """A held table whose sensor loop's passes the test counts, so it knows when a pass has
    seen the clock's latest move."""

    table: TableService
    clock: HeldClock
    passes: int = 0
    moved: threading.Condition = field(default_factory=threading.Condition)
    published: list[tuple[float, dict[str, Any]]] = field(default_factory=list)
    """Every snapshot seen after a step: the monotonic (real) seconds it was seen at, itself."""
    place: Subscription | None = None

    def tick(self) -> None:
        with self.moved:
            self.passes += 1
            self.moved.notify_all()

    def step(self, real_s: float = STEP_S) -> dict[str, Any]:
        """Let ``real_s`` pass, wait for two passes of the loop; the status then."""
        if self.place is None:
            self.place = self.table.subscribe(None)
        # under the table's lock, where every snapshot is made: one made before the move is
        # seen at the time it was made, never taken for one made after it
        with self.table._table:
            self._seen()
            self.clock.advance(real_s)
            self.table._keeper._woken.notify_all()  # a running count sees the time now
        with self.moved:
            wanted = self.passes + 2
            assert self.moved.wait_for(lambda: self.passes >= wanted, WAIT_S), "the loop stalled"
        self._seen()
        return self.table.status()

    def _seen(self) -> None:
        """Keep the latest snapshot, when one came since the last look, at the time now."""
        assert self.place is not None
        found = self.place.next(0.0)
        if found is not None:
            self.published.append((self.clock.real_s_passed, found[1]))

    def longest_silence_s(self, since: float) -> float:
        """The longest stretch (real seconds) without a new snapshot since ``since``."""
        times = [since] + [t for t, _ in self.published if t > since] + [self.clock.real_s_passed]
        return max(b - a for a, b in itertools.pairwise(times))


@pytest.fixture
def stepped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[SteppedTable]:
    monkeypatch.setattr(sensing, "LOOP_S", 0.005)  # the held clock's steps need no real wait
    clock = HeldClock()
    holder: list[SteppedTable] = []
    table = TableService(
        default_config(),
        tmp_path,
        simulate=True,
        seed=1,
        with_cues=False,
        clock=clock,
        tick=lambda: holder[0].tick() if holder else None,
    )
    holder.append(SteppedTable(table, clock))
    table.start()
    try:
        yield holder[0]
    finally:
        table.close()


def start_a_count(stepped: SteppedTable) -> float:
    """Play Cool Runnings at random (seeded) until a ten-count runs; its start (real s)."""
    table = stepped.table
    body = {"game": "cool-runnings", "options": {"count_pace_s": PACE_S}}
    tokens = seated(table, table.start_game(REFEREE, body))
    rnd = random.Random(SEED)
    for _ in range(500):
        stepped.step()
        choices = [
            (int(seat), action)
            for seat in tokens
            for action in table.view(int(seat))["legal_actions"]
            if action["type"] != "melted"
        ]
        seat, action = rnd.choice(choices)
        try:
            table.act(seat, action)
        except IllegalAction:
            continue
        if table.status()["count"] is not None:
            return stepped.clock.real_s_passed
    raise AssertionError("no ten-count began in 500 actions")


def due_beat(elapsed: float) -> int | None:
    """The beat a count started ``elapsed`` seconds ago shows (``None``: it is over)."""
    if elapsed >= (COUNTS - 1) * PACE_S + TEN_S:
        return None
    return min(math.floor(elapsed / PACE_S) + 1, COUNTS)


def ice(snapshot: dict[str, Any]) -> dict[int, tuple[float, float]]:
    """Each seat's estimate that no weigh-in touches now: its grams and sigma."""
    return {
        seat["seat"]: (seat["ice"]["grams"], seat["ice"]["sigma_g"])
        for seat in snapshot["seats"]
        if seat["ice"] is not None and seat["weigh_in"] is None
    }


def wait_for(stepped: SteppedTable, ok: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The status as soon as ``ok`` holds of it, the clock held still meanwhile."""

    def status() -> dict[str, Any] | None:
        snapshot = stepped.table.status()
        return snapshot if ok(snapshot) else None

    return wait_until(
        status, WAIT_S, every_s=0.002, what=lambda: f"a status that is ok: {stepped.table.status()}"
    )


@pytest.mark.parametrize("wall_step_s", STEPS_S.values(), ids=STEPS_S.keys())
def test_a_wall_clock_step_mid_count_changes_nothing_the_table_times(
    stepped: SteppedTable, wall_step_s: float
) -> None:
    clock = stepped.clock
    began = start_a_count(stepped)
    stepped.published.clear()
    before, at_before = clock.wall(), clock.real_s_passed
    stepped_at: float | None = None
    while True:
        elapsed = clock.real_s_passed - began
        if stepped_at is None and elapsed >= 3 * PACE_S:
            clock.step_wall(wall_step_s)
            stepped_at = clock.real_s_passed
        due = due_beat(elapsed)
        # the count's thread moves on its own after a step: the beat due shows, never one early
        wait_for(stepped, lambda s, due=due: (s["count"] or {}).get("n") == due)
        if due is None:
            break
        stepped.step()
    assert stepped_at is not None
    # the count ended on the monotonic clock: ten paces and its long tone after its start
    assert clock.real_s_passed - began == pytest.approx((COUNTS - 1) * PACE_S + TEN_S, abs=STEP_S)
    # ten more refreshes of a quiet table, then the snapshots' times and their silences
    for _ in range(round(10 * REFRESH_S / STEP_S)):
        stepped.step()
    assert stepped.longest_silence_s(stepped_at) <= REFRESH_S
    # only the label jumped, as far as the wall did
    after = [(t, s["time"]) for t, s in stepped.published if t > stepped_at]
    assert after
    assert all(shown == round(before + wall_step_s + t - at_before, 3) for t, shown in after)


@pytest.mark.parametrize("wall_step_s", STEPS_S.values(), ids=STEPS_S.keys())
def test_a_wall_clock_step_leaves_the_refresh_and_the_melt_as_they_were(
    stepped: SteppedTable, wall_step_s: float
) -> None:
    clock = stepped.clock
    table = stepped.table
    table.start_game(REFEREE, {"game": "cool-runnings"})
    for _ in range(round(4 * REFRESH_S / STEP_S)):
        stepped.step()
    stepped.published.clear()
    stepped_at = clock.real_s_passed
    clock.step_wall(wall_step_s)
    wall_then = clock.wall()
    for _ in range(round(10 * REFRESH_S / STEP_S)):
        stepped.step()
    assert stepped.longest_silence_s(stepped_at) <= REFRESH_S
    assert len(stepped.published) >= 10
    shown = [(s["time"], round(wall_then + t - stepped_at, 3)) for t, s in stepped.published]
    assert all(time_shown == wall_time for time_shown, wall_time in shown), shown
    last = stepped.published[-1][1]
    # every cube melts on smoothly across the step: no estimate jumps, none stands still
    previous = ice(stepped.published[0][1])
    assert len(previous) >= 3
    for _, snapshot in stepped.published[1:]:
        now = ice(snapshot)
        for seat in previous.keys() & now.keys():
            (grams_then, sigma_then), (grams, sigma) = previous[seat], now[seat]
            assert grams_then - MELT_STEP_G <= grams <= grams_then, (seat, snapshot["time"])
            assert abs(sigma - sigma_then) <= MELT_STEP_G, (seat, snapshot["time"])
        previous = now
    first, last_ice = ice(stepped.published[0][1]), ice(last)
    assert any(last_ice[s][0] < first[s][0] for s in first.keys() & last_ice.keys())
