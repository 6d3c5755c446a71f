"""Each seat's melt curve since the game started: the estimate's grams, now and then.

The table page draws a small curve per seat from it. The service feeds every estimate it makes
(several a second); a seat keeps a point every ``interval_s`` table seconds at most, and never
more than ``capacity`` points: when full, every other point goes and the interval doubles, so a
long game still fits and its points stay evenly spread. Pure: the time is passed in.

>>> curves = Curves([1, 2], t=100.0, wall=1_700_000_000.0, interval_s=20.0, capacity=4)
>>> for t in range(100, 260, 5):
...     curves.record(1, float(t), grams=6.0 - (t - 100) / 100, sigma_g=0.2)
>>> [p[0] for p in curves.to_json()["seats"][0]["points"]]
[0.0, 40.0, 80.0, 120.0]
>>> curves.to_json()["seats"][1]
{'seat': 2, 'points': []}
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

INTERVAL_S = 20.0
"""The closest two points of a curve may be, in table seconds (until the curve is thinned)."""
CAPACITY = 360
"""The most points a seat's curve keeps: two hours at the first interval."""

Point = tuple[float, float, float]
"""``(t_s, grams, sigma_g)``: table seconds since the start, the estimate and its uncertainty."""


class _Curve:
    """One seat's points and the interval they are kept at."""

    def __init__(self, interval_s: float) -> None:
        self.interval_s = interval_s
        self.points: list[Point] = []

    def record(self, point: Point, capacity: int) -> None:
        if self.points and point[0] < self.points[-1][0] + self.interval_s:
            return
        if len(self.points) >= capacity:
            self.points = self.points[::2]
            self.interval_s *= 2
            if point[0] < self.points[-1][0] + self.interval_s:
                return
        self.points.append(point)


class Curves:
    """Every seat's melt curve since ``t`` (table seconds), which was ``wall`` (Unix seconds)."""

    def __init__(
        self,
        seats: Iterable[int],
        t: float,
        wall: float,
        *,
        interval_s: float = INTERVAL_S,
        capacity: int = CAPACITY,
    ) -> None:
        if not interval_s > 0 or capacity < 2:
            raise ValueError("a curve needs a positive interval and room for two points")
        self.seats = tuple(sorted(seats))
        self.interval_s = interval_s
        self.capacity = capacity
        self.reset(t, wall)

    def reset(self, t: float, wall: float) -> None:
        """Start every curve afresh at ``t``: a game starts."""
        self.origin_t = t
        self.origin_wall = wall
        self._curves = {seat: _Curve(self.interval_s) for seat in self.seats}

    def record(self, seat: int, t: float, grams: float, sigma_g: float) -> None:
        """Take the seat's estimate at ``t``; kept only when the curve is due a point."""
        curve = self._curves.get(seat)
        if curve is not None and t >= self.origin_t:
            point = (round(t - self.origin_t, 1), round(grams, 2), round(sigma_g, 2))
            curve.record(point, self.capacity)

    def points(self, seat: int) -> list[Point]:
        """A seat's points, oldest first."""
        return list(self._curves[seat].points)

    def interval(self, seat: int) -> float:
        """The seat's interval now: ``interval_s``, doubled each time its curve was thinned."""
        return self._curves[seat].interval_s

    def to_json(self) -> dict[str, Any]:
        """``{"start": wall time of t_s = 0, "seats": [{"seat", "points": [[t_s, g, sigma]]}]}``."""
        return {
            "start": round(self.origin_wall, 3),
            "seats": [
                {"seat": seat, "points": [list(p) for p in curve.points]}
                for seat, curve in self._curves.items()
            ],
        }
