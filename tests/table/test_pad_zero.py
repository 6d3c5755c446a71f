"""The status shows each pad's tracked zero, and it follows the simulated pads' drift."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from tabletime import HeldClock, advance, held_table, snapshot_where

from companion.config import default_config
from companion.table import sensing
from companion.table.service import TableService

STEP_S = 4.0
"""Table seconds a pass: within the simulated pads' backlog, so no sample is skipped."""


@pytest.fixture
def held(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[TableService, HeldClock]]:
    monkeypatch.setattr(sensing, "LOOP_S", 0.01)  # the held clock's steps need no real wait
    clock = HeldClock()
    table = held_table(tmp_path, clock)
    try:
        yield table, clock
    finally:
        table.close()


def test_the_status_shows_each_pad_s_tracked_zero_following_its_drift(
    held: tuple[TableService, HeldClock],
) -> None:
    table, clock = held
    for _ in range(int(900 / STEP_S)):
        status = advance(table, clock, STEP_S)
    assert table.sim is not None
    now = clock.now()
    shown = {s["seat"]: s["pad_zero_g"] for s in status["seats"]}
    true = {seat: table.sim.zero_g(seat, now) for seat in table.sim.seats}
    assert all(zero is not None for zero in shown.values()), shown
    for seat, zero in shown.items():
        assert zero == pytest.approx(true[seat], abs=0.03), (seat, shown, true)
    assert max(abs(z) for z in true.values()) > 0.05  # the pads did drift, and it was followed


def test_a_table_without_zero_tracking_shows_none(tmp_path: Path) -> None:
    config = default_config()
    config = replace(config, sensors=replace(config.sensors, zero_tracking=False))
    table = TableService(config, tmp_path, simulate=True, seed=1, with_cues=False)
    table.start()
    try:
        status = snapshot_where(
            table, lambda s: all(x["sensors"]["scale"] == "ok" for x in s["seats"])
        )
    finally:
        table.close()
    assert [s["pad_zero_g"] for s in status["seats"]] == [None] * 4
