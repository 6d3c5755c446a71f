"""The firmware tests' fixture: a simulated world to run the pod's firmware in, in this process.

The firmware imports Adafruit's published drivers (from ``chip_libraries.folder()``, at the
versions ``firmware/pod/requirements.txt`` pins) over the fake CircuitPython core in ``fakes/``,
and the world (``fakes/podsim.py``) simulates the probes (``fakes/ds18b20_bus.py``) and pads
(``fakes/hx711_pads.py``) below that core bit by bit.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import chip_libraries
import pytest

FAKES = Path(__file__).resolve().parent / "fakes"
FIRMWARE = Path(__file__).resolve().parents[2] / "firmware" / "pod"
FAKE_MODULES = [p.stem for p in FAKES.glob("*.py")]


@pytest.fixture
def world(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """A world, 4 probes and 4 pads (``podsim.World``); its, the drivers' and the firmware's
    modules go after."""
    libraries = chip_libraries.folder()
    before = set(sys.modules)
    for name in FAKE_MODULES:
        monkeypatch.delitem(sys.modules, name, raising=False)
    monkeypatch.syspath_prepend(str(libraries))
    monkeypatch.syspath_prepend(str(FIRMWARE))
    monkeypatch.syspath_prepend(str(FAKES))
    try:
        import podsim

        yield podsim.World()
    finally:
        for name in set(sys.modules) - before:
            where = str(getattr(sys.modules[name], "__file__", None) or "")
            if where.startswith((str(FAKES), str(FIRMWARE), str(libraries))):
                del sys.modules[name]
