"""What a state directory's disk refused: the errors a failed write is answered with.

A write that fails (a full disk, a state directory made read-only) is raised as
:class:`DiskFull`, :class:`ReadOnly` or :class:`StoreError`, naming the directory, the cause and
the fix; the web answers the first two 507, the last 503.
"""

from __future__ import annotations

import errno
import os
import sqlite3
from pathlib import Path

from companion.errors import CompanionError

SQLITE_FULL = 13
SQLITE_READONLY = 8
SQLITE_PERM = 3
SQLITE_CANTOPEN = 14
FULL_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT})
READ_ONLY_ERRNOS = frozenset({errno.EROFS, errno.EACCES, errno.EPERM})


class StoreError(CompanionError):
    """The database cannot be written: nothing was changed, try again once the disk is mended."""

    cause: sqlite3.Error | OSError | None = None
    """What SQLite or the kernel said, when it said it (see :func:`write_error`)."""


class DiskFull(StoreError):
    """The state directory's disk (or the user's quota on it) is full."""


class ReadOnly(StoreError):
    """The state directory cannot be written: a read-only disk, or not the daemon's to write."""


def write_error(
    state_dir: Path, exc: sqlite3.Error | OSError, *, started: bool = False
) -> StoreError:
    """The error a failed write is answered with: what happened to which directory, and the fix;
    ``started``: the table found it at start, and takes no write until it is started again.

    SQLite says only "disk I/O error" when the kernel refused a write to a file it holds open (a
    disk the kernel remounted read-only after a fault, as ext4 does): then the directory itself
    is tried with a small file of its own, whose refusal names the cause.

    >>> str(write_error(Path("/var/lib/companion"), OSError(28, "No space left on device")))
    'the state directory /var/lib/companion is full (No space left on device): nothing was \
changed; free space on its disk, then try again'
    >>> readonly = sqlite3.OperationalError("attempt to write a readonly database")
    >>> type(write_error(Path("s"), readonly))
    <class 'companion.table.disk.ReadOnly'>
    """
    if isinstance(exc, OSError):
        detail = exc.strerror or str(exc)
        full = exc.errno in FULL_ERRNOS
        read_only = exc.errno in READ_ONLY_ERRNOS
    else:
        detail = str(exc)
        code = getattr(exc, "sqlite_errorcode", None)
        primary = None if code is None else code & 0xFF
        full = primary == SQLITE_FULL or (code is None and "full" in detail)
        read_only = primary in (SQLITE_READONLY, SQLITE_PERM, SQLITE_CANTOPEN) or (
            code is None and "readonly" in detail
        )
        if not (full or read_only):
            found = try_directory(state_dir)
            if found is not None:
                detail = f"{detail}; {found.strerror}"
                full = found.errno in FULL_ERRNOS
                read_only = found.errno in READ_ONLY_ERRNOS
    where = f"the state directory {state_dir}"
    then = (
        "the table started read-only and stores nothing; {fix}, then restart companion"
        if started
        else "nothing was changed; {fix}, then try again"
    )
    made: StoreError
    if full:
        made = DiskFull(f"{where} is full ({detail}): " + then.format(fix="free space on its disk"))
    elif read_only:
        fix = "make it writable by the user companion runs as (or mount its disk read-write)"
        made = ReadOnly(f"{where} cannot be written ({detail}): " + then.format(fix=fix))
    else:
        fix = "check its disk (the kernel's log names the fault)"
        made = StoreError(f"{where} could not be written ({detail}): " + then.format(fix=fix))
    made.cause = exc
    return made


def try_directory(state_dir: Path) -> OSError | None:
    """Write, sync and remove a small file in the state directory: the kernel's refusal, or
    ``None`` when the directory takes it."""
    probe = state_dir / ".companion-write-check"
    try:
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.write(fd, bytes(4096))
            os.fsync(fd)
        finally:
            os.close(fd)
            probe.unlink(missing_ok=True)
    except OSError as exc:
        return exc
    return None
