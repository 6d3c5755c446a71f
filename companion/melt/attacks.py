"""What each attack does to a cube, and every number the estimator is tuned with.

Attacks are melt: a kind takes grams off at once (a mean and a one-sigma spread), Thawing salt
multiplies the melt rate by a factor that fades back to 1, and the water attacks leave water
clinging to the cube and its cap that the next weigh-in reads as ice.

>>> DEFAULT_CONFIG.attack("guessing-game") == DEFAULT_CONFIG.attack("squeeze")
True
>>> DEFAULT_CONFIG.attack("water-bath").wet
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

ATTACK_KINDS = (
    "polish",
    "squeeze",
    "hot-breath",
    "cold-shower",
    "guessing-game",
    "thawing-salt",
    "water-bath",
)
"""The attack values of a recording, as the rulebook names the attacks."""


@dataclass(frozen=True)
class AttackMelt:
    """What one attack takes off a cube: ``mean_g`` grams, give or take ``spread_g`` (one sigma);
    ``wet`` when it leaves water clinging for the next weigh-in; ``salt`` when it speeds the melt
    (the factor and its fading live in ``MeltConfig``)."""

    mean_g: float
    spread_g: float
    wet: bool = False
    salt: bool = False


# The ranges are DESIGN.md's ("Melt model"): estimates from the size of a 6 g cube (a 1.87 cm
# cube, 17.5 cm2 of exposed faces) and what each attack does to it for a ten-count. We take the
# middle of each range as the mean. Hands, breath and pours differ from player to player (a
# child's squeeze is not an adult's), so one sigma is that of +-50% of the mean drawn evenly
# (0.29 x the mean), or of the range drawn evenly when that is wider (width / sqrt(12)).
# Every number is a default: a table can measure its own and configure them.
_SQUEEZE = AttackMelt(
    # Ten seconds in a warm fist: ~34 C skin in full contact (h of hundreds of W/m2K) melts
    # 0.35-0.55 g.
    mean_g=0.45,
    spread_g=0.13,
)
DEFAULT_ATTACKS: Mapping[str, AttackMelt] = MappingProxyType(
    {
        # Rubbing with a finger: one face, partial contact: 0.05-0.15 g.
        "polish": AttackMelt(mean_g=0.10, spread_g=0.03),
        "squeeze": _SQUEEZE,
        # Breathing on it: moist 35 C air, condensation heat on a few faces: 0.05-0.2 g.
        "hot-breath": AttackMelt(mean_g=0.125, spread_g=0.045),
        # 3 ml of tap water poured over: at most 3 g x 4.18 J/gK x ~20 K / 334 J/g = 0.75 g if it
        # gave all its heat; it runs off first, so 0.2-0.4 g; and it leaves the cube wet.
        "cold-shower": AttackMelt(mean_g=0.30, spread_g=0.09, wet=True),
        # Each round of the Guessing game the seat loses is one squeeze (the rulebook's rule).
        "guessing-game": _SQUEEZE,
        # Salt lowers the melting point: no grams at once, a faster melt for a few minutes.
        "thawing-salt": AttackMelt(mean_g=0.0, spread_g=0.02, salt=True),
        # Dunked in the cup's water for a ten-count: 0.2-1.3 g depending on how warm the melt
        # water has become; the widest spread of all; and it leaves the cube wet.
        "water-bath": AttackMelt(mean_g=0.75, spread_g=0.32, wet=True),
    }
)


@dataclass(frozen=True)
class MeltConfig:
    """Every number the per-seat estimator runs on (``DEFAULT_CONFIG`` holds the defaults)."""

    attacks: Mapping[str, AttackMelt] = field(default_factory=lambda: DEFAULT_ATTACKS)
    # Salt: the melt rate x1.2-1.5 (DESIGN.md) fading back to x1 over a few minutes, as the
    # brine runs off into the cup. The factor falls linearly to 1 over salt_fade_s.
    salt_factor: float = 1.35
    salt_fade_s: float = 300.0
    # h, the prior: what heats a 1.9 cm cube at 0 C in a room at 22 C, per kelvin and m2.
    # - Natural convection, laminar: h = 1.32 (dT / L)^0.25 for a small vertical surface
    #   (the simplified air correlation of Incropera's and the Engineering ToolBox's tables):
    #   1.32 (22 / 0.019)^0.25 = 7.7; a small body's edges and a room's draughts make it 6-12,
    #   a fan or an open window 15-25 (forced convection at 0.5-1 m/s).
    # - Radiation from the room: eps sigma (T1^2 + T2^2)(T1 + T2) with ice's eps = 0.97:
    #   0.97 * 5.67e-8 * (273^2 + 295^2) * 568 = 5.0.
    # - The room's moisture condensing on the cold cube (the Lewis relation, h_m = h_c /
    #   (rho c_p Le^(2/3))): at 50 % humidity the air holds 9.7 g/m3 of water, the air at the
    #   ice 4.85 g/m3, so 7.7 / (1.2 * 1005 * 0.87) * 4.85e-3 kg/m3 * 2.5e6 J/kg = 89 W/m2,
    #   4 per kelvin of the 22: 1-7 between a dry winter room and a humid summer one.
    # - The cap under it and the film of melt water: a little, lumped in.
    # So about 17 in a still room, 10-25 as rooms go, 40 with a fan on it; DESIGN.md's "very
    # roughly 1-2 h at 20-30 C" for a 6 g cube asks for 15-40. The prior is wide on purpose
    # (h_sigma / h_mean is the spread of ln h, so its 2-sigma range is 5.5-46): the first
    # weigh-ins teach each table its own h, and a page's first countdown is a range that holds
    # it. The estimator learns ln h, so a table of h = 4 and one of 40 are learned alike.
    h_mean: float = 16.0
    h_sigma: float = 9.0
    h_min: float = 1.0
    # Process noise, per second: how much the model may be wrong between weigh-ins. On the cube
    # root of the grams, in g^(2/3) (draughts, a hand near the cube, the cap's own warmth), and
    # on ln h (the air moving, the sun coming out: about 20% an hour). Both make sigma grow
    # honestly during a long gap.
    root_noise_per_s: float = 2e-7
    h_noise_per_s: float = 1e-5
    # The load cell after its filters: +-0.05 g (one sigma) on a settled reading.
    weigh_in_sigma_g: float = 0.05
    # Water left on the cube and in the cap by a water attack: a film of 0.02-0.2 mm over the
    # cube's 20 cm2 (how long it was poured on and how it drained) is 0.04-0.4 g, plus a drop or
    # two in the cap (a drop is 0.05 g): 0.05-0.6 g, a spread we know only that widely. It stays
    # until the cube is first lifted to be weighed, then drips into the cup and dries, in one
    # to ten minutes (a warm dry room or a damp cold one, a drop held in a corner of the cap).
    # The weigh-ins are corrected by the expected water and trusted less by its spread.
    cling_g: float = 0.3
    cling_sigma_g: float = 0.15
    cling_decay_s: float = 200.0
    cling_pace: float = 3.0
    """The drying's time constant is known within this factor either way."""
    # A weigh-in more than this many sigma from the prediction is held back as an outlier; a
    # second one that agrees with it confirms a real step (a cube that broke, a swapped cube).
    outlier_sigma: float = 4.5
    # "Melted" is proposed when the estimate's median (the weigh-ins and the model together)
    # is below gone_g, a 5 mm crumb, two sigma of the pad: the moment the countdown reaches 0,
    # and the seat confirms it. (A proposal only when the model was 95 % sure came late: near
    # 0 g the cube root is steep, so its upper bound fell below gone_g only when a tenth of the
    # cube's life later.)
    gone_g: float = 0.1

    def attack(self, kind: str) -> AttackMelt:
        """The melt of one attack kind (ValueError naming the kinds for an unknown one)."""
        try:
            return self.attacks[kind]
        except KeyError:
            raise ValueError(f"unknown attack {kind!r}: one of {', '.join(ATTACK_KINDS)}") from None


DEFAULT_CONFIG = MeltConfig()
