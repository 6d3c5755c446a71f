"""What a table opens at start: its lock, the referee's token, the store and the game it holds.

One table at a time uses a state directory: a second ``companion run`` on it (another port, the
service and a run by hand) would answer from a game the first has moved on, and its writes
would clash with the first's. It holds ``table.lock`` while it runs, and a second one stops at
start with one line (:class:`TableBusy`).

A broken database stops the start with one line, or is set aside when ``fresh`` (``companion
run --fresh``); a disk that refuses writes at start (the token or the database cannot be
written) makes a read-only table, which shows the game it has and takes no change. A table
that takes writes summarises, once, the games of a database from before the history was kept
(:func:`.history.settle_earlier`).
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

from companion.config import SeatConfig
from companion.errors import CompanionError
from companion.games.effects import Effect
from companion.host.locks import exclusive
from companion.table.database_file import BrokenDatabase, set_aside
from companion.table.disk import StoreError, write_error
from companion.table.history import settle_earlier
from companion.table.session import GameSession
from companion.table.store import Store
from companion.table.stored import MeltInput
from companion.table.tokens import new_token, referee_token

log = logging.getLogger(__name__)

DATABASE = "companion.db"
TABLE_LOCK = "table.lock"


class TableBusy(CompanionError):
    """Another table runs on this state directory."""

    def __init__(self, state_dir: Path) -> None:
        super().__init__(
            f"another companion is running on {state_dir} (the service, or a run on another "
            "port): stop it first (sudo systemctl stop companion), or give this one a "
            "state directory of its own (--state-dir)"
        )


def table_lock(state_dir: Path) -> AbstractContextManager[bool]:
    """The state directory's lock, held while the table runs (none on a read-only disk)."""
    return exclusive(state_dir / TABLE_LOCK, lambda: TableBusy(state_dir), unwritable_ok=True)


@dataclass
class Opened:
    """What start-up opened: the token, the store, the session and what its game asks to stand
    at the table; ``read_only`` why no write is taken (else ``None``), ``said`` what to say."""

    referee_token: str
    store: Store
    session: GameSession
    standing: list[Effect]
    melt: list[MeltInput] = field(default_factory=list)
    """The melt inputs of the game under way, checked: its ice is rebuilt from them."""
    read_only: str | None = None
    said: list[str] = field(default_factory=list)


def open_state(
    state_dir: Path, seats: Sequence[SeatConfig], wall: Callable[[], float], fresh: bool
) -> Opened:
    """Open the state directory; see the module's description."""
    said: list[str] = []
    refused: StoreError | None = None
    try:
        token = referee_token(state_dir)
    except OSError as exc:
        refused = write_error(state_dir, exc, started=True)
        token = new_token()  # for this run only: it cannot be kept
    path = state_dir / DATABASE
    opened: Opened | None = None
    try:
        try:
            opened = _restore(Store(path), token, seats, wall)
        except BrokenDatabase as exc:
            if not fresh:
                raise
            aside = set_aside(path, wall())
            said.append(
                f"database: {exc.path} {exc.what}: set aside as {aside.name}, and a new one begun"
            )
            opened = _restore(Store(path), token, seats, wall)
    except StoreError as exc:
        if exc.cause is None:
            raise
        refused = refused or write_error(state_dir, exc.cause, started=True)
    if refused is not None:
        if opened is None:
            opened = _restore(read_only_store(path, refused), token, seats, wall)
        else:
            opened.store.refusal = refused
        opened.read_only = str(refused)
        said.append(f"read-only: {opened.read_only}")
        log.warning("the table starts read-only: %s", opened.read_only)
    assert opened is not None
    if refused is None:
        game = opened.session.game
        earlier = settle_earlier(opened.store, game.id if game and not game.record.over else None)
        if earlier:
            said.append(f"history: {earlier} earlier finished games summarised")
    opened.said = said
    return opened


def _restore(
    store: Store, token: str, seats: Sequence[SeatConfig], wall: Callable[[], float]
) -> Opened:
    """Take ``store`` and rebuild its current game (closing it again if that fails)."""
    session = GameSession(store, seats, wall)
    try:
        standing = session.restore()
        game = session.game
        melt = store.melt_inputs(game.id) if game is not None else []
    except BaseException:
        store.close()
        raise
    return Opened(token, store, session, standing, melt)


def read_only_store(path: Path, refusal: StoreError) -> Store:
    """The store of a table whose disk refused writes at start: the database read as it is
    (an empty one in memory when there is none), every write refused with ``refusal``."""

    def connect(p: Path) -> sqlite3.Connection:
        where = f"file:{quote(str(p))}?mode=ro" if p.exists() else "file::memory:"
        return sqlite3.connect(where, uri=True, check_same_thread=False, isolation_level=None)

    return Store(path, connect, refusal=refusal)
