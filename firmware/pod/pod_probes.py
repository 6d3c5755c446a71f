"""The probes: DS18B20s on one 1-Wire bus, converted all at once, read one per loop pass.

Each sweep starts one conversion on every probe (SKIP ROM, CONVERT T), lets the conversion time
pass while the loop reads the pads, then reads one scratchpad per pass and classifies it the way
the Pi's kernel driver would: a fault code or milli-degrees.

>>> classify(bytes([0x50, 0x05, 0x4B, 0x46, 0x7F, 0xFF, 0x0C, 0x10, 0x1C]), 0x28)
'!power-on'
>>> classify(bytes([0xFF, 0xFF, 0x4B, 0x46, 0x7F, 0xFF, 0x01, 0x10, 0x9A]), 0x28)
-62
"""

from adafruit_ds18x20 import DS18X20
from adafruit_onewire.bus import OneWireBus
from adafruit_onewire.device import OneWireDevice

FAMILIES = (0x10, 0x28)
"""The families adafruit_ds18x20 reads: DS18S20 and DS18B20."""
CONVERSION_NS = {9: 93750000, 10: 187500000, 11: 375000000, 12: 750000000}
"""The datasheet's longest conversion at each resolution."""
RESCAN_EVERY = 10
"""Sweeps between two looks for new probes on the bus."""

_SKIP_ROM_CONVERT = b"\xcc\x44"
_READ_SCRATCH = b"\xbe"
_IDLE, _CONVERTING, _READING = 0, 1, 2


def probe_id(rom) -> str:
    """The kernel's name of a probe: family, a dash, the 48-bit serial number MSB first."""
    return "%02x-" % rom[0] + "".join("%02x" % rom[i] for i in range(6, 0, -1))


def crc8(data) -> int:
    """The 1-Wire CRC (Dallas/Maxim) of bytes: 0 over a scratchpad and its CRC byte."""
    return OneWireBus.crc8(data)


def millidegrees(scratch, family: int) -> int:
    """The temperature as the kernel's w1_therm computes it, C integer division included."""
    if family == 0x10:
        if not scratch[7]:
            return 0
        whole = scratch[0] >> 1 if scratch[1] == 0 else -(0x100 - scratch[0]) >> 1
        value = whole * 1000
        return value - 250 + _c_div(1000 * (scratch[7] - scratch[6]), scratch[7])
    raw = scratch[0] | scratch[1] << 8
    if raw & 0x8000:
        raw -= 0x10000
    return _c_div(raw * 1000, 16)


def _c_div(a: int, b: int) -> int:
    quotient = abs(a) // abs(b)
    return -quotient if (a < 0) != (b < 0) else quotient


def classify(scratch, family: int):
    """A scratchpad's reading: milli-degrees, or a fault code of PROTOCOL.md (``"!crc"``)."""
    if scratch == b"\xff" * 9:
        return "!all-ff"
    if scratch == b"\x00" * 9:
        return "!all-zero"
    if crc8(scratch[:8]) != scratch[8]:
        return "!crc"
    raw = scratch[0] | scratch[1] << 8
    value = millidegrees(scratch, family)
    if value == 85000 and (family != 0x28 or raw == 0x0550):
        return "!power-on"
    if family == 0x28 and raw == 0x07FF:
        return "!power-fault"
    if value < -55000 or value > 125000:
        return "!range"
    return value


class Probe:
    """One probe: its kernel name, the driver (for the resolution) and the device (to read)."""

    def __init__(self, bus, address):
        self.id = probe_id(address.rom)
        self.family = address.family_code
        self.driver = DS18X20(bus, address)
        self.device = OneWireDevice(bus, address)
        self.present = True

    def set_resolution(self, bits: int) -> None:
        """Write the resolution to the probe's scratchpad (a DS18S20 has none to set)."""
        if self.family == 0x28:
            self.driver.resolution = bits

    def read(self, buf):
        """The probe's reading from its 9-byte scratchpad, read without the driver's CRC check."""
        with self.device as device:
            device.write(_READ_SCRATCH)
            device.readinto(buf, end=9)
        return classify(bytes(buf), self.family)


class Probes:
    """Every probe on the bus, swept every ``sweep_ns``; ``sweep()`` hands out finished lines."""

    def __init__(self, pin, resolution: int, now: int):
        self.bus = OneWireBus(pin)
        self.resolution = resolution
        self.probes = []
        self.sweeps = 0
        self._state = _IDLE
        self._next = now
        self._due = now
        self._index = 0
        self._values = []
        self._done = None
        self._buf = bytearray(9)
        self.scan()

    def found(self) -> int:
        """How many probes answered the last scan."""
        return sum(1 for probe in self.probes if probe.present)

    def scan(self) -> None:
        """Look for probes: new ones join with the resolution set, absent ones are missing."""
        try:
            addresses = self.bus.scan()
        except RuntimeError:
            return
        seen = []
        for address in addresses:
            if address.family_code not in FAMILIES:
                continue
            name = probe_id(address.rom)
            seen.append(name)
            if not any(probe.id == name for probe in self.probes):
                probe = Probe(self.bus, address)
                probe.set_resolution(self.resolution)
                self.probes.append(probe)
        for probe in self.probes:
            probe.present = probe.id in seen

    def set_resolution(self, bits: int) -> None:
        """Every present probe's resolution, from the next conversion on."""
        self.resolution = bits
        for probe in self.probes:
            if probe.present:
                probe.set_resolution(bits)

    def conversion_ns(self) -> int:
        """How long one conversion takes at the resolution (a DS18S20 always takes 750 ms)."""
        if any(probe.family == 0x10 for probe in self.probes):
            return CONVERSION_NS[12]
        return CONVERSION_NS[self.resolution]

    def step(self, now: int, sweep_ns: int) -> bool:
        """Do one small piece of a sweep if one is due; whether the bus was used."""
        if self._state == _IDLE:
            if now < self._next:
                return False
            self.sweeps += 1
            if self.sweeps % RESCAN_EVERY == 0:
                self.scan()
            if self.found():
                self.bus.reset()
                self.bus.write(_SKIP_ROM_CONVERT)
            self._due = None  # timed from the next pass: a scan may have taken a while
            self._next += sweep_ns
            if self._next <= now:
                self._next = now + sweep_ns
            self._state = _CONVERTING
            return True
        if self._state == _CONVERTING:
            if self._due is None:
                self._due = now + self.conversion_ns()
            if now < self._due:
                return False
            self._state = _READING
            self._index = 0
            self._values = []
        if self._index < len(self.probes):
            probe = self.probes[self._index]
            self._index += 1
            self._values.append(probe.read(self._buf) if probe.present else "!missing")
            return True
        self._finish()
        return True

    def _finish(self) -> None:
        if "!all-ff" in self._values:
            self.scan()
        words = []
        for index, probe in enumerate(self.probes):
            value = self._values[index]
            if value == "!all-ff" and not probe.present:
                value = "!missing"
            elif value == "!power-on":
                probe.set_resolution(self.resolution)
            words.append("%s=%s" % (probe.id, value))
        self._done = words
        self._state = _IDLE

    def sweep(self):
        """The words of the sweep that just finished (once), or None."""
        words, self._done = self._done, None
        return words
