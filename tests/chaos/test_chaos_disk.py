"""A full disk and an unwritable state directory, from a failing disk under the store.

The store's connection is SQLite's own with one layer put under its statements: while told to,
that layer refuses every write the way SQLite reports a full or read-only disk (or the way the
kernel would, as an ``OSError``): at the statement or at the commit, the transaction rolled back
by SQLite or left open for the store. The table must refuse what it cannot store with a clear
error, change nothing in memory or on disk, keep serving the status and the stream, and take
the very next action once the disk takes writes again: the game always replays to exactly the
actions that were answered.
"""

from __future__ import annotations

import errno
import os
import random
import sqlite3
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from jsonschema import Draft202012Validator
from seating import seated
from tabletime import FAST

import companion.table.count as count_module
import companion.table.disk as disk_module
import companion.table.opening as opening_module
from companion.config import default_config
from companion.errors import IllegalAction
from companion.games.messages import REFEREE
from companion.table.disk import DiskFull, ReadOnly, StoreError, write_error
from companion.table.service import TableService
from companion.table.store import Store
from companion.web import create_app
from companion.web.openapi import SCHEMAS, document

WAIT_S = 60.0
"""How long a test waits at most for the table to do what it must (never a measured time)."""
GAMES = ("cool-runnings", "cool-am-pool", "ice-trays", "daddy-cool")
SQLITE_FULL, SQLITE_READONLY, SQLITE_IOERR_WRITE = 13, 8, 778


def sqlite_error(message: str, code: int, name: str) -> sqlite3.OperationalError:
    """The error SQLite raises, with the codes Python 3.11 attaches to it."""
    exc = sqlite3.OperationalError(message)
    exc.sqlite_errorcode = code
    exc.sqlite_errorname = name
    return exc


def os_error(number: int) -> OSError:
    return OSError(number, os.strerror(number))


@dataclass(frozen=True)
class Fault:
    """A way the disk refuses writes, and how the web must answer it."""

    error: Callable[[], Exception]
    kind: type[StoreError]
    status: int
    code: str
    says: str
    """A word of the message that names the cause."""


FAULTS = {
    "full": Fault(
        lambda: sqlite_error("database or disk is full", SQLITE_FULL, "SQLITE_FULL"),
        DiskFull,
        507,
        "disk-full",
        "free space",
    ),
    "read-only": Fault(
        lambda: sqlite_error(
            "attempt to write a readonly database", SQLITE_READONLY, "SQLITE_READONLY"
        ),
        ReadOnly,
        507,
        "state-read-only",
        "writable",
    ),
    "io": Fault(
        lambda: sqlite_error("disk I/O error", SQLITE_IOERR_WRITE, "SQLITE_IOERR_WRITE"),
        StoreError,
        503,
        "disk-error",
        "check its disk",
    ),
    "ENOSPC": Fault(lambda: os_error(errno.ENOSPC), DiskFull, 507, "disk-full", "free space"),
    "EROFS": Fault(lambda: os_error(errno.EROFS), ReadOnly, 507, "state-read-only", "writable"),
    "EACCES": Fault(lambda: os_error(errno.EACCES), ReadOnly, 507, "state-read-only", "writable"),
}


class FailingDisk:
    """The disk under a store: it takes every write until :attr:`fault` is set, then refuses
    each one as SQLite would, at a point drawn from its seeded randomness."""

    def __init__(self, seed: int = 0) -> None:
        self.fault: Fault | None = None
        self.rnd = random.Random(seed)
        self.refused = 0

    def connect(self, path: Path) -> sqlite3.Connection:
        """The store's connection (as :func:`.database_file.sqlite_connect`) over it."""
        db = sqlite3.connect(
            path, factory=FailingConnection, check_same_thread=False, isolation_level=None
        )
        assert isinstance(db, FailingConnection)
        db.disk = self
        return db


