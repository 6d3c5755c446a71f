"""Fake of ``adafruit_onewire.bus``: the same API as Adafruit's, on the fake ``onewireio``.

Only the ROM search is a shortcut: the simulated bus answers it whole.
"""

import onewireio
import podsim


class OneWireError(Exception):
    pass


class OneWireAddress:
    def __init__(self, rom):
        self._rom = rom

    @property
    def rom(self):
        return self._rom

    @property
    def crc(self):
        return self._rom[7]

    @property
    def serial_number(self):
        return self._rom[1:7]

    @property
    def family_code(self):
        return self._rom[0]


class OneWireBus:
    def __init__(self, pin):
        self._ow = onewireio.OneWire(pin)
        self.maximum_devices = 10

    def reset(self, required=False):
        """Reset the bus; whether a device answered."""
        absent = self._ow.reset()
        if required and absent:
            raise OneWireError("No presence pulse found. Check devices and wiring.")
        return not absent

    def readinto(self, buf, *, start=0, end=None):
        for i in range(start, len(buf) if end is None else end):
            value = 0
            for bit in range(8):
                value |= self._ow.read_bit() << bit
            buf[i] = value

    def write(self, buf, *, start=0, end=None):
        for i in range(start, len(buf) if end is None else end):
            for bit in range(8):
                self._ow.write_bit(buf[i] >> bit & 1)

    def scan(self):
        if not self.reset():
            return []
        bus = self._ow._bus()
        roms = bus.search() if bus else []
        if len(roms) > self.maximum_devices:
            raise RuntimeError(f"Maximum device count of {self.maximum_devices} exceeded.")
        return [OneWireAddress(bytearray(rom)) for rom in roms]

    @staticmethod
    def crc8(data):
        return podsim.crc8(bytes(data))
