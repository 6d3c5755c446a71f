"""The physics of one melting ice cube in its cap: closed forms, no clocks, no state.

The cube sits in its cap, so 5 of its 6 faces meet the air; heat comes in through them by
convection and radiation, lumped into one coefficient ``h`` (W/m2K) that each table must learn.
With the exposed area proportional to m^(2/3), dm/dt = -c h (T_air - 0 C) m^(2/3) / L_f, so the
cube root of the mass falls linearly in time: that is the whole closed form.

>>> round(side_cm(6.0), 2)
1.87
>>> round(time_to_melt_s(6.0, 25.0, 25.0) / 3600, 2)
1.53
"""

from __future__ import annotations

import math

LATENT_HEAT_J_PER_G = 334.0
"""Latent heat of fusion of ice."""
ICE_DENSITY_G_PER_ML = 0.917
"""Density of ice at 0 C: 6 g of ice is 6.54 ml, a 1.87 cm cube."""
ICE_HEAT_CAPACITY_J_PER_G_K = 2.09
"""Specific heat of ice just below 0 C (a cube from the freezer warms before it melts)."""
EXPOSED_FACES = 5
"""The cube stands in its cap: the bottom face rests on the cap, the other 5 meet the air."""

AREA_M2_PER_G23 = EXPOSED_FACES * 1e-4 / math.pow(ICE_DENSITY_G_PER_ML, 2 / 3)
"""Exposed area per gram^(2/3): 5 faces of (m / density)^(2/3) cm2 each, in m2."""


def side_cm(grams: float) -> float:
    """The edge of a cube of ice of that mass, in cm."""
    return math.pow(max(grams, 0.0) / ICE_DENSITY_G_PER_ML, 1 / 3)


def exposed_area_m2(grams: float) -> float:
    """The area of the 5 faces of a cube of that mass that meet the air, in m2.

    >>> round(exposed_area_m2(6.0) * 1e4, 1)   # cm2
    17.5
    """
    return AREA_M2_PER_G23 * math.pow(max(grams, 0.0), 2 / 3)


def shrink_rate(h_w_m2k: float, air_c: float, factor: float = 1.0) -> float:
    """How fast the cube root of the mass falls, in g^(1/3) per second (constant while the air is).

    From dm/dt = -k m^(2/3): d(m^(1/3))/dt = -k / 3, whatever the mass.
    """
    if air_c <= 0.0 or h_w_m2k <= 0.0 or factor <= 0.0:
        return 0.0
    return AREA_M2_PER_G23 * h_w_m2k * air_c * factor / (3.0 * LATENT_HEAT_J_PER_G)


def melt_rate_g_per_s(grams: float, h_w_m2k: float, air_c: float, factor: float = 1.0) -> float:
    """Grams melting per second now: A(m) h (T_air - 0 C) factor / L_f (0 in air at or below 0 C).

    >>> melt_rate_g_per_s(6.0, 10.0, 0.0)
    0.0
    """
    if grams <= 0.0 or air_c <= 0.0 or h_w_m2k <= 0.0:
        return 0.0
    return exposed_area_m2(grams) * h_w_m2k * air_c * max(factor, 0.0) / LATENT_HEAT_J_PER_G


def melt_after(
    grams: float, h_w_m2k: float, air_c: float, dt_s: float, factor: float = 1.0
) -> float:
    """The grams left after ``dt_s`` seconds at a constant air temperature, never below 0.

    >>> melt_after(6.0, 25.0, 25.0, time_to_melt_s(6.0, 25.0, 25.0))
    0.0
    >>> melt_after(6.0, 25.0, 0.0, 3600.0)
    6.0
    """
    if grams <= 0.0:
        return 0.0
    root = math.pow(grams, 1 / 3) - shrink_rate(h_w_m2k, air_c, factor) * max(dt_s, 0.0)
    return root**3 if root > 0.0 else 0.0


def time_to_melt_s(grams: float, h_w_m2k: float, air_c: float, factor: float = 1.0) -> float:
    """Seconds until the cube is gone at a constant air temperature (inf if it never melts).

    Three times the mass over the starting melt rate: the melt time grows as m^(1/3).
    """
    if grams <= 0.0:
        return 0.0
    rate = shrink_rate(h_w_m2k, air_c, factor)
    return math.pow(grams, 1 / 3) / rate if rate > 0.0 else math.inf


def warming_time_s(grams: float, h_w_m2k: float, air_c: float, start_c: float) -> float:
    """Seconds a cube that starts at ``start_c`` (below 0 C) needs to warm to 0 C before melting.

    The cube is taken as one temperature throughout (lumped, mass constant): heat
    A(m) h (T_air - T) warms c_ice m, so T approaches the air exponentially with the time
    constant tau = c_ice m / (A h), and reaches 0 C after tau ln((T_air - start) / T_air).
    0 for a cube already at 0 C; inf when the air is at or below 0 C.

    >>> warming_time_s(6.0, 25.0, 25.0, 0.0)
    0.0
    >>> round(warming_time_s(6.0, 25.0, 25.0, -18.0))
    156
    """
    if start_c >= 0.0 or grams <= 0.0:
        return 0.0
    if air_c <= 0.0 or h_w_m2k <= 0.0:
        return math.inf
    return warming_tau_s(grams, h_w_m2k) * math.log((air_c - start_c) / air_c)


def warming_tau_s(grams: float, h_w_m2k: float) -> float:
    """The time constant of a cold cube warming towards the air: c_ice m / (A(m) h)."""
    return ICE_HEAT_CAPACITY_J_PER_G_K * grams / (exposed_area_m2(grams) * h_w_m2k)


def warmed_c(grams: float, h_w_m2k: float, air_c: float, start_c: float, dt_s: float) -> float:
    """The temperature of a cold cube after ``dt_s`` seconds of warming, at most 0 C."""
    if start_c >= 0.0 or h_w_m2k <= 0.0 or grams <= 0.0:
        return min(start_c, 0.0)
    tau = warming_tau_s(grams, h_w_m2k)
    return min(0.0, air_c - (air_c - start_c) * math.exp(-dt_s / tau))