class FailingConnection(sqlite3.Connection):
    """SQLite's connection, whose writes fail while its disk has a fault."""

    disk: FailingDisk | None = None

    def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
        disk = self.disk
        verb = sql.split(None, 1)[0].upper()
        if disk is not None and disk.fault is not None and verb in ("INSERT", "UPDATE", "COMMIT"):
            at_commit = verb == "COMMIT"
            if at_commit or disk.rnd.random() < 0.5:
                # A statement that fails is rolled back by SQLite; a failed commit may be.
                if self.in_transaction and (not at_commit or disk.rnd.random() < 0.5):
                    super().execute("ROLLBACK")
                disk.refused += 1
                raise disk.fault.error()
        return super().execute(sql, parameters)


def wait_for(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while not condition():
        assert time.monotonic() < deadline, f"waited in vain for {what}"
        time.sleep(0.005)


@pytest.fixture
def disk(monkeypatch: pytest.MonkeyPatch) -> FailingDisk:
    """A failing disk under every store the table service opens; its count ends retried soon."""
    found = FailingDisk(seed=5)

    def store(path: Path, connect: Any = None, refusal: Any = None) -> Store:
        """The writable store on the failing disk; a read-only one reads as it is."""
        if refusal is None:
            return Store(path, found.connect)
        return Store(path, connect, refusal=refusal)

    monkeypatch.setattr(opening_module, "Store", store)
    monkeypatch.setattr(count_module, "STORE_RETRY_S", 0.01)
    return found


@pytest.fixture
def table(tmp_path: Path, disk: FailingDisk) -> Iterator[TableService]:
    service = TableService(
        default_config(), tmp_path, simulate=True, speed=FAST, seed=1, with_cues=False
    )
    service.start()
    yield service
    service.close()


def stored_actions(state_dir: Path) -> list[dict[str, Any]]:
    """The current game's actions as a fresh store (on a sound disk) reads them."""
    store = Store(state_dir / "companion.db")
    try:
        assert store.integrity() == "ok"
        current = store.current()
        return [] if current is None else current.actions
    finally:
        store.close()


def test_the_failing_disk_fails_as_sqlite_does(tmp_path: Path) -> None:
    """Its errors are SQLite's own: a database that may grow no more, and one opened read-only,
    raise the same, and the store names them alike."""
    path = tmp_path / "real.db"
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("CREATE TABLE t (x)")
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    db.execute(f"PRAGMA max_page_count={pages}")
    with pytest.raises(sqlite3.OperationalError) as full:
        db.execute("INSERT INTO t VALUES (?)", (bytes(100_000),))
    assert not db.in_transaction
    read_only = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)
    with pytest.raises(sqlite3.OperationalError) as refused:
        read_only.execute("INSERT INTO t VALUES (1)")
    for real, name in ((full.value, "full"), (refused.value, "read-only")):
        fake = FAULTS[name].error()
        assert isinstance(fake, sqlite3.OperationalError)
        assert (str(fake), fake.sqlite_errorcode, fake.sqlite_errorname) == (
            str(real),
            real.sqlite_errorcode,
            real.sqlite_errorname,
        )
        assert type(write_error(tmp_path, real)) is FAULTS[name].kind
    db.close()
    read_only.close()


@pytest.mark.parametrize("name", FAULTS)
def test_a_refused_write_leaves_nothing_and_the_next_one_is_stored(
    tmp_path: Path, name: str
) -> None:
    fault = FAULTS[name]
    disk = FailingDisk(seed=len(name))
    store = Store(tmp_path / "companion.db", disk.connect)
    game = store.new_game("ice-trays", {}, [{"seat": 1}], "00" * 32, [], {"1": "t"}, 0.0)
    for n in range(3):
        store.append(game, n, {"type": "roll", "n": n}, float(n))
    disk.fault = fault
    for _ in range(20):
        with pytest.raises(fault.kind) as refused:
            store.append(game, 3, {"type": "roll", "n": 3}, 3.0)
        message = str(refused.value)
        assert f"the state directory {tmp_path} " in message and fault.says in message
        assert "nothing was changed" in message
    with pytest.raises(fault.kind):
        store.new_game("daddy-cool", {}, [{"seat": 1}], "11" * 32, [], {"1": "u"}, 4.0)
    with pytest.raises(fault.kind):
        store.end_game(game, 4.0)
    assert disk.refused == 22
    assert [a["n"] for a in stored_actions(tmp_path)] == [0, 1, 2]
    disk.fault = None
    store.append(game, 3, {"type": "roll", "n": 3}, 3.0)
    current = store.current()
    assert current is not None and current.id == game and current.ended_at is None
    store.close()
    assert [a["n"] for a in stored_actions(tmp_path)] == [0, 1, 2, 3]


