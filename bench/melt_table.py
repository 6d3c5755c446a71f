"""A reference simulator of ice cubes melting at a games table, to score the melt estimator.

It is written apart from :mod:`companion.melt` and shares no tuned number with it: its own
physical constants, its own area law and its own integration (small explicit midpoint steps,
not the estimator's closed form), its own idea of the noise. From ``companion.melt.attacks`` it
takes only the attack kinds and their configured mean grams, since the issue defines the true
melt of an attack as the configured mean times uniform(0.5, 1.5).

One table (:func:`simulate`, everything drawn from ``random.Random(seed)``), of a
:class:`Profile`: :data:`FIRST`, the tables the estimator was first scored on, and
:data:`WIDENED`, past its assumptions (the ranges of the widened tables in brackets):

- 2 to 6 seats, each with a 6.0 g cube (6 ml of water frozen), set out at 0 C or straight from a
  -18 C freezer, and its own true heat-transfer coefficient h, uniform 4-25 W/m2K (4-40),
  constant (changing by up to +-30 % over the cube's life as it rounds off);
- the table's air starts at 20-30 C (16-34 C) and drifts (a trend of up to 1.5 C (3 C) an hour
  plus a random walk) between 18 and 32 C (16 and 34 C); each seat sits up to 1 C warmer or
  cooler than the table and its thermometer reads its air every minute with 0.1 C of noise;
- the cube takes heat over its five exposed faces and a quarter of its bottom face (the cap
  insulates the rest); while below 0 C it warms (lumped), then it melts;
- weigh-ins every 3-8 minutes read the ice plus 0.05 g (a seat's own 0.02-0.1 g) of Gaussian
  noise, plus the water still clinging after a water attack (0.1-0.4 g (0.05-0.6 g) on the next
  weigh-in, drying with a time constant of 2-5 minutes (1-10 minutes));
- attacks arrive at random (every 4-10 minutes on average, a rate per seat), of a uniformly drawn
  kind; each takes its configured mean x uniform(0.5, 1.5) (x uniform(0.25, 1.75)) grams at
  once; a lost Guessing game is 1-3 lines (rounds) 20 s apart; Thawing salt multiplies the melt
  rate by 1.2-1.5, fading linearly back to 1 over 3-8 minutes.

The players also weigh in whenever the table asks them to: :mod:`bench.melt` plays those asks
with the table's own rule, reading the seat's :class:`Pad`. A profile's quiet tables have no
attack and a weigh-in every 5 minutes, no more. The table emits the
event stream a replay CSV carries (``t_s, seat, kind, value`` with kinds ``start_g``,
``air_c``, ``weigh_in_g``, ``attack``, ``melted``) and, for scoring, the true grams at every
step, the moment each cube falls below the table's melted line (``gone_g``) and is gone, and
the moments 25%, 50% and 75% of it have melted with the time it would then still have taken to
fall below the line had no further attack come (at that moment's air held steady, and in the
air as it drifted on).
"""

from __future__ import annotations

import dataclasses
import math
import random
from array import array
from dataclasses import dataclass

from companion.melt.attacks import ATTACK_KINDS, DEFAULT_CONFIG

# Water ice, from the handbooks (not from companion.melt): latent heat of fusion, density and
# specific heat a little below 0 C.
LATENT_J_PER_G = 333.55
DENSITY_G_PER_CM3 = 0.9167
ICE_HEAT_J_PER_G_K = 2.05
# The faces that exchange heat with the air: five in full, and a quarter of the bottom one,
# which sits in the plastic cap (a poor conductor) in a film of melt water.
EXPOSED_FACES = 5.25

STEP_S = 2  # the integration step; every event falls on a step
AIR_STEP_S = 30  # the air's random walk moves every 30 s
AIR_READ_S = 60  # each seat's thermometer reports every minute
MAX_S = 6 * 3600  # a table is over after 6 h whatever is left
START_G = 6.0
FREEZER_C = -18.0
SALT_FACTOR = (1.2, 1.5)
SALT_FADE_S = (180.0, 480.0)
WET = ("cold-shower", "water-bath")
MELTED_FRACTIONS = (0.25, 0.5, 0.75)
GONE_G = DEFAULT_CONFIG.gone_g
"""Where the table calls a cube melted: the table's definition, so the countdown's truth is the
moment the simulated cube falls below it."""


