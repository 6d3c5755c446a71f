"""The pipeline's weigh-ins: one detector per calibrated pad, a settled load in grams of ice (its
seat's empty cap taken off), a load lighter than the cap no cap at all, nothing weighed on a pad
that lacks a calibration step or while the table's set-up holds it, and a cap weighed once
across a new calibration."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.sensors.calibration import Calibration, SeatCalibration
from companion.sensors.pipeline import NOT_A_CAP_G, Pipeline, SensorState
from companion.sensors.reading import OK, SCALE, Reading, fault
from companion.sensors.weigh_in import NotACap, PadEvent, Placed, Removed, Weighed

RATE_S = 0.1
CAP_G = 3.0
PAD = SeatCalibration(1, scale="pad1", tare_counts=0.0, counts_per_gram=1000.0, cap_g=CAP_G)
"""A pad read in milligrams: its counts are the grams on it, times 1000."""


def reading(t: float, grams: float, seat: int = 1) -> Reading:
    return Reading(seat, SCALE, f"pad{seat}", round(grams * 1000), OK, t)


def loads(pipeline: Pipeline, grams: list[float], t0: float = 0.0) -> list[SensorState]:
    return [pipeline.push(reading(t0 + k * RATE_S, g)) for k, g in enumerate(grams)]


def kinds(states: list[SensorState]) -> list[type]:
    return [type(e) for e in events(states)]


def events(states: list[SensorState]) -> list[PadEvent]:
    return [e for s in states for e in s.events]


def test_a_cap_set_down_is_one_weigh_in_in_grams_of_ice() -> None:
    pipeline = Pipeline({}, Calibration({1: PAD}))
    states = loads(pipeline, [0.0] * 50 + [CAP_G + 5.5] * 30 + [0.0] * 20)
    assert kinds(states) == [Placed, Weighed, Removed]
    weighed = events(states)[1]
    assert weighed == Weighed(weighed.t, 5.5)
    assert states[79].value == pytest.approx(CAP_G + 5.5)  # the grams on the pad stay as they are


def test_a_load_lighter_than_the_empty_cap_is_no_cap() -> None:
    """An empty pad whose zero moved past what the tracking follows (here, none) reads 1.3 g:
    more than the detector's threshold, less than any cap. It is not the cap with its cube
    gone, and the cap set down after it is weighed in."""
    pipeline = Pipeline({}, Calibration({1: PAD}), zero_tracking=False)
    placed, settled = events(loads(pipeline, [1.3] * 50))
    assert placed == Placed(0.0) and settled == NotACap(settled.t, 1.3)
    states = loads(pipeline, [0.0] * 20 + [CAP_G + 5.5] * 50, t0=5.0)
    assert kinds(states) == [Removed, Placed, Weighed]
    assert events(states)[-1] == Weighed(events(states)[-1].t, 5.5)


def test_a_load_within_the_margin_of_the_cap_is_the_cap_with_its_cube_gone() -> None:
    pipeline = Pipeline({}, Calibration({1: PAD}), zero_tracking=False)
    settled = events(loads(pipeline, [CAP_G - NOT_A_CAP_G + 0.1] * 50))[-1]
    assert settled == Weighed(settled.t, 0.0)


def test_a_pad_that_lacks_a_calibration_step_weighs_nothing_in() -> None:
    """Without its cap weighed, the pad reads grams but weighs nothing in: its ice would be
    wrong. Once the cap is weighed, the load on the pad is weighed in."""
    pipeline = Pipeline({}, Calibration({1: replace(PAD, cap_g=0.0)}))
    states = loads(pipeline, [0.0] * 50 + [CAP_G + 5.5] * 50)
    assert states[-1].value == pytest.approx(CAP_G + 5.5) and events(states) == []
    pipeline.calibration = Calibration({1: PAD})
    states = loads(pipeline, [CAP_G + 5.5] * 30, t0=10.0)
    assert kinds(states) == [Placed, Weighed]
    assert events(states)[-1] == Weighed(events(states)[-1].t, 5.5)


def test_a_new_calibration_weighs_a_settled_cap_in_only_once() -> None:
    """The detector goes on across a new calibration (the zero tracking begins anew): the cap
    on the pad is the same cap, not a second weigh-in."""
    pipeline = Pipeline({}, Calibration({1: PAD}))
    assert kinds(loads(pipeline, [0.0] * 50 + [CAP_G + 5.5] * 30)) == [Placed, Weighed]
    pipeline.calibration = Calibration({1: replace(PAD, cap_g=CAP_G + 0.1)})
    states = loads(pipeline, [CAP_G + 5.5] * 50 + [0.0] * 10, t0=8.0)
    assert kinds(states) == [Removed]


def test_what_the_set_up_holds_is_measured_not_weighed_in() -> None:
    """A pad pressed for the set-up is measured (its grams go on) but not weighed in: its
    detector never saw it once the table takes the pad again."""
    pipeline = Pipeline({}, Calibration({1: PAD}))
    assert events(loads(pipeline, [0.0] * 50)) == []
    held = [pipeline.measure(reading(5.0 + k * RATE_S, 20.0)) for k in range(30)]
    assert held[-1].value == pytest.approx(20.0) and events(held) == []
    assert events(loads(pipeline, [0.0] * 30, t0=8.0)) == []
    assert kinds(loads(pipeline, [CAP_G + 5.5] * 30, t0=11.0)) == [Placed, Weighed]


def test_faulted_readings_and_other_pads_are_not_weighed() -> None:
    """A faulted pad's states carry no value and no weigh-in, and one pad's load is its own."""
    pipeline = Pipeline({}, Calibration({1: PAD, 2: replace(PAD, seat=2, scale="pad2")}))
    taken = []
    for k in range(80):
        t = k * RATE_S
        faulted = Reading(1, SCALE, "pad1", None, fault("no data from the HX711"), t)
        taken.append(pipeline.push(faulted if k % 2 else reading(t, CAP_G + 5.5)))
        taken.append(pipeline.push(reading(t, 0.0, seat=2)))
    assert {s.seat for s in taken if s.events} == {1}
    assert all(not s.events for s in taken if s.status != OK)
    assert kinds(taken) == [Placed, Weighed]
