"""The state directory is the daemon's alone: the directory mode 0700, every file in it 0600.

It holds the game database (whose log and write-ahead log carry every seat's token), the
referee's token and the calibration. Under systemd the unit's ``StateDirectoryMode=0700`` and
``UMask=0077`` see to that; started by hand, a umask of 0022 (or 0000) would leave the folder
open to every local user and the database readable by them. So each file is made here with
its mode set whatever the umask, and at start the daemon tightens a folder or a file of its own
left too open by an older version or by hand (:func:`secure`), and says so in its log.

A folder that others may use is never taken, nor re-moded (:func:`refuse_shared`): ``/tmp``
with its sticky bit, a folder every user may write in, another user's, ``/`` or the home folder
itself, or one open to others that holds files which are not companion's.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp()) / "state"
>>> private_dir(folder); private_file(folder / "companion.db")
>>> oct(folder.stat().st_mode & 0o777), oct((folder / "companion.db").stat().st_mode & 0o777)
('0o700', '0o600')
"""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

from companion.errors import CompanionError

log = logging.getLogger(__name__)

DIR_MODE = 0o700
FILE_MODE = 0o600
OTHERS = 0o077
"""The bits of a mode that let the group and other users in."""

STATE_FILES = (
    "companion.db",
    "companion.db-wal",
    "companion.db-shm",
    "companion.db-journal",
    "referee-token",
    "referee-token.new",
    "calibration.toml",
    "calibration.toml.bak",
    "sensors.lock",
    "table.lock",
    "hotspot-password",
)
"""Every file the daemon and its tools keep in the state directory."""


SHARED_PLACES = ("/", "/tmp", "/var/tmp", "/dev/shm", "/home", "/root")
"""Folders that are everyone's, or the parents of everyone's, whatever their mode."""


class SharedDirectory(CompanionError):
    """A state directory that others may use: never taken, never re-moded."""

    def __init__(self, path: Path, why: str) -> None:
        super().__init__(
            f"{path} {why}: companion keeps its games and tokens in a folder of its own; give "
            "--state-dir a new folder's path (it is made), like ~/.local/state/companion"
        )


def refuse_shared(path: Path) -> None:
    """:class:`SharedDirectory` when ``path`` is a folder that others may use (see the
    module's description); nothing when it is companion's, or not there yet.

    >>> refuse_shared(Path("/tmp"))
    Traceback (most recent call last):
    ...
    companion.host.statedir.SharedDirectory: /tmp is a folder every user shares: ...
    """
    try:
        found = path.stat()
        where = path.resolve()
    except (FileNotFoundError, NotADirectoryError):
        return
    except OSError as exc:
        raise SharedDirectory(path, f"cannot be read ({exc.strerror})") from None
    if not stat.S_ISDIR(found.st_mode):
        return  # not a folder: making it fails, and says so, as making any folder does
    if str(where) in SHARED_PLACES or where == Path.home():
        raise SharedDirectory(
            path,
            "is a folder every user shares"
            if where != Path.home()
            else "is your home folder itself",
        )
    if found.st_mode & stat.S_ISVTX:
        raise SharedDirectory(path, "has the sticky bit, as a folder every user shares has")
    if found.st_mode & stat.S_IWOTH:
        raise SharedDirectory(path, "is a folder every user may write in")
    if found.st_uid != os.geteuid() and os.geteuid() != 0:
        raise SharedDirectory(path, f"belongs to another user (uid {found.st_uid})")
    if found.st_mode & OTHERS:
        names = {entry.name for entry in os.scandir(path)}
        if names and not names & set(STATE_FILES):
            raise SharedDirectory(path, "is open to other users and holds files not companion's")


def private_dir(path: Path) -> None:
    """Make the folder ``path`` (and its parents) when missing, mode 0700 whatever the umask;
    tighten it, without a word, when it is the daemon's and others may enter it; refuse one that
    others may use (:func:`refuse_shared`)."""
    refuse_shared(path)
    path.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)
    tighten(path, DIR_MODE)


def private_file(path: Path) -> None:
    """Make ``path`` an empty file of mode 0600 when there is none, whatever the umask (what
    writes it next keeps the mode: SQLite gives its -wal and -shm the database's); tighten one
    that is there."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, FILE_MODE)
    except FileExistsError:
        tighten(path, FILE_MODE)
        return
    try:
        os.fchmod(fd, FILE_MODE)
    finally:
        os.close(fd)


def tighten(path: Path, mode: int) -> int | None:
    """Take the group's and other users' rights off ``path`` when it is the daemon's and has
    any (to ``mode`` at most); its mode before, when it changed, else ``None``.

    A file of another user is left as it is (only its owner or root may change it), and so is
    one on a read-only disk: the daemon's own checks report what they cannot do there.
    """
    try:
        found = path.lstat()
    except FileNotFoundError:
        return None
    old = stat.S_IMODE(found.st_mode)
    if stat.S_ISLNK(found.st_mode) or not old & OTHERS or found.st_uid != os.geteuid():
        return None
    try:
        os.chmod(path, old & mode)
    except OSError as exc:
        log.warning(
            "%s is open to other users (mode %04o) and cannot be closed: %s",
            path,
            old,
            exc.strerror or exc,
        )
        return None
    return old


def secure(state_dir: Path) -> list[Path]:
    """At the daemon's start: tighten the state directory and each of its files
    (:data:`STATE_FILES`) that others may read, each said in the log; the paths tightened. A
    folder that others may use is refused (:func:`refuse_shared`)."""
    refuse_shared(state_dir)
    if not state_dir.is_dir():
        return []
    tightened = []
    for path, mode in [
        (state_dir, DIR_MODE),
        *((state_dir / name, FILE_MODE) for name in STATE_FILES),
    ]:
        old = tighten(path, mode) if path == state_dir or path.is_file() else None
        if old is not None:
            log.warning(
                "%s was open to other users (mode %04o): now %04o, the daemon's user's alone",
                path,
                old,
                old & mode,
            )
            tightened.append(path)
    return tightened