@dataclass(frozen=True)
class Profile:
    """What kind of tables are simulated: how far they stray from the estimator's assumptions.

    ``h_drift`` is how much a cube's h changes over its life (+- that share, linearly with the
    melted share: a cube that rounds off as it shrinks); ``air_drift_c`` the most the air's
    trend moves it over a game; ``attack_spread`` how far an attack's true melt strays from
    the configured mean (+- that share); ``attacks`` whether there are any."""

    name: str
    h_range: tuple[float, float] = (4.0, 25.0)
    h_drift: float = 0.0
    air_start: tuple[float, float] = (20.0, 30.0)
    air_range: tuple[float, float] = (18.0, 32.0)
    air_drift_c: float = 1.5
    weigh_gap_s: tuple[int, int] = (180, 480)
    weigh_noise_g: tuple[float, float] = (0.05, 0.05)
    cling_g: tuple[float, float] = (0.1, 0.4)
    cling_dry_s: tuple[float, float] = (120.0, 300.0)
    attack_gap_mean_s: tuple[float, float] = (240.0, 600.0)
    attack_spread: float = 0.5
    attacks: bool = True
    asks: bool = True
    """Whether the players also weigh in when the table asks (the bench plays the asks)."""

    def quiet(self) -> Profile:
        """The same tables with no attack and a weigh-in every 5 minutes, and nothing else."""
        return dataclasses.replace(
            self, name=f"{self.name}, quiet", attacks=False, asks=False, weigh_gap_s=(300, 300)
        )


FIRST = Profile("first tables")
"""The tables the estimator was first scored on (its defaults were set after seeing them)."""
WIDENED = Profile(
    "widened tables",
    h_range=(4.0, 40.0),
    h_drift=0.3,
    air_start=(16.0, 34.0),
    air_range=(16.0, 34.0),
    air_drift_c=3.0,
    weigh_noise_g=(0.02, 0.1),
    cling_g=(0.05, 0.6),
    cling_dry_s=(60.0, 600.0),
    attack_spread=0.75,
)
"""Tables past the estimator's assumptions: its h prior, its air, its pad's noise, its water."""
H_RANGE = FIRST.h_range
WEIGH_NOISE_G = FIRST.weigh_noise_g[1]


def configured_means() -> dict[str, float]:
    """The configured mean grams of each attack kind: the only numbers taken from the estimator."""
    return {kind: DEFAULT_CONFIG.attack(kind).mean_g for kind in ATTACK_KINDS}


def exposed_area_m2(grams: float) -> float:
    """The heat-exchanging area of a cube of ``grams`` of ice, in square metres."""
    side_cm = (grams / DENSITY_G_PER_CM3) ** (1 / 3)
    return EXPOSED_FACES * side_cm * side_cm * 1e-4


@dataclass(frozen=True)
class Event:
    """One line of a replay CSV: ``seat`` is None for a table-wide line."""

    t_s: float
    seat: int | None
    kind: str
    value: float | str

    def csv(self) -> str:
        seat = "" if self.seat is None else str(self.seat)
        value = self.value if isinstance(self.value, str) else f"{self.value:.6g}"
        return f"{self.t_s:g},{seat},{self.kind},{value}"


@dataclass(frozen=True)
class WeighIn:
    """A weigh-in with its truth: what the scale read, the ice, the water clinging to it."""

    t_s: float
    reading_g: float
    true_g: float
    cling_g: float


@dataclass(frozen=True)
class Wet:
    """A water attack's water: ``amount_g`` on the cube at its first lifting after ``t_s``,
    drying from then on with a time constant of ``dry_s``."""

    t_s: float
    amount_g: float
    dry_s: float


