"""The games, their action logs and their melt inputs in SQLite: an action is on disk before it
is answered.

One database, ``companion.db`` in the state directory, with a rollback journal and
``synchronous=EXTRA``: when a write returns, it is in that file itself, synced, and so is the
journal's truncation to 0 bytes that commits it (``journal_mode=TRUNCATE``: SQLite syncs the
journal after it truncates it). The journal stays, empty, between writes: made and removed at
every commit, as ``DELETE`` does, it cost a commit a third more CPU and twice the time. Not WAL:
there a committed transaction lives in the ``-wal`` until a checkpoint, so a WAL deleted after
a kill loses every action since, a checkpoint after each write can fail after the commit (a
full disk), and a read-only directory cannot open a WAL database at all; the daemon's one
connection gains nothing from WAL's readers.

A game is a row with everything that replays it (its name, options, seats, the device's secret,
the players' seeds, and ``ended_at`` once the referee ended it); its actions are rows numbered
from 0, its melt inputs rows in game time, and its seats' claims rows in the order given (with
the token of the phone that used each); a finished game's summary is a row of ``results``,
written in the same transaction as the action or the end that finished it. Opening checks the
file before it is trusted (:mod:`.database_file`); a failed write is rolled back whole and
raised as a :mod:`.disk` error naming the directory, the cause and the fix, the connection kept,
so the next write succeeds once there is room. The connection comes from ``connect``, so a test
can put a failing disk under the store.

>>> import tempfile, pathlib
>>> store = Store(pathlib.Path(tempfile.mkdtemp()) / "companion.db")
>>> gid = store.new_game("a-game", {}, [{"seat": 1}], "00" * 32, [], {1: "claim"}, 0.0)
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
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from companion.host.statedir import private_dir, private_file
from companion.table.database_file import (
    BrokenDatabase,
    check,
    claims_of,
    empty_file,
    melt_input_of,
    remove_new,
    sqlite_connect,
    stored_game,
)
from companion.table.disk import StoreError, write_error
from companion.table.schema import SCHEMA, prepare, unreadable
from companion.table.stored import Finished, MeltInput, StoredGame

_GIVE_CLAIM = "INSERT INTO seat_claims (game_id, seat, claim, issued_at) VALUES (?, ?, ?, ?)"
_SETTLE = "INSERT OR IGNORE INTO results (game_id, started_at, summary) VALUES (?, ?, ?)"
_GAME = (
    "SELECT id, game, options, seats, device_secret, player_seeds, seat_tokens, started_at,"
    " ended_at, rules FROM games"
)
T = TypeVar("T")
Connect = Callable[[Path], sqlite3.Connection]
"""Opens the database file: SQLite's own, or a test's connection that fails on purpose."""


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
        empty = empty_file(path)
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
                remove_new(path)
            raise

    def _open(self, path: Path, empty: str, refusal: StoreError | None) -> None:
        try:
            if empty:
                raise BrokenDatabase(path, empty)
            new = check(self._db, path)
            if refusal is not None:
                if new:  # nothing to read: an empty game log in memory
                    self._db.executescript(SCHEMA)
                return
            self._db.execute("PRAGMA journal_mode=TRUNCATE")
            self._db.execute("PRAGMA synchronous=EXTRA")
            self._db.execute("PRAGMA foreign_keys=ON")
            with self._lock:
                prepare(self._db, path)
        except sqlite3.DatabaseError as exc:
            self._db.close()
            if isinstance(exc, sqlite3.OperationalError) and not unreadable(exc):
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
        claims: Mapping[int, str],
        started_at: float,
        rules: int = 1,
    ) -> int:
        """Store a new game (it becomes the current one) with its seats' first claims, played
        under edition ``rules`` of its rules; its id."""
        row = (
            game,
            json.dumps(options),
            json.dumps(seats),
            device_secret,
            json.dumps(player_seeds),
            "{}",
            started_at,
            rules,
        )

        def insert(cursor: sqlite3.Cursor) -> int:
            cursor.execute(
                "INSERT INTO games (game, options, seats, device_secret, player_seeds,"
                " seat_tokens, started_at, rules) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                row,
            )
            gid = int(cursor.lastrowid or 0)
            for seat, claim in claims.items():
                cursor.execute(_GIVE_CLAIM, (gid, seat, claim, started_at))
            return gid

        return self._transaction(insert)

    def give_claim(self, game_id: int, seat: int, claim: str, at: float) -> None:
        """Store a seat's new claim: from now on, its last claim decides who holds it."""
        self.write(_GIVE_CLAIM, (game_id, seat, claim, at))

    def claimed(self, game_id: int, claim: str, token: str, at: float) -> None:
        """Store that a phone used ``claim`` and was given ``token``, before it is told."""
        self.write(
            "UPDATE seat_claims SET token = ?, claimed_at = ? WHERE game_id = ? AND claim = ?",
            (token, at, game_id, claim),
        )

    def append(
        self,
        game_id: int,
        n: int,
        action: dict[str, Any],
        at: float,
        finished: Finished | None = None,
    ) -> None:
        """Store action ``n`` of a game, durably, before anyone is told it happened; with the
        game's summary when the action finished it."""

        def insert(cursor: sqlite3.Cursor) -> None:
            cursor.execute(
                "INSERT INTO actions (game_id, n, action, at) VALUES (?, ?, ?, ?)",
                (game_id, n, json.dumps(action), at),
            )
            if finished is not None:
                cursor.execute(_SETTLE, _result(game_id, finished))

        self._transaction(insert)

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
        return [melt_input_of(self.path, game_id, row) for row in rows]

    def end_game(self, game_id: int, at: float, finished: Finished | None = None) -> None:
        """Store that the referee ended a game at ``at``, with its summary, durably, before
        anyone is told."""

        def update(cursor: sqlite3.Cursor) -> None:
            cursor.execute("UPDATE games SET ended_at = ? WHERE id = ?", (at, game_id))
            if finished is not None:
                cursor.execute(_SETTLE, _result(game_id, finished))

        self._transaction(update)

    def settle(self, game_id: int, started_at: float, finished: Finished | None) -> None:
        """Store a game's summary, or that it never finished (``None``), where it has no row in
        ``results`` yet: a game of a database made before summaries were kept."""
        row = (game_id, started_at, None) if finished is None else _result(game_id, finished)
        self.write(_SETTLE, row)

    def current(self) -> StoredGame | None:
        """The latest game with its actions, or ``None`` before the first."""
        return self._game(f"{_GAME} ORDER BY id DESC LIMIT 1", ())

    def game(self, game_id: int) -> StoredGame | None:
        """Game ``game_id`` with its actions, or ``None`` when there is no such game."""
        return self._game(f"{_GAME} WHERE id = ?", (game_id,))

    def _game(self, sql: str, values: tuple[Any, ...]) -> StoredGame | None:
        with self._lock:
            row = self._db.execute(sql, values).fetchone()
            if row is None:
                return None
            actions = self._db.execute(
                "SELECT n, action FROM actions WHERE game_id = ? ORDER BY n", (row[0],)
            ).fetchall()
            claims = claims_of(self._db, self.path, row[0])
        return stored_game(self.path, row, actions, claims)

    def read(self, sql: str, values: tuple[Any, ...]) -> list[Any]:
        """The rows of a query; none where a table it reads is missing (a database opened
        read-only from before it was made)."""
        with self._lock:
            try:
                return self._db.execute(sql, values).fetchall()
            except sqlite3.OperationalError:
                return []

    def integrity(self) -> str:
        """SQLite's own check: ``ok`` when the file is sound."""
        with self._lock:
            return str(self._db.execute("PRAGMA integrity_check").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def write(self, sql: str, values: tuple[Any, ...]) -> None:
        """One statement in a transaction of its own: all of it on disk, or none of it."""
        self._write_many(sql, [values])

    def _write_many(self, sql: str, rows: Sequence[tuple[Any, ...]]) -> None:
        """One statement for each row, in one transaction: all of it on disk, or none of it."""
        self._transaction(lambda cursor: [cursor.execute(sql, values) for values in rows])

    def _transaction(self, work: Callable[[sqlite3.Cursor], T]) -> T:
        """``work`` in one transaction: all of it on disk, or none of it."""
        with self._lock:
            if self.refusal is not None:
                raise type(self.refusal)(str(self.refusal))
            try:
                self._db.execute("BEGIN IMMEDIATE")
                done = work(self._db.cursor())
                self._db.execute("COMMIT")
                return done
            except (sqlite3.Error, OSError) as exc:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise write_error(self.path.parent, exc) from None


def _result(game_id: int, finished: Finished) -> tuple[int, float, str]:
    return game_id, finished.started_at, json.dumps(finished.summary)
