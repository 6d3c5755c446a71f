"""The games and their action logs in SQLite: an action is on disk before it is answered.

One file, ``companion.db`` in the state directory, with a rollback journal
(``journal_mode=DELETE``) and ``synchronous=EXTRA``: when a write returns, it is in that file
itself, synced, and so is the journal's removal that commits it; a power cut cannot take it back.
Not WAL: there a committed transaction lives in ``companion.db-wal`` until a checkpoint, so a
WAL deleted (or left behind by a copy) after a kill loses every answered action since; a
checkpoint after each write would close that, but it can fail after the commit (a full disk,
when the database must grow), leaving an answered action in the WAL only, and a read-only
directory could not even open a WAL database (it needs its ``-shm``). The daemon has a single
connection and never reads the database to answer a status, so WAL's readers beside a writer
buy it nothing; a write costs a few fsyncs more (see ``bench``).

A game is a row with everything that replays it (its name, options, seats, the device's secret,
the players' seeds, the seats' join tokens); its actions are rows numbered from 0. After a crash
the service rebuilds the current game by replaying them: the state after the last answered
action, exactly. When the referee ends a game early, its row says when (``ended_at``), so a
restart finds it still ended.

A database made before games could be ended lacks that column; opening it adds the column in
place (every game in it then counts as not ended), keeping its games and actions.

Opening checks the file before it is trusted: SQLite's ``quick_check``, companion's
``application_id`` (set on a new database, and on one of ours made before there was one: it has
our tables and a ``user_version``) and the ``user_version`` (the schema), and the current
game's rows as they are read. A file that fails is :class:`BrokenDatabase`: one line naming the
file, what is wrong and the fix, never a traceback. Every start writes the schema's version
once, so a disk that refuses writes is known at start, not at the first action.

A write that fails (a full disk, a state directory made read-only) is rolled back whole and
raised as :class:`DiskFull`, :class:`ReadOnly` or :class:`StoreError`, naming the directory, the
cause and the fix; the connection stays open, so the next write succeeds once there is room.
The connection comes from ``connect``, so a test can put a failing disk under the store.

>>> import tempfile, pathlib
>>> store = Store(pathlib.Path(tempfile.mkdtemp()) / "companion.db")
>>> gid = store.new_game("a-game", {}, [{"seat": 1}], "00" * 32, [], {"1": "t"}, 0.0)
>>> store.append(gid, 0, {"type": "roll", "by": 1}, 1.0)
>>> store.current().actions
[{'type': 'roll', 'by': 1}]
>>> store.end_game(gid, 2.0)
>>> store.current().ended_at
2.0
"""

from __future__ import annotations

import errno
import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from companion.errors import CompanionError
from companion.statedir import private_dir, private_file

SCHEMA_VERSION = 2
APPLICATION_ID = 0x434D504E
"""``PRAGMA application_id`` of a companion database: "CMPN" in ASCII, a 32-bit number of its
own (SQLite's list of known ids has no other)."""
TABLES = {
    "games": {"id", "game", "options", "seats", "device_secret", "player_seeds", "seat_tokens"},
    "actions": {"game_id", "n", "action", "at"},
}
"""The tables (with the columns every version had) that make a file one of ours."""
FRESH = (
    "move it away (with any -journal, -wal or -shm beside it), or start with --fresh to set it "
    "aside and begin anew"
)
"""The fix of a broken database, as ``companion run`` offers it."""
SIDECARS = ("-journal", "-wal", "-shm")
_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    seats TEXT NOT NULL,
    device_secret TEXT NOT NULL,
    player_seeds TEXT NOT NULL,
    seat_tokens TEXT NOT NULL,
    started_at REAL NOT NULL,
    ended_at REAL
);
CREATE TABLE IF NOT EXISTS actions (
    game_id INTEGER NOT NULL REFERENCES games(id),
    n INTEGER NOT NULL,
    action TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (game_id, n)
);
CREATE TABLE IF NOT EXISTS melt_inputs (
    game_id INTEGER NOT NULL REFERENCES games(id),
    t_s REAL NOT NULL,
    wall REAL NOT NULL,
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    value TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS melt_inputs_of_game ON melt_inputs (game_id, t_s);
"""


SQLITE_FULL = 13
SQLITE_READONLY = 8
SQLITE_PERM = 3
SQLITE_CANTOPEN = 14
SQLITE_CORRUPT = 11
SQLITE_NOTADB = 26
FULL_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT})
READ_ONLY_ERRNOS = frozenset({errno.EROFS, errno.EACCES, errno.EPERM})

Connect = Callable[[Path], sqlite3.Connection]
"""Opens the database file: SQLite's own, or a test's connection that fails on purpose."""


class StoreError(CompanionError):
    """The database cannot be written: nothing was changed, try again once the disk is mended."""

    cause: sqlite3.Error | OSError | None = None
    """What SQLite or the kernel said, when it said it (see :func:`write_error`)."""


class DiskFull(StoreError):
    """The state directory's disk (or the user's quota on it) is full."""


class ReadOnly(StoreError):
    """The state directory cannot be written: a read-only disk, or not the daemon's to write."""


