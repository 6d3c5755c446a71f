"""Fake of ``adafruit_hx711.hx711``: the same API, on the world's simulated HX711 chips.

A channel with no chip behind its DOUT pin (pulled up) is busy forever, and
``_read_channel_raw`` then waits for it forever, as Adafruit's does. Negative words come back
with the library's sign bug: ``value | 0xFF000000``, a positive int.
"""

import podsim


class HX711:
    CHAN_A_GAIN_128 = 25
    CHAN_A_GAIN_64 = 27
    CHAN_B_GAIN_32 = 26

    def __init__(self, data_pin, clock_pin):
        self._data_pin = data_pin
        self._clock_pin = clock_pin
        self._chip = podsim.current.chips.get(data_pin.pin.name)
        self.tare_value_a = 0
        self.tare_value_b = 0
        self.power_down(True)
        podsim.current.spend(1000000)
        self.power_down(False)

    def power_down(self, down):
        self._clock_pin.value = down

    @property
    def is_busy(self):
        return self._chip is None or self._chip.busy()

    def _read_channel_raw(self, chan_gain):
        while self.is_busy:
            podsim.current.stall()
        value = self._chip.read(chan_gain)
        if value & 0x800000:
            value |= 0xFF000000
        return value

    def _read_channel(self, chan_gain):
        tare = self.tare_value_b if chan_gain == self.CHAN_B_GAIN_32 else self.tare_value_a
        return self._read_channel_raw(chan_gain) - tare

    def read_channel_blocking(self, chan_gain):
        self._read_channel(chan_gain)
        return self._read_channel(chan_gain)

    def read(self, chan_gain=CHAN_A_GAIN_128):
        return self.read_channel_blocking(chan_gain)
