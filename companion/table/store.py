"""The games and their action logs in SQLite: an action is on disk before it is answered.

One file, ``companion.db`` in the state directory, in WAL mode with ``synchronous=FULL``: a
committed transaction survives a power cut. A game is a row with everything that replays it
(its name, options, seats, the device's secret, the players' seeds, the seats' join tokens);
its actions are rows numbered from 0. After a crash the service rebuilds the current game by
replaying them: the state after the last answered action, exactly. When the referee ends a game
early, its row says when (``ended_at``), so a restart finds it still ended.

A database made before games could be ended lacks that column; opening it adds the column in
place (every game in it then counts as not ended), keeping its games and actions.

>>> import tempfile, pathlib
>>> store = Store(pathlib.Path(tempfile.mkdtemp()) / "companion.db")
>>> gid = store.new_game("ice-trays", {}, [{"seat": 1}], "00" * 32, [], {"1": "t"}, 0.0)
>>> store.append(gid, 0, {"type": "roll", "by": 1}, 1.0)
>>> store.current().actions
[{'type': 'roll', 'by': 1}]
>>> store.end_game(gid, 2.0)
>>> store.current().ended_at
2.0
"""

from __future__ import annotations

import json
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import CompanionError

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
"""


class StoreError(CompanionError):
    """The database cannot be written (a full disk, a read-only state directory)."""


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

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
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
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                cursor = self._db.execute(sql, values)
                self._db.execute("COMMIT")
                return cursor
            except sqlite3.Error as exc:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise StoreError(f"the game database cannot be written: {exc}") from None
