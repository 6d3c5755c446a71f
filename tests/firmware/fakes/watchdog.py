"""Fake of CircuitPython's ``watchdog`` module: the modes and the timeout exception."""


class WatchDogMode:
    RAISE = "RAISE"
    RESET = "RESET"


class WatchDogTimeout(Exception):
    pass
