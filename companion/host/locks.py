"""Exclusive locks on files of the state directory: one holder at a time, never a wait.

A ``flock`` belongs to the open file, and the kernel lets it go when its holder's file is
closed, which happens at any exit, a crash or ``kill -9`` included: a lock is never left
behind. Two opens of the file in one process contend too.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as folder:
...     path = Path(folder) / "a.lock"
...     with exclusive(path, lambda: CompanionError("busy")):
...         with exclusive(path, lambda: CompanionError("busy")):
...             pass
Traceback (most recent call last):
companion.errors.CompanionError: busy
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Callable, Iterator
from pathlib import Path

from companion.errors import CompanionError
from companion.host.statedir import FILE_MODE, private_dir, tighten


@contextlib.contextmanager
def exclusive(
    path: Path, busy: Callable[[], CompanionError], *, unwritable_ok: bool = False
) -> Iterator[bool]:
    """Hold the lock on ``path`` (made, mode 0600, if missing) for the ``with`` block; raise
    ``busy()`` at once when another holds it. With ``unwritable_ok`` a lock that a read-only
    directory cannot make is not held (the block gets ``False``), else that is an error."""
    try:
        private_dir(path.parent)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, FILE_MODE)
    except OSError as exc:
        if unwritable_ok and not path.exists():
            yield False
            return
        try:
            fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)  # flock needs no write
        except OSError:
            raise CompanionError(
                f"{path}: cannot be opened: {exc.strerror}: run as the daemon's user (sudo)"
            ) from None
    try:
        with contextlib.suppress(OSError):
            tighten(path, FILE_MODE)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise busy() from None
        yield True
    finally:
        os.close(fd)
