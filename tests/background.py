"""A waitress server run on a thread of its own for a test, and stopped from that thread.

Closing a server from another thread while its loop waits in ``select`` on its sockets makes
the loop fail on a closed descriptor (waitress issue #468), which pytest reports as a thread's
unhandled exception. So the loop here runs a pass at a time, and when the test is done it is
the loop's own thread that finishes the requests and closes the server and its connections,
as ``companion run`` does on its main thread.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

PASS_S = 0.05
"""The longest one pass of the loop waits for a socket: how soon the server sees it is done."""
WAIT_S = 10.0


@contextmanager
def in_background(server: Any) -> Iterator[int]:
    """Serve with ``server`` (made by ``waitress.create_server``) until the block ends; its port."""
    done = threading.Event()

    def serve() -> None:
        while not done.is_set():
            server.asyncore.loop(timeout=PASS_S, map=server._map, count=1)
        server.task_dispatcher.shutdown(timeout=WAIT_S)
        server.asyncore.close_all(server._map)  # the server, its trigger and every connection

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield int(server.effective_port)
    finally:
        done.set()
        thread.join(WAIT_S)
