"""Each worker child says what it has imported: the hooks of ``tests/console_main.py``.

The folder named by ``CHILD_MODULES`` receives ``<child>.json``, the names in the child's
``sys.modules`` once it has imported what it runs.
"""

from __future__ import annotations

import json
import os
import sys
from multiprocessing.connection import Connection
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from companion.cues.process import CueSettings

FOLDER: Final = "CHILD_MODULES"


def record(child: str) -> None:
    """Write this process's module names to ``<CHILD_MODULES>/<child>.json``."""
    (Path(os.environ[FOLDER]) / f"{child}.json").write_text(json.dumps(sorted(sys.modules)))


def cue_child(settings: CueSettings, conn: Connection) -> None:
    """The cue child's target: the real one, once the child has said what it imported."""
    from companion.cues.process import serve

    record("cues")
    serve(settings, conn)


def recording_gpio() -> ModuleType:
    """The HX711 child's GPIO module: rpi-lgpio over the fake table of four, once the child has
    said what it imported (the child loads its GPIO module after its own modules)."""
    from fake_hx711 import table_of_four

    record("hx711")
    return table_of_four()
