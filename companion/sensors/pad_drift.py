"""How the zero of a simulated pad moves over a game, as a bar load cell's does at a table.

The kit's pads are small bar load cells (100-300 g rated capacity) on an HX711. Their zero is not
still, and nothing in the pipeline would notice a pad that never moved, so the simulated pads
move theirs, by four causes, each with where its size comes from:

- **Warm-up.** The bridge warms under its excitation after power-up and the zero settles over
  some minutes; HX711 libraries tare only after a warm-up for that reason (HX711_ADC's README
  asks for a "pre-warm-up" period before the tare). Here: +-0.1 g at power-up, gone with a time
  constant of 10 minutes. An unverified size: a maker's pad may do more or less.
- **Wander.** A slow trend and a random walk: makers report HX711 pads whose empty reading
  walks by tens to hundreds of counts over hours, and the issue that asked for this sets it at up
  to a few tenths of a gram in an hour. Here: a trend of up to 0.15 g an hour either way and a
  random walk of 0.05-0.2 g per square root of an hour.
- **Temperature.** A load cell's zero moves with its temperature: HBM gives "less than
  0.05 %/10 K" of the rated output for good transducers, and the data sheets of cheap bar cells
  0.05-0.1 % of the rated output per 10 C. A cap standing on ice is near 0 C underneath, and
  cools the end of the bar it stands on first: the gradient along the bar shifts the zero more
  than an even change would (here three times as much per degree, an unverified factor), and
  the whole cell then cools a little with every weigh-in of the evening. Two temperatures, the
  face under the cap and the body of the cell, each a first-order lag (the cap on the face:
  5 minutes, through the plastic; face and body: 2 minutes; body and air: 20 minutes). The
  gradient's factor and the cap's underside at 2 C are guesses, and they decide how far a cap
  left on a pad for minutes moves its zero: the bench's widened tables triple them.
- **Creep.** Under a load the output grows slowly towards a little more than the load, and
  falls back as slowly once it is lifted: data sheets give 0.03-0.1 % of the rated output over
  30 minutes at the rated load (OIML R60 bounds it for class C cells). Scaled to the load here:
  0.03-0.2 % of it (up to twice the sheets' worst, for cells sold without one), with a time
  constant of 5 minutes.

The drift is integrated in steps of :data:`STEP_S` as time moves on (times must not go back),
so a pad's zero at ``t`` depends on what stood on it before, as a real cell's does.

>>> drift = PadDrift.draw(random.Random(1), room_c=23.0)
>>> first = drift.zero_g(0.0, load_g=0.0, cold=False, air_c=23.0)
>>> abs(drift.zero_g(3600.0, load_g=0.0, cold=False, air_c=23.0) - first) < 1.0
True
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

STEP_S = 2.0
"""The integration step: far below every time constant here."""
WARM_UP_G = 0.1
WARM_UP_S = 600.0
TREND_G_PER_H = 0.15
WALK_G_PER_SQRT_H = (0.05, 0.2)
ZERO_TC_SHARE_PER_10C = (0.0005, 0.001)
"""Temperature effect on zero, as a share of the rated capacity per 10 C."""
GRADIENT_FACTOR = 3.0
CAP_UNDERSIDE_C = 2.0
"""The underside of a cap holding ice: a little above the ice, through the plastic."""
CAP_FACE_S = 300.0
FACE_BODY_S = 120.0
BODY_AIR_S = 1200.0
CREEP_SHARE = (0.0003, 0.002)
CREEP_S = 300.0
CAPACITIES_G = (100.0, 200.0, 300.0)
"""The bar cells of the kit."""


@dataclass
class PadDrift:
    """One pad's moving zero, in grams added to what stands on it (see the module)."""

    capacity_g: float
    warm_up_g: float
    trend_g_per_s: float
    walk_g_per_sqrt_s: float
    zero_tc_g_per_c: float
    creep_share: float
    reference_c: float
    """The cell's temperature when it was tared: the zero is exact there."""
    rng: random.Random
    start: float | None = None
    """When the pad was powered up: the first time it was asked."""
    t: float = 0.0
    walk_g: float = 0.0
    creep_g: float = 0.0
    face_c: float = field(init=False)
    body_c: float = field(init=False)

    def __post_init__(self) -> None:
        self.face_c = self.body_c = self.reference_c

    @classmethod
    def draw(cls, rng: random.Random, room_c: float, scale: float = 1.0) -> PadDrift:
        """A pad as one comes out of the kit: its sizes drawn from the module's ranges, each
        times ``scale`` (a worse pad than the kit's: 3)."""
        capacity = rng.choice(CAPACITIES_G)
        zero_tc = rng.choice((-1, 1)) * capacity * rng.uniform(*ZERO_TC_SHARE_PER_10C) / 10
        return cls(
            capacity_g=capacity,
            warm_up_g=scale * rng.uniform(-WARM_UP_G, WARM_UP_G),
            trend_g_per_s=scale * rng.uniform(-TREND_G_PER_H, TREND_G_PER_H) / 3600,
            walk_g_per_sqrt_s=scale * rng.uniform(*WALK_G_PER_SQRT_H) / 60,
            zero_tc_g_per_c=scale * zero_tc,
            creep_share=scale * rng.uniform(*CREEP_SHARE),
            reference_c=room_c,
            rng=random.Random(rng.getrandbits(64)),
        )

    def zero_g(self, t: float, load_g: float, cold: bool, air_c: float) -> float:
        """The zero at ``t``, the pad having held ``load_g`` (a cap on ice when ``cold``) in
        ``air_c`` since it was last asked."""
        if self.start is None:
            self.start = self.t = t
        while self.t < t:
            dt = min(STEP_S, t - self.t)
            self._step(dt, load_g, cold, air_c)
            self.t += dt
        since = self.t - self.start
        warm = self.warm_up_g * math.exp(-since / WARM_UP_S)
        temperature = self.zero_tc_g_per_c * (
            self.body_c - self.reference_c + GRADIENT_FACTOR * (self.face_c - self.body_c)
        )
        return warm + self.trend_g_per_s * since + self.walk_g + temperature + self.creep_g

    def _step(self, dt: float, load_g: float, cold: bool, air_c: float) -> None:
        self.walk_g += self.rng.gauss(0.0, self.walk_g_per_sqrt_s * math.sqrt(dt))
        self.creep_g += (self.creep_share * load_g - self.creep_g) * (1 - math.exp(-dt / CREEP_S))
        cap = (CAP_UNDERSIDE_C - self.face_c) / CAP_FACE_S if cold else 0.0
        face = cap + (self.body_c - self.face_c) / FACE_BODY_S
        body = (air_c - self.body_c) / BODY_AIR_S + (self.face_c - self.body_c) / FACE_BODY_S
        self.face_c += face * dt
        self.body_c += body * dt
