"""Zero tracking follows an empty pad's slow drift and nothing else: no placement, no weigh-in,
no knock, no jump."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.sensors.calibration import Calibration, SeatCalibration
from companion.sensors.pipeline import Pipeline
from companion.sensors.reading import OK, SCALE, THERMOMETER, Reading
from companion.sensors.zero_tracking import (
    RANGE_G,
    RATE_G_PER_S,
    STILL_G,
    ZeroTracking,
    beyond_range,
)

RATE_HZ = 10
NOISE_G = 0.008
"""A filtered pad's noise."""


def feed(
    pad: ZeroTracking, start: float, seconds: float, grams, seed: int = 0
) -> list[tuple[float, float]]:
    """``grams(t)`` (plus noise) at 10 samples a second: the times and what the pad gave back."""
    noise = random.Random(seed)
    out = []
    for k in range(round(seconds * RATE_HZ)):
        t = start + k / RATE_HZ
        out.append((t, pad.push(t, grams(t) + noise.gauss(0.0, NOISE_G))))
    return out


def ramp(t: float) -> float:
    """A drift of 0.3 g an hour, from 0.05 g."""
    return 0.05 + 0.3 * t / 3600


def test_an_empty_pad_s_slow_drift_is_followed() -> None:
    pad = ZeroTracking()
    out = feed(pad, 0.0, 3600.0, ramp)
    assert pad.zero_g == pytest.approx(ramp(3600.0), abs=0.01)
    assert max(abs(g) for t, g in out if t > 60) < 0.04


def test_the_zero_stands_still_through_a_placement_and_its_weigh_in() -> None:
    pad = ZeroTracking()
    feed(pad, 0.0, 600.0, ramp)
    before = pad.zero_g
    weighed = feed(pad, 600.0, 6.0, lambda t: ramp(t) + 9.2, seed=1)
    assert pad.zero_g == before
    assert sum(g for _, g in weighed[-15:]) / 15 == pytest.approx(9.2, abs=0.01)


def test_a_knock_is_not_followed() -> None:
    pad = ZeroTracking()
    feed(pad, 0.0, 60.0, lambda t: 0.0)
    zero = pad.zero_g
    feed(pad, 60.0, 0.3, lambda t: 0.4, seed=1)  # a knock: the pad jolts and comes back
    feed(pad, 60.3, 60.0, lambda t: 0.0, seed=2)
    assert pad.zero_g == pytest.approx(zero, abs=0.005)
    feed(pad, 120.3, 0.5, lambda t: 1.5, seed=3)  # an elbow that pushes the pad aside
    out = feed(pad, 120.8, 60.0, lambda t: 0.3, seed=4)
    assert pad.zero_g == pytest.approx(zero, abs=0.005)  # no load stood there: not zeroed
    assert out[-1][1] == pytest.approx(0.3, abs=0.03)


def test_a_lifted_cap_s_pad_is_left_to_settle_first() -> None:
    """The filters' window and the bar's recovery: the first seconds after a lift are no zero."""
    pad = ZeroTracking()
    feed(pad, 0.0, 60.0, lambda t: 0.0)
    feed(pad, 60.0, 6.0, lambda t: 9.0)
    feed(pad, 66.0, 4.5, lambda t: 0.05, seed=1)
    feed(pad, 70.5, 6.0, lambda t: 0.0, seed=2)
    assert pad.zero_g == pytest.approx(0.0, abs=0.01)


def test_a_jump_that_stays_is_shown_not_hidden() -> None:
    """Something small left on the pad, or the pad pushed: more than the band is no drift."""
    pad = ZeroTracking()
    feed(pad, 0.0, 60.0, lambda t: 0.0)
    zero = pad.zero_g
    out = feed(pad, 60.0, 600.0, lambda t: 0.3)
    assert pad.zero_g == pytest.approx(zero, abs=0.005)
    assert out[-1][1] == pytest.approx(0.3, abs=0.03)


def test_the_zero_moves_slowly_even_within_its_band() -> None:
    """A crumb or a drop of melt water within the band is taken in at 0.005 g a second, no
    faster: 18 g an hour outruns any drift, and nothing set down is that slow."""
    pad = ZeroTracking()
    feed(pad, 0.0, 60.0, lambda t: 0.0)
    zeros = [pad.zero_g]
    for k in range(600):
        pad.push(60.0 + k / RATE_HZ, 0.06)
        zeros.append(pad.zero_g)
    steps = [b - a for a, b in itertools.pairwise(zeros)]
    assert max(steps) <= 0.005 / RATE_HZ + 1e-9
    assert zeros[-1] == pytest.approx(0.06, abs=0.001)


def test_a_pad_that_never_holds_still_is_never_tracked() -> None:
    pad = ZeroTracking()
    feed(pad, 0.0, 60.0, lambda t: 0.0)
    zero = pad.zero_g
    feed(pad, 60.0, 600.0, lambda t: 0.02 + 0.04 * (-1) ** round(t * 10))
    assert pad.zero_g == pytest.approx(zero, abs=0.005)


def test_at_start_the_zero_is_set_at_once_within_its_range_only() -> None:
    warm = ZeroTracking()
    feed(warm, 0.0, 10.0, lambda t: 0.4)  # the cell still warming up since its tare
    assert warm.set and warm.zero_g == pytest.approx(0.4, abs=0.01)
    loaded = ZeroTracking()
    out = feed(loaded, 0.0, 60.0, lambda t: 3.1)  # a restart with the cap on the pad
    assert loaded.zero_g is None and out[-1][1] == pytest.approx(3.1, abs=0.03)


