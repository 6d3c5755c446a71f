"""A worker process (the cue player, the HX711 reader) that imports only what it runs.

A worker is a fresh interpreter started with :mod:`subprocess`, not a fork (forking a process
that has threads is unsafe) and not multiprocessing's spawn: spawn runs its parent's
``__main__`` again in the child (under the ``companion`` console script, the whole command line,
Flask and the table with it) and starts multiprocessing's resource tracker beside the first
child, a third interpreter of 7.5 MB that a table with no shared memory has no use for.

The parent and the child talk over one end each of a socket pair, as a
:class:`multiprocessing.connection.Connection` (pickled messages, ``poll``). The child is given
its end's file descriptor, its name and, as its first message, the parent's ``sys.path``, then
``(target, args)``; it runs ``target(*args, connection)``. So the target must be a module-level
function whose module imports nothing it does not run. The child names itself (``ps`` and
``top`` show ``companion-cues``) and ends when its target returns.
"""

from __future__ import annotations

import contextlib
import pickle
import socket
import subprocess
import sys
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Final

COMM: Final = Path("/proc/self/comm")
"""The name Linux shows for this process, up to 15 bytes."""
CHILD: Final = "from companion.host.workers import run_child; run_child()"


class Worker:
    """A child process running ``target(*args, connection)``; :attr:`connection` is the
    parent's end, open once :meth:`start` returns. The calls are those of
    :class:`multiprocessing.Process` that the table uses."""

    def __init__(self, name: str, target: Callable[..., object], args: Sequence[Any]) -> None:
        self.name = name
        self.target = target
        self.args = tuple(args)
        self.connection: Connection | None = None
        self._popen: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start the child and hand it its work; the parent's end of the pair is kept."""
        ours, theirs = socket.socketpair()
        with theirs:
            self._popen = subprocess.Popen(
                [sys.executable, "-c", CHILD, str(theirs.fileno()), self.name],
                pass_fds=(theirs.fileno(),),
                close_fds=True,
            )
        self.connection = Connection(ours.detach())
        self.connection.send(list(sys.path))
        self.connection.send_bytes(pickle.dumps((self.target, self.args)))

    @property
    def pid(self) -> int | None:
        return None if self._popen is None else self._popen.pid

    @property
    def exitcode(self) -> int | None:
        """The child's exit code once it ended (negative: the signal that ended it)."""
        return None if self._popen is None else self._popen.poll()

    def is_alive(self) -> bool:
        return self._popen is not None and self._popen.poll() is None

    def join(self, timeout: float | None = None) -> None:
        """Wait for the child to end, at most ``timeout`` seconds."""
        if self._popen is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._popen.wait(timeout)

    def terminate(self) -> None:
        if self.is_alive():
            assert self._popen is not None
            self._popen.terminate()

    def kill(self) -> None:
        if self.is_alive():
            assert self._popen is not None
            self._popen.kill()


def run_child(argv: Sequence[str] | None = None) -> None:
    """The child's side: take the parent's path and work, name this process, run the work."""
    fd, name = (sys.argv[1:] if argv is None else argv)[:2]
    connection = Connection(int(fd))
    sys.path[:] = connection.recv()
    target, args = pickle.loads(connection.recv_bytes())
    name_this_process(name)
    target(*args, connection)


def name_this_process(name: str, comm: Path = COMM) -> str:
    """Give this process ``name`` (``companion-cues``) in ``ps`` and ``top``, where the kernel
    allows (best effort); the name given, cut to Linux's 15 bytes."""
    name = name[:15]
    with contextlib.suppress(OSError):
        comm.write_text(name)
    return name
