"""The history is kept as the games are: a finished game's summary is stored with the action (or
the referee's end) that finished it, so a kill -9 of a real daemon loses none of it; a database
from before summaries were kept is summarised once at start; a damaged or emptied history is
left out, never a crash."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from evening import play_out

from bench.daemon import Daemon, start
from companion.config import default_config
from companion.games.messages import REFEREE, to_json
from companion.games.selfplay import play_one
from companion.table.disk import ReadOnly
from companion.table.history import History
from companion.table.opening import read_only_store
from companion.table.results import unsettled
from companion.table.service import TableService
from companion.table.store import Store

TWO = [{"seat": 1, "name": "Oma"}, {"seat": 2, "name": "Mia"}]


@pytest.fixture
def daemon(tmp_path: Path) -> Iterator[Daemon]:
    running = start(tmp_path)
    yield running
    running.stop()


def test_the_history_survives_a_kill_right_after_the_action_that_finished_a_game(
    daemon: Daemon, tmp_path: Path
) -> None:
    ref = daemon.referee
    started = daemon.call("POST", "/api/games", ref, {"game": "ice-trays", "seats": TWO})
    assert started.status == 201
    assert daemon.call("POST", "/api/games/end", ref, {}).status == 200
    body = {"game": "daddy-cool", "seats": TWO, "replace": True}
    play_out(daemon, daemon.seated(daemon.call("POST", "/api/games", ref, body)), random.Random(3))
    before = daemon.call("GET", "/api/history").body
    standings = daemon.call("GET", "/api/standings").body
    daemon.kill()  # the finishing action was answered a moment ago
    port = int(daemon.url.rsplit(":", 1)[1])
    again = start(tmp_path, port=port)
    daemon.process = again.process  # stopped by the fixture
    assert again.call("GET", "/api/history").body == before
    assert [g["game"] for g in before["games"]] == ["daddy-cool", "ice-trays"]
    assert [g["ended_early"] for g in before["games"]] == [False, True]
    assert again.call("GET", "/api/standings").body == standings
    assert {p["name"] for p in standings["players"]} == {"Oma", "Mia"}
    assert sum(p["won"] for p in standings["players"]) == 1
    export = again.call("GET", before["games"][0]["export"])
    assert export.status == 200 and export.body["seed"] is not None
    assert again.call("POST", "/api/verify", None, export.body).body["ok"] is True


def stored_without_summaries(path: Path) -> list[dict[str, Any]]:
    """A database as a companion before the history wrote it: a Daddy Cool game won, an Ice
    Trays game the referee ended, one replaced before its end, and one being played; the
    schema's version set back and its ``results`` gone. What each game is."""
    store = Store(path)
    games = []
    for n, (game, how) in enumerate(
        [
            ("daddy-cool", "won"),
            ("ice-trays", "ended"),
            ("ice-trays", "replaced"),
            ("daddy-cool", "playing"),
        ]
    ):
        record = play_one(game, 7, n).record
        seats = [s.to_json() for s in record.seats]
        secret = record.device_secret.hex()
        gid = store.new_game(game, record.options, seats, secret, [], {}, 1000.0 * n)
        log = record.log if how == "won" else record.log[:5]
        for i, (action, _) in enumerate(log):
            store.append(gid, i, to_json(action), 1000.0 * n + i)
        if how == "ended":
            store.end_game(gid, 1000.0 * n + 500)
        games.append({"id": gid, "how": how, "outcome": record.outcome, "actions": len(log)})
    store.close()
    db = sqlite3.connect(path)
    db.executescript("DROP TABLE results; PRAGMA user_version=3;")
    db.close()
    return games


def test_the_games_of_a_database_from_before_the_history_are_summarised_once_at_start(
    tmp_path: Path,
) -> None:
    games = stored_without_summaries(tmp_path / "companion.db")
    table = TableService(default_config(), tmp_path, simulate=True, with_cues=False)
    table.start()
    try:
        assert "history: 2 earlier finished games summarised" in table.found
        found = table.history.page(1)["games"]
        assert [g["id"] for g in found] == [2, 1]
        assert found[1]["winner"] == games[0]["outcome"].winner and not found[1]["ended_early"]
        assert found[0]["ended_early"] and found[0]["ended_at"] == 1500.0
        assert found[1]["ended_at"] == games[0]["actions"] - 1, "its last action's time"
        assert found[1]["actions"] == games[0]["actions"]
        assert table.status()["game"]["over"] is False, "the game being played goes on"
    finally:
        table.close()
    store = Store(tmp_path / "companion.db")
    assert unsettled(store) == [4], "each earlier game settled once; the one played waits"
    store.close()
    again = TableService(default_config(), tmp_path, simulate=True, with_cues=False)
    again.start()
    assert not [line for line in again.found if line.startswith("history:")]
    again.close()


def test_a_damaged_or_emptied_history_is_left_out_never_a_failed_answer(tmp_path: Path) -> None:
    table = TableService(default_config(), tmp_path, simulate=True, with_cues=False)
    table.start()
    try:
        for _ in range(4):
            table.start_game(REFEREE, {"game": "ice-trays", "seats": TWO, "replace": True})
            table.end_game(REFEREE)
        store = table.history.store
        with store._lock:
            store._db.execute("UPDATE results SET summary = '{\"game\": 5' WHERE game_id = 2")
            store._db.execute("UPDATE results SET summary = '[1, 2]' WHERE game_id = 3")
            store._db.execute(
                "UPDATE results SET summary = json_remove(summary, '$.id') WHERE game_id = 4"
            )
        assert [g["id"] for g in table.history.page(1)["games"]] == [1]
        assert table.history.standings()["counted"] == 1
        with store._lock:
            store._db.execute("DELETE FROM results")
        assert table.history.page(1)["games"] == []
        assert table.history.standings()["players"] == []
    finally:
        table.close()


def test_a_database_from_before_the_history_opened_read_only_has_an_empty_one(
    tmp_path: Path,
) -> None:
    path = tmp_path / "companion.db"
    stored_without_summaries(path)
    store = read_only_store(path, ReadOnly("the disk is read-only"))
    history = History(lambda: store)
    assert history.page(1)["games"] == []
    assert history.standings()["counted"] == 0
    store.close()
