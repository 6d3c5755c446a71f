"""Filters: ESPHome's semantics (windows, send_every, send_first_at), outliers, least squares."""

from __future__ import annotations

import inspect
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.config import parse_config
from companion.errors import DataFileError
from companion.sensors.filters import (
    FILTERS,
    ExponentialMovingAverage,
    Median,
    RejectOutliers,
    SlidingWindowMovingAverage,
    build_chain,
    calibrate_linear,
)


def run(step, values):
    return [step(v) for v in values]


def test_median_sends_first_at_then_every_nth() -> None:
    median = Median(window_size=3, send_every=3, send_first_at=1)
    assert run(median, [5.0, 1.0, 9.0, 2.0, 3.0, 4.0, 7.0]) == [
        5.0,
        None,
        None,
        2.0,
        None,
        None,
        4.0,
    ]


def test_median_removes_a_spike_and_keeps_a_step() -> None:
    median = Median(window_size=3, send_every=1)
    spike = run(median, [10.0, 10.0, 500.0, 10.0, 10.0])
    assert max(v for v in spike if v is not None) == 10.0
    step = run(Median(window_size=3, send_every=1), [0.0, 0.0, 8.0, 8.0, 8.0])
    assert step[-1] == 8.0


def test_median_ignores_nan() -> None:
    median = Median(window_size=3, send_every=1)
    assert run(median, [1.0, math.nan, 3.0]) == [1.0, 1.0, 2.0]


def test_sliding_window_average_is_the_mean_of_the_window() -> None:
    average = SlidingWindowMovingAverage(window_size=2, send_every=1)
    assert run(average, [1.0, 3.0, 5.0]) == [1.0, 2.0, 4.0]


def test_exponential_average_starts_at_the_first_value() -> None:
    ema = ExponentialMovingAverage(alpha=0.5, send_every=1)
    assert run(ema, [10.0, 20.0, 20.0]) == [10.0, 15.0, 17.5]


def test_reject_outliers_lets_a_step_through_after_half_a_window() -> None:
    reject = RejectOutliers(window_size=5, max_deviations=3.0)
    out = run(reject, [0.0, 0.01, -0.01, 0.0, 9.0, 9.01, 9.0, 9.02])
    assert out[4] is None
    assert out[-1] == 9.02


@pytest.mark.parametrize(
    "make",
    [
        lambda: Median(window_size=0),
        lambda: Median(send_every=2, send_first_at=3),
        lambda: ExponentialMovingAverage(alpha=0.0),
        lambda: RejectOutliers(max_deviations=0.0),
    ],
)
def test_impossible_parameters_are_refused(make) -> None:
    with pytest.raises(ValueError):
        make()


def test_calibrate_linear_fits_least_squares_with_residuals() -> None:
    points = [(1000.0, 0.0), (22000.0, 1.0), (43000.0, 2.0), (127000.0, 6.0)]
    line = calibrate_linear(points)
    assert line.slope == pytest.approx(1 / 21000, rel=1e-3)
    assert line(1000.0) == pytest.approx(0.0, abs=0.01)
    assert len(line.residuals) == 4
    assert line.inverse(line(5000.0)) == pytest.approx(5000.0)


def test_calibrate_linear_refuses_what_cannot_make_a_line() -> None:
    for points in ([], [(0, 1.0)], [(5, 1.0), (5, 2.0)]):
        with pytest.raises(ValueError):
            calibrate_linear(points)


@given(
    st.floats(-1e3, 1e3),
    st.floats(1e-3, 1e3),
    st.lists(st.integers(-(2**23), 2**23), min_size=2, max_size=8, unique=True),
)
def test_calibrate_linear_recovers_an_exact_line(intercept, slope, xs) -> None:
    line = calibrate_linear([(x, slope * x + intercept) for x in xs])
    assert line.slope == pytest.approx(slope, rel=1e-6, abs=1e-9)
    assert all(abs(r) <= 1e-6 * (1 + abs(intercept) + slope * 2**23) for r in line.residuals)


def test_a_chain_is_built_from_names_and_parameters() -> None:
    chain = build_chain(
        [
            ("multiply", {"value": 2.0}),
            ("clamp", {"min_value": 0.0, "max_value": 10.0}),
            ("calibrate_linear", {"datapoints": [[0, 0.0], [10, 1.0]]}),
        ]
    )
    assert [chain(v) for v in (-1.0, 2.0, 100.0)] == [0.0, 0.4, 1.0]
    with pytest.raises(ValueError, match="unknown filter"):
        build_chain([("smooth", {})])
    assert set(FILTERS) >= {"median", "sliding_window_moving_average", "calibrate_linear"}


def test_every_filter_takes_the_parameters_it_is_registered_with() -> None:
    """One line a filter: what the config checks is what makes it."""
    for name, kind in FILTERS.items():
        accepted = inspect.signature(kind.make).parameters
        assert set(kind.parameters) <= set(accepted), name


def test_a_config_s_filters_build_with_esphome_s_defaults() -> None:
    config = parse_config(
        "table.toml",
        "[filters]\nscale = [{median = {send_first_at = 5}},"
        " {exponential_moving_average = {alpha = 0.2}}]"
        "\nthermometer = [{calibrate_linear = [[0, 0], [1000, 1.1]]}, {clamp = {min_value = -5}}]",
    )
    for kind in ("scale", "thermometer"):
        chain = build_chain(config.filters[kind])
        chain(1000.0)
    with pytest.raises(DataFileError, match="send_first_at"):
        parse_config("table.toml", "[filters]\nscale = [{median = {send_first_at = 6}}]")
