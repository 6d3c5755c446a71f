"""Fake of CircuitPython's ``supervisor``: the USB names (boot.py only), reload, the run reason."""

import podsim


class RunReason:
    STARTUP = "STARTUP"
    AUTO_RELOAD = "AUTO_RELOAD"
    SUPERVISOR_RELOAD = "SUPERVISOR_RELOAD"
    REPL_RELOAD = "REPL_RELOAD"


class _Runtime:
    serial_connected = False
    usb_connected = True
    autoreload = True

    @property
    def run_reason(self):
        return getattr(RunReason, podsim.current.run_reason)


runtime = _Runtime()


def set_usb_identification(manufacturer=None, product=None, vid=-1, pid=-1):
    if not podsim.current.in_boot:
        raise RuntimeError("Cannot change USB devices now")
    podsim.current.usb_identity = {
        "manufacturer": manufacturer,
        "product": product,
        "vid": vid,
        "pid": pid,
    }


def reload():
    raise podsim.SoftReload
