"""The running table takes a new calibration.toml without a restart, and holds the pads' lock."""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fake_hx711 import TABLE_CLOCK, TABLE_DATA, pad_heard
from tabletime import HeldClock, advance
from w1tree import W1Tree

from companion.config import TableConfig, default_config, parse_config
from companion.sensors.calibration import (
    FILENAME,
    Calibration,
    SeatCalibration,
    save_calibration,
)
from companion.sensors.hx711 import NO_DATA
from companion.sensors.lock import LOCK_FILE, SensorsBusy, pads_lock
from companion.sensors.reading import fault
from companion.table.service import TableService

SWEEP_S = 2.0
"""Real seconds that make the held clock due for a probe sweep and a refresh."""
WAIT_S = 60.0
"""How long a test waits at most for the real pads' process before it fails."""
PROBE_A, PROBE_B = "28-0316a2794aff", "28-0416b1a0c3ff"


def held(config: TableConfig, state_dir: Path, **kwargs: Any) -> tuple[TableService, HeldClock]:
    clock = HeldClock()
    table = TableService(config, state_dir, seed=1, with_cues=False, clock=clock, **kwargs)
    table.start()
    return table, clock


@pytest.fixture
def sim_table(tmp_path: Path) -> Iterator[tuple[TableService, HeldClock]]:
    """A simulated table whose probes read a constant air without noise, on a held clock."""
    table, clock = held(default_config(), tmp_path, simulate=True)
    assert table.sim is not None
    table.sim.noise_c = 0.0
    table.sim.air_c = lambda seat, t: 20.0  # type: ignore[method-assign]
    for _ in range(3):  # the probes' median forgets the air before
        advance(table, clock, SWEEP_S)
    yield table, clock
    table.close()


def air(snapshot: dict[str, Any], seat: int) -> float:
    return next(s["air_c"] for s in snapshot["seats"] if s["seat"] == seat)


def sensors(snapshot: dict[str, Any], kind: str) -> dict[int, str]:
    return {s["seat"]: s["sensors"][kind] for s in snapshot["seats"]}


def with_offset(table: TableService, seat: int, shift_c: float) -> Calibration:
    """The simulated table's own calibration with one probe reading ``shift_c`` warmer."""
    assert table.sim is not None
    own = table.sim.factory_calibration().seat(seat)
    probe = SeatCalibration(
        seat, thermometer=own.thermometer, probe_offset_c=own.probe_offset_c + shift_c
    )
    return Calibration({seat: probe})


def test_a_new_probe_offset_is_used_from_the_next_sweep(
    sim_table: tuple[TableService, HeldClock],
) -> None:
    table, clock = sim_table
    before = advance(table, clock, SWEEP_S)
    save_calibration(table.state_dir / FILENAME, with_offset(table, 1, 1.5))
    after = advance(table, clock, SWEEP_S)
    assert air(after, 1) == pytest.approx(air(before, 1) + 1.5, abs=0.011)
    assert [air(after, n) for n in (2, 3, 4)] == [air(before, n) for n in (2, 3, 4)]
    assert sensors(after, "scale") == sensors(before, "scale")  # the pads keep their own


def test_a_broken_file_is_warned_about_once_and_the_table_goes_on(
    sim_table: tuple[TableService, HeldClock], caplog: pytest.LogCaptureFixture
) -> None:
    table, clock = sim_table
    path = table.state_dir / FILENAME
    save_calibration(path, with_offset(table, 1, 1.5))
    good = advance(table, clock, SWEEP_S)
    with caplog.at_level(logging.WARNING, logger="companion.table"):
        path.write_text("[seat.1]\nprobe_offset_c = 7.5\n")
        for _ in range(3):
            assert air(advance(table, clock, SWEEP_S), 1) == air(good, 1)
    warnings = [
        r.getMessage()
        for r in caplog.records
        if r.levelno == logging.WARNING and r.name.startswith("companion.table")
    ]
    assert len(warnings) == 1, warnings
    assert f"{path}:2: probe_offset_c must be within" in warnings[0]
    assert "calibrate the probe again in ice water" in warnings[0]
    save_calibration(path, with_offset(table, 1, -1.0))  # mended: used at once
    assert air(advance(table, clock, SWEEP_S), 1) == pytest.approx(air(good, 1) - 2.5, abs=0.011)


def test_a_deleted_file_is_the_table_without_a_calibration(
    sim_table: tuple[TableService, HeldClock],
) -> None:
    table, clock = sim_table
    path = table.state_dir / FILENAME
    before = advance(table, clock, SWEEP_S)
    save_calibration(path, with_offset(table, 2, 1.5))
    assert air(advance(table, clock, SWEEP_S), 2) == pytest.approx(air(before, 2) + 1.5, abs=0.011)
    path.unlink()
    assert air(advance(table, clock, SWEEP_S), 2) == air(before, 2)