def test_after_a_long_cold_load_the_empty_pad_is_zeroed_again() -> None:
    """A cap left on the pad for ten minutes cooled it: its zero moved 0.3 g unseen."""
    pad = ZeroTracking()
    feed(pad, 0.0, 60.0, lambda t: 0.0)
    feed(pad, 60.0, 600.0, lambda t: 8.0 - 0.3 * (t - 60) / 600)
    assert pad.zero_g == pytest.approx(0.0, abs=0.01)
    out = feed(pad, 660.0, 60.0, lambda t: -0.3, seed=3)
    assert pad.zero_g == pytest.approx(-0.3, abs=0.01)
    assert abs(out[-1][1]) < 0.03


def test_after_a_load_more_than_the_range_stays_and_says_so() -> None:
    pad = ZeroTracking()
    feed(pad, 0.0, 60.0, lambda t: 0.0)
    feed(pad, 60.0, 30.0, lambda t: 8.0)
    out = feed(pad, 90.0, 60.0, lambda t: RANGE_G + 0.2)  # a chunk of ice left on the pad
    assert pad.zero_g == pytest.approx(0.0, abs=0.01) and out[-1][1] > RANGE_G
    assert pad.beyond == pytest.approx(RANGE_G + 0.2, abs=0.01)
    assert "reads +1.20 g" in beyond_range(1, pad.beyond)
    feed(pad, 150.0, 60.0, lambda t: 0.1)  # cleared
    assert pad.beyond is None and pad.zero_g == pytest.approx(0.1, abs=0.01)


def test_melt_water_wiped_off_the_pad_sets_the_zero_again() -> None:
    """Water left on the pad after a lift is zeroed with it; wiped away, the pad reads less than
    its zero, which nothing set down can do: it is zeroed again, not left to spoil a weigh-in."""
    pad = ZeroTracking()
    feed(pad, 0.0, 60.0, lambda t: 0.0)
    feed(pad, 60.0, 6.0, lambda t: 9.0)
    feed(pad, 66.0, 30.0, lambda t: 0.3, seed=1)  # a drop of melt water stays behind
    assert pad.zero_g == pytest.approx(0.3, abs=0.01)
    out = feed(pad, 96.0, 30.0, lambda t: 0.0, seed=2)  # wiped away
    assert pad.zero_g == pytest.approx(0.0, abs=0.01) and abs(out[-1][1]) < 0.03


def test_a_pad_whose_zero_leaves_the_range_is_a_fault_for_its_seat_until_it_comes_back() -> None:
    calibration = Calibration({2: SeatCalibration(2, tare_counts=0.0, counts_per_gram=1000.0)})
    pipeline = Pipeline({}, calibration)
    t, grams = 0.0, 0.8
    for end in (1.2, 0.5):  # the zero walks slowly out of the range, and back
        while abs(grams - end) > 1e-9:
            grams = min(grams + 0.001, end) if end > grams else max(grams - 0.001, end)
            for _ in range(10):
                t += 0.1
                state = pipeline.push(reading(t, round(grams * 1000), seat=2))
        if end > RANGE_G:
            assert state.status.startswith("fault: the empty pad reads +1.") and state.value is None
            assert "companion calibrate tare --seat 2" in state.status
            assert state.zero_g == pytest.approx(RANGE_G, abs=0.02)
        else:
            assert state.status == OK and state.zero_g == pytest.approx(end, abs=0.02)


def test_a_gap_in_the_samples_starts_the_window_again() -> None:
    pad = ZeroTracking()
    for k in range(5):  # a sample every 2 s: never a window of them
        pad.push(2.0 * k, 0.2)
    assert not pad.set


@given(
    st.lists(
        st.tuples(st.floats(0.01, 2.0), st.floats(-20.0, 20.0, allow_nan=False)),
        min_size=1,
        max_size=300,
    )
)
def test_the_zero_stays_in_range_and_moves_slowly_between_zero_settings(
    samples: list[tuple[float, float]],
) -> None:
    pad = ZeroTracking()
    t = 0.0
    for step, grams in samples:
        t += step
        before = pad.zero_g
        pad.push(t, grams)
        after = pad.zero_g
        assert after is None or abs(after) <= RANGE_G
        if before is not None and after is not None and after - before > RATE_G_PER_S * step:
            assert grams - after < STILL_G  # set up to what an empty, still pad read


def reading(t: float, raw: int, sensor: str = "hx711:gpio22", seat: int = 1) -> Reading:
    return Reading(seat, SCALE, sensor, raw, OK, t)


def test_the_pipeline_tracks_each_pad_and_begins_again_with_a_new_calibration() -> None:
    calibration = Calibration({1: SeatCalibration(1, tare_counts=1000.0, counts_per_gram=100.0)})
    pipeline = Pipeline({}, calibration)
    for k in range(100):
        state = pipeline.push(reading(k / 10, 1020))  # 0.2 g from the tare
    assert state.zero_g == pytest.approx(0.2) and state.value == pytest.approx(0.0)
    probe = pipeline.push(Reading(1, THERMOMETER, "28-000000000001", 21000, OK, 10.0))
    assert probe.zero_g is None
    pipeline.calibration = Calibration(
        {1: SeatCalibration(1, tare_counts=1020.0, counts_per_gram=100.0)}
    )
    state = pipeline.push(reading(10.1, 1020))
    assert state.zero_g is None and state.value == pytest.approx(0.0)  # not set anew yet
    off = Pipeline({}, calibration, zero_tracking=False)
    for k in range(100):
        state = off.push(reading(k / 10, 1020))
    assert state.zero_g is None and state.value == pytest.approx(0.2)
