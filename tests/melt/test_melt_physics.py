"""The closed forms of a melting cube against the cases a physicist checks by hand."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.melt.physics import (
    ICE_DENSITY_G_PER_ML,
    ICE_HEAT_CAPACITY_J_PER_G_K,
    LATENT_HEAT_J_PER_G,
    exposed_area_m2,
    melt_after,
    melt_rate_g_per_s,
    time_to_melt_s,
    warmed_c,
    warming_time_s,
)


def integrate(grams: float, h: float, air_c: float, seconds: float, steps: int = 20000) -> float:
    """dm/dt = -A(m) h T / L_f by fourth-order Runge-Kutta, for comparison with the closed form."""
    dt = seconds / steps

    def f(m: float) -> float:
        return -melt_rate_g_per_s(max(m, 0.0), h, air_c)

    m = grams
    for _ in range(steps):
        k1 = f(m)
        k2 = f(m + dt * k1 / 2)
        k3 = f(m + dt * k2 / 2)
        k4 = f(m + dt * k3)
        m = max(m + dt * (k1 + 2 * k2 + 2 * k3 + k4) / 6, 0.0)
    return m


def test_the_constants_are_those_of_ice() -> None:
    assert LATENT_HEAT_J_PER_G == 334.0
    assert ICE_DENSITY_G_PER_ML == 0.917
    assert ICE_HEAT_CAPACITY_J_PER_G_K == 2.09


def test_five_faces_of_a_six_gram_cube_meet_the_air() -> None:
    side_m = (6.0 / 0.917) ** (1 / 3) / 100
    assert exposed_area_m2(6.0) == pytest.approx(5 * side_m**2)
    assert exposed_area_m2(0.0) == 0.0


def test_area_grows_as_mass_to_the_two_thirds() -> None:
    assert exposed_area_m2(8 * 6.0) == pytest.approx(4 * exposed_area_m2(6.0))


def test_constant_area_melts_linearly() -> None:
    # Hold the area of a 6 g cube fixed: the heat flow is constant, so the melt is linear in
    # time, at exactly A h dT / L_f grams a second.
    area, h, air = exposed_area_m2(6.0), 20.0, 25.0
    rate = melt_rate_g_per_s(6.0, h, air)
    assert rate == pytest.approx(area * h * air / LATENT_HEAT_J_PER_G)
    m, dt = 6.0, 1.0
    for _ in range(600):
        m -= area * h * air / LATENT_HEAT_J_PER_G * dt
    assert m == pytest.approx(6.0 - rate * 600)
    # and over a step short enough for the area not to change, the closed form agrees
    assert 6.0 - melt_after(6.0, h, air, 1.0) == pytest.approx(rate, rel=1e-3)


@pytest.mark.parametrize("air_c", [0.0, -5.0])
def test_no_temperature_difference_no_melt(air_c: float) -> None:
    assert melt_rate_g_per_s(6.0, 20.0, air_c) == 0.0
    assert melt_after(6.0, 20.0, air_c, 3600.0) == 6.0
    assert time_to_melt_s(6.0, 20.0, air_c) == math.inf


def test_nothing_melts_in_no_time_and_nothing_is_left_of_nothing() -> None:
    assert melt_after(6.0, 20.0, 25.0, 0.0) == 6.0
    assert melt_after(0.0, 20.0, 25.0, 60.0) == 0.0
    assert time_to_melt_s(0.0, 20.0, 25.0) == 0.0


def test_the_closed_form_equals_a_fine_numerical_integration() -> None:
    for seconds in (600.0, 1800.0, 3600.0):
        assert melt_after(6.0, 25.0, 24.0, seconds) == pytest.approx(
            integrate(6.0, 25.0, 24.0, seconds), abs=1e-6
        )


def test_melt_time_is_three_times_mass_over_the_first_rate() -> None:
    assert time_to_melt_s(6.0, 25.0, 25.0) == pytest.approx(
        3 * 6.0 / melt_rate_g_per_s(6.0, 25.0, 25.0)
    )


@given(
    grams=st.floats(0.1, 50.0),
    h=st.floats(2.0, 80.0),
    air=st.floats(1.0, 40.0),
    factor=st.floats(1.0, 1.5),
)
def test_melt_time_scales_as_the_cube_root_of_the_size(
    grams: float, h: float, air: float, factor: float
) -> None:
    one = time_to_melt_s(grams, h, air, factor)
    assert time_to_melt_s(8 * grams, h, air, factor) == pytest.approx(2 * one)
    assert time_to_melt_s(27 * grams, h, air, factor) == pytest.approx(3 * one)
    # and it is gone exactly then, never below 0
    assert melt_after(grams, h, air, one, factor) == pytest.approx(0.0, abs=1e-9)
    assert melt_after(grams, h, air, 2 * one, factor) == 0.0


@given(grams=st.floats(0.1, 20.0), dt=st.floats(0.0, 3600.0), more=st.floats(0.0, 3600.0))
def test_melting_in_two_steps_is_melting_in_one(grams: float, dt: float, more: float) -> None:
    once = melt_after(grams, 20.0, 25.0, dt + more)
    twice = melt_after(melt_after(grams, 20.0, 25.0, dt), 20.0, 25.0, more)
    assert twice == pytest.approx(once, abs=1e-9)


def test_heat_and_factor_speed_the_melt_in_proportion() -> None:
    base = melt_rate_g_per_s(6.0, 20.0, 25.0)
    assert melt_rate_g_per_s(6.0, 40.0, 25.0) == pytest.approx(2 * base)
    assert melt_rate_g_per_s(6.0, 20.0, 25.0, factor=1.3) == pytest.approx(1.3 * base)
    assert time_to_melt_s(6.0, 20.0, 25.0, factor=1.3) == pytest.approx(
        time_to_melt_s(6.0, 20.0, 25.0) / 1.3
    )


def test_a_cube_from_the_freezer_warms_first() -> None:
    grams, h, air, start = 6.0, 25.0, 25.0, -18.0
    # numerically: c m dT/dt = A h (air - T) until T reaches 0 C
    temperature, t, dt = start, 0.0, 0.01
    while temperature < 0.0:
        temperature += (
            exposed_area_m2(grams)
            * h
            * (air - temperature)
            * dt
            / (ICE_HEAT_CAPACITY_J_PER_G_K * grams)
        )
        t += dt
    assert warming_time_s(grams, h, air, start) == pytest.approx(t, abs=0.05)
    # it takes longer than the sensible heat over the heat flow at the start, shorter than at 0 C
    sensible = ICE_HEAT_CAPACITY_J_PER_G_K * grams * 18.0
    assert sensible / (exposed_area_m2(grams) * h * 43.0) < t
    assert t < sensible / (exposed_area_m2(grams) * h * 25.0)
    assert warmed_c(grams, h, air, start, t / 2) < 0.0
    assert warmed_c(grams, h, air, start, 2 * t) == 0.0


def test_warming_needs_warm_air_and_a_cold_cube() -> None:
    assert warming_time_s(6.0, 25.0, 25.0, 0.0) == 0.0
    assert warming_time_s(6.0, 25.0, 0.0, -18.0) == math.inf
