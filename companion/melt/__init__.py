"""The pure physics of a melting ice cube and the per-seat estimator.

``physics`` holds the closed forms of a cube melting in its cap, ``attacks`` what each attack
does and every tuned number (``MeltConfig``), ``estimator`` the per-seat filter (``SeatMelt``),
``asking`` when a seat is asked to weigh in, and ``replay`` runs the estimator over a recorded
table (``companion melt replay``). No clocks, no I/O, no global random: the time is always an
argument.
"""

from companion.melt.attacks import ATTACK_KINDS, DEFAULT_CONFIG, AttackMelt, MeltConfig
from companion.melt.estimator import Estimate, SeatMelt
from companion.melt.physics import (
    ICE_DENSITY_G_PER_ML,
    ICE_HEAT_CAPACITY_J_PER_G_K,
    LATENT_HEAT_J_PER_G,
    exposed_area_m2,
    melt_after,
    melt_rate_g_per_s,
    time_to_melt_s,
    warming_time_s,
)

__all__ = [
    "ATTACK_KINDS",
    "DEFAULT_CONFIG",
    "ICE_DENSITY_G_PER_ML",
    "ICE_HEAT_CAPACITY_J_PER_G_K",
    "LATENT_HEAT_J_PER_G",
    "AttackMelt",
    "Estimate",
    "MeltConfig",
    "SeatMelt",
    "exposed_area_m2",
    "melt_after",
    "melt_rate_g_per_s",
    "time_to_melt_s",
    "warming_time_s",
]
