"""The per-seat estimator: how much of a seat's cube is left, how sure we are, and when it goes.

A Kalman filter on two numbers: the cube root of the grams, ``u``, and the log of the heat
coefficient, ``ln h``. At a given air temperature u falls by ``g * h * dt`` whatever the mass,
so the prediction is linear in u and needs only the slope in ln h; a weigh-in is mapped to the
cube root too, its noise by the secant over +-2 sigma (which keeps the 2-sigma bounds honest
near 0 g, where the cube root is steep). Attacks take their grams off with their spread; water
attacks bias the next weigh-ins by the water clinging to the cube and its cap; a weigh-in far
from the prediction, or above a lower earlier one, is held back until a second one confirms it
(a cube that broke) or not (an elbow on the pad). Two numbers and three covariances cost a few
microseconds an update; a particle filter would cost a thousand times more for a posterior
that is this close to Gaussian.

>>> seat = SeatMelt.start(0.0, 6.0)
>>> seat = seat.predict(600.0, 25.0).weigh_in(600.0, 5.2)
>>> est = seat.estimate(600.0, 25.0)
>>> round(est.grams, 1), est.melted, est.h_w_m2k < 25.0
(5.2, False, True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

from companion.games.evolving import Evolving
from companion.melt.attacks import DEFAULT_CONFIG, MeltConfig
from companion.melt.physics import shrink_rate, warmed_c, warming_time_s

_DRY_AFTER_DECAYS = 6.0
"""After this many decay times the clinging water is forgotten (e^-6: under 1 mg)."""
_CEILING_SIGMA2 = 2.0 * 2.5**2
"""A reading above the lowest trusted one by 2.5 sigma of their difference is suspect."""
_NEGATIVE_SIGMA = 4.0
"""A reading this many sigma below 0 g is no weigh-in of ice at all: it is ignored."""
_MAX_STRETCH = 4.0
"""The most an attack may stretch the uncertainty of the cube root (near 0 g it would explode)."""
RANGE_Z = 2.0
"""The countdown's range: this many of its (log-normal) sigmas either side."""
LEARNED_RATIO = 2.0
"""A countdown whose range from h alone spans more than this factor is still learning."""
SURPRISE_WEIGHT = 0.2
"""How much each weigh-in moves a seat's variance factor (about the last five count)."""
SURPRISE_RANGE = (0.75, 16.0)
"""The variance factor stays within these: a seat whose weigh-ins have all agreed closely is
trusted at most a third more than its model says (a few lucky readings prove little), and one
wild weigh-in moves it by at most a fifth of 16."""


def cube_root(grams: float) -> float:
    """The real cube root, negative for a negative number.

    >>> cube_root(-8.0)
    -2.0
    """
    return math.pow(grams, 1 / 3) if grams >= 0.0 else -math.pow(-grams, 1 / 3)


def root_variance(grams: float, sigma_g: float) -> float:
    """The variance, in cube-root units, of ``grams`` +- ``sigma_g``: a quarter of the secant
    over +-2 sigma, so that near 0 g, where the cube root is steep, the 2-sigma bounds still map
    to grams within 2 sigma.

    >>> round(root_variance(6.0, 0.05) ** 0.5, 4)
    0.005
    >>> round(root_variance(0.0, 0.05) ** 0.5, 3)
    0.232
    """
    quarter = (cube_root(grams + 2 * sigma_g) - cube_root(grams - 2 * sigma_g)) / 4.0
    return quarter * quarter


_PHI = NormalDist()


def cube_moments(u: float, sd: float) -> tuple[float, float]:
    """The mean and standard deviation of the grams ``max(U, 0)**3`` for U ~ N(u, sd**2).

    Far from 0 g these are the moments of U**3; near it, of the cube root cut off at 0 (what is
    gone stays gone), from the partial moments of the normal distribution.

    >>> [round(x, 3) for x in cube_moments(2.0, 0.0)]
    [8.0, 0.0]
    >>> [round(x, 4) for x in cube_moments(0.0, 0.1)]
    [0.0008, 0.0026]
    """
    if sd <= 0.0 or u > 6.0 * sd:
        var = 9 * u**4 * sd**2 + 36 * u**2 * sd**4 + 15 * sd**6
        return (u**3 + 3 * u * sd * sd if u > 0.0 else 0.0), math.sqrt(var)
    a = u / sd
    pdf = math.exp(-0.5 * a * a) / math.sqrt(2 * math.pi)
    # partial[j] = E[Z**j; Z > -a] for a standard normal Z
    partial = [_PHI.cdf(a), pdf]
    for j in range(2, 7):
        partial.append((-a) ** (j - 1) * pdf + (j - 1) * partial[j - 2])
    m3 = sum(math.comb(3, j) * u ** (3 - j) * sd**j * partial[j] for j in range(4))
    m6 = sum(math.comb(6, j) * u ** (6 - j) * sd**j * partial[j] for j in range(7))
    return max(m3, 0.0), math.sqrt(max(m6 - m3 * m3, 0.0))