class BrokenDatabase(CompanionError):
    """The game database cannot be trusted: its file, what is wrong with it, and the fix.

    >>> str(BrokenDatabase(Path("/s/companion.db"), "is empty (0 bytes)"))
    '/s/companion.db is empty (0 bytes): move it away (with any -journal, -wal or -shm beside \
it), or start with --fresh to set it aside and begin anew'
    """

    def __init__(self, path: Path, what: str, fix: str = FRESH) -> None:
        self.path = path
        self.what = " ".join(what.split())  # one line, whatever SQLite or a row said
        super().__init__(f"{path} {self.what}: {fix}")


@dataclass(frozen=True)
class MeltInput:
    """One thing a seat's melt estimate is made from, at ``t_s`` seconds of game time (which
    runs on across restarts) and the wall clock's ``wall``: a recording line of ``companion
    melt replay`` (``start_g``, ``air_c``, ``weigh_in_g``, ``attack``)."""

    t_s: float
    wall: float
    seat: int
    kind: str
    value: float | str


@dataclass(frozen=True)
class StoredGame:
    """A game as stored: what starts it again, and its actions in order."""

    id: int
    game: str
    options: dict[str, Any]
    seats: list[Any]
    device_secret: str
    player_seeds: list[str]
    seat_tokens: dict[str, str]
    started_at: float
    actions: list[dict[str, Any]]
    ended_at: float | None = None
    """When the referee ended the game early (Unix seconds), or ``None``."""


