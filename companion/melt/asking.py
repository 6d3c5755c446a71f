"""When the table asks a seat to weigh in: after an attack that changed its cube, and whenever its
estimate has grown too unsure to tell a player much. The table asks at the start of each seat's
own turn too (the game's rule); the rest is the estimate's, here, so that the table and the
bench that scores it ask alike.

>>> from companion.melt.attacks import DEFAULT_CONFIG
>>> [changes_cube(DEFAULT_CONFIG.attack(kind)) for kind in ("squeeze", "thawing-salt")]
[True, False]
"""

from __future__ import annotations

from companion.melt.attacks import AttackMelt
from companion.melt.estimator import Estimate

UNSURE_G = 0.3
"""A seat whose estimate's sigma passes this is asked to weigh in: between weigh-ins the
uncertainty grows (the model's h is not quite the cube's), and a gauge of 3 +- 1.2 g tells a
player little; a weigh-in brings it back to the pad's 0.05 g."""
ASK_AGAIN_S = 120.0
"""Game seconds before an unsure seat is asked again after a weigh-in or an ask."""


def changes_cube(melt: AttackMelt) -> bool:
    """Whether an attack's melt should be weighed: it took grams, give or take their spread, or
    left water on the cube. (Salt only speeds the melt, which the weigh-ins at the seat's turn
    and its growing sigma catch.)"""
    return melt.mean_g > 0.0 or melt.wet


def too_unsure(estimate: Estimate, since_asked_s: float) -> bool:
    """Whether a seat whose last weigh-in or ask was ``since_asked_s`` ago should be asked now."""
    return not estimate.melted and estimate.sigma_g > UNSURE_G and since_asked_s >= ASK_AGAIN_S
