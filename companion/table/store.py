"""The games and their action logs in SQLite: an action is on disk before it is answered.

One file, ``companion.db`` in the state directory, in WAL mode with ``synchronous=FULL``: a
committed transaction survives a power cut. A game is a row with everything that replays it
(its name, options, seats, the device's secret, the players' seeds, the seats' join tokens);
its actions are rows numbered from 0. After a crash the service rebuilds the current game by
replaying them: the state after the last answered action, exactly. When the referee ends a game
early, its row says when (``ended_at``), so a restart finds it still ended.

A database made before games could be ended lacks that column; opening it adds the column in
place (every game in it then counts as not ended), keeping its games and actions.

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
import sqlite3
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import CompanionError
from companion.statedir import private_dir, private_file

SCHEMA_VERSION = 2
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
FULL_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT})
READ_ONLY_ERRNOS = frozenset({errno.EROFS, errno.EACCES, errno.EPERM})

Connect = Callable[[Path], sqlite3.Connection]
"""Opens the database file: SQLite's own, or a test's connection that fails on purpose."""


class StoreError(CompanionError):
    """The database cannot be written: nothing was changed, try again once the disk is mended."""


class DiskFull(StoreError):
    """The state directory's disk (or the user's quota on it) is full."""


class ReadOnly(StoreError):
    """The state directory cannot be written: a read-only disk, or not the daemon's to write."""


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

    def __init__(self, path: Path, connect: Connect | None = None) -> None:
        self.path = path
        self._lock = threading.Lock()
        try:
            private_dir(path.parent)
            private_file(path)  # 0600: SQLite makes its -wal and -shm with the database's mode
            self._db = (connect or sqlite_connect)(path)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(_SCHEMA)
            self._migrate()
            self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot open the game database {path}: {exc}") from None

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
        """A game's stored melt inputs, in the order of its game time."""
        with self._lock:
            rows = self._db.execute(
                "SELECT t_s, wall, seat, kind, value FROM melt_inputs WHERE game_id = ?"
                " ORDER BY t_s, rowid",
                (game_id,),
            ).fetchall()
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
                "SELECT action FROM actions WHERE game_id = ? ORDER BY n", (row[0],)
            ).fetchall()
        return StoredGame(
            id=row[0],
            game=row[1],
            options=json.loads(row[2]),
            seats=json.loads(row[3]),
            device_secret=row[4],
            player_seeds=json.loads(row[5]),
            seat_tokens=json.loads(row[6]),
            started_at=row[7],
            actions=[json.loads(a) for (a,) in actions],
            ended_at=row[8],
        )

    def integrity(self) -> str:
        """SQLite's own check: ``ok`` when the file is sound."""
        with self._lock:
            return str(self._db.execute("PRAGMA integrity_check").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()

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


def sqlite_connect(path: Path) -> sqlite3.Connection:
    """SQLite's connection, shared by the service's threads under the store's lock; the store
    runs its own transactions."""
    return sqlite3.connect(path, check_same_thread=False, isolation_level=None)


def write_error(state_dir: Path, exc: sqlite3.Error | OSError) -> StoreError:
    """The error a failed write is answered with: what happened to which directory, and the fix.

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
    where = f"the state directory {state_dir}"
    if full:
        return DiskFull(
            f"{where} is full ({detail}): nothing was changed; free space on its disk, "
            "then try again"
        )
    if read_only:
        return ReadOnly(
            f"{where} cannot be written ({detail}): nothing was changed; make it writable by "
            "the user companion runs as (or mount its disk read-write), then try again"
        )
    return StoreError(
        f"{where} could not be written ({detail}): nothing was changed; check its disk "
        "(the kernel's log names the fault), then try again"
    )
