"""A ``__main__`` shaped like the ``companion`` console script, starting each worker child as
the table does: run it by path, as a console script is run.

The console script's file imports the command line before it calls it, and a spawned child
may run its parent's ``__main__`` again; this file does the same import. The children report
their modules through :mod:`child_modules`.
"""

from __future__ import annotations

import queue
import sys
import time

from companion.cli import main  # noqa: F401  (what the console script imports)

WAIT_S = 60.0


def start_children() -> int:
    """Start the cue child on mock pins and the HX711 child on fake chips, then stop them."""
    import child_modules
    from fake_hx711 import TABLE_CLOCK, TABLE_DATA

    from companion.config import default_config
    from companion.cues import process
    from companion.cues.process import CueEvent, CueProcess, CueSettings
    from companion.sensors.hx711_process import HX711Reader, PadSettings

    process.serve = child_modules.cue_child  # type: ignore[assignment]  # CueProcess's target
    config = default_config()
    events: queue.Queue[CueEvent] = queue.Queue()
    settings = CueSettings(config.pins, len(config.seats), pin_factory="mock")
    with CueProcess(settings, events.put):
        print(events.get(timeout=WAIT_S), flush=True)
    pads = PadSettings(TABLE_CLOCK, TABLE_DATA, rate_hz=80, gpio="child_modules:recording_gpio")
    with HX711Reader(pads) as reader:
        deadline = time.monotonic() + WAIT_S
        while not reader.readings() and time.monotonic() < deadline:
            time.sleep(0.05)
    return 0


if __name__ == "__main__":
    sys.exit(start_children())
