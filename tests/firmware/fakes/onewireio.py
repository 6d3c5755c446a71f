"""Fake of CircuitPython's ``onewireio``: a reset and single time slots on the world's bus.

As the core's C code does, it only drives and samples the line: a reset returns False when the
line went low after it (a presence pulse, or a line shorted to ground), and a read slot is the
line's level. Only GP22 has a bus behind it; another pin has nothing but its pull-up.
"""

import ds18b20_bus
import podsim


class OneWire:
    def __init__(self, pin):
        self.pin = pin
        self._bus = podsim.current.bus if pin.name == "GP22" else None

    def _live(self):
        if self.pin is None:
            raise ValueError("Object has been deinitialized and can no longer be used.")
        return self._bus

    def reset(self):
        """A reset pulse; False when a presence pulse was seen (CircuitPython's sense)."""
        bus = self._live()
        if bus is None:
            podsim.current.spend(ds18b20_bus.RESET_NS)
            return True
        return not bus.reset()

    def read_bit(self):
        bus = self._live()
        if bus is None:
            podsim.current.spend(ds18b20_bus.SLOT_NS)
            return True
        return bool(bus.slot(1))

    def write_bit(self, value):
        bus = self._live()
        if bus is None:
            podsim.current.spend(ds18b20_bus.SLOT_NS)
            return
        bus.slot(1 if value else 0)

    def deinit(self):
        self.pin = None
