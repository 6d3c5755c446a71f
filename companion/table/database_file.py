"""The database file before it is trusted: what makes it broken, and setting it aside.

A file that fails the store's checks is :class:`BrokenDatabase`: one line naming the file, what
is wrong and the fix, never a traceback; ``companion run --fresh`` sets it aside with
:func:`set_aside` and begins anew.
"""

from __future__ import annotations

import json
import math
import os
import sqlite3
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.errors import CompanionError
from companion.melt.attacks import ATTACK_KINDS
from companion.melt.replay import KINDS, RANGES
from companion.table.disk import write_error
from companion.table.stored import MeltInput

MAX_SEAT = 6

FRESH = (
    "move it away (with any -journal, -wal or -shm beside it), or start with --fresh to set it "
    "aside and begin anew"
)
"""The fix of a broken database, as ``companion run`` offers it."""
SIDECARS = ("-journal", "-wal", "-shm")
SCHEMA_VERSION = 4
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
game replaced it, or it no longer replays)."""
SQLITE_CORRUPT = 11
SQLITE_NOTADB = 26


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


def empty_file(path: Path) -> str:
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


def remove_new(path: Path) -> None:
    """Remove a database this start made and could not write: left empty, it would be taken for
    one whose games were lost."""
    for end in ("", *SIDECARS):
        beside = path.with_name(path.name + end)
        try:
            if beside.stat().st_size == 0 or end:
                beside.unlink()
        except OSError:
            pass


def unreadable(exc: sqlite3.DatabaseError) -> bool:
    """Whether SQLite found the file itself wrong (not a database, damaged), not its disk."""
    code = getattr(exc, "sqlite_errorcode", None)
    primary = None if code is None else code & 0xFF
    return primary in (SQLITE_CORRUPT, SQLITE_NOTADB) or (
        code is None and ("malformed" in str(exc) or "not a database" in str(exc))
    )


def set_aside(path: Path, at: float) -> Path:
    """Move a broken database (and its journal, WAL and shared memory) to
    ``<name>.broken-<UTC time>``, beside it; that new name (a journal keeps its ending after
    it, so the pair opens together). An empty journal, which holds nothing, is removed."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(at))
    aside = path.with_name(f"{path.name}.broken-{stamp}")
    extra = 1
    while any(aside.with_name(aside.name + end).exists() for end in ("", *SIDECARS)):
        extra += 1
        aside = path.with_name(f"{path.name}.broken-{stamp}-{extra}")
    try:
        for end in ("", *SIDECARS):
            beside = path.with_name(path.name + end)
            if end and beside.exists() and beside.stat().st_size == 0:
                beside.unlink()
            elif beside.exists():
                os.replace(beside, aside.with_name(aside.name + end))
    except OSError as exc:
        raise write_error(path.parent, exc) from None
    return aside


def check(db: sqlite3.Connection, path: Path) -> bool:
    """Whether the file is a new, empty database (else a sound companion database); a
    :class:`BrokenDatabase` saying why when it is neither."""
    found = str(db.execute("PRAGMA quick_check(1)").fetchone()[0])
    found = found.replace("*** in database main ***", "").strip()
    if found != "ok":
        raise BrokenDatabase(path, f"is damaged (SQLite's quick_check: {found})")
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
        raise BrokenDatabase(path, f"is not a companion database ({what}, tables: {names})")
    if version > SCHEMA_VERSION:
        raise BrokenDatabase(
            path,
            f"was written by a newer companion (schema {version}, this one knows {SCHEMA_VERSION})",
            "run the newer companion again, or start with --fresh to set it aside and begin anew",
        )
    return False


def json_of(path: Path, text: Any, what: str, kind: type) -> Any:
    """A stored JSON value of ``kind``, or :class:`BrokenDatabase` naming the row."""
    try:
        value = json.loads(text)
    except (TypeError, ValueError) as exc:
        raise BrokenDatabase(path, f"holds {what} that is not JSON ({exc})") from None
    if not isinstance(value, kind):
        raise BrokenDatabase(path, f"holds {what} that is not a JSON {kind.__name__}")
    return value


def text_of(path: Path, value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise BrokenDatabase(path, f"holds {what} that is not text ({value!r})")
    return value


LONGEST_GAME_S = 7 * 24 * 3600.0
"""The latest game time a stored melt input may have: a week, far past any game (a game's time
runs on across restarts, but not while the table is off for more than half a day). A later
one is a damaged row: rebuilt, it would make the curve's points without bound."""


def melt_input_of(path: Path, game_id: int, row: Sequence[Any]) -> MeltInput:
    """A stored melt input, or :class:`BrokenDatabase` naming its game and what is wrong: a
    time, a seat, a kind or a value that no table stores."""
    t_s, wall, seat, kind, value = row
    where = f"a melt input of game {game_id}"

    def number(value: Any, what: str, low: float, high: float) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise BrokenDatabase(path, f"holds {where} whose {what} is not a number ({value!r})")
        if not (math.isfinite(value) and low <= value <= high):
            raise BrokenDatabase(
                path, f"holds {where} whose {what} {value!r} is not from {low:g} to {high:g}"
            )
        return float(value)

    t_s = number(t_s, "game time", 0.0, LONGEST_GAME_S)
    wall = number(wall, "wall time", 0.0, 1e11)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= MAX_SEAT:
        raise BrokenDatabase(path, f"holds {where} for no seat ({seat!r})")
    if kind not in KINDS or kind == "melted":
        raise BrokenDatabase(path, f"holds {where} of an unknown kind ({kind!r})")
    if kind == "attack":
        if value not in ATTACK_KINDS:
            raise BrokenDatabase(path, f"holds {where} of an unknown attack ({value!r})")
        return MeltInput(t_s, wall, seat, kind, value)
    try:
        grams_or_c = float(value)
    except (TypeError, ValueError):
        grams_or_c = math.nan
    return MeltInput(t_s, wall, seat, kind, number(grams_or_c, kind, *RANGES[kind]))


def missing(path: Path, where: str, n: int) -> Any:
    raise BrokenDatabase(path, f"lacks action {n} of {where} (its actions skip a number)")


def sqlite_connect(path: Path) -> sqlite3.Connection:
    """SQLite's connection, shared by the service's threads under the store's lock; the store
    runs its own transactions."""
    return sqlite3.connect(path, check_same_thread=False, isolation_level=None)


def migrate(db: sqlite3.Connection) -> None:
    """Bring a database of an older schema up to this one, in place (in the caller's
    transaction, after the tables of :data:`SCHEMA` were made)."""
    columns = {row[1] for row in db.execute("PRAGMA table_info(games)")}
    if "ended_at" not in columns:
        db.execute("ALTER TABLE games ADD COLUMN ended_at REAL")
