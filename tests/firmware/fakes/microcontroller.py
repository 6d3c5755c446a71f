"""Fake of CircuitPython's ``microcontroller``: pins, the CPU's id and reset reason, watchdog."""

import podsim
import watchdog as _watchdog


class Pin:
    """A pin of the chip, named as on the board (GP22)."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"board.{self.name}"


class ResetReason:
    """Why the chip last started (an enum in CircuitPython)."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"microcontroller.ResetReason.{self.name}"


for _name in (
    "POWER_ON",
    "BROWNOUT",
    "SOFTWARE",
    "DEEP_SLEEP_ALARM",
    "RESET_PIN",
    "WATCHDOG",
    "UNKNOWN",
    "RESCUE_DEBUG",
):
    setattr(ResetReason, _name, ResetReason(_name))


class Processor:
    frequency = 125000000
    temperature = 27.0

    @property
    def uid(self):
        return bytearray(podsim.current.uid)

    @property
    def reset_reason(self):
        return getattr(ResetReason, podsim.current.reset_reason)


class WatchDogTimer:
    """The chip's watchdog: set ``timeout`` then ``mode`` to start it; ``feed()`` it in time."""

    def __init__(self):
        self._timeout = None

    @property
    def timeout(self):
        return self._timeout

    @timeout.setter
    def timeout(self, seconds):
        if seconds <= 0 or seconds > podsim.DOG_MAX_S:
            raise ValueError("timeout exceeds maximum")
        self._timeout = seconds
        podsim.current.dog_timeout = seconds

    @property
    def mode(self):
        return podsim.current.dog_mode

    @mode.setter
    def mode(self, mode):
        if mode not in (None, _watchdog.WatchDogMode.RESET, _watchdog.WatchDogMode.RAISE):
            raise ValueError("mode")
        if mode is not None and self._timeout is None:
            raise ValueError("set a timeout first")
        podsim.current.dog_fed = podsim.current.now()
        podsim.current.dog_mode = mode

    def feed(self):
        podsim.current.feed()

    def deinit(self):
        podsim.current.dog_mode = None


cpu = Processor()
watchdog = WatchDogTimer()


def delay_us(delay):
    podsim.current.spend(delay * 1000)


def disable_interrupts():
    podsim.current.hold()


def enable_interrupts():
    podsim.current.release()


def reset():
    raise podsim.HardReset
