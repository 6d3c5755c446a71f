"""A table served on a thread of the test's own process, opened as ``companion run`` opens it.

A page test needs a table that serves, not a process: a daemon's start is mostly its import
(0.6 of its 0.7 core-s here), which the test's process has already paid. The table is opened by
the daemon's own :func:`companion.cli.run.open_table` from the same command line, and served by
:func:`background.in_background`. A test that kills, signals or restarts the daemon, reads what
it printed or needs its cues starts a real one (:func:`bench.daemon.start`).
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from pathlib import Path

from background import in_background

from bench.daemon import Served, free_port, run_args
from companion.cli import build_parser
from companion.cli.run import OpenTable, open_table


@dataclass
class Here(Served):
    """A table served here: stopped by :meth:`stop`, as a daemon is."""

    table: OpenTable = field(kw_only=True)
    serving: contextlib.ExitStack = field(kw_only=True)

    def stop(self) -> int:
        """Close the table while its loop still serves (its streams end and say so), then stop
        the loop, which finishes the requests and closes the server on its own thread."""
        self.table.service.close()
        self.serving.close()
        return 0


def start_here(state_dir: Path, *args: str, simulate: bool = True) -> Here:
    """:func:`bench.daemon.start`'s table, without cues, served here on a free port."""
    parser, _ = build_parser(load=["run"])
    port = free_port()
    table = open_table(parser.parse_args(run_args(state_dir, port, *args, simulate=simulate)))
    serving = contextlib.ExitStack()
    try:
        serving.enter_context(in_background(table.server))
    except BaseException:
        table.close()
        raise
    referee = table.service.referee_token
    return Here(f"http://127.0.0.1:{port}", referee, table=table, serving=serving)
