"""Runs once after every reset, before USB starts: the pod's second serial port and its USB name.

The data port (usb_cdc.data) carries the pod's lines, so the console stays free for tracebacks.
The identity lets the Pi find the pod among other boards. Needs CircuitPython 7.0 or later for
the data port and 8.1 or later for the USB names (older versions skip them: then give the port's
path in the config). A change here takes effect after the next reset, not on a reload.
"""

import supervisor
import usb_cdc

usb_cdc.enable(console=True, data=True)
if hasattr(supervisor, "set_usb_identification"):
    supervisor.set_usb_identification(manufacturer="companion", product="companion sensor pod")
