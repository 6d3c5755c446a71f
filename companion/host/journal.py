"""Log lines for journald: a ``<N>`` syslog priority before each line when stderr is the
journal, so that ``journalctl -u companion -p warning`` shows the warnings and the errors.

systemd passes ``JOURNAL_STREAM=DEVICE:INODE``, the stream it connected; only when stderr is
that very stream are the prefixes written, so a terminal or a pipe still sees plain lines
(systemd's own advice in ``systemd.exec(5)``).

>>> record = logging.LogRecord("companion", logging.WARNING, "", 0, "pad 2 is loose", None, None)
>>> JournalFormatter("%(message)s").format(record)
'<4>pad 2 is loose'
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping

PRIORITIES = {
    logging.DEBUG: 7,
    logging.INFO: 6,
    logging.WARNING: 4,
    logging.ERROR: 3,
    logging.CRITICAL: 2,
}
"""Python's levels as syslog's priorities (debug, info, warning, err, crit)."""


class JournalFormatter(logging.Formatter):
    """A formatter that prefixes every line of a record (a traceback's too) with its priority."""

    def format(self, record: logging.LogRecord) -> str:
        priority = PRIORITIES.get(record.levelno, 4 if record.levelno > logging.INFO else 6)
        return "\n".join(f"<{priority}>{line}" for line in super().format(record).splitlines())


def to_journal(env: Mapping[str, str] = os.environ, fd: int = 2) -> bool:
    """Whether ``fd`` is the stream systemd connected to the journal."""
    device, _, inode = env.get("JOURNAL_STREAM", "").partition(":")
    if not (device.isdigit() and inode.isdigit()):
        return False
    try:
        found = os.fstat(fd)
    except OSError:
        return False
    return (found.st_dev, found.st_ino) == (int(device), int(inode))


def formatter(fmt: str, env: Mapping[str, str] = os.environ, fd: int = 2) -> logging.Formatter:
    """The formatter for log lines written to ``fd``: with priorities when it is the journal."""
    return JournalFormatter(fmt) if to_journal(env, fd) else logging.Formatter(fmt)
