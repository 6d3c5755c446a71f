"""Filters that turn a stream of raw values into the values worth keeping: small, pure, composable.

The names and parameters are ESPHome's, so a maker who has written an ESPHome sensor reads a
table's config at once. Each filter takes one value and gives back a value, or ``None`` when it
has nothing to pass on yet (a median waiting for its window, a rejected outlier, ``send_every``).

>>> chain = build_chain([("median", {"window_size": 3, "send_every": 1}),
...                      ("offset", {"value": -100.0})])
>>> [chain(v) for v in (100.0, 900.0, 102.0, 101.0)]
[0.0, 400.0, 2.0, 2.0]
"""

from __future__ import annotations

import math
import statistics
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

Filter = Callable[[float], float | None]
"""One step: a value in, a value out or ``None`` (nothing to pass on now)."""


class _Every:
    """ESPHome's ``send_every`` / ``send_first_at``: pass on every n-th result, the first early."""

    def __init__(self, send_every: int, send_first_at: int) -> None:
        if send_every < 1 or not 1 <= send_first_at <= send_every:
            raise ValueError("send_every must be at least 1 and send_first_at from 1 to send_every")
        self._every = send_every
        self._count = send_every - send_first_at

    def due(self) -> bool:
        self._count += 1
        if self._count >= self._every:
            self._count = 0
            return True
        return False


class _Windowed:
    """A statistic of the last ``window_size`` numbers (NaN is skipped), sent as ``_Every`` says."""

    def __init__(self, window_size: int, send_every: int, send_first_at: int) -> None:
        if window_size < 1:
            raise ValueError("window_size must be at least 1")
        self._values: deque[float] = deque(maxlen=window_size)
        self._every = _Every(send_every, send_first_at)

    def statistic(self, values: Sequence[float]) -> float:
        raise NotImplementedError

    def __call__(self, value: float) -> float | None:
        if not math.isnan(value):
            self._values.append(value)
        if not self._every.due() or not self._values:
            return None
        return self.statistic(self._values)


class Median(_Windowed):
    """The median of the last ``window_size`` values: removes spikes, keeps steps."""

    def __init__(self, window_size: int = 5, send_every: int = 5, send_first_at: int = 1) -> None:
        super().__init__(window_size, send_every, send_first_at)

    def statistic(self, values: Sequence[float]) -> float:
        return float(statistics.median(values))


class SlidingWindowMovingAverage(_Windowed):
    """The mean of the last ``window_size`` values: smooths noise, lags a step by half a window."""

    def __init__(self, window_size: int = 15, send_every: int = 15, send_first_at: int = 1) -> None:
        super().__init__(window_size, send_every, send_first_at)

    def statistic(self, values: Sequence[float]) -> float:
        return math.fsum(values) / len(values)


class ExponentialMovingAverage:
    """``alpha * value + (1 - alpha) * previous``; the first value starts it."""

    def __init__(self, alpha: float = 0.1, send_every: int = 15, send_first_at: int = 1) -> None:
        if not 0.0 < alpha <= 1.0:
            raise ValueError("alpha must be above 0 and at most 1")
        self._alpha = alpha
        self._average: float | None = None
        self._every = _Every(send_every, send_first_at)

    def __call__(self, value: float) -> float | None:
        if not math.isnan(value):
            last = self._average
            self._average = value if last is None else last + self._alpha * (value - last)
        if not self._every.due():
            return None
        return self._average


class RejectOutliers:
    """Drop a value more than ``max_deviations`` robust deviations from the window's median.

    A Hampel filter: the deviation is 1.4826 x the median absolute deviation, which equals the
    standard deviation for Gaussian noise. Every value enters the window, so a real step (a cap
    set on the pad) passes once it holds half the window, while a knock or a glitch never does.

    >>> reject = RejectOutliers(window_size=5, max_deviations=3.0)
    >>> [reject(v) for v in (10.0, 10.2, 9.9, 10.1, 55.0, 10.0)]
    [10.0, 10.2, 9.9, 10.1, None, 10.0]
    """

    def __init__(self, window_size: int = 9, max_deviations: float = 3.0) -> None:
        if max_deviations <= 0.0:
            raise ValueError("max_deviations must be above 0")
        if window_size < 1:
            raise ValueError("window_size must be at least 1")
        self._values: deque[float] = deque(maxlen=window_size)
        self._limit = max_deviations

    def __call__(self, value: float) -> float | None:
        if math.isnan(value):
            return None
        self._values.append(value)
        values = self._values
        if len(values) < 3:
            return value
        middle = statistics.median(values)
        spread = 1.4826 * statistics.median(abs(v - middle) for v in values)
        return value if abs(value - middle) <= self._limit * spread else None


