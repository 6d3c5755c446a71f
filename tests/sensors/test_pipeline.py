"""The pipeline: a chain per sensor, calibration per seat, faults as statuses that pass."""

from __future__ import annotations

import pytest

from companion.sensors.calibration import Calibration, SeatCalibration
from companion.sensors.pipeline import Pipeline
from companion.sensors.reading import OK, SCALE, THERMOMETER, Reading, fault

FILTERS = {
    "thermometer": [("median", {"window_size": 3, "send_every": 1})],
    "scale": [("median", {"window_size": 3, "send_every": 3})],
}
CALIBRATION = Calibration(
    {
        1: SeatCalibration(1, probe_offset_c=-0.5, tare_counts=1000.0, counts_per_gram=100.0),
        2: SeatCalibration(2),
    }
)


def probe(seat: int | None, raw: int | None, status: str = OK, t: float = 0.0) -> Reading:
    return Reading(seat, THERMOMETER, f"28-00000000000{seat or 0}", raw, status, t)


def pad(seat: int, raw: int, t: float = 0.0) -> Reading:
    return Reading(seat, SCALE, f"sim:pad{seat}", raw, OK, t)


def test_values_are_filtered_per_sensor_then_calibrated() -> None:
    pipeline = Pipeline(FILTERS, CALIBRATION)
    assert pipeline.push(probe(1, 21000)).value == pytest.approx(20.5)
    assert pipeline.push(probe(2, 30000)).value == pytest.approx(30.0)
    assert pipeline.push(probe(1, 99000)).value == pytest.approx(59.5)  # median of two
    assert pipeline.push(probe(1, 21000)).value == pytest.approx(20.5)


def test_a_scale_sends_every_third_and_keeps_its_value_between() -> None:
    pipeline = Pipeline(FILTERS, CALIBRATION)
    values = [pipeline.push(pad(1, 1000 + 100 * g)).value for g in (6, 6, 6, 7)]
    assert values == [pytest.approx(6.0)] * 4
    assert pipeline.push(pad(2, 5000)).value is None  # not calibrated yet
    assert pipeline.push(pad(2, 5000)).raw == 5000


def test_a_fault_is_a_status_and_the_filters_carry_on() -> None:
    pipeline = Pipeline(FILTERS, CALIBRATION)
    pipeline.push(probe(1, 21000))
    faulted = pipeline.push(probe(1, None, fault("CRC error"), t=2.0))
    assert faulted.value is None and faulted.status == "fault: CRC error"
    assert faulted.to_json() == {
        "seat": 1,
        "kind": "thermometer",
        "id": "28-000000000001",
        "raw": None,
        "value": None,
        "status": "fault: CRC error",
        "zero_g": None,
    }
    assert pipeline.push(probe(1, 22000, t=4.0)).value == pytest.approx(21.0)


def test_an_unclaimed_probe_reads_uncalibrated_and_sorts_last() -> None:
    pipeline = Pipeline(FILTERS, CALIBRATION)
    pipeline.push_all([probe(None, 18000), pad(2, 7), probe(2, 20000), probe(1, 20000)])
    states = pipeline.states()
    assert [(s.seat, s.kind) for s in states] == [
        (1, THERMOMETER),
        (2, THERMOMETER),
        (2, SCALE),
        (None, THERMOMETER),
    ]
    assert states[-1].value == 18.0
