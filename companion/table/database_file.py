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
from companion.table.schema import APPLICATION_ID, SCHEMA_VERSION, TABLES
from companion.table.stored import MeltInput, StoredClaim, StoredGame

MAX_SEAT = 6

FRESH = (
    "move it away (with any -journal, -wal or -shm beside it), or start with --fresh to set it "
    "aside and begin anew"
)
"""The fix of a broken database, as ``companion run`` offers it."""
SIDECARS = ("-journal", "-wal", "-shm")


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


def edition_of(path: Path, value: Any, what: str) -> int:
    if type(value) is not int or value < 1:
        raise BrokenDatabase(path, f"holds {what} that is not a whole number from 1 ({value!r})")
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


def claims_of(db: sqlite3.Connection, path: Path, game_id: int) -> tuple[StoredClaim, ...]:
    """A game's seat claims in the order given (none in a database opened read-only from
    before claims were kept)."""
    try:
        rows = db.execute(
            "SELECT seat, claim, token FROM seat_claims WHERE game_id = ? ORDER BY rowid",
            (game_id,),
        ).fetchall()
    except sqlite3.OperationalError:
        return ()
    where = f"game {game_id}'s seat claims"
    if not all(isinstance(s, int) and isinstance(c, str) for s, c, _ in rows):
        raise BrokenDatabase(path, f"holds {where} that are not a seat and a text")
    return tuple(StoredClaim(seat, claim, token) for seat, claim, token in rows)


def stored_game(
    path: Path, row: Sequence[Any], actions: Sequence[Any], claims: tuple[StoredClaim, ...]
) -> StoredGame:
    """A game's row (``id, game, options, seats, device_secret, player_seeds, seat_tokens,
    started_at, ended_at, rules``) with its actions' ``(n, action)`` rows, each checked: a
    :class:`BrokenDatabase` names the first that is not what the table stores."""
    gid = row[0]
    where = f"game {gid}"
    return StoredGame(
        id=gid,
        game=text_of(path, row[1], f"{where}'s name"),
        options=json_of(path, row[2], f"{where}'s options", dict),
        seats=json_of(path, row[3], f"{where}'s seats", list),
        device_secret=text_of(path, row[4], f"{where}'s secret"),
        player_seeds=json_of(path, row[5], f"{where}'s seeds", list),
        seat_tokens=json_of(path, row[6], f"{where}'s seat tokens", dict),
        started_at=row[7],
        actions=[
            json_of(path, text, f"action {want} of {where}", dict)
            if n == want
            else missing(path, where, want)
            for want, (n, text) in enumerate(actions)
        ],
        ended_at=row[8],
        claims=claims,
        rules=edition_of(path, row[9], f"{where}'s edition of its rules"),
    )


def missing(path: Path, where: str, n: int) -> Any:
    raise BrokenDatabase(path, f"lacks action {n} of {where} (its actions skip a number)")


def sqlite_connect(path: Path) -> sqlite3.Connection:
    """SQLite's connection, shared by the service's threads under the store's lock; the store
    runs its own transactions."""
    return sqlite3.connect(path, check_same_thread=False, isolation_level=None)
