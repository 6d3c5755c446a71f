"""Who has the buzzer and the lights: a ten-count takes them at once, a short cue only when free.

A short cue writes its first step with :meth:`Stage.cue_begin`, which hands it a turn, and every
later step with :meth:`Stage.cue_step`, all under the stage's lock and only while no count has
started since its turn began. A count's :meth:`Stage.take` starts a new turn under that lock,
so from then on the cue writes no pin and its pause (:meth:`Stage.cue_pause`) ends at once; a
count that is already over when the cue wakes still ends the cue. The count waits at most for
one cue step's pin writes (microseconds), never for a cue to finish.

>>> stage = Stage()
>>> turn = stage.cue_begin(lambda: None)
>>> stage.cue_step(lambda: None, turn)
True
>>> stage.take(); stage.give_back()
>>> stage.cue_step(lambda: None, turn), stage.cue_pause(10.0, turn)
(False, True)
"""

from __future__ import annotations

import threading
from collections.abc import Callable


class Stage:
    """The outputs' arbiter shared by the ten-count player and the short cues."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._counting = False
        self._closing = False
        self._turn = 0

    def take(self) -> None:
        """A count starts: a playing cue stops now, and cues wait until :meth:`give_back`."""
        with self._cond:
            self._counting = True
            self._turn += 1
            self._cond.notify_all()

    def give_back(self) -> None:
        """The count is over: waiting cues may play."""
        with self._cond:
            self._counting = False
            self._cond.notify_all()

    def close(self) -> None:
        """Wake every waiting cue for good: the player is shutting down."""
        with self._cond:
            self._closing = True
            self._cond.notify_all()

    def cue_begin(self, write: Callable[[], None]) -> int | None:
        """Run a cue's first pin writes unless a count runs; the cue's turn, or ``None``."""
        with self._cond:
            if self._counting or self._closing:
                return None
            write()
            return self._turn

    def cue_step(self, write: Callable[[], None], turn: int) -> bool:
        """Run a later step's pin writes if no count started since ``turn``; whether it ran."""
        with self._cond:
            if self._counting or self._closing or self._turn != turn:
                return False
            write()
            return True

    def cue_pause(self, seconds: float, turn: int) -> bool:
        """Hold a cue step for ``seconds``; ``True`` when a count (or closing) cut it short."""
        with self._cond:
            return self._cond.wait_for(lambda: self._closing or self._turn != turn, seconds)

    def wait_free(self) -> bool:
        """Block until no count runs; ``False`` when the stage is closing instead."""
        with self._cond:
            self._cond.wait_for(lambda: not self._counting or self._closing)
            return not self._closing
