"""A seat whose pad is not calibrated says what it lacks, and weighs nothing in: its grams would
be wrong. A seat without a pad, and a phones-only table, lack nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tabletime import HeldClock, advance, held_table

from companion.sensors.calibration import (
    FILENAME,
    Calibration,
    SeatCalibration,
    save_calibration,
)
from companion.sensors.sim import SimTable
from companion.table import sensing
from companion.table.service import TableService

TRUTH = SimTable(seats=4, seed=1)
"""The simulated table a held table opens (seed 1): its pads' hidden tares and slopes."""
STEP_S = 2.0
"""Real (and table) seconds a step: a status is published at each, as one is due."""


@pytest.fixture
def held(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[TableService, HeldClock]]:
    """A simulated table whose seat 2 has only its pad named, and seat 3 no cap weighed."""
    monkeypatch.setattr(sensing, "LOOP_S", 0.005)
    pad3 = TRUTH.seats[3]
    save_calibration(
        tmp_path / FILENAME,
        Calibration(
            {
                2: SeatCalibration(2, scale="sim:pad2"),
                3: SeatCalibration(
                    3,
                    scale="sim:pad3",
                    tare_counts=pad3.tare_counts,
                    counts_per_gram=pad3.counts_per_gram,
                ),
            }
        ),
    )
    clock = HeldClock()
    table = held_table(tmp_path, clock)
    try:
        yield table, clock
    finally:
        table.close()


def lacks(status: dict[str, Any]) -> dict[int, list[str]]:
    return {s["seat"]: s["uncalibrated"] for s in status["seats"]}


def test_a_seat_says_what_its_pad_lacks(held: tuple[TableService, HeldClock]) -> None:
    table, clock = held
    status = advance(table, clock, STEP_S)
    assert lacks(status) == {1: [], 2: ["tare", "weight", "cap"], 3: ["cap"], 4: []}


def test_a_pad_without_its_cap_weighed_weighs_nothing_in(
    held: tuple[TableService, HeldClock],
) -> None:
    table, clock = held
    assert table.sim is not None
    for _ in range(3):  # the pads' filters fill, and their zeros settle
        advance(table, clock, STEP_S)
    for seat in (3, 4):
        table.sim.start_cube(seat, clock.now(), 6.0)
        table.sim.place_cap(seat, clock.now(), hold_s=12.0)
    states = [advance(table, clock, STEP_S) for _ in range(10)]
    weighing = {n: [s["seats"][n - 1]["weigh_in"] for s in states] for n in (3, 4)}
    assert "weighing" in weighing[4] and set(weighing[3]) == {None}, weighing
    weighed = {h.fields["seat"] for h in table.happenings.since(0) if h.kind == "weigh-in"}
    assert weighed == {4}