def test_probes_given_to_other_seats_are_read_so_at_once(tmp_path: Path) -> None:
    tree = W1Tree(tmp_path / "w1")
    tree.add_probe(PROBE_A, 19.5)
    tree.add_probe(PROBE_B, 25.0)
    config = parse_config("t.toml", f'[sensors]\nw1_root = "{tree.root}"\nscales = "none"\n')
    table, clock = held(config, tmp_path / "state")
    try:
        before = advance(table, clock, SWEEP_S)
        assert (air(before, 1), air(before, 2)) == (19.5, 25.0)  # by sorted id
        swapped = Calibration(
            {1: SeatCalibration(1, thermometer=PROBE_B), 2: SeatCalibration(2, thermometer=PROBE_A)}
        )
        save_calibration(table.state_dir / FILENAME, swapped)
        after = advance(table, clock, SWEEP_S)
        assert (air(after, 1), air(after, 2)) == (25.0, 19.5)
        save_calibration(table.state_dir / FILENAME, Calibration({1: swapped.seat(1)}))
        alone = advance(table, clock, SWEEP_S)  # probe A is nobody's now
        assert (air(alone, 1), air(alone, 2)) == (25.0, None)
        assert sensors(alone, "thermometer") == {1: "ok", 2: "absent", 3: "absent", 4: "absent"}
    finally:
        table.close()


def test_a_half_simulated_table_keeps_its_probes_seats_until_a_restart(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    tree = W1Tree(tmp_path / "w1")
    tree.add_probe(PROBE_A, 19.5)
    tree.add_probe(PROBE_B, 25.0)
    config = parse_config("t.toml", f'[sensors]\nw1_root = "{tree.root}"\nscales = "sim"\n')
    table, clock = held(config, tmp_path / "state")
    try:
        advance(table, clock, SWEEP_S)
        swapped = Calibration({1: SeatCalibration(1, thermometer=PROBE_B)})
        with caplog.at_level(logging.WARNING, logger="companion.table"):
            save_calibration(table.state_dir / FILENAME, swapped)
            after = advance(table, clock, SWEEP_S)
        assert (air(after, 1), air(after, 2)) == (19.5, 25.0)  # the simulated pads go on
        (warning,) = [
            r.getMessage()
            for r in caplog.records
            if r.levelno == logging.WARNING and r.name.startswith("companion.table")
        ]
        assert "gives probes to other seats: restart companion" in warning
    finally:
        table.close()


def hx711_config() -> TableConfig:
    """A table of four real pads (the fake chips' pins) and no probes."""
    config = parse_config("t.toml", '[sensors]\nthermometers = "none"\n')
    pins = dataclasses.replace(config.pins, hx711_clock=TABLE_CLOCK, hx711_data=TABLE_DATA)
    return dataclasses.replace(config, pins=pins)


def pads_table(state_dir: Path) -> TableService:
    table = TableService(
        hx711_config(), state_dir, with_cues=False, gpio="fake_hx711:table_of_four"
    )
    table.start()
    return table


def pads_read(table: TableService, ok: set[int], unplugged: int) -> bool:
    """Whether, within ``WAIT_S``, each seat of ``ok`` hears from its pad at least once and the
    ``unplugged`` seat's pad reads as giving no data (the pads are read in real time, so a read
    whose clock a busy or slow machine held high too long is rejected: that is heard too)."""
    heard: set[int] = set()
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        found = sensors(table.status(), "scale")
        heard |= {n for n, status in found.items() if pad_heard(status)}
        if ok <= heard and found[unplugged] == fault(NO_DATA):
            return True
        time.sleep(0.05)
    return False


def test_the_daemon_holds_the_pads_lock_while_it_reads_real_pads(tmp_path: Path) -> None:
    table = pads_table(tmp_path)
    try:
        with pytest.raises(SensorsBusy, match="stop it first"), pads_lock(tmp_path):
            pass
    finally:
        table.close()
    with pads_lock(tmp_path):
        pass


def test_the_daemon_does_not_start_while_the_pads_are_being_calibrated(tmp_path: Path) -> None:
    with pads_lock(tmp_path):
        table = TableService(hx711_config(), tmp_path, with_cues=False)
        with pytest.raises(SensorsBusy, match=r"companion calibrate, or a second daemon"):
            table.start()
    assert not (tmp_path / "companion.db").exists()  # nothing was opened


def test_a_simulated_table_leaves_the_pads_lock_alone(tmp_path: Path) -> None:
    table = TableService(hx711_config(), tmp_path, simulate=True, with_cues=False)
    table.start()
    try:
        with pads_lock(tmp_path) as held:  # SensorsBusy, were the simulated table holding it
            assert held == tmp_path / LOCK_FILE
    finally:
        table.close()


def test_pads_given_to_other_seats_open_the_pads_again(tmp_path: Path) -> None:
    table = pads_table(tmp_path)
    try:
        assert pads_read(table, ok={1, 2, 3}, unplugged=4)  # the fourth pin's pad
        first = Calibration({4: SeatCalibration(4, scale=f"hx711:gpio{TABLE_DATA[0]}")})
        save_calibration(tmp_path / FILENAME, first)  # seats 1-3 take the other pins in order
        assert pads_read(table, ok={4}, unplugged=3)  # seat 4 reads well only once moved
        with pytest.raises(SensorsBusy), pads_lock(tmp_path):  # held all along
            pass
    finally:
        table.close()
