"""Log lines in the journal carry their priority; a terminal sees them plain."""

from __future__ import annotations

import logging
import os
from pathlib import Path

from companion.host import journal


def _record(level: int, message: str) -> logging.LogRecord:
    return logging.LogRecord("companion.table", level, "", 0, message, None, None)


def test_each_level_is_its_syslog_priority_on_every_line() -> None:
    """``journalctl -p warning`` shows a warning, and every line of a traceback stays with it."""
    lines = journal.JournalFormatter("%(levelname)s %(message)s")
    assert lines.format(_record(logging.WARNING, "pad 2: no reading")) == (
        "<4>WARNING pad 2: no reading"
    )
    assert lines.format(_record(logging.INFO, "serving")) == "<6>INFO serving"
    assert lines.format(_record(logging.ERROR, "a\nb")) == "<3>ERROR a\n<3>b"


def test_the_prefixes_go_only_to_the_stream_systemd_connected(tmp_path: Path) -> None:
    with open(tmp_path / "log", "w") as stream, open(tmp_path / "other", "w") as other:
        found = os.fstat(stream.fileno())
        env = {"JOURNAL_STREAM": f"{found.st_dev}:{found.st_ino}"}
        assert journal.to_journal(env, stream.fileno())
        assert isinstance(
            journal.formatter("%(message)s", env, stream.fileno()), journal.JournalFormatter
        )
        assert not journal.to_journal(env, other.fileno())  # a pipe or a terminal: plain lines
        assert not journal.to_journal({}, stream.fileno())
        assert not journal.to_journal({"JOURNAL_STREAM": "garbage"}, stream.fileno())
        plain = journal.formatter("%(message)s", {}, stream.fileno())
        assert plain.format(_record(logging.WARNING, "x")) == "x"
