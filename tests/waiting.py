"""Waiting for what another thread, process or page does: the one helper the tests wait with.

:func:`wait_until` asks a condition again and again until it holds, and fails naming what it
waited for when it still does not after ``timeout_s``. The timeout only keeps a broken run
short: no test asserts how long anything took. A page's test pauses with playwright's own
``page.wait_for_timeout`` (``pause=``, see ``browsing.paused``), which lets the page's events
through meanwhile.

>>> wait_until(lambda: [3], what="a list")
[3]
>>> asked = iter([0, 0, 7])
>>> wait_until(lambda: next(asked), every_s=0, what="the third")
7
>>> wait_until(lambda: None, timeout_s=0.05, every_s=0.01, what="nothing")
Traceback (most recent call last):
AssertionError: waited 0.05 s for nothing
>>> wait_until(lambda: 0, timeout_s=0, what=lambda: f"a one; saw {0}")
Traceback (most recent call last):
AssertionError: waited 0 s for a one; saw 0
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

WAIT_S = 30.0
"""How long a test waits at most, unless it says: generous, for a loaded machine."""
EVERY_S = 0.02


def wait_until(
    condition: Callable[[], T],
    timeout_s: float = WAIT_S,
    every_s: float = EVERY_S,
    what: str | Callable[[], str] = "",
    pause: Callable[[float], object] = time.sleep,
) -> T:
    """The condition's first true value, asked every ``every_s`` (``pause`` waits between two
    asks); an :class:`AssertionError` that names ``what`` after ``timeout_s`` without one
    (``what`` may be a function, to say what was seen by then)."""
    deadline = time.monotonic() + timeout_s
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() >= deadline:
            said = what() if callable(what) else what
            raise AssertionError(f"waited {timeout_s:g} s for {said or condition}")
        pause(every_s)
