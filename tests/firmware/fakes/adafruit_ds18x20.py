"""Fake of Adafruit's ``adafruit_ds18x20``: the same API, the same bus traffic."""

from adafruit_onewire.device import OneWireDevice

RESOLUTION = (9, 10, 11, 12)
_CONVERSION_DELAY = {9: 0.09375, 10: 0.1875, 11: 0.375, 12: 0.750}


class DS18X20:
    def __init__(self, bus, address):
        if address.family_code not in (0x10, 0x28):
            raise ValueError("Incorrect family code in device address.")
        self._address = address
        self._device = OneWireDevice(bus, address)
        self._buf = bytearray(9)

    @property
    def address(self):
        return self._address

    @property
    def resolution(self):
        return RESOLUTION[self._read_scratch()[4] >> 5 & 0x03]

    @resolution.setter
    def resolution(self, bits):
        if bits not in RESOLUTION:
            raise ValueError("Incorrect resolution. Must be 9, 10, 11, or 12.")
        self._buf[0] = 0
        self._buf[1] = 0
        self._buf[2] = RESOLUTION.index(bits) << 5 | 0x1F
        with self._device as dev:
            dev.write(b"\x4e")
            dev.write(self._buf, end=3)

    def _read_scratch(self):
        with self._device as dev:
            dev.write(b"\xbe")
            dev.readinto(self._buf)
        return self._buf

    def start_temperature_read(self):
        with self._device as dev:
            dev.write(b"\x44")
        return _CONVERSION_DELAY[self.resolution]

    def read_temperature(self):
        buf = self._read_scratch()
        raw = buf[1] << 8 | buf[0]
        if raw & 0x8000:
            raw -= 0x10000
        return raw / 16

    @property
    def temperature(self):
        self.start_temperature_read()
        return self.read_temperature()