class Store:
    """The service's database; safe to call from any thread (one lock, one connection)."""

    def __init__(
        self, path: Path, connect: Connect | None = None, *, refusal: StoreError | None = None
    ) -> None:
        self.path = path
        self.refusal = refusal
        """Why this store takes no write (the disk refused them at start), or ``None``: every
        write then raises its like, and the database is only read."""
        self._lock = threading.Lock()
        empty = _empty(path)
        existed = path.exists()
        try:
            if refusal is None:  # a store that writes: its file private before SQLite makes it
                private_dir(path.parent)
                private_file(path)  # 0600: SQLite makes its journal with the database's mode
            self._db = (connect or sqlite_connect)(path)
        except (OSError, sqlite3.Error) as exc:
            raise write_error(path.parent, exc) from None
        try:
            self._open(path, empty, refusal)
        except BaseException:
            if not existed and refusal is None:  # a new file the disk refused: not left empty
                _remove_new(path)
            raise

    def _open(self, path: Path, empty: str, refusal: StoreError | None) -> None:
        try:
            if empty:
                raise BrokenDatabase(path, empty)
            new = self._check()
            if refusal is not None:
                if new:  # nothing to read: an empty game log in memory
                    self._db.executescript(_SCHEMA)
                return
            self._db.execute("PRAGMA journal_mode=DELETE")
            self._db.execute("PRAGMA synchronous=EXTRA")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._prepare()
        except sqlite3.DatabaseError as exc:
            self._db.close()
            if isinstance(exc, sqlite3.OperationalError) and not _unreadable(exc):
                raise write_error(path.parent, exc) from None
            raise BrokenDatabase(path, f"cannot be read as a database ({exc})") from None
        except BaseException:
            self._db.close()
            raise

    def new_game(
        self,
        game: str,
        options: dict[str, Any],
        seats: list[Any],
        device_secret: str,
        player_seeds: list[str],
        seat_tokens: dict[str, str],
        started_at: float,
    ) -> int:
        """Store a new game (it becomes the current one); its id."""
        row = (
            game,
            json.dumps(options),
            json.dumps(seats),
            device_secret,
            json.dumps(player_seeds),
            json.dumps(seat_tokens),
            started_at,
        )
        cursor = self._write(
            "INSERT INTO games (game, options, seats, device_secret, player_seeds, seat_tokens,"
            " started_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            row,
        )
        return int(cursor.lastrowid or 0)

    def append(self, game_id: int, n: int, action: dict[str, Any], at: float) -> None:
        """Store action ``n`` of a game, durably, before anyone is told it happened."""
        self._write(
            "INSERT INTO actions (game_id, n, action, at) VALUES (?, ?, ?, ?)",
            (game_id, n, json.dumps(action), at),
        )

    def append_melt(self, game_id: int, inputs: Sequence[MeltInput]) -> None:
        """Store what a game's melt estimates are made from (cubes set out, weigh-ins, air,
        attacks), in one transaction, so a restart rebuilds them."""
        rows = [(game_id, i.t_s, i.wall, i.seat, i.kind, str(i.value)) for i in inputs]
        self._write_many(
            "INSERT INTO melt_inputs (game_id, t_s, wall, seat, kind, value)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            rows,
        )

    def melt_inputs(self, game_id: int) -> list[MeltInput]:
        """A game's stored melt inputs, in the order of its game time (none in a database
        opened read-only from before they were kept)."""
        with self._lock:
            try:
                rows = self._db.execute(
                    "SELECT t_s, wall, seat, kind, value FROM melt_inputs WHERE game_id = ?"
                    " ORDER BY t_s, rowid",
                    (game_id,),
                ).fetchall()
            except sqlite3.OperationalError:
                return []
        return [MeltInput(t, wall, seat, kind, value) for t, wall, seat, kind, value in rows]

    def end_game(self, game_id: int, at: float) -> None:
        """Store that the referee ended a game at ``at``, durably, before anyone is told."""
        self._write("UPDATE games SET ended_at = ? WHERE id = ?", (at, game_id))

    def current(self) -> StoredGame | None:
        """The latest game with its actions, or ``None`` before the first."""
        with self._lock:
            row = self._db.execute(
                "SELECT id, game, options, seats, device_secret, player_seeds, seat_tokens,"
                " started_at, ended_at FROM games ORDER BY id DESC LIMIT 1"
            ).fetchone()
            if row is None:
                return None
            actions = self._db.execute(
                "SELECT n, action FROM actions WHERE game_id = ? ORDER BY n", (row[0],)
            ).fetchall()
        gid = row[0]
        where = f"game {gid}"
        return StoredGame(
            id=gid,
            game=_text(self.path, row[1], f"{where}'s name"),
            options=_json(self.path, row[2], f"{where}'s options", dict),
            seats=_json(self.path, row[3], f"{where}'s seats", list),
            device_secret=_text(self.path, row[4], f"{where}'s secret"),
            player_seeds=_json(self.path, row[5], f"{where}'s seeds", list),
            seat_tokens=_json(self.path, row[6], f"{where}'s seat tokens", dict),
            started_at=row[7],
            actions=[
                _json(self.path, text, f"action {want} of {where}", dict)
                if n == want
                else _missing(self.path, where, want)
                for want, (n, text) in enumerate(actions)
            ],
            ended_at=row[8],
        )

    def integrity(self) -> str:
        """SQLite's own check: ``ok`` when the file is sound."""
        with self._lock:
            return str(self._db.execute("PRAGMA integrity_check").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _check(self) -> bool:
        """Whether the file is a new, empty database (else a sound companion database); a
        :class:`BrokenDatabase` saying why when it is neither."""
        db = self._db
        found = str(db.execute("PRAGMA quick_check(1)").fetchone()[0])
        found = found.replace("*** in database main ***", "").strip()
        if found != "ok":
            raise BrokenDatabase(self.path, f"is damaged (SQLite's quick_check: {found})")
        app = int(db.execute("PRAGMA application_id").fetchone()[0])
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        tables = {
            name: {row[1] for row in db.execute(f"PRAGMA table_info({name})")}
            for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        if app == 0 and not tables and version == 0:
            return True  # a new database: made by _prepare
        ours = all(columns <= tables.get(name, set()) for name, columns in TABLES.items())
        if app not in (0, APPLICATION_ID) or not ours or (app == 0 and version == 0):
            what = f"application id {app:#x}" if app else "no application id"
            names = ", ".join(sorted(tables)) or "none"
            raise BrokenDatabase(
                self.path, f"is not a companion database ({what}, tables: {names})"
            )
        if version > SCHEMA_VERSION:
            raise BrokenDatabase(
                self.path,
                f"was written by a newer companion (schema {version}, this one knows "
                f"{SCHEMA_VERSION})",
                "run the newer companion again, or start with --fresh to set it aside and "
                "begin anew",
            )
        return False

    def _prepare(self) -> None:
        """Make a new database, or bring one of an older schema up to this one, in place; and
        write its id and version, which tells at start whether the disk takes writes."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        self._db.execute(statement)
                self._migrate()
                self._db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
                self._db.execute("COMMIT")
            except (sqlite3.Error, OSError) as exc:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                if isinstance(exc, sqlite3.DatabaseError) and _unreadable(exc):
                    raise
                raise write_error(self.path.parent, exc) from None

    def _migrate(self) -> None:
        """Bring a database of an older schema up to this one, in place."""
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(games)")}
        if "ended_at" not in columns:
            self._db.execute("ALTER TABLE games ADD COLUMN ended_at REAL")

    def _write(self, sql: str, values: tuple[Any, ...]) -> sqlite3.Cursor:
        """One statement in a transaction of its own: all of it on disk, or none of it."""
        return self._write_many(sql, [values])

    def _write_many(self, sql: str, rows: Sequence[tuple[Any, ...]]) -> sqlite3.Cursor:
        """One statement for each row, in one transaction: all of it on disk, or none of it."""
        with self._lock:
            if self.refusal is not None:
                raise type(self.refusal)(str(self.refusal))
            try:
                self._db.execute("BEGIN IMMEDIATE")
                cursor = self._db.cursor()
                for values in rows:
                    cursor.execute(sql, values)
                self._db.execute("COMMIT")
                return cursor
            except (sqlite3.Error, OSError) as exc:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise write_error(self.path.parent, exc) from None


def _empty(path: Path) -> str:
    """What is wrong with a file that exists and holds nothing, or ``""``: SQLite would take it
    for a new database, and the games it held would be gone without a word."""
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return ""
    except OSError as exc:
        return f"cannot be read ({exc.strerror})"
    journals = [path.with_name(path.name + end) for end in SIDECARS[:2]]
    if size == 0 and not any(j.exists() and j.stat().st_size for j in journals):
        return "is empty (0 bytes: its games are gone, perhaps cut short by a full disk)"
    return ""


def _remove_new(path: Path) -> None:
    """Remove a database this start made and could not write: left empty, it would be taken for
    one whose games were lost."""
    for end in ("", *SIDECARS):
        beside = path.with_name(path.name + end)
        try:
            if beside.stat().st_size == 0 or end:
                beside.unlink()
        except OSError:
            pass


def _unreadable(exc: sqlite3.DatabaseError) -> bool:
    """Whether SQLite found the file itself wrong (not a database, damaged), not its disk."""
    code = getattr(exc, "sqlite_errorcode", None)
    primary = None if code is None else code & 0xFF
    return primary in (SQLITE_CORRUPT, SQLITE_NOTADB) or (
        code is None and ("malformed" in str(exc) or "not a database" in str(exc))
    )


def _json(path: Path, text: Any, what: str, kind: type) -> Any:
    """A stored JSON value of ``kind``, or :class:`BrokenDatabase` naming the row."""
    try:
        value = json.loads(text)
    except (TypeError, ValueError) as exc:
        raise BrokenDatabase(path, f"holds {what} that is not JSON ({exc})") from None
    if not isinstance(value, kind):
        raise BrokenDatabase(path, f"holds {what} that is not a JSON {kind.__name__}")
    return value


def _text(path: Path, value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise BrokenDatabase(path, f"holds {what} that is not text ({value!r})")
    return value


def _missing(path: Path, where: str, n: int) -> Any:
    raise BrokenDatabase(path, f"lacks action {n} of {where} (its actions skip a number)")


def read_only_store(path: Path, refusal: StoreError) -> Store:
    """The store of a table whose disk refused writes at start: the database read as it is
    (an empty one in memory when there is none), every write refused with ``refusal``."""

    def connect(p: Path) -> sqlite3.Connection:
        where = f"file:{quote(str(p))}?mode=ro" if p.exists() else "file::memory:"
        return sqlite3.connect(where, uri=True, check_same_thread=False, isolation_level=None)

    return Store(path, connect, refusal=refusal)


def set_aside(path: Path, at: float) -> Path:
    """Move a broken database (and its journal, WAL and shared memory) to
    ``<name>.broken-<UTC time>``, beside it; that new name (a journal keeps its ending after
    it, so the pair opens together)."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(at))
    aside = path.with_name(f"{path.name}.broken-{stamp}")
    extra = 1
    while any(aside.with_name(aside.name + end).exists() for end in ("", *SIDECARS)):
        extra += 1
        aside = path.with_name(f"{path.name}.broken-{stamp}-{extra}")
    try:
        for end in ("", *SIDECARS):
            beside = path.with_name(path.name + end)
            if beside.exists():
                os.replace(beside, aside.with_name(aside.name + end))
    except OSError as exc:
        raise write_error(path.parent, exc) from None
    return aside


def sqlite_connect(path: Path) -> sqlite3.Connection:
    """SQLite's connection, shared by the service's threads under the store's lock; the store
    runs its own transactions."""
    return sqlite3.connect(path, check_same_thread=False, isolation_level=None)


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
    <class 'companion.table.store.ReadOnly'>
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
