"""Fake of CircuitPython's ``onewireio``: reset and single bits on the world's 1-Wire bus.

Bits are gathered into bytes (least significant first, as the bus sends them) for the
simulated bus, which works byte by byte.
"""

import podsim


class OneWire:
    def __init__(self, pin):
        self.pin = pin
        self._out = 0
        self._out_bits = 0
        self._in = 0
        self._in_bits = 0

    def _bus(self):
        return podsim.current.bus if self.pin.name == "GP22" else None

    def reset(self):
        """Send a reset; False when at least one device answered (CircuitPython's sense)."""
        self._out_bits = self._in_bits = 0
        bus = self._bus()
        return not (bus and bus.reset())

    def write_bit(self, value):
        self._out |= (1 if value else 0) << self._out_bits
        self._out_bits += 1
        if self._out_bits == 8:
            bus = self._bus()
            if bus:
                bus.write_byte(self._out)
            self._out = self._out_bits = 0

    def read_bit(self):
        if self._in_bits == 0:
            bus = self._bus()
            self._in = bus.read_byte() if bus else 0xFF
            self._in_bits = 8
        bit = self._in & 1
        self._in >>= 1
        self._in_bits -= 1
        return bool(bit)

    def deinit(self):
        self.pin = None