class Pad:
    """One seat's pad as its player uses it: a reading is the ice at that moment, the water
    still clinging from the last water attack (drying from the cube's first lifting after it)
    and the pad's own Gaussian noise. The simulator reads it at the players' own weigh-ins;
    the bench, which plays the table's asks too, reads a fresh one at every weigh-in it plays."""

    def __init__(self, noise_g: float, wets: tuple[Wet, ...], seed: float) -> None:
        self.noise_g = noise_g
        self.wets = wets
        self.rng = random.Random(seed)
        self.lifted: dict[float, float] = {}  # a water attack's time -> its first lifting

    def read(self, t_s: float, grams: float) -> WeighIn:
        """A weigh-in at ``t_s`` of a cube of ``grams`` of ice."""
        cling = 0.0
        wet = next((w for w in reversed(self.wets) if w.t_s <= t_s), None)
        if wet is not None:
            first = self.lifted.setdefault(wet.t_s, t_s)
            cling = wet.amount_g * math.exp(-(t_s - first) / wet.dry_s)
            if cling < 0.005:
                cling = 0.0
        reading = max(0.0, grams + cling + self.rng.gauss(0.0, self.noise_g))
        return WeighIn(t_s, reading, grams, cling)


@dataclass(frozen=True)
class Attack:
    """One attack (a Guessing game line is one) and the grams it truly took."""

    t_s: float
    kind: str
    grams: float


@dataclass(frozen=True)
class Mark:
    """The moment a fraction of the cube has melted, and when it would then be gone with no
    further attack: at the air of that moment held steady (what an ETA at "this air
    temperature" claims), and in the air as it really drifted on."""

    t_s: float
    steady_gone_s: float
    drifting_gone_s: float
    """Both the moments the cube falls below :data:`GONE_G` (the table calls it melted)."""


