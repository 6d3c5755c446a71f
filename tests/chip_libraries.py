"""Where the tests find the published drivers they run over their bit-level chips.

``make test`` installs them (``companion/host/installing.py``): the pod's Adafruit libraries at the
versions ``firmware/pod/requirements.txt`` pins, and rpi-lgpio, each without its dependencies, in
the venv's ``chip-libraries`` folder.
"""

from __future__ import annotations

import sys
from pathlib import Path

from companion.host.installing import CHIP_LIBRARIES

FOLDER = Path(sys.prefix) / CHIP_LIBRARIES


def folder() -> Path:
    """The folder, or an error that says how to get it (a missing driver is never skipped)."""
    if not (FOLDER / "adafruit_hx711").is_dir() or not (FOLDER / "RPi").is_dir():
        raise RuntimeError(
            f"{FOLDER} lacks the drivers the tests run: `make test` installs them "
            "(python3 companion/host/installing.py .venv test)"
        )
    return FOLDER
