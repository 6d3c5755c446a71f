"""Zero tracking: follow an empty pad's slow drift, as a kitchen scale does, and nothing else.

A pad's zero wanders, creeps and moves with its temperature (:mod:`.pad_drift`); left alone,
the drift would be weighed in as ice. A scale's zero-tracking device (OIML R76, 4.5.7)
corrects the zero only while the scale shows zero: the indication is within a small band of it,
the equilibrium is stable, and the correction is slow. Its zero-setting devices (4.5.1, within
4 % of the capacity) set the zero at once: at power-on, as HX711 libraries tare at start
(HX711_ADC's ``start()``), and automatically when the load receptor is empty again. So here:

- at start, and after every new calibration, the first time the pad is empty and still the zero
  is set to what it reads, if that lies within :data:`RANGE_G` of the tare;
- after a load (more than :data:`LOAD_G` for :data:`LOAD_S`: a cap, never a knock) has left the
  pad, the first time it is empty and still the zero is set again, if it moved no more than
  :data:`RESET_G`: while a cold cap stood on the pad its zero moved where nothing could watch
  it, and a player may leave the cap there for minutes. More than that is something left on
  the pad, not drift, and is shown, not hidden;
- otherwise a sample counts only within :data:`CAPTURE_G` of the tracked zero, so anything set
  down (an empty cap weighs 2.5 g or more), a weigh-in, a knock or a jump is never tracked;
- the zero moves only once the pad has been empty and still for :data:`WINDOW_S` (every sample
  within :data:`STILL_G` of each other), and not until :data:`HOLD_OFF_S` after the last load
  or knock left it (a lifted cap leaves the bar ringing);
- it moves at most :data:`RATE_G_PER_S` towards the window's mean, and never further than
  :data:`RANGE_G` from the tare: a pad that moved more needs its tare taken again
  (``companion calibrate``).

Calibration's tare stays the reference: :attr:`ZeroTracking.zero_g` is the tracked zero in grams
from it, shown by ``companion sensors`` and the status.

>>> pad = ZeroTracking()
>>> grams = [pad.push(t / 10, 0.12) for t in range(100)]
>>> round(pad.zero_g, 3), round(grams[-1], 3)
(0.12, 0.0)
>>> round(pad.push(10.0, 3.12), 2), round(pad.zero_g, 3)
(3.0, 0.12)
>>> grams = [pad.push(t / 10, 0.42) for t in range(101, 1000)]
>>> round(pad.zero_g, 3), round(grams[-1], 3)
(0.12, 0.3)
"""

from __future__ import annotations

import math
from collections import deque

CAPTURE_G = 0.1
"""How far from the tracked zero a sample may lie and still be an empty pad: ten times the drift
between two chances to track, and well above the filtered noise."""
STILL_G = 0.06
"""The most an empty, still pad's filtered samples spread over the window."""
WINDOW_S = 4.0
HOLD_OFF_S = 5.0
GAP_S = 1.0
"""A longer gap between samples (a fault, a pause), or a step back, starts the window again."""
RATE_G_PER_S = 0.005
"""OIML R76 lets zero tracking correct 0.5 e a second; with e = 0.01 g, 18 g an hour: far faster
than any drift, far slower than anything set down."""
RANGE_G = 1.0
LOAD_G = 1.0
"""Above this a pad holds something (the weigh-in detector's threshold)."""
LOAD_S = 1.0
RESET_G = 0.5


class ZeroTracking:
    """One pad's tracked zero: ``push`` each calibrated sample, get it back less the zero."""

    def __init__(self) -> None:
        self.zero_g = 0.0
        self.set = False
        """Whether the initial zero-setting has happened."""
        self._unloaded = False
        """A load has left the pad since the zero was last set."""
        self._loaded_from: float | None = None
        self._window: deque[tuple[float, float]] = deque()
        self._quiet_from = -math.inf
        self._last_t: float | None = None

    def push(self, t: float, grams: float) -> float:
        """Take a sample (grams from the tare) at ``t``; return it less the tracked zero."""
        net = grams - self.zero_g
        if self._last_t is not None and not 0.0 <= t - self._last_t <= GAP_S:
            self._window.clear()
        dt = 0.0 if self._last_t is None else max(t - self._last_t, 0.0)
        self._last_t = t
        if abs(net) > LOAD_G:
            if self._loaded_from is None:
                self._loaded_from = t
            self._unloaded |= t - self._loaded_from >= LOAD_S
        else:
            self._loaded_from = None
        if abs(net) > self._band():
            self._window.clear()
            self._quiet_from = t + HOLD_OFF_S
            return net
        if t < self._quiet_from:
            return net
        self._window.append((t, grams))
        while self._window[0][0] < t - WINDOW_S:
            self._window.popleft()
        values = [g for _, g in self._window]
        if t - self._window[0][0] < WINDOW_S * 0.9 or max(values) - min(values) > STILL_G:
            return net
        mean = math.fsum(values) / len(values)
        if self.set and not self._unloaded:
            step = min(max(mean - self.zero_g, -RATE_G_PER_S * dt), RATE_G_PER_S * dt)
            self.zero_g = min(max(self.zero_g + step, -RANGE_G), RANGE_G)
        elif abs(mean) <= RANGE_G:
            self.zero_g, self.set, self._unloaded = mean, True, False
        return grams - self.zero_g

    def _band(self) -> float:
        """How far from the zero a sample may lie and count as the empty pad now."""
        if not self.set:
            return RANGE_G
        return RESET_G if self._unloaded else CAPTURE_G
