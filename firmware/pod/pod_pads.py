"""The pads: six HX711 load-cell amplifiers, each read only when it has a conversion ready.

A pad is never waited for: one that is missing or unpowered only shows as ``!not-ready``. A round
(``round()``) is one line's worth: each pad's newest word since the last round, and each fault.

>>> signed24(0xFF800000), signed24(0x7FFFFF), signed24(0xFFFFB044)
(-8388608, 8388607, -20412)
"""

import digitalio
from adafruit_hx711.hx711 import HX711

GAINS = {128: HX711.CHAN_A_GAIN_128, 64: HX711.CHAN_A_GAIN_64, 32: HX711.CHAN_B_GAIN_32}
"""The host's gain setting -> the driver's channel-and-gain pulse count."""
RATES = (10, 80)
MAX_ROUNDS_HZ = 40
"""Never more pads lines a second than this, whatever the pads' rate."""
LATE_PERIODS = 5
"""A pad with no conversion for this many periods is ``!not-ready``."""
STUCK_WORDS = 10
"""The same word this many times in a row is ``!stuck``."""
SETTLE_WORDS = 4
"""Words thrown away after power-up or a gain change: the HX711's settling time (400 ms at
10 Hz, 50 ms at 80 Hz). After a gain change one more goes: the read that clocks the new gain's
pulses still brings a word converted at the old one."""
HISTORY = 10
"""Words kept per pad for the median a tare hint answers with."""
SATURATED = (0x7FFFFF, -0x800000)


def signed24(raw: int) -> int:
    """The HX711's word as a signed 24-bit number (the driver returns negatives as large ints)."""
    raw &= 0xFFFFFF
    return raw - 0x1000000 if raw & 0x800000 else raw


def median(words) -> int:
    """The median of a few integers; of an even count, the mean of the middle two, rounded down."""
    ordered = sorted(words)
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) // 2


class Pad:
    """One channel: its driver, its last words, and what the next round says of it."""

    def __init__(self, channel: int, hx, now: int):
        self.channel = channel
        self.hx = hx
        self.history = []
        self.same = 0
        self.last_word = None
        self.last_ns = now
        self.news = None
        self.skip = SETTLE_WORDS

    def take(self, word: int, now: int) -> None:
        """A conversion arrived: classify it and keep it for the next round."""
        self.last_ns = now
        if self.skip:
            self.skip -= 1
            return
        if word in SATURATED:
            self.same = 0
            self.news = "!saturated"
            return
        self.same = self.same + 1 if word == self.last_word else 1
        self.last_word = word
        self.history.append(word)
        if len(self.history) > HISTORY:
            self.history.pop(0)
        self.news = "!stuck" if self.same >= STUCK_WORDS else word

    def restart(self) -> None:
        """Forget the words: the gain changed, so the next few are thrown away."""
        self.history = []
        self.same = 0
        self.last_word = None
        self.news = None
        self.skip = SETTLE_WORDS + 1


class Pads:
    """Every channel of pod_pins.PADS, read as conversions come, reported a round at a time."""

    def __init__(self, pins, now: int):
        self.gain = 128
        self.hz = 10
        self.pads = []
        for dout, sck in pins:
            data = digitalio.DigitalInOut(dout)
            data.switch_to_input(pull=digitalio.Pull.UP)
            clock = digitalio.DigitalInOut(sck)
            clock.switch_to_output(value=False)
            self.pads.append(Pad(len(self.pads) + 1, HX711(data, clock), now))
        self._next_round = now + self.round_ns()

    def period_ns(self) -> int:
        """The time between two conversions of a pad at the rate its RATE pin sets."""
        return 1000000000 // self.hz

    def round_ns(self) -> int:
        """The time between two rounds."""
        return 1000000000 // min(self.hz, MAX_ROUNDS_HZ)

    def set_gain(self, gain: int) -> None:
        """Read every pad at another channel and gain from the next conversion on."""
        if gain == self.gain:
            return
        self.gain = gain
        for pad in self.pads:
            pad.restart()

    def set_hz(self, hz: int, now: int) -> None:
        """The rate the pads' RATE pins are wired for: it sets the rounds and the lateness."""
        self.hz = hz
        self._next_round = now + self.round_ns()

    def poll(self, now: int) -> bool:
        """Read every pad that has a conversion ready; whether any was read."""
        code = GAINS[self.gain]
        read = False
        for pad in self.pads:
            if not pad.hx.is_busy:
                pad.take(signed24(pad.hx._read_channel_raw(code)), now)
                read = True
        return read

    def round(self, now: int):
        """The words of a round if one is due (``1=-20412``, ``3=!not-ready``), else None."""
        if now < self._next_round:
            return None
        self._next_round += self.round_ns()
        if self._next_round <= now:
            self._next_round = now + self.round_ns()
        late = LATE_PERIODS * self.period_ns()
        words = []
        for pad in self.pads:
            if now - pad.last_ns > late:
                value = "!not-ready"
            elif pad.news is not None:
                value = pad.news
            elif pad.same >= STUCK_WORDS:
                value = "!stuck"
            else:
                continue
            pad.news = None
            words.append("%d=%s" % (pad.channel, value))
        return words

    def tare(self, channel: int):
        """The median of the pad's last words, its stuck count forgotten; None without words."""
        pad = self.pads[channel - 1]
        pad.same = 0
        if not pad.history:
            return None
        return median(pad.history)