def legal(table: TableService, actors: list[Any]) -> list[tuple[Any, dict[str, Any]]]:
    """The legal actions of the game now, with who may take them; a cube is said to be melted
    only when nothing else may be done, so that a game lasts."""
    every = [(a, action) for a in actors for action in table.view(a)["legal_actions"]]
    return [c for c in every if c[1]["type"] != "melted"] or every


def test_the_table_refuses_what_the_disk_refuses_and_goes_on_when_it_takes_writes(
    tmp_path: Path, disk: FailingDisk, table: TableService
) -> None:
    """Every game, played with the disk failing now and then in every way: a refused action
    changes nothing that anyone sees, the status and the stream go on, and a restart on the
    same directory comes back to exactly the actions answered."""
    rnd = random.Random(17)
    stream = table.subscribe(None)
    refused = 0
    for game in GAMES:
        disk.fault = FAULTS[rnd.choice(list(FAULTS))]
        with pytest.raises(disk.fault.kind):
            table.start_game(REFEREE, {"game": game, "replace": True})
        disk.fault = None
        tokens = seated(table, table.start_game(REFEREE, {"game": game, "replace": True}))
        actors = [REFEREE, *(int(s) for s in tokens)]
        for _ in range(60):
            if table.status()["game"]["over"]:
                break
            choices = legal(table, actors)
            if not choices:  # a count runs: the table ends it once the disk takes it
                disk.fault = None
                before = table.status()["game"]["actions"]
                wait_for(
                    lambda b=before, a=actors: (
                        table.status()["game"]["actions"] > b or bool(legal(table, a))
                    ),
                    "the count's end",
                )
                continue
            actor, action = rnd.choice(choices)
            if rnd.random() < 0.4 and table.status()["count"] is None:  # the table writes not
                disk.fault = FAULTS[rnd.choice(list(FAULTS))]
                seen = (table.status()["game"], table.view(REFEREE), table.view(actor))
                with pytest.raises(disk.fault.kind):
                    table.act(actor, action)
                refused += 1
                assert (table.status()["game"], table.view(REFEREE), table.view(actor)) == seen
                newest = table.subscribe(None).next(WAIT_S)
                assert newest is not None and newest[1]["game"] == seen[0], "no stream"
                disk.fault = None if rnd.random() < 0.7 else disk.fault
                if disk.fault is not None:
                    continue
            try:
                table.act(actor, action)
            except IllegalAction:
                pass  # the count ended between the view and the action
            except StoreError:
                assert disk.fault is not None
            else:
                assert disk.fault is None
        disk.fault = None
        wait_for(lambda: table.status()["count"] is None, "the last count's end")
        live = (table.status()["game"], table.view(REFEREE))
        assert stream.next(WAIT_S) is not None, "the stream stopped"
        answered = table.export(REFEREE)["log"]
        assert stored_actions(tmp_path) == [entry["action"] for entry in answered]
    table.close()
    again = TableService(default_config(), tmp_path, simulate=True, seed=1, with_cues=False)
    again.start()
    try:
        assert (again.status()["game"], again.view(REFEREE)) == live
    finally:
        again.close()
    assert refused > 40 and disk.refused >= refused


def test_a_count_whose_end_the_disk_refused_ends_when_space_returns(
    tmp_path: Path, disk: FailingDisk, table: TableService
) -> None:
    rnd = random.Random(3)
    tokens = seated(table, table.start_game(REFEREE, {"game": "cool-runnings"}))
    actors = [REFEREE, *(int(s) for s in tokens)]
    for _ in range(2000):
        if table.status()["count"] is not None:
            break
        table.act(*rnd.choice(legal(table, actors)))
    else:
        pytest.fail("no ten-count started")
    disk.fault = FAULTS["full"]
    before = table.status()["game"]["actions"]
    wait_for(lambda: disk.refused >= 3, "the count's end to be tried again")
    status = table.status()
    assert status["game"]["actions"] == before and status["count"] is not None
    disk.fault = None
    wait_for(lambda: table.status()["game"]["actions"] == before + 1, "the count's end")
    wait_for(lambda: table.status()["count"] is None, "the count to be gone")
    log = table.export(REFEREE)["log"]
    assert log[-1]["action"]["type"] == "count-finished"
    assert stored_actions(tmp_path) == [entry["action"] for entry in log]


