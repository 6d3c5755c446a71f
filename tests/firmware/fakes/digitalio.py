"""Fake of CircuitPython's ``digitalio``: pins whose reads and edges reach the world's parts.

A pad's DOUT pin reads its HX711's data line, and its SCK pin's edges clock that chip; any
other input reads its pull. Every read and set costs ``podsim.PIN_NS`` of the world's time, so
a pad's clock-high time is what the driver's code takes.
"""

import podsim


class Direction:
    INPUT = "INPUT"
    OUTPUT = "OUTPUT"


class Pull:
    UP = "UP"
    DOWN = "DOWN"


class DriveMode:
    PUSH_PULL = "PUSH_PULL"
    OPEN_DRAIN = "OPEN_DRAIN"


class DigitalInOut:
    def __init__(self, pin):
        self.pin = pin
        self._chip, self._role = podsim.current.wired(pin.name)
        self._direction = Direction.INPUT
        self.pull = None
        self._level = False

    @property
    def direction(self):
        return self._direction

    @direction.setter
    def direction(self, direction):
        if direction == Direction.OUTPUT:
            self.switch_to_output()
        else:
            self.switch_to_input()

    @property
    def value(self):
        world = podsim.current
        world.read_pin(self)
        if self._direction == Direction.OUTPUT:
            return self._level
        if self._chip is not None and self._role == "dout":
            return bool(self._chip.dout(world.now()))
        return self.pull == Pull.UP

    @value.setter
    def value(self, value):
        if self._direction != Direction.OUTPUT:
            raise AttributeError("Cannot set value when direction is input.")
        podsim.current.spend(podsim.PIN_NS)
        self._drive(bool(value))

    def _drive(self, level):
        if level == self._level:
            return
        self._level = level
        if self._chip is not None and self._role == "sck":
            self._chip.clock(level, podsim.current.now())

    def switch_to_output(self, value=False, drive_mode=DriveMode.PUSH_PULL):
        self._direction = Direction.OUTPUT
        self.pull = None
        self._drive(bool(value))

    def switch_to_input(self, pull=None):
        self._direction = Direction.INPUT
        self.pull = pull

    def deinit(self):
        self.pin = None
