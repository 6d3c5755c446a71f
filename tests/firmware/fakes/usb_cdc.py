"""Fake of CircuitPython's ``usb_cdc``: ``data`` is the world's port once boot.py enabled it."""

import podsim

console = object()


def __getattr__(name):
    if name == "data":
        world = podsim.current
        return world.port if world.usb_data and not world.in_boot else None
    raise AttributeError(name)


def enable(console=True, data=False):
    if not podsim.current.in_boot:
        raise RuntimeError("Cannot change USB devices now")
    podsim.current.usb_data = bool(data)
    return True


def disable():
    enable(console=False, data=False)
