"""The database's tables, what makes a file companion's, and making or updating them in place.

>>> import sqlite3
>>> db = sqlite3.connect(":memory:", isolation_level=None)
>>> prepare(db, Path("companion.db"))
>>> db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
True
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from companion.table.disk import write_error

SCHEMA_VERSION = 5
APPLICATION_ID = 0x434D504E
"""``PRAGMA application_id`` of a companion database: "CMPN" in ASCII, a 32-bit number of its
own (SQLite's list of known ids has no other)."""
TABLES = {
    "games": {"id", "game", "options", "seats", "device_secret", "player_seeds", "seat_tokens"},
    "actions": {"game_id", "n", "action", "at"},
}
"""The tables (with the columns every version had) that make a file one of ours."""
SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    seats TEXT NOT NULL,
    device_secret TEXT NOT NULL,
    player_seeds TEXT NOT NULL,
    seat_tokens TEXT NOT NULL,
    started_at REAL NOT NULL,
    ended_at REAL,
    rules INTEGER NOT NULL DEFAULT 1
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
CREATE TABLE IF NOT EXISTS seat_claims (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    claim TEXT NOT NULL,
    issued_at REAL NOT NULL,
    token TEXT,
    claimed_at REAL
);
CREATE INDEX IF NOT EXISTS seat_claims_of_game ON seat_claims (game_id);
CREATE TABLE IF NOT EXISTS results (
    game_id INTEGER PRIMARY KEY REFERENCES games(id),
    started_at REAL NOT NULL,
    summary TEXT
);
CREATE INDEX IF NOT EXISTS results_by_start ON results (started_at);
"""
"""The tables of this version; ``games.seat_tokens`` holds the tokens of a game stored before
its seats were claimed (version 2), ``{}`` after. ``results`` (version 4) holds a row for each
game that is settled: its summary once it finished, ``NULL`` for one that never will (another
game replaced it, or it no longer replays). ``games.rules`` (version 5) is the edition of the
game's rules it is played under: a game of another edition than its engine's is not replayed."""

SQLITE_CORRUPT = 11
SQLITE_NOTADB = 26


def unreadable(exc: sqlite3.DatabaseError) -> bool:
    """Whether SQLite found the file itself wrong (not a database, damaged), not its disk."""
    code = getattr(exc, "sqlite_errorcode", None)
    primary = None if code is None else code & 0xFF
    return primary in (SQLITE_CORRUPT, SQLITE_NOTADB) or (
        code is None and ("malformed" in str(exc) or "not a database" in str(exc))
    )


def prepare(db: sqlite3.Connection, path: Path) -> None:
    """Make a new database, or bring one of an older schema up to this one, in place; and
    write its id and version, which tells at start whether the disk takes writes (a refusal is
    a :mod:`.disk` error naming ``path``'s folder; a damaged file SQLite's own error)."""
    try:
        db.execute("BEGIN IMMEDIATE")
        for statement in SCHEMA.split(";"):
            if statement.strip():
                db.execute(statement)
        migrate(db)
        db.execute(f"PRAGMA application_id={APPLICATION_ID}")
        db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        db.execute("COMMIT")
    except (sqlite3.Error, OSError) as exc:
        if db.in_transaction:
            db.execute("ROLLBACK")
        if isinstance(exc, sqlite3.DatabaseError) and unreadable(exc):
            raise
        raise write_error(path.parent, exc) from None


def migrate(db: sqlite3.Connection) -> None:
    """Bring a database of an older schema up to this one, in place (in the caller's
    transaction, after the tables of :data:`SCHEMA` were made)."""
    columns = {row[1] for row in db.execute("PRAGMA table_info(games)")}
    if "ended_at" not in columns:
        db.execute("ALTER TABLE games ADD COLUMN ended_at REAL")
    if "rules" not in columns:
        db.execute("ALTER TABLE games ADD COLUMN rules INTEGER NOT NULL DEFAULT 1")