ERROR = Draft202012Validator(SCHEMAS["Error"])


def refusal(client: FlaskClient, path: str, fault: Fault, **request: Any) -> dict[str, str]:
    """POST to ``path`` on a failing disk: the answer the fault must give, as documented."""
    answer = client.post(path, **request)
    assert answer.status_code == fault.status, answer.get_json()
    assert str(fault.status) in document()["paths"][path]["post"]["responses"]
    ERROR.validate(answer.get_json())
    error: dict[str, str] = answer.get_json()["error"]
    assert error["code"] == fault.code
    return error


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.mark.parametrize("name", ["full", "EROFS"])
def test_the_api_answers_a_full_disk_with_the_cause_and_the_fix(
    tmp_path: Path, disk: FailingDisk, table: TableService, name: str
) -> None:
    """Through the web: a documented answer naming the directory and the fix, the status and
    the stream served meanwhile, and the same request taken once the disk is mended."""
    fault = FAULTS[name]
    client = create_app(table).test_client()
    referee = bearer(table.referee_token)
    disk.fault = fault
    error = refusal(client, "/api/games", fault, json={"game": "daddy-cool"}, headers=referee)
    assert str(tmp_path) in error["message"] and fault.says in error["message"]
    assert client.get("/api/status").get_json()["game"] is None
    stream = client.get("/api/stream", buffered=False)
    text = ""
    for chunk in stream.response:
        text += chunk.decode()
        if "\n\n" in text:
            break
    assert "event: status" in text
    stream.close()
    disk.fault = None
    started = client.post("/api/games", json={"game": "daddy-cool"}, headers=referee)
    assert started.status_code == 201
    claims = started.get_json()["seat_claims"].items()
    claimed = {s: client.post("/api/claim", json={"claim": c}).get_json() for s, c in claims}
    seats = {int(s): bearer(answer["token"]) for s, answer in claimed.items()}
    answered = []
    for _ in range(6):
        views = {seat: client.get("/api/view", headers=h).get_json() for seat, h in seats.items()}
        mine = [(seat, a) for seat, v in views.items() for a in v["legal_actions"]]
        if not mine:
            break  # the game is over
        seat, action = mine[0]
        disk.fault = fault
        refusal(client, "/api/actions", fault, json=action, headers=seats[seat])
        assert client.get("/api/view", headers=seats[seat]).get_json() == views[seat]
        disk.fault = None
        taken = client.post("/api/actions", json=action, headers=seats[seat])
        assert taken.status_code == 200
        answered.append({k: v for k, v in action.items() if k != "after"})  # as it is logged
    assert answered
    if not client.get("/api/status").get_json()["game"]["over"]:
        disk.fault = fault
        refusal(client, "/api/games/end", fault, headers=referee)
        disk.fault = None
    export = client.get("/api/export", headers=referee).get_json()
    assert [entry["action"] for entry in export["log"]] == answered
    assert stored_actions(tmp_path) == answered
    assert export["ended"] is False


# A disk that refuses writes from the start


def played_game(state_dir: Path) -> list[dict[str, Any]]:
    """A game of Daddy Cool with two answered actions, on a sound disk: the actions."""
    table = TableService(default_config(), state_dir, simulate=True, speed=FAST, with_cues=False)
    table.start()
    try:
        tokens = seated(table, table.start_game(REFEREE, {"game": "daddy-cool"}))
        answered = []
        for _ in range(2):
            seat, action = next(
                (int(s), a) for s in tokens for a in table.view(int(s))["legal_actions"]
            )
            table.act(seat, action)
            answered.append({k: v for k, v in action.items() if k != "after"})
        return answered
    finally:
        table.close()