@dataclass(frozen=True)
class Estimate:
    """What the table shows for one seat at one time.

    ``melted`` is the table's proposal that the cube is gone: its median (the cube of ``u``)
    is at or below ``gone_g``. ``eta_s`` is the time until that moment at this air, without
    further attacks: the countdown reaches 0 when the table proposes "melted", and so does
    ``percent``, the share of the cube left above ``gone_g``. ``eta_low_s``..``eta_high_s`` is
    the countdown's range (about 95 %); ``learning`` says the range is still wider than a
    factor of :data:`LEARNED_RATIO` (the first weigh-ins have not taught the table its h).
    """

    grams: float
    sigma_g: float
    percent: float
    eta_s: float | None
    eta_sigma_s: float | None
    melted: bool
    h_w_m2k: float
    h_sigma: float
    eta_low_s: float | None = None
    eta_high_s: float | None = None
    learning: bool = False


@dataclass(frozen=True)
class SeatMelt(Evolving):
    """The frozen state of one seat's estimator; every step returns a new one.

    ``u`` is the cube root of the grams (negative: gone for a while), ``h`` the heat coefficient
    in W/m2K, ``p_uu``, ``p_uh``, ``p_hh`` the covariance of u and ln h (h is learned in
    proportion: a table's h may be 4 or 40). ``pending`` holds a weigh-in held
    back as a possible outlier: (its cube root, the filter's u when it came, its variance);
    ``ceiling_u`` the cube root of the lowest trusted reading (ice does not grow).
    """

    t_s: float
    u: float
    h: float
    p_uu: float
    p_uh: float
    p_hh: float
    start_g: float
    air_c: float | None
    cube_c: float
    warm_since: float | None
    """When a cube set out below 0 C began to warm, until it melts (``None`` after)."""
    salt_t: float | None
    wet_t: float | None
    drying_t: float | None
    pending: tuple[float, float, float] | None
    ceiling_u: float
    config: MeltConfig
    surprise: float = 1.0
    """The seat's variance factor: how far its weigh-ins have strayed from the prediction, in
    units of the spread the filter expected (the mean of the last few squared, normalised
    innovations). A pad noisier than configured, a cube whose h changes as it shrinks, attacks
    harder than their spread: each shows as weigh-ins that surprise the filter, and the shown
    sigma and the countdown's range grow by its root (the a-posteriori variance factor of least
    squares; the gains, and so the estimate itself, stay as they are)."""

    @classmethod
    def start(
        cls,
        t_s: float,
        grams: float,
        config: MeltConfig = DEFAULT_CONFIG,
        start_c: float = 0.0,
    ) -> SeatMelt:
        """A cube of ``grams`` set out at ``t_s`` (at ``start_c``, below 0 C if from a freezer)."""
        if not grams > 0.0 or math.isinf(grams):
            raise ValueError(f"a cube starts with more than 0 g, not {grams}")
        return cls(
            t_s=float(t_s),
            u=cube_root(grams),
            h=config.h_mean,
            p_uu=root_variance(grams, config.weigh_in_sigma_g),
            p_uh=0.0,
            p_hh=(config.h_sigma / config.h_mean) ** 2,
            start_g=float(grams),
            air_c=None,
            cube_c=min(float(start_c), 0.0),
            warm_since=float(t_s) if start_c < 0.0 else None,
            salt_t=None,
            wet_t=None,
            drying_t=None,
            pending=None,
            ceiling_u=cube_root(grams),
            config=config,
        )

    @property
    def grams(self) -> float:
        """The grams the filter believes in now (0 once gone)."""
        return self.u**3 if self.u > 0.0 else 0.0

    def predict(self, t_s: float, air_c: float) -> SeatMelt:
        """Advance to ``t_s`` with the air at ``air_c`` since the last step."""
        dt = t_s - self.t_s
        if dt < 0.0:
            raise ValueError(f"time goes backwards: {t_s} s after {self.t_s} s")
        if dt == 0.0:
            return self if air_c == self.air_c else self.evolve(air_c=air_c)
        cfg = self.config
        h = self.h if self.h > cfg.h_min else cfg.h_min
        melt_from = self.t_s
        cube_c = self.cube_c
        warm_since = self.warm_since
        if cube_c < 0.0:
            grams = self.grams
            warm = warming_time_s(grams, h, air_c, cube_c)
            if warm >= dt:
                cube_c = warmed_c(grams, h, air_c, cube_c, dt)
                melt_from = t_s
            else:
                cube_c = 0.0
                melt_from = self.t_s + warm
        # u falls by g * h * (the time the cube melted, stretched by any salt), h log-normal:
        # by its mean, h e^(p_hh / 2), with its variance, not by the median and a tangent
        # (while h is unknown the tangent understates a fast cube: h = 40 for a prior of 16)
        a = shrink_rate(1.0, air_c) * self._salted_seconds(melt_from, t_s)
        p_hh = self.p_hh
        lift = math.exp(0.5 * p_hh)
        melt = a * h * lift
        b = melt  # the covariance of the melt with ln h over p_hh (Stein's lemma)
        spread = melt * melt * (lift * lift - 1.0)
        if warm_since is not None and cube_c == 0.0:
            # the warming took W / h: had h been larger, the cube would have melted for longer,
            # so u moves with ln h by all the time since it was set out (the heat W is fixed)
            warmed = shrink_rate(1.0, air_c) * h * (melt_from - warm_since)
            spread += (warmed * warmed + 2.0 * warmed * melt) * p_hh
            b += warmed
            warm_since = None
        p_uh = self.p_uh - b * p_hh
        return self.evolve(
            t_s=t_s,
            u=self.u - melt,
            p_uu=self.p_uu - 2.0 * b * self.p_uh + spread + cfg.root_noise_per_s * dt,
            p_uh=p_uh,
            # however long the gap, h is never less known than the prior knew it
            p_hh=min(p_hh + cfg.h_noise_per_s * dt, (cfg.h_sigma / cfg.h_mean) ** 2),
            air_c=air_c,
            cube_c=cube_c,
            warm_since=warm_since,
        )

    def _salted_seconds(self, t0: float, t1: float) -> float:
        """The seconds from t0 to t1, each counted by the salt factor of its moment."""
        span = t1 - t0
        if self.salt_t is None or span <= 0.0:
            return max(span, 0.0)
        fade = self.config.salt_fade_s
        a = min(max(t0 - self.salt_t, 0.0), fade)
        b = min(max(t1 - self.salt_t, 0.0), fade)
        extra = (self.config.salt_factor - 1.0) * ((b - a) - (b * b - a * a) / (2.0 * fade))
        return span + extra

    def _seconds_to_melt(self, t_s: float, need_s: float) -> float:
        """The seconds from ``t_s`` that melt as much as ``need_s`` seconds without salt: fewer
        while a salt fades (the inverse of :meth:`_salted_seconds`, by bisection)."""
        if self.salt_t is None or need_s <= 0.0 or t_s >= self.salt_t + self.config.salt_fade_s:
            return max(need_s, 0.0)
        low, high = need_s / self.config.salt_factor, need_s
        for _ in range(40):
            mid = 0.5 * (low + high)
            if self._salted_seconds(t_s, t_s + mid) < need_s:
                low = mid
            else:
                high = mid
        return high

    def _at(self, t_s: float) -> SeatMelt:
        """This state advanced to ``t_s`` with the last air temperature it was given."""
        if t_s < self.t_s:
            raise ValueError(f"time goes backwards: {t_s} s after {self.t_s} s")
        if t_s == self.t_s or self.air_c is None:
            return self if t_s == self.t_s else self.evolve(t_s=t_s)
        return self.predict(t_s, self.air_c)

    def lost_track(self) -> SeatMelt:
        """The table was off for a time nobody knows (no real-time clock, no network): the cube
        may have melted by anything up to all of it, so its uncertainty grows to cover that,
        and the next weigh-in settles it.

        >>> before = SeatMelt.start(0.0, 6.0)
        >>> after = before.lost_track()
        >>> after.estimate(0.0, 21.0).sigma_g > 1.0 > before.estimate(0.0, 21.0).sigma_g
        True
        """
        half = self.u / 2 if self.u > 0.0 else 0.0
        return self.evolve(p_uu=max(self.p_uu, half * half))

    def weigh_in(self, t_s: float, grams: float) -> SeatMelt:
        """Correct the estimate with a settled reading of the pad, in grams."""
        s = self._at(t_s)
        cfg = s.config
        sigma = cfg.weigh_in_sigma_g
        z = grams
        wet_t, drying_t = s.wet_t, s.drying_t
        if wet_t is not None:
            # the water stays in the cap until the cube is first lifted to be weighed; from
            # then on it drips and dries, at a pace known only roughly (tau / k to k tau)
            if drying_t is None:
                drying_t = t_s
            tau, k = cfg.cling_decay_s, cfg.cling_pace
            age = t_s - drying_t
            left = math.exp(-age / tau)
            z -= cfg.cling_g * left
            pace = 0.5 * cfg.cling_g * (math.exp(-age / (k * tau)) - math.exp(-k * age / tau))
            cling = cfg.cling_sigma_g * left
            sigma = math.sqrt(sigma * sigma + cling * cling + pace * pace)
            if age > _DRY_AFTER_DECAYS * tau:
                wet_t = drying_t = None
        if z < -_NEGATIVE_SIGMA * sigma:
            # less than nothing: a pad out of tare, not ice; the status page reports the pad
            return s.evolve(wet_t=wet_t, drying_t=drying_t)
        z_u = cube_root(z)
        r = root_variance(z, sigma)
        y = z_u - s.u
        p_uu = s.p_uu
        innovation = p_uu + r
        limit = cfg.outlier_sigma * cfg.outlier_sigma
        # ice does not grow: more than the last trusted reading is suspect too
        above = z_u - s.ceiling_u
        if y * y > limit * innovation or (above > 0.0 and above * above > _CEILING_SIGMA2 * r):
            pend = s.pending
            if pend is not None:
                # a second reading far from the model: does it agree with the first one, whose
                # level has melted since by about what the model melted (give or take half)?
                drop = pend[1] - s.u
                d = z_u - (pend[0] - drop)
                tolerance = r + pend[2] + 0.25 * drop * drop + 1e-4
                if d * d <= limit * tolerance and d * d / tolerance < y * y / innovation:
                    # a real step (a cube that broke): start again from the reading, and learn
                    # h afresh, since the step says the model was not what happened
                    return s.evolve(
                        u=z_u,
                        p_uu=r + 1e-5,
                        p_uh=0.0,
                        p_hh=max(s.p_hh, (cfg.h_sigma / cfg.h_mean) ** 2),
                        pending=None,
                        wet_t=wet_t,
                        drying_t=drying_t,
                        ceiling_u=z_u,
                    )
            return s.evolve(pending=(z_u, s.u, r), wet_t=wet_t, drying_t=drying_t)
        k_u = p_uu / innovation
        k_h = s.p_uh / innovation
        h = s.h * math.exp(max(min(k_h * y, 2.0), -2.0))
        low, high = SURPRISE_RANGE
        surprise = s.surprise + SURPRISE_WEIGHT * (min(y * y / innovation, high) - s.surprise)
        return s.evolve(
            surprise=min(max(surprise, low), high),
            u=s.u + k_u * y,
            h=h if h > cfg.h_min else cfg.h_min,
            p_uu=p_uu - k_u * p_uu,
            p_uh=s.p_uh - k_u * s.p_uh,
            p_hh=s.p_hh - k_h * s.p_uh,
            pending=None,
            wet_t=wet_t,
            drying_t=drying_t,
            ceiling_u=z_u if z_u < s.ceiling_u else s.ceiling_u,
        )

    def attack(self, t_s: float, kind: str) -> SeatMelt:
        """An attack at ``t_s`` (ValueError for an unknown kind)."""
        melt = self.config.attack(kind)
        s = self._at(t_s)
        changes: dict[str, object] = {}
        if melt.salt:
            changes["salt_t"] = t_s
        if melt.wet:
            changes["wet_t"] = t_s
            changes["drying_t"] = None
        if melt.mean_g or melt.spread_g:
            grams = s.u**3
            left = grams - melt.mean_g
            u = cube_root(left) if left > 0.0 else 0.0
            # how the attack stretches the uncertainty of the cube root: the secant of
            # u -> cbrt(u**3 - mean) over +-2 sigma (its slope at u explodes near 0 g)
            sd = math.sqrt(max(s.p_uu, 0.0))
            if sd > 0.0:
                hi = cube_root((s.u + 2 * sd) ** 3 - melt.mean_g)
                lo = cube_root((s.u - 2 * sd) ** 3 - melt.mean_g)
                stretch = min((hi - lo) / (4 * sd), _MAX_STRETCH)
            else:
                stretch = 1.0
            changes.update(
                u=u if s.u > 0.0 else s.u,
                p_uu=stretch * stretch * s.p_uu + root_variance(left, melt.spread_g),
                p_uh=stretch * s.p_uh,
            )
        return s.evolve(**changes) if changes else s

    def estimate(self, t_s: float, air_c: float) -> Estimate:
        """What the table shows at ``t_s`` with the air at ``air_c`` (the state does not change)."""
        s = self.predict(t_s, air_c) if t_s > self.t_s else self
        cfg = s.config
        u = s.u
        scale = math.sqrt(s.surprise)
        sd = scale * math.sqrt(max(s.p_uu, 0.0))
        up = u if u > 0.0 else 0.0
        grams, sigma_g = cube_moments(u, sd)
        # a wide spread lifts the mean of the cube: never above the lowest trusted reading
        # (ice does not grow) by more than the pad's noise, so a table that lost track does
        # not show a cube larger than the one it weighed
        weighed = s.ceiling_u**3 if s.ceiling_u > 0.0 else 0.0
        most = weighed + 2.0 * cfg.weigh_in_sigma_g
        grams = min(grams, most)
        sigma_g = min(sigma_g, most / 2.0)  # what lies in [0, most] spreads at most this far
        h = s.h if s.h > cfg.h_min else cfg.h_min
        rate = shrink_rate(h * math.exp(0.5 * s.p_hh), air_c)  # as predict melts it
        gone_u = cube_root(cfg.gone_g)
        above = u - gone_u  # the cube root still to melt before the table calls it gone
        melted = above <= 0.0
        eta: float | None = None
        eta_sigma: float | None = None
        h_share = 1.0
        if melted:
            eta, eta_sigma = 0.0, 0.0
        elif rate > 0.0:
            warm = warming_time_s(grams, h, air_c, s.cube_c)
            eta = s._seconds_to_melt(t_s + warm, above / rate) + warm
            d_u = 1.0 / rate
            d_h = -above / rate  # by ln h
            of_h = d_h * d_h * s.p_hh
            var = max(d_u * d_u * s.p_uu + 2 * d_u * d_h * s.p_uh, 0.0) + of_h
            eta_sigma = scale * math.sqrt(var)
            h_share = of_h / var if var > 0.0 else 1.0
            if not math.isfinite(eta + eta_sigma):  # air a hair above 0 C: never, as at 0 C
                eta, eta_sigma = None, None
        low, high = _range(eta, eta_sigma, h_share)
        # still learning while h alone leaves the countdown's range wider than the ratio: near
        # the end the grams' doubt widens the range too, but the table knows its cube by then
        h_spread = math.exp(2.0 * RANGE_Z * scale * math.sqrt(max(s.p_hh, 0.0)))
        learning = not melted and eta is not None and h_spread > LEARNED_RATIO
        share = 100.0 * (up**3 - cfg.gone_g) / (s.start_g - cfg.gone_g) if not melted else 0.0
        return Estimate(
            grams=grams,
            sigma_g=sigma_g,
            percent=min(max(share, 0.0), 100.0),
            eta_s=eta,
            eta_sigma_s=eta_sigma,
            melted=melted,
            h_w_m2k=h,
            h_sigma=h * scale * math.sqrt(max(s.p_hh, 0.0)),
            eta_low_s=low,
            eta_high_s=high,
            learning=learning,
        )


def _range(
    eta: float | None, sigma: float | None, h_share: float = 1.0
) -> tuple[float | None, float | None]:
    """The countdown's range, blended by ``h_share``, the share of its variance that is h's:
    log-normal for that share, since h divides the countdown (a slow cube's doubt lies on the
    late side), and normal, cut at 0, for the grams' share, which the countdown follows in
    proportion (near the end the grams' doubt is most of it, and a log-normal range would run
    far past what the heaviest cube of the band would take).

    >>> [round(x) for x in _range(3600.0, 360.0)]
    [2949, 4395]
    >>> [round(x) for x in _range(60.0, 120.0, h_share=0.0)]
    [0, 300]
    """
    if eta is None or sigma is None:
        return None, None
    if eta <= 0.0:
        return 0.0, 0.0
    spread = math.sqrt(math.log1p((sigma / eta) ** 2))
    w = min(max(h_share, 0.0), 1.0)
    low = w * eta * math.exp(-RANGE_Z * spread) + (1.0 - w) * max(eta - RANGE_Z * sigma, 0.0)
    high = w * eta * math.exp(RANGE_Z * spread) + (1.0 - w) * (eta + RANGE_Z * sigma)
    return low, high
