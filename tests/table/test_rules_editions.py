"""A game is stored with the edition of its rules it is played under, and only a game of its
engine's edition is replayed: a Cool am Pool game begun before the lifeguard moved with the roll
(edition 1) is set aside at start with a warning, not replayed into another game or taken for a
damaged database (``test_store_ended.py`` migrates a database from before editions: its games
are of the first)."""

from __future__ import annotations

import json
import logging
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from companion.config import default_config
from companion.games import engine
from companion.games.messages import REFEREE
from companion.table.results import unsettled
from companion.table.service import TableService
from companion.table.store import Store

EDITION_1 = Path(__file__).parents[1] / "games" / "cool_am_pool" / "edition-1-export.json"
"""A Cool am Pool game exported by the companion of edition 1, which it verified as honest."""


def store_edition_1_pool_game(path: Path, actions: int | None) -> int:
    """Store the edition-1 game as that companion did: its first ``actions`` (all: finished)."""
    made: dict[str, Any] = json.loads(EDITION_1.read_text())
    store = Store(path)
    gid = store.new_game(
        made["game"],
        made["options"],
        made["seats"],
        made["seed"]["device"],
        made["seed"]["players"],
        {},
        1000.0,
        1,
    )
    for n, entry in enumerate(made["log"][:actions]):
        store.append(gid, n, entry["action"], 1000.0 + n)
    store.close()
    return gid


def test_a_pool_game_begun_under_the_first_edition_is_set_aside_at_start(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    assert engine("cool-am-pool").RULES == 2
    store_edition_1_pool_game(tmp_path / "companion.db", 40)
    table = TableService(default_config(), tmp_path, simulate=True, with_cues=False)
    with caplog.at_level(logging.WARNING):
        table.start()
    try:
        assert table.status()["game"] is None
        warned = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
        assert warned[0] == (
            "game 1 of Cool am Pool was begun under edition 1 of its rules, and this companion "
            "referees edition 2: it cannot go on, and the table starts without it; start a new game"
        )
        assert all("edition 1 of its rules" in line for line in warned), "nothing else went wrong"
        started = table.start_game(REFEREE, {"game": "cool-am-pool", "seats": [1, 2]})
        assert started["seat_claims"] and table.status()["game"]["name"] == "cool-am-pool"
    finally:
        table.close()


def test_a_finished_game_of_another_edition_is_left_out_of_the_history_not_replayed(
    tmp_path: Path,
) -> None:
    path = tmp_path / "companion.db"
    store_edition_1_pool_game(path, None)
    db = sqlite3.connect(path)
    db.executescript("DROP TABLE results; PRAGMA user_version=3;")  # from before the history
    db.close()
    table = TableService(default_config(), tmp_path, simulate=True, with_cues=False)
    table.start()
    try:
        assert table.history.page(1)["games"] == []
    finally:
        table.close()
    store = Store(path)
    assert unsettled(store) == [], "settled once, as one that will never finish"
    store.close()
