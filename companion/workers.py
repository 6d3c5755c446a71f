"""Starting a worker process (the cue player, the HX711 reader) that imports only what it runs.

A worker is spawned, not forked: forking a process that has threads is unsafe. A spawned child
first runs its parent's ``__main__`` again, as ``__mp_main__``, so that what the main script
defined can be unpickled. Under the ``companion`` console script that main is the entry-point
wrapper, whose ``from companion.cli import main`` brought the whole command line into every
child, Flask and the table with it: 43 MB resident in each, beside a 44 MB daemon.

A worker's target lives in a module of its own and needs nothing from ``__main__``, so
:func:`start` hides ``__main__`` while the child is launched: the child then imports its
target's module and what that imports, nothing more. (pip does the same for its workers.)
A child calls :func:`name_this_process` first, so that ``ps`` and ``top`` tell the workers apart.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import sys
import threading
import types
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Final

_NO_MAIN: Final = types.ModuleType("__main__")
"""A main with no ``__spec__`` and no ``__file__``: multiprocessing has nothing to run again."""
_starting = threading.Lock()
COMM: Final = Path("/proc/self/comm")
"""The name Linux shows for this process, up to 15 bytes."""


def start(process: BaseProcess) -> None:
    """Start ``process`` without running this process's ``__main__`` again in the child.

    Its target must not live in ``__main__``. For the moment the child is launched, another
    thread that looks up ``sys.modules["__main__"]`` finds an empty module.
    """
    with _starting:
        main = sys.modules.get("__main__")
        sys.modules["__main__"] = _NO_MAIN
        try:
            process.start()
        finally:
            if main is None:
                del sys.modules["__main__"]
            else:
                sys.modules["__main__"] = main


def name_this_process(comm: Path = COMM) -> str:
    """Give this process its multiprocessing name (``companion-cues``) in ``ps`` and ``top``,
    where the kernel allows (best effort); the name given."""
    name = multiprocessing.current_process().name[:15]
    with contextlib.suppress(OSError):
        comm.write_text(name)
    return name
