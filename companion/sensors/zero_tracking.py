"""Zero tracking: follow an empty pad's slow drift, as a kitchen scale does, and nothing else.

A pad's zero wanders, creeps and moves with its temperature (:mod:`.pad_drift`); left alone,
the drift would be weighed in as ice. A scale's zero-tracking device (OIML R76, 4.5.7) corrects
the zero only while the scale shows zero: the equilibrium is stable, and the correction slow.
Its zero-setting devices (4.5.1) set the zero at once: at power-on, as HX711 libraries tare at
start (HX711_ADC's ``start()``), and automatically when the load receptor is empty again. So:

- at start, and after every new calibration, the first time the pad is empty and still its zero
  is set to what it reads, if that lies within :data:`RANGE_G` of the tare;
- the zero follows only while the pad is empty and still: :data:`WINDOW_S` of samples within
  :data:`STILL_G` of each other, the first :data:`HOLD_OFF_S` after the last load or knock left
  the pad passed over (a lifted cap leaves the bar ringing);
- it follows at most :data:`RATE_G_PER_S`, and only samples within :data:`CAPTURE_G` above it:
  anything set down (an empty cap weighs 2.5 g or more), a weigh-in, a knock, or a jump up that
  stays (something left on the pad) is not drift, and is shown, not hidden;
- it is set at once to what the pad reads when the pad is empty and still again after a load
  (more than :data:`LOAD_G` for :data:`LOAD_S`: a cap, never a knock) has left it, or when it
  reads less than its zero (what lay on it was taken off, melt water wiped away): while a cold
  cap stood on the pad its zero moved where nothing could watch, and what a lifted cap left on
  the pad (a drop of melt water) is no part of the next cap's weigh-in;
- it never goes further than :data:`RANGE_G` from the tare: an empty, still pad that reads
  further (up to :data:`FAR_G`: more is a load) is :attr:`ZeroTracking.beyond` it, a fault for
  its seat until it comes back: something lies on it, or its tare must be taken again
  (``companion calibrate``).

The values are this table's, in grams (an OIML scale's are in its interval e; here e is the
0.01 g the pages show). Calibration's tare stays the reference: :attr:`ZeroTracking.zero_g` is
the tracked zero in grams from it, ``None`` until it is first set, shown by ``companion
sensors`` and the status.

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
"""How far above the tracked zero a sample may lie and still be an empty pad: ten times the
drift between two chances to track, and well above the filtered noise."""
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
"""The furthest the zero goes from the tare (OIML R76 allows 4 % of the capacity: 4 g on the
kit's smallest pad)."""
FAR_G = 2.0
"""Further from the tare than this, a still pad holds a load (the lightest cap weighs 2.5 g)."""
LOAD_G = 1.0
"""Above this a pad holds something (the weigh-in detector's threshold)."""
LOAD_S = 1.0


def beyond_range(seat: int | None, grams: float) -> str:
    """What a pad whose empty reading left the range says, and the fix.

    >>> what, fix = beyond_range(2, 1.234).split(": ")
    >>> what
    'the empty pad reads +1.23 g from its tare, past the 1 g its zero may follow'
    >>> fix
    'clear the pad, or take its tare again (companion calibrate tare --seat 2)'
    """
    which = "--all" if seat is None else f"--seat {seat}"
    return (
        f"the empty pad reads {grams:+.2f} g from its tare, past the {RANGE_G:g} g its zero may "
        f"follow: clear the pad, or take its tare again (companion calibrate tare {which})"
    )


class ZeroTracking:
    """One pad's tracked zero: ``push`` each calibrated sample, get it back less the zero."""

    def __init__(self) -> None:
        self._zero = 0.0
        self.set = False
        """Whether the zero has been set since the start (or the calibration)."""
        self.beyond: float | None = None
        """What the empty, still pad reads from its tare when that is past :data:`RANGE_G`."""
        self._unloaded = False
        """A load has left the pad since the zero was last set."""
        self._loaded_from: float | None = None
        self._window: deque[tuple[float, float]] = deque()
        self._quiet_from = -math.inf
        self._last_t: float | None = None

    @property
    def zero_g(self) -> float | None:
        """The tracked zero in grams from the tare; ``None`` until it is first set."""
        return self._zero if self.set else None

    def push(self, t: float, grams: float) -> float:
        """Take a sample (grams from the tare) at ``t``; return it less the tracked zero."""
        net = grams - self._zero
        if self._last_t is not None and not 0.0 <= t - self._last_t <= GAP_S:
            self._window.clear()
        dt = 0.0 if self._last_t is None else max(t - self._last_t, 0.0)
        self._last_t = t
        self._note_load(t, net)
        low, high = self._band()
        if not low <= net <= high:
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
        self._follow(math.fsum(values) / len(values), dt)
        return grams - self._zero

    def _note_load(self, t: float, net: float) -> None:
        """Note a load (not a knock): once one stood on the pad, its next still, empty reading
        sets the zero."""
        if net <= LOAD_G:
            self._loaded_from = None
            return
        if self._loaded_from is None:
            self._loaded_from = t
        self._unloaded |= t - self._loaded_from >= LOAD_S

    def _band(self) -> tuple[float, float]:
        """How far below and above the zero a sample may lie and count as the empty pad now:
        anything short of a load, but above the zero only at a zero-setting."""
        low, high = -FAR_G - self._zero, FAR_G - self._zero
        return (low, high) if not self.set or self._unloaded else (low, CAPTURE_G)

    def _follow(self, mean: float, dt: float) -> None:
        """The empty pad held still at ``mean``: set the zero there, or move it towards it."""
        off = mean - self._zero
        setting = not self.set or self._unloaded or off < -CAPTURE_G
        if not setting:
            mean = self._zero + min(max(off, -RATE_G_PER_S * dt), RATE_G_PER_S * dt)
        self.beyond = mean if abs(mean) > RANGE_G else None
        if self.beyond is None:
            self._zero, self.set, self._unloaded = mean, True, False
