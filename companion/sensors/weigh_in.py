"""Weigh-in detection on one pad: a pure state machine over (time, grams) samples.

A weigh-in is a cap set down on the pad whose reading then settles. The detector goes from an
empty pad, through a step up, to settling, and reports the settled weight once; lifting the cap
empties the pad again. A knock (a load that is gone before it could be a placement) is ignored,
and a load that never settles is reported, so the page can say "hold the cap still". The
pipeline (:mod:`.pipeline`) runs one detector per calibrated pad and tells a settled load as
grams of ice, :class:`Weighed`, or as no cap at all, :class:`NotACap`.

>>> pad = WeighIn()
>>> events = [e for t in range(40) for e in pad.push(t / 10, 0.0 if t < 5 or t > 30 else 9.2)]
>>> [type(e).__name__ for e in events]
['Placed', 'Settled', 'Removed']
>>> events[1].grams
9.2
"""

from __future__ import annotations

import math
import statistics
from collections import deque
from dataclasses import dataclass
from enum import Enum


@dataclass(frozen=True)
class Placed:
    """Something has stood on the pad long enough not to be a knock."""

    t: float


@dataclass(frozen=True)
class Settled:
    """The weigh-in: the load has held still for the settle time; ``grams`` is its mean."""

    t: float
    grams: float
    spread_g: float


@dataclass(frozen=True)
class Unsettled:
    """The load has not held still for ``timeout_s``: reported once per placement."""

    t: float
    spread_g: float


@dataclass(frozen=True)
class Removed:
    """The pad is empty again after a placement."""

    t: float


Event = Placed | Settled | Unsettled | Removed
"""What the detector tells of the grams on a pad."""


@dataclass(frozen=True)
class Weighed:
    """A settled load that is its seat's cap: the weigh-in, ``ice_g`` the cap taken off."""

    t: float
    ice_g: float


@dataclass(frozen=True)
class NotACap:
    """A settled load lighter than its seat's empty cap (an empty pad whose zero moved, an
    elbow): no cube is weighed in."""

    t: float
    grams: float


PadEvent = Placed | Unsettled | Weighed | NotACap | Removed
"""What the pipeline tells of a calibrated pad: its detector's events, a settled load in ice."""


class _Phase(Enum):
    EMPTY = "empty"
    STEP = "step"
    SETTLING = "settling"
    SETTLED = "settled"


class WeighIn:
    """Detects placements and weigh-ins on one pad; feed it every filtered sample in order.

    ``threshold_g``: above it the pad is loaded (the lightest cap weighs more). ``knock_s``: a
    load shorter than this is a knock, and so is a dip of a placed load. ``settle_s`` and
    ``tolerance_g``: the weigh-in is the mean of a window this long whose values all lie within
    the tolerance of each other. ``timeout_s``: how long a load may wobble before it is reported
    as unsettled.
    """

    def __init__(
        self,
        threshold_g: float = 1.0,
        knock_s: float = 0.4,
        settle_s: float = 1.5,
        tolerance_g: float = 0.08,
        timeout_s: float = 10.0,
    ) -> None:
        self.threshold_g = threshold_g
        self.knock_s = knock_s
        self.settle_s = settle_s
        self.tolerance_g = tolerance_g
        self.timeout_s = timeout_s
        self._phase = _Phase.EMPTY
        self._since = 0.0
        self._window: deque[tuple[float, float]] = deque()
        self._warned = False
        self._below_since: float | None = None

    @property
    def loaded(self) -> bool:
        """Whether a placement is in progress or settled (a knock does not count)."""
        return self._phase in (_Phase.SETTLING, _Phase.SETTLED)

    def push(self, t: float, grams: float) -> list[Event]:
        """Take one sample; return what it completes (usually nothing)."""
        if math.isnan(grams):
            return []
        if grams < self.threshold_g:
            return self._empty(t)
        self._below_since = None
        if self._phase is _Phase.EMPTY:
            self._phase, self._since, self._warned = _Phase.STEP, t, False
            self._window.clear()
        self._window.append((t, grams))
        while self._window and self._window[0][0] < t - self.settle_s:
            self._window.popleft()
        events: list[Event] = []
        if self._phase is _Phase.STEP and t - self._since >= self.knock_s:
            self._phase = _Phase.SETTLING
            events.append(Placed(self._since))
        if self._phase is _Phase.SETTLING:
            events.extend(self._settling(t))
        return events

    def _settling(self, t: float) -> list[Event]:
        values = [g for _, g in self._window]
        spread = max(values) - min(values)
        covered = t - self._window[0][0] >= self.settle_s * 0.9
        if covered and spread <= self.tolerance_g:
            self._phase = _Phase.SETTLED
            return [Settled(t, round(statistics.fmean(values), 3), round(spread, 3))]
        if not self._warned and t - self._since >= self.timeout_s:
            self._warned = True
            return [Unsettled(t, round(spread, 3))]
        return []

    def _empty(self, t: float) -> list[Event]:
        """A sample below the threshold: a knock ends at once, a placement after ``knock_s``."""
        if not self.loaded:
            self._phase = _Phase.EMPTY
            return []
        if self._below_since is None:
            self._below_since = t
        if t - self._below_since < self.knock_s:
            return []
        self._phase, self._below_since = _Phase.EMPTY, None
        self._window.clear()
        return [Removed(t)]
