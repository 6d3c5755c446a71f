"""Fake of ``adafruit_onewire.device``: one device, selected by MATCH ROM for each exchange."""


class OneWireDevice:
    def __init__(self, bus, address):
        self._bus = bus
        self._address = address

    def __enter__(self):
        self._bus.reset()
        self.write(b"\x55")
        self.write(self._address.rom)
        return self

    def __exit__(self, *exc):
        return False

    def readinto(self, buf, *, start=0, end=None):
        """Read bytes; a whole buffer of 8 or more must pass the CRC, as Adafruit's does."""
        self._bus.readinto(buf, start=start, end=end)
        if start == 0 and end is None and len(buf) >= 8 and self._bus.crc8(buf):
            raise RuntimeError("CRC error.")

    def write(self, buf, *, start=0, end=None):
        return self._bus.write(buf, start=start, end=end)