@dataclass(frozen=True)
class Line:
    """``y = slope * x + intercept``, with the residuals of the points it was fitted to."""

    slope: float
    intercept: float
    residuals: tuple[float, ...] = ()

    def __call__(self, value: float) -> float:
        return self.slope * value + self.intercept

    def inverse(self, y: float) -> float:
        return (y - self.intercept) / self.slope


def calibrate_linear(datapoints: Iterable[Sequence[float]]) -> Line:
    """The least-squares line through ``(from, to)`` pairs, as ESPHome's ``calibrate_linear``.

    One point gives a line through the origin and that point (a tared scale); two or more give
    the best fit and its residuals (``to`` minus the line's value, point by point).

    >>> line = calibrate_linear([(0, 0.0), (1000, 2.0), (2000, 4.1)])
    >>> round(line.slope, 5), round(line.intercept, 3)
    (0.00205, -0.017)
    >>> round(calibrate_linear([(500, 1.0)])(1000), 6)
    2.0
    """
    points = [(float(x), float(y)) for x, y in datapoints]
    if not points:
        raise ValueError("calibrate_linear needs at least one point")
    if len(points) == 1:
        x, y = points[0]
        if x == 0.0:
            raise ValueError("a single calibration point must not be at 0")
        return Line(y / x, 0.0, (0.0,))
    n = len(points)
    mean_x = math.fsum(x for x, _ in points) / n
    mean_y = math.fsum(y for _, y in points) / n
    sxx = math.fsum((x - mean_x) ** 2 for x, _ in points)
    if sxx == 0.0:
        raise ValueError("calibration points must not all have the same input value")
    slope = math.fsum((x - mean_x) * (y - mean_y) for x, y in points) / sxx
    intercept = mean_y - slope * mean_x
    return Line(slope, intercept, tuple(y - (slope * x + intercept) for x, y in points))


def _offset(value: float) -> Filter:
    return lambda x: x + value


def _multiply(value: float) -> Filter:
    return lambda x: x * value


def _clamp(min_value: float = -math.inf, max_value: float = math.inf) -> Filter:
    return lambda x: min(max(x, min_value), max_value)


def _linear(datapoints: Sequence[Sequence[float]]) -> Filter:
    return calibrate_linear(datapoints)


@dataclass(frozen=True)
class FilterKind:
    """A filter as a config names it: what makes it, the parameters it takes (by type), the one
    it cannot go without, and ESPHome's default ``send_every`` where it has one."""

    make: Callable[..., Filter]
    parameters: Mapping[str, type]
    required: str | None = None
    send_every: int | None = None


_WINDOW = {"window_size": int, "send_every": int, "send_first_at": int}
FILTERS: dict[str, FilterKind] = {
    "median": FilterKind(Median, _WINDOW, send_every=5),
    "sliding_window_moving_average": FilterKind(SlidingWindowMovingAverage, _WINDOW, send_every=15),
    "exponential_moving_average": FilterKind(
        ExponentialMovingAverage,
        {"alpha": float, "send_every": int, "send_first_at": int},
        None,
        15,
    ),
    "reject_outliers": FilterKind(RejectOutliers, {"window_size": int, "max_deviations": float}),
    "offset": FilterKind(_offset, {"value": float}, "value"),
    "multiply": FilterKind(_multiply, {"value": float}, "value"),
    "clamp": FilterKind(_clamp, {"min_value": float, "max_value": float}),
    "calibrate_linear": FilterKind(_linear, {"datapoints": list}, "datapoints"),
}
"""Every filter a config may name, by its ESPHome name, registered once: the config checks a
chain by it (:mod:`companion.config`), and :func:`build_chain` makes one from it."""


class Chain:
    """Filters applied in order; a ``None`` anywhere ends that value's way."""

    def __init__(self, filters: Sequence[Filter]) -> None:
        self._filters = tuple(filters)

    def __call__(self, value: float) -> float | None:
        result = value
        for step in self._filters:
            stepped = step(result)
            if stepped is None:
                return None
            result = stepped
        return result


def build_chain(specs: Iterable[Any]) -> Chain:
    """A fresh chain from ``(name, params)`` pairs or objects with ``name`` and ``params``.

    The config has already checked names and parameters, so a bad one here is a bug: it raises
    ``ValueError``.
    """
    steps = []
    for spec in specs:
        name, params = (spec.name, spec.params) if hasattr(spec, "name") else spec
        if name not in FILTERS:
            raise ValueError(f"unknown filter {name!r}")
        steps.append(FILTERS[name].make(**dict(params)))
    return Chain(steps)
