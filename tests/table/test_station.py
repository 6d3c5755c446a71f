"""A station takes its pad's weigh-ins as the pipeline made them, with no calibration of its
own: where its weigh-in stands (asked for, weighing, unsettled, done), the grams of ice it
weighed, and the estimate counted at the game's time of the weigh-in."""

from __future__ import annotations

import pytest

from companion.sensors.calibration import Calibration, SeatCalibration
from companion.sensors.pipeline import Pipeline, SensorState
from companion.sensors.reading import OK, SCALE, Reading
from companion.sensors.weigh_in import NotACap, PadEvent, Placed, Removed, Unsettled, Weighed
from companion.table.station import NONE, Station

RATE_S = 0.1
PAD = SeatCalibration(1, scale="pad1", tare_counts=0.0, counts_per_gram=1000.0, cap_g=3.1)


def pad(t: float, *events: PadEvent, grams: float = 8.0) -> SensorState:
    """A state of seat 1's pad, with the weigh-in events the pipeline found on it."""
    return SensorState(1, SCALE, "pad1", round(grams * 1000), grams, OK, t, 0.0, events)


def test_the_station_takes_the_pipeline_s_weigh_in_as_it_comes() -> None:
    """The pipeline holds the calibration and finds the weigh-in; the station, given none,
    takes it: the ice it weighed, its status on the way, and the estimate as of its game time
    (the table's time less the game's origin)."""
    pipeline = Pipeline({}, Calibration({1: PAD}))
    station = Station(1)
    origin = 100.0
    station.start_cube(0.0)
    station.weigh_in = "requested"
    shown, weighed = [], []
    for k in range(200):
        t = origin + k * RATE_S
        grams = 3.1 + 5.4 if 8.0 <= t - origin < 15.0 else 0.0
        state = pipeline.push(Reading(1, SCALE, "pad1", round(grams * 1000), OK, t))
        if station.sense(state, origin):
            weighed += [e for e in state.events if isinstance(e, Weighed)]
        if not shown or shown[-1] != station.weigh_in:
            shown.append(station.weigh_in)
    assert shown == ["requested", "weighing", None]
    assert [w.ice_g for w in weighed] == [pytest.approx(5.4)]
    assert station.last_weigh_in_g == pytest.approx(5.4)
    assert station.melt is not None and station.melt.t_s == pytest.approx(weighed[0].t - origin)
    assert station.asked_at == station.melt.t_s
    assert station.pad_g == 0.0 and station.pad_zero_g == 0.0


def test_a_weigh_in_asked_for_waits_on_past_a_load_that_is_not_a_cap() -> None:
    station = Station(1)
    station.start_cube(0.0)
    station.weigh_in = "requested"
    assert not station.sense(pad(1.0, Placed(0.5), grams=1.3))
    assert station.weigh_in == "weighing"
    assert not station.sense(pad(2.0, NotACap(2.0, 1.3), grams=1.3))
    assert station.weigh_in == "requested" and station.last_weigh_in_g is None
    assert not station.sense(pad(3.0, Removed(3.0), grams=0.0))
    assert station.weigh_in == "requested"  # the table still waits for the cap
    assert station.sense(pad(5.0, Placed(4.0), Weighed(5.0, 5.5)))
    assert station.weigh_in is None and station.last_weigh_in_g == 5.5


def test_a_load_that_is_not_a_cap_unasked_leaves_nothing_asked() -> None:
    station = Station(1)
    station.sense(pad(1.0, Placed(0.5), grams=1.3))
    station.sense(pad(2.0, NotACap(2.0, 1.3), grams=1.3))
    assert station.weigh_in is None


def test_a_wobbling_cap_is_unsettled_until_it_settles() -> None:
    station = Station(1)
    station.start_cube(0.0)
    station.sense(pad(1.0, Placed(0.5)))
    station.sense(pad(11.0, Unsettled(11.0, 0.4)))
    assert station.weigh_in == "unsettled"
    assert station.sense(pad(12.0, Weighed(12.0, 4.9)))
    assert station.weigh_in is None and station.last_weigh_in_g == 4.9


def test_a_cap_lifted_before_it_settled_weighs_nothing_in() -> None:
    station = Station(1)
    station.start_cube(0.0)
    station.sense(pad(1.0, Placed(0.5)))
    assert not station.sense(pad(2.0, Removed(2.0), grams=0.0))
    assert station.weigh_in is None and station.last_weigh_in_g is None


def test_a_seat_without_a_pad_takes_none_of_its_weigh_ins() -> None:
    station = Station(1, pad=False)
    station.start_cube(0.0)
    assert not station.sense(pad(5.0, Placed(4.0), Weighed(5.0, 5.5)))
    assert station.scale == NONE and station.last_weigh_in_g is None


def test_what_the_pad_lacks_is_shown_and_a_seat_without_a_pad_lacks_nothing() -> None:
    station = Station(1)
    assert station.lacking(("weight", "cap")) and station.uncalibrated == ("weight", "cap")
    assert not station.lacking(("weight", "cap"))
    assert station.lacking(()) and station.uncalibrated == ()
    without = Station(2, pad=False)
    assert not without.lacking(("tare", "weight", "cap")) and without.uncalibrated == ()
