"""The store keeps the referee's end of a game, and opens a database made before it could."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from companion.table.schema import SCHEMA_VERSION
from companion.table.store import Store

OLD_SCHEMA = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    seats TEXT NOT NULL,
    device_secret TEXT NOT NULL,
    player_seeds TEXT NOT NULL,
    seat_tokens TEXT NOT NULL,
    started_at REAL NOT NULL
);
CREATE TABLE actions (
    game_id INTEGER NOT NULL REFERENCES games(id),
    n INTEGER NOT NULL,
    action TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (game_id, n)
);
PRAGMA user_version=1;
"""
ROLL = {"type": "roll", "by": 1}
LEGACY = json.dumps({"1": "token-of-seat-1-" + "x" * 22, "2": "token-of-seat-2-" + "y" * 22})
"""The seats' tokens as a game stored them before its seats were claimed."""


def old_database(path: Path) -> None:
    """A database as the first schema made it: one game of two seats with one action."""
    db = sqlite3.connect(path)
    db.executescript(OLD_SCHEMA)
    db.execute(
        "INSERT INTO games (game, options, seats, device_secret, player_seeds, seat_tokens,"
        " started_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        ("ice-trays", "{}", json.dumps([{"seat": 1}, {"seat": 2}]), "00" * 32, "[]", LEGACY, 5.0),
    )
    db.execute("INSERT INTO actions VALUES (1, 0, ?, 6.0)", (json.dumps(ROLL),))
    db.commit()
    db.close()


def test_a_new_game_is_not_ended_until_the_referee_ends_it(tmp_path: Path) -> None:
    store = Store(tmp_path / "companion.db")
    gid = store.new_game("ice-trays", {}, [{"seat": 1}], "00" * 32, [], {1: "claim"}, 1.0)
    current = store.current()
    assert current is not None and current.ended_at is None
    store.end_game(gid, 7.5)
    current = store.current()
    assert current is not None and current.ended_at == 7.5
    store.close()


def test_the_end_survives_closing_and_opening_again(tmp_path: Path) -> None:
    store = Store(tmp_path / "companion.db")
    gid = store.new_game("ice-trays", {}, [{"seat": 1}], "00" * 32, [], {}, 1.0)
    store.append(gid, 0, ROLL, 2.0)
    store.end_game(gid, 3.0)
    store.close()
    again = Store(tmp_path / "companion.db")
    current = again.current()
    assert current is not None
    assert (current.id, current.ended_at, current.actions) == (gid, 3.0, [ROLL])
    again.close()


def test_a_later_game_starts_not_ended(tmp_path: Path) -> None:
    store = Store(tmp_path / "companion.db")
    first = store.new_game("ice-trays", {}, [{"seat": 1}], "00" * 32, [], {}, 1.0)
    store.end_game(first, 2.0)
    second = store.new_game("ice-trays", {}, [{"seat": 1}], "11" * 32, [], {}, 3.0)
    current = store.current()
    assert current is not None and (current.id, current.ended_at) == (second, None)
    store.close()


def test_a_database_of_the_old_schema_is_migrated_in_place(tmp_path: Path) -> None:
    path = tmp_path / "companion.db"
    old_database(path)
    store = Store(path)
    current = store.current()
    assert current is not None
    assert (current.id, current.game, current.started_at) == (1, "ice-trays", 5.0)
    assert current.actions == [ROLL] and current.ended_at is None
    assert current.seat_tokens == json.loads(LEGACY) and current.claims == ()
    assert current.rules == 1, "a game stored before editions were is of the first"
    store.append(1, 1, ROLL, 7.0)
    store.end_game(1, 8.0)
    assert store.integrity() == "ok"
    store.close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 5
    assert db.execute("SELECT ended_at FROM games WHERE id = 1").fetchone()[0] == 8.0
    db.close()
    again = Store(path)
    current = again.current()
    assert current is not None and current.ended_at == 8.0 and len(current.actions) == 2
    again.close()
