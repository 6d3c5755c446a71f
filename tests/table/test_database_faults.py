"""A database that cannot be trusted is named, never trusted blindly and never a traceback.

Each fault is made on a state directory whose game was played through the table: the database
emptied to 0 bytes, replaced by another program's, a page of it overwritten, an action row
holding text that is not JSON, one holding an action the rules refuse where it stands, and (as
a power cut leaves it) the daemon killed and the journal or WAL beside the database deleted.
Opening such a database stops the start with one line naming the file, what is wrong and the
fix; ``companion run --fresh`` sets it aside and begins anew; a deleted WAL loses no answered
action, as nothing answered lives in one. The long test runs every fault through
``companion run`` itself and counts the tracebacks for the bench.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from commandline import run
from seating import seated
from tabletime import fast_table

from bench.daemon import command, free_port, start
from bench.figures import record
from companion.games.messages import REFEREE
from companion.table.database_file import BrokenDatabase
from companion.table.opening import DATABASE
from companion.table.schema import APPLICATION_ID, SCHEMA_VERSION
from companion.table.store import Store

ACTIONS = 6


def logged(action: dict[str, Any]) -> dict[str, Any]:
    """An offered action as the log keeps it: without the count it was offered at."""
    return {k: v for k, v in action.items() if k != "after"}


def played(state_dir: Path, actions: int = ACTIONS) -> list[dict[str, Any]]:
    """A game of Daddy Cool played on a table over ``state_dir``: the actions answered."""
    table = fast_table(state_dir)
    try:
        tokens = seated(table, table.start_game(REFEREE, {"game": "daddy-cool"}))
        actors = [REFEREE, *(int(s) for s in tokens)]
        answered = []
        for _ in range(actions):
            choices = [(s, a) for s in actors for a in table.view(s)["legal_actions"]]
            if not choices:
                break  # over
            actor, action = choices[-1]
            table.act(actor, action)
            answered.append(logged(action))
        assert len(answered) >= 3, answered
        return answered
    finally:
        table.close()


def database(state_dir: Path) -> Path:
    return state_dir / DATABASE


def write_sql(state_dir: Path, sql: str, *values: Any) -> None:
    db = sqlite3.connect(database(state_dir))
    with db:
        db.execute(sql, values)
    db.close()


def zero_bytes(state_dir: Path) -> str:
    database(state_dir).write_bytes(b"")
    return "is empty (0 bytes"


def foreign_file(state_dir: Path) -> str:
    """Another program's SQLite database in its place (a GeoPackage's id, a table of its own)."""
    path = database(state_dir)
    path.unlink()
    db = sqlite3.connect(path)
    db.execute("PRAGMA application_id=0x47504B47")
    db.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)")
    db.commit()
    db.close()
    path.chmod(0o600)  # private, as the table keeps its own: only the database is wrong
    return "is not a companion database (application id 0x47504b47, tables: photos)"


def overwritten_page(state_dir: Path) -> str:
    """A page past the first overwritten with random bytes, as a failing SD card may."""
    path = database(state_dir)
    db = sqlite3.connect(path)
    size = int(db.execute("PRAGMA page_size").fetchone()[0])
    pages = int(db.execute("PRAGMA page_count").fetchone()[0])
    db.close()
    assert pages >= 2
    page = random.Random(pages).randrange(2, pages + 1)
    with path.open("r+b") as f:
        f.seek((page - 1) * size)
        f.write(random.Random(page).randbytes(size))
    return "is damaged"


def bad_json_row(state_dir: Path) -> str:
    write_sql(state_dir, "UPDATE actions SET action = ? WHERE n = 2", '{"type": "daddy-ro')
    return "holds action 2 of game 1 that is not JSON"


def illegal_row(state_dir: Path) -> str:
    """Action 0 taken by a seat whose turn it is not: a row of the right shape that the rules
    refuse where it stands."""
    db = sqlite3.connect(database(state_dir))
    first = json.loads(db.execute("SELECT action FROM actions WHERE n = 0").fetchone()[0])
    db.close()
    first["by"] = 2 if first["by"] != 2 else 3
    write_sql(state_dir, "UPDATE actions SET action = ? WHERE n = 0", json.dumps(first))
    return "holds action 0 of game 1 ("


BROKEN: dict[str, Callable[[Path], str]] = {
    "zero-byte": zero_bytes,
    "foreign file": foreign_file,
    "overwritten page": overwritten_page,
    "bad-JSON row": bad_json_row,
    "illegal row": illegal_row,
}
"""Each way a database is broken: it breaks the one in a state directory, and gives a piece of
the line that must name it."""


def one_line(text: str) -> str:
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    assert "Traceback" not in text
    return lines[0]


# The store and the table


@pytest.mark.parametrize("name", BROKEN)
def test_a_broken_database_stops_the_table_with_one_line_naming_it(
    tmp_path: Path, name: str
) -> None:
    played(tmp_path)
    says = BROKEN[name](tmp_path)
    with pytest.raises(BrokenDatabase) as broken:
        fast_table(tmp_path)
    line = one_line(str(broken.value))
    assert line.startswith(f"{database(tmp_path)} ") and says in line, line
    assert line.endswith("start with --fresh to set it aside and begin anew")
    assert broken.value.path == database(tmp_path)


def test_an_illegal_row_is_named_with_the_game_s_own_sentence(tmp_path: Path) -> None:
    played(tmp_path)
    illegal_row(tmp_path)
    with pytest.raises(BrokenDatabase) as broken:
        fast_table(tmp_path)
    line = str(broken.value)
    assert "action 0 of game 1" in line and "does not replay: " in line
    assert "turn" in line.split("does not replay: ", 1)[1]  # the rules' reason


def test_a_text_file_in_its_place_is_not_a_database(tmp_path: Path) -> None:
    database(tmp_path).write_text("notes for the evening\n" * 200)
    with pytest.raises(BrokenDatabase, match="cannot be read as a database"):
        Store(database(tmp_path))


def test_a_database_of_a_newer_schema_is_left_alone(tmp_path: Path) -> None:
    played(tmp_path)
    write_sql(tmp_path, f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    before = database(tmp_path).read_bytes()
    with pytest.raises(BrokenDatabase, match="written by a newer companion"):
        Store(database(tmp_path))
    assert database(tmp_path).read_bytes() == before


def test_a_new_database_and_an_old_one_of_ours_get_the_application_id(tmp_path: Path) -> None:
    Store(tmp_path / "new.db").close()
    old = tmp_path / "old.db"
    db = sqlite3.connect(old)
    db.executescript(
        "CREATE TABLE games (id INTEGER PRIMARY KEY, game TEXT NOT NULL, options TEXT NOT NULL,"
        " seats TEXT NOT NULL, device_secret TEXT NOT NULL, player_seeds TEXT NOT NULL,"
        " seat_tokens TEXT NOT NULL, started_at REAL NOT NULL);"
        "CREATE TABLE actions (game_id INTEGER NOT NULL, n INTEGER NOT NULL,"
        " action TEXT NOT NULL, at REAL NOT NULL, PRIMARY KEY (game_id, n));"
        "PRAGMA user_version=1;"
    )
    db.execute(
        "INSERT INTO games VALUES (1, 'ice-trays', '{}', '[]', ?, '[]', '{}', 1.0)", ("0" * 64,)
    )
    db.commit()
    db.close()
    store = Store(old)
    current = store.current()
    assert current is not None and current.game == "ice-trays"
    store.close()
    for path in (tmp_path / "new.db", old):
        db = sqlite3.connect(path)
        found = [
            db.execute(f"PRAGMA {p}").fetchone()[0] for p in ("application_id", "user_version")
        ]
        db.close()
        assert found == [APPLICATION_ID, SCHEMA_VERSION]


def test_our_tables_without_a_version_are_not_taken_for_ours(tmp_path: Path) -> None:
    """An id of 0 and a user_version of 0 with tables named like ours: not one we made."""
    played(tmp_path)
    write_sql(tmp_path, "PRAGMA application_id=0")
    write_sql(tmp_path, "PRAGMA user_version=0")
    with pytest.raises(BrokenDatabase, match="is not a companion database"):
        Store(database(tmp_path))


# --fresh


@pytest.mark.parametrize("name", BROKEN)
def test_fresh_sets_a_broken_database_aside_and_begins_anew(tmp_path: Path, name: str) -> None:
    played(tmp_path)
    BROKEN[name](tmp_path)
    broken = database(tmp_path).read_bytes()[100:]  # the header's counters may move
    table = fast_table(tmp_path, fresh=True)
    try:
        assert table.status()["game"] is None
        said = [line for line in table.found if line.startswith("database: ")]
        assert len(said) == 1 and "set aside as companion.db.broken-" in said[0]
        table.start_game(REFEREE, {"game": "ice-trays"})
    finally:
        table.close()
    aside = sorted(tmp_path.glob("companion.db.broken-*"))
    assert [p.name for p in aside] == [said[0].split("set aside as ", 1)[1].split(",")[0]]
    assert aside[0].name[len("companion.db.broken-") :].endswith("Z")
    assert aside[0].read_bytes()[100:] == broken
    again = Store(database(tmp_path))
    current = again.current()
    assert current is not None and current.game == "ice-trays"
    again.close()


def test_fresh_leaves_a_sound_database_alone(tmp_path: Path) -> None:
    answered = played(tmp_path)
    table = fast_table(tmp_path, fresh=True)
    try:
        assert [e["action"] for e in table.export(REFEREE)["log"]] == answered
        assert not [line for line in table.found if line.startswith("database: ")]
    finally:
        table.close()
    assert not list(tmp_path.glob("*.broken-*"))


def test_the_command_says_one_line_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    played(tmp_path)
    bad_json_row(tmp_path)
    argv = ["run", "--simulate", "--no-cues", "--state-dir", str(tmp_path), "--port", "1"]
    code, out, err = run(argv, capsys)
    line = one_line(err)
    assert code == 2 and out == ""
    assert line.startswith(f"companion run: {database(tmp_path)} holds action 2 of game 1 ")
    assert "--fresh" in line


def test_run_help_offers_fresh(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["run", "--help"], capsys)
    assert code == 0 and "--fresh" in out and "companion.db.broken-" in " ".join(out.split())


# A deleted WAL


def kill_and_delete_the_journals(state_dir: Path, answered: int) -> list[dict[str, Any]]:
    """Start the daemon, answer ``answered`` actions, SIGKILL it, delete every file beside the
    database; the actions it answered."""
    daemon = start(state_dir, "--speed", "20")
    done: list[dict[str, Any]] = []
    try:
        started = daemon.call("POST", "/api/games", daemon.referee, {"game": "daddy-cool"})
        assert started.status == 201
        tokens = daemon.seated(started)
        while len(done) < answered:
            views = {s: daemon.call("GET", "/api/view", t).body for s, t in tokens.items()}
            seat, action = [(s, a) for s, v in views.items() for a in v["legal_actions"]][-1]
            assert daemon.call("POST", "/api/actions", tokens[seat], action).status == 200
            done.append(logged(action))
    finally:
        daemon.process.send_signal(signal.SIGKILL)
        daemon.process.wait(10)
    for end in ("-wal", "-shm", "-journal"):
        path = state_dir / (DATABASE + end)
        if path.exists():
            path.unlink()
    return done


def test_a_wal_deleted_after_a_kill_loses_no_answered_action(tmp_path: Path) -> None:
    answered = kill_and_delete_the_journals(tmp_path, ACTIONS)
    daemon = start(tmp_path)
    try:
        export = daemon.call("GET", "/api/export", daemon.referee)
        assert export.status == 200, "the game is gone with the WAL"
        assert [entry["action"] for entry in export.body["log"]] == answered
    finally:
        assert daemon.stop() == 0


# The bench


def broken_start(state_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``companion run`` on a broken database, as a user starts it: it must stop at once."""
    return subprocess.run(
        [
            *command(),
            *("run", "--simulate", "--no-cues", "--host", "127.0.0.1"),
            *("--port", str(free_port())),
            *("--state-dir", str(state_dir), *args),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )


@pytest.mark.long
def test_every_database_fault_is_one_line_and_fresh_mends_it(tmp_path: Path) -> None:
    tracebacks = 0
    named = 0
    for name, breaks in BROKEN.items():
        state_dir = tmp_path / name.replace(" ", "-")
        played(state_dir)
        says = breaks(state_dir)
        stopped = broken_start(state_dir)
        tracebacks += "Traceback" in stopped.stderr + stopped.stdout
        line = one_line(stopped.stderr)
        assert stopped.returncode == 2, stopped
        assert str(database(state_dir)) in line and says in line and "--fresh" in line
        named += 1
        daemon = start(state_dir, "--fresh")
        try:
            said = "".join(daemon.lines)
            tracebacks += "Traceback" in said
            assert "companion: database: " in said and "set aside as" in said
            assert daemon.call("GET", "/api/status").body["game"] is None
        finally:
            assert daemon.stop() == 0
    state_dir = tmp_path / "deleted-wal"
    answered = kill_and_delete_the_journals(state_dir, ACTIONS)
    daemon = start(state_dir)
    try:
        tracebacks += "Traceback" in "".join(daemon.lines)
        log = daemon.call("GET", "/api/export", daemon.referee).body["log"]
        lost = sum(1 for a in answered if a not in [e["action"] for e in log])
    finally:
        assert daemon.stop() == 0
    assert lost == 0 and tracebacks == 0
    record(
        "database faults: tracebacks",
        tracebacks,
        "tracebacks",
        goal=0,
        better="lower",
        note=(
            f"{named} broken databases (zero-byte, foreign file, overwritten page, bad-JSON row, "
            "illegal row) each stopped companion run with one line naming the file and the fix, "
            f"and --fresh set each aside; a WAL deleted after a kill lost {lost} of "
            f"{len(answered)} answered actions"
        ),
        named=named,
        lost=lost,
    )