@pytest.mark.parametrize("name", ["full", "EROFS", "ENOSPC"])
@pytest.mark.parametrize("existing", [True, False], ids=["a game", "no database"])
def test_a_disk_that_refuses_writes_at_start_makes_a_read_only_table(
    tmp_path: Path, disk: FailingDisk, name: str, existing: bool
) -> None:
    """The table starts (not a crash), shows the game it has, says on every page and in the
    status why it stores nothing, and answers every change 507 as documented."""
    answered = played_game(tmp_path) if existing else []
    fault = FAULTS[name]
    disk.fault = fault
    table = TableService(default_config(), tmp_path, simulate=True, speed=FAST, with_cues=False)
    table.start()
    try:
        why = table.read_only
        assert why is not None and str(tmp_path) in why and fault.says in why
        assert "restart companion" in why
        assert f"read-only: {why}" in table.found
        client = create_app(table).test_client()
        status = client.get("/api/status").get_json()
        assert status["read_only"] == why
        for page in ("/", "/seat", "/referee", "/?lang=de"):
            html = client.get(page).get_data(as_text=True)
            assert 'id="read-only"' in html and why.replace("'", "&#39;") in html, page
        referee = bearer(table.referee_token)
        disk.fault = None  # mended: it stays read-only until it is started again
        if existing:
            export = client.get("/api/export", headers=referee).get_json()
            assert [entry["action"] for entry in export["log"]] == answered
            tokens = table.session.require().keys.tokens  # claimed before the disk failed
            seat = next(s for s in tokens if table.view(s)["legal_actions"])
            action = table.view(seat)["legal_actions"][0]
            refusal(client, "/api/actions", fault, json=action, headers=bearer(tokens[seat]))
            refusal(client, "/api/join", fault, json={"seat": seat}, headers=referee)
            refusal(client, "/api/games/end", fault, headers=referee)
        body = {"game": "ice-trays", "replace": True}
        error = refusal(client, "/api/games", fault, json=body, headers=referee)
        assert "restart companion" in error["message"]
    finally:
        table.close()
    assert stored_actions(tmp_path) == answered
    again = TableService(default_config(), tmp_path, simulate=True, speed=FAST, with_cues=False)
    again.start()
    try:
        assert again.read_only is None and again.status()["read_only"] is None
        again.start_game(REFEREE, {"game": "ice-trays", "replace": True})
    finally:
        again.close()


def test_a_referee_token_that_cannot_be_written_makes_a_read_only_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full(state_dir: Path) -> str:
        raise os_error(errno.ENOSPC)

    monkeypatch.setattr(opening_module, "referee_token", full)
    table = TableService(default_config(), tmp_path, simulate=True, speed=FAST, with_cues=False)
    table.start()
    try:
        assert table.read_only is not None and "is full" in table.read_only
        assert len(table.referee_token) >= 22  # for this run: it is printed, and it works
        client = create_app(table).test_client()
        assert client.get("/api/status").get_json()["read_only"] == table.read_only
        body = {"game": "ice-trays"}
        refusal(
            client, "/api/games", FAULTS["ENOSPC"], json=body, headers=bearer(table.referee_token)
        )
    finally:
        table.close()


def test_a_disk_the_kernel_made_read_only_is_answered_507_not_503(
    tmp_path: Path, disk: FailingDisk, table: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ext4 remounts a faulty disk read-only under the open database: SQLite says only "disk
    I/O error", and the directory itself, tried, says read-only."""
    refused: list[Path] = []

    def read_only(state_dir: Path) -> OSError:
        refused.append(state_dir)
        return os_error(errno.EROFS)

    monkeypatch.setattr(disk_module, "try_directory", read_only)
    client = create_app(table).test_client()
    disk.fault = FAULTS["io"]
    body = {"game": "daddy-cool"}
    answer = client.post("/api/games", json=body, headers=bearer(table.referee_token))
    assert answer.status_code == 507, answer.get_json()
    error = answer.get_json()["error"]
    assert error["code"] == "state-read-only" and "Read-only file system" in error["message"]
    assert refused == [tmp_path]


def test_the_directory_is_tried_with_a_file_that_leaves_nothing(tmp_path: Path) -> None:
    assert disk_module.try_directory(tmp_path) is None
    assert list(tmp_path.iterdir()) == []
    assert isinstance(disk_module.try_directory(tmp_path / "gone"), FileNotFoundError)