@dataclass(frozen=True)
class SeatTruth:
    """Everything true about one seat's cube, for scoring."""

    seat: int
    h_w_m2k: float
    start_c: float
    start_g: float
    offset_c: float  # the seat's air minus the table's
    grams: array  # true grams at every STEP_S from t = 0 (the last one is 0 once gone)
    air_c: array  # the seat's true air at every STEP_S
    gone_s: float  # when the cube is gone (MAX_S when it outlived the table)
    melted_s: float  # when it fell below GONE_G, the table's melted line
    weigh_ins: tuple[WeighIn, ...]
    attacks: tuple[Attack, ...]
    wets: tuple[Wet, ...]
    pad_noise_g: float
    pad_seed: float
    # fraction melted -> its Mark (any salt goes on fading in the forecasts); missing when an
    # attack took the last of the cube at once
    marks: dict[float, Mark]

    def pad(self) -> Pad:
        """A fresh pad of this seat, reading as the simulator's did."""
        return Pad(self.pad_noise_g, self.wets, self.pad_seed)

    def grams_at(self, t_s: float) -> float:
        """The true grams at ``t_s`` (linear between steps, 0 once gone)."""
        if t_s >= self.gone_s:
            return 0.0
        i = int(t_s // STEP_S)
        if i + 1 >= len(self.grams):
            return self.grams[-1]
        frac = (t_s - i * STEP_S) / STEP_S
        return self.grams[i] + (self.grams[i + 1] - self.grams[i]) * frac


@dataclass(frozen=True)
class Table:
    """One simulated table: the events in time order and the truth of every seat."""

    seed: int
    events: tuple[Event, ...]
    seats: tuple[SeatTruth, ...]

    def csv(self) -> str:
        """The replay CSV of the table (header ``t_s,seat,kind,value``)."""
        return "\n".join(["t_s,seat,kind,value", *(e.csv() for e in self.events)]) + "\n"


def air_path(rng: random.Random, profile: Profile = FIRST) -> array:
    """The table's air every AIR_STEP_S until MAX_S: a trend plus a random walk, reflected into
    the profile's range."""
    lo, hi = profile.air_range
    air = rng.uniform(*profile.air_start)
    trend = rng.uniform(-profile.air_drift_c, profile.air_drift_c) / 3600 * AIR_STEP_S
    out = array("d")
    for _ in range(MAX_S // AIR_STEP_S + 2):
        out.append(air)
        air += trend + rng.gauss(0.0, 0.1)
        if air > hi:
            air, trend = 2 * hi - air, -trend
        elif air < lo:
            air, trend = 2 * lo - air, -trend
    return out


class _Cube:
    """The integrator of one cube: lumped temperature below 0 C, then melt at the surface."""

    def __init__(self, grams: float, temp_c: float, h: float, h_drift: float = 0.0) -> None:
        self.grams = grams
        self.temp_c = temp_c
        self.h0 = h
        self.h_drift = h_drift  # h moves by this share as the cube melts away
        self.salts: list[tuple[float, float, float]] = []  # (start, factor, fade)

    @property
    def h(self) -> float:
        return self.h0 * (1.0 + self.h_drift * (1.0 - self.grams / START_G))

    def copy(self) -> _Cube:
        other = _Cube(self.grams, self.temp_c, self.h0, self.h_drift)
        other.salts = list(self.salts)
        return other

    def factor(self, t_s: float) -> float:
        f = 1.0
        for start, factor, fade in self.salts:
            left = 1.0 - (t_s - start) / fade
            if left > 0:
                f *= 1.0 + (factor - 1.0) * left
        return f

    def step(self, t_s: float, air_c: float) -> None:
        """Advance STEP_S seconds from ``t_s`` at ``air_c``."""
        if self.grams <= 0:
            return
        factor = self.factor(t_s + STEP_S / 2)
        if self.temp_c < 0:
            power = exposed_area_m2(self.grams) * self.h * (air_c - self.temp_c) * factor
            self.temp_c += power * STEP_S / (ICE_HEAT_J_PER_G_K * self.grams)
            if self.temp_c > 0:  # the heat beyond 0 C melts ice
                extra_j = self.temp_c * ICE_HEAT_J_PER_G_K * self.grams
                self.temp_c = 0.0
                self.grams = max(0.0, self.grams - extra_j / LATENT_J_PER_G)
            return
        if air_c <= 0:
            return
        k = self.h * air_c * factor / LATENT_J_PER_G
        mid = self.grams - exposed_area_m2(self.grams) * k * STEP_S / 2
        if mid <= 0:
            self.grams = 0.0
            return
        self.grams = max(0.0, self.grams - exposed_area_m2(mid) * k * STEP_S)


def _quiet_gone_s(
    cube: _Cube, t_s: float, air: array, offset: float, steady_c: float | None = None
) -> float:
    """When ``cube`` (at ``t_s``) would fall below GONE_G if no attack came: in the seat's
    drifting air, or at ``steady_c`` throughout when given."""
    cube = cube.copy()
    t = t_s
    while cube.grams > GONE_G and t < 4 * MAX_S:
        before = cube.grams
        cube.step(t, _seat_air(air, offset, t) if steady_c is None else steady_c)
        if cube.grams <= GONE_G:
            return t + STEP_S * (before - GONE_G) / (before - cube.grams)
        t += STEP_S
    return t


def _seat_air(air: array, offset: float, t_s: float) -> float:
    i = min(int(t_s // AIR_STEP_S), len(air) - 1)
    return air[i] + offset


def _attack_plan(
    rng: random.Random, means: dict[str, float], profile: Profile
) -> list[tuple[int, str, float]]:
    """A seat's attacks until MAX_S: (time, kind, true grams), a Guessing game line each."""
    plan: list[tuple[int, str, float]] = []
    gap = rng.uniform(*profile.attack_gap_mean_s)
    spread = profile.attack_spread
    t = 0.0
    while True:
        t += rng.expovariate(1.0 / gap)
        if t >= MAX_S:
            return plan
        kind = rng.choice(ATTACK_KINDS)
        lines = rng.randint(1, 3) if kind == "guessing-game" else 1
        for line in range(lines):
            at = (int(t) // STEP_S + line * 10) * STEP_S
            plan.append((at, kind, means[kind] * rng.uniform(1 - spread, 1 + spread)))
        t += 20 * lines


def _simulate_seat(
    rng: random.Random, seat: int, air: array, means: dict[str, float], profile: Profile
) -> tuple[SeatTruth, list[Event]]:
    h = rng.uniform(*profile.h_range)
    h_drift = rng.uniform(-profile.h_drift, profile.h_drift)
    start_c = rng.choice((0.0, FREEZER_C))
    offset = rng.uniform(-1.0, 1.0)
    plan = _attack_plan(rng, means, profile) if profile.attacks else []
    weigh_times: list[int] = []
    t_w = 0
    while t_w < MAX_S:
        t_w += rng.randint(*profile.weigh_gap_s) // STEP_S * STEP_S
        weigh_times.append(t_w)
    salt_draws = {at: (rng.uniform(*SALT_FACTOR), rng.uniform(*SALT_FADE_S)) for at, *_ in plan}
    cling_draws = [(rng.uniform(*profile.cling_g), rng.uniform(*profile.cling_dry_s)) for _ in plan]
    wets = tuple(
        Wet(float(at), *cling_draws[i]) for i, (at, kind, _) in enumerate(plan) if kind in WET
    )
    pad_noise, pad_seed = rng.uniform(*profile.weigh_noise_g), rng.random()
    pad = Pad(pad_noise, wets, pad_seed)

    events = [Event(0.0, seat, "start_g", START_G)]
    cube = _Cube(START_G, start_c, h, h_drift)
    grams = array("d", [START_G])
    airs = array("d")
    attacks: list[Attack] = []
    weigh_ins: list[WeighIn] = []
    marks: dict[float, Mark] = {}
    next_attack = next_weigh = 0
    gone_s = melted_s = float(MAX_S)
    t = 0
    while True:
        seat_air = _seat_air(air, offset, t)
        airs.append(seat_air)
        if t % AIR_READ_S == 0:
            reading = round(seat_air + rng.gauss(0.0, 0.1), 2)
            events.append(Event(float(t), seat, "air_c", reading))
        while next_attack < len(plan) and plan[next_attack][0] <= t:
            at, kind, melt = plan[next_attack]
            taken = min(cube.grams, melt)
            cube.grams -= taken
            if kind == "thawing-salt":
                factor, fade = salt_draws[at]
                cube.salts.append((float(t), factor, fade))
            attacks.append(Attack(float(t), kind, taken))
            events.append(Event(float(t), seat, "attack", kind))
            next_attack += 1
        grams[-1] = cube.grams
        if melted_s == MAX_S and cube.grams <= GONE_G:
            melted_s = float(t)  # an attack took it below the line
        for fraction in MELTED_FRACTIONS:
            if fraction not in marks and cube.grams <= START_G * (1 - fraction) and cube.grams > 0:
                marks[fraction] = Mark(
                    float(t),
                    _quiet_gone_s(cube, float(t), air, offset, seat_air),
                    _quiet_gone_s(cube, float(t), air, offset),
                )
        if cube.grams <= 0:
            gone_s = float(t)
            break
        if next_weigh < len(weigh_times) and weigh_times[next_weigh] <= t:
            weigh_in = pad.read(float(t), cube.grams)
            weigh_ins.append(weigh_in)
            events.append(Event(float(t), seat, "weigh_in_g", round(weigh_in.reading_g, 3)))
            next_weigh += 1
        if t >= MAX_S:
            break
        before = cube.grams
        cube.step(float(t), seat_air)
        if melted_s == MAX_S and cube.grams <= GONE_G:
            melted_s = t + STEP_S * (before - GONE_G) / (before - cube.grams)
        if cube.grams <= 0:
            gone_s = t + STEP_S * before / (before - cube.grams)
            grams.append(0.0)
            airs.append(_seat_air(air, offset, t + STEP_S))
            break
        grams.append(cube.grams)
        t += STEP_S
    if gone_s < MAX_S:
        events.append(Event(math.ceil(gone_s) + rng.randint(0, 60), seat, "melted", 1.0))
    truth = SeatTruth(
        seat=seat,
        h_w_m2k=h,
        start_c=start_c,
        start_g=START_G,
        offset_c=offset,
        grams=grams,
        air_c=airs,
        gone_s=gone_s,
        melted_s=melted_s,
        weigh_ins=tuple(weigh_ins),
        attacks=tuple(attacks),
        wets=wets,
        pad_noise_g=pad_noise,
        pad_seed=pad_seed,
        marks=marks,
    )
    return truth, events


_ORDER = {"start_g": 0, "air_c": 1, "attack": 2, "weigh_in_g": 3, "melted": 4}


def simulate(seed: int, seats: int | None = None, profile: Profile = FIRST) -> Table:
    """Play one table of ``profile`` from ``seed`` (2-6 seats unless given) until every cube is
    gone."""
    rng = random.Random(seed)
    n = seats if seats is not None else rng.randint(2, 6)
    means = configured_means()
    air = air_path(rng, profile)
    truths: list[SeatTruth] = []
    events: list[Event] = []
    for seat in range(1, n + 1):
        truth, seat_events = _simulate_seat(rng, seat, air, means, profile)
        truths.append(truth)
        events += seat_events
    events.sort(key=lambda e: (e.t_s, e.seat or 0, _ORDER[e.kind]))
    return Table(seed, tuple(events), tuple(truths))
