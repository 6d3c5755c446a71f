"""Worker processes that must keep time: the HX711 reader and the cue player.

A Python thread can wait 5 ms or more for the GIL while other threads run, far past what an
HX711's clock or a ten-count's beat allows, so each of those workers runs in a process of its
own and asks the kernel to run it ahead of ordinary processes. A Raspberry Pi has cores to
spare; the systemd unit grants the right with ``LimitRTPRIO`` and ``LimitNICE`` (no capability),
and without it the worker runs as it is.
"""

from __future__ import annotations

import contextlib
import os
from typing import Final

FIFO_PRIORITY: Final = 10
"""Above every ordinary process, below the kernel's interrupt threads (50)."""
NICE: Final = -10


def raise_priority() -> str:
    """Make this process run ahead of others if permitted; say how (best effort, never fails)."""
    with contextlib.suppress(AttributeError, OSError):
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(FIFO_PRIORITY))
        return f"real-time FIFO {FIFO_PRIORITY}"
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, 0, NICE)
        return f"nice {NICE}"
    return "normal"
