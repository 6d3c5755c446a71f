"""The referee ends a game early: only the referee, only a game being played; the end stops a
running ten-count, refuses every later action, reveals the seed, and survives a restart."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from seating import seated
from tabletime import fast_table

from companion.errors import IllegalAction
from companion.games.messages import REFEREE, Actor
from companion.games.verify import verify
from companion.table.service import TableService
from companion.table.session import NoGame
from companion.table.tokens import Forbidden

COUNT_TIMER = "ten-count timer"


def act_randomly(table: TableService, seats: list[int], rnd: random.Random, n: int) -> None:
    """``n`` legal actions picked at random (a seat's where one may act, no cube declared
    melted); then until no ten-count runs, the table finishing it."""
    taken = 0
    while taken < n or table.status()["count"] is not None:
        options = [o for o in legal_of(table, [REFEREE, *seats]) if o[1]["type"] != "melted"]
        seat_options = [o for o in options if o[0] != REFEREE]
        if taken >= n or not options:
            time.sleep(0.01)  # a count runs: the table finishes it
            continue
        try:
            table.act(*rnd.choice(seat_options or options))
            taken += 1
        except IllegalAction:
            pass  # the count ended between the view and the action


def until_a_count_runs(table: TableService, seats: list[int], rnd: random.Random) -> None:
    """Attack and take the hit until a ten-count runs; the caller holds the table's lock, so
    the count's timer cannot move on meanwhile."""
    for _ in range(1000):
        if table.status()["count"] is not None:
            return
        options = [o for o in legal_of(table, [REFEREE, *seats]) if o[1]["type"] != "melted"]
        assert options, "nobody may act, yet no count runs"
        hits = [o for o in options if o[1]["type"] in ("take-hit", "play-attack")]
        seat_options = [o for o in options if o[0] != REFEREE]
        actor, action = rnd.choice(hits or seat_options or options)
        table.act(actor, action)
    raise AssertionError("no ten-count started")


def timers() -> set[threading.Thread]:
    """The ten-count timers running now (a table without cues times its counts itself)."""
    return {t for t in threading.enumerate() if t.name == COUNT_TIMER and t.is_alive()}


def legal_of(table: TableService, actors: list[Actor]) -> list[tuple[Actor, dict[str, Any]]]:
    return [(a, x) for a in actors for x in table.view(a)["legal_actions"]]


def test_only_the_referee_ends_a_game_and_only_one_being_played(table: TableService) -> None:
    with pytest.raises(NoGame):
        table.end_game(REFEREE)
    table.start_game(REFEREE, {"game": "cool-runnings", "seats": [1, 2, 3]})
    with pytest.raises(Forbidden, match="only the referee ends a game"):
        table.end_game(2)
    assert not table.status()["game"]["ended"]
    table.end_game(REFEREE)
    with pytest.raises(IllegalAction, match="the game is already over"):
        table.end_game(REFEREE)


def test_ending_answers_the_export_with_the_seed_and_shows_the_end(table: TableService) -> None:
    table.start_game(REFEREE, {"game": "cool-runnings", "seats": [1, 2, 3]})
    act_randomly(table, [1, 2, 3], random.Random(2), 8)
    before = table.status()["game"]
    n = before["actions"]
    assert (before["over"], before["ended"], n >= 8) == (False, False, True)
    export = table.end_game(REFEREE)
    assert export["ended"] is True and export["outcome"] is None
    assert export["seed"] is not None and len(export["log"]) == n
    game = table.status()["game"]
    assert (game["over"], game["ended"], game["outcome"], game["actions"]) == (True, True, None, n)
    assert table.export(None) == export
    verdict = verify(export)
    assert verdict.ok and verdict.lines[-1] == f"ended by the referee after {n} actions"


def test_every_action_after_the_end_is_refused(table: TableService) -> None:
    table.start_game(REFEREE, {"game": "cool-runnings", "seats": [1, 2, 3]})
    act_randomly(table, [1, 2, 3], random.Random(3), 4)
    offered = legal_of(table, [REFEREE, 1, 2, 3])
    assert offered
    n = len(table.end_game(REFEREE)["log"])
    assert legal_of(table, [REFEREE, 1, 2, 3]) == []
    for actor, action in offered:
        with pytest.raises(IllegalAction, match="the referee ended this game"):
            table.act(actor, action)
    assert table.status()["game"]["actions"] == n == len(table.export(None)["log"])


def test_ending_cancels_a_running_count_for_good(table: TableService) -> None:
    table.start_game(REFEREE, {"game": "cool-runnings", "seats": [1, 2, 3]})
    with table._table:
        until_a_count_runs(table, [1, 2, 3], random.Random(4))
        actions = table.status()["game"]["actions"]
        table.end_game(REFEREE)
        assert table.status()["count"] is None
    for timer in timers():
        timer.join(30.0)
        assert not timer.is_alive()
    status = table.status()
    assert status["count"] is None and status["game"]["ended"]
    log = table.export(None)["log"]
    assert len(log) == actions
    assert all(entry["action"]["type"] != "count-finished" for entry in log)
    assert log[-1]["events"][-1]["type"] == "count-started"


def test_the_end_survives_a_restart_of_the_service(tmp_path: Path) -> None:
    first = fast_table(tmp_path)
    tokens = seated(first, first.start_game(REFEREE, {"game": "cool-runnings", "seats": [1, 2, 3]}))
    act_randomly(first, [1, 2, 3], random.Random(5), 10)
    offered = legal_of(first, [REFEREE, 1, 2, 3])
    export = first.end_game(REFEREE)
    game = first.status()["game"]
    first.close()
    again = fast_table(tmp_path)
    try:
        assert again.status()["game"] == game
        assert again.status()["count"] is None
        assert again.export(None) == export
        assert again.actor_of(tokens["2"]) == 2
        for actor, action in offered:
            with pytest.raises(IllegalAction, match="the referee ended this game"):
                again.act(actor, action)
        with pytest.raises(IllegalAction, match="the game is already over"):
            again.end_game(REFEREE)
    finally:
        again.close()


def test_a_restart_while_a_count_ran_keeps_the_ended_game_still(tmp_path: Path) -> None:
    first = fast_table(tmp_path)
    first.start_game(REFEREE, {"game": "cool-runnings", "seats": [1, 2, 3]})
    with first._table:
        until_a_count_runs(first, [1, 2, 3], random.Random(6))
        first.end_game(REFEREE)
    first.close()
    before = timers()
    again = fast_table(tmp_path)
    try:
        assert again.status()["count"] is None
        assert again.status()["game"]["ended"]
        assert timers() - before == set(), "the restart resumed the count"
    finally:
        again.close()


def test_after_the_end_a_new_game_starts_without_replace(table: TableService) -> None:
    table.start_game(REFEREE, {"game": "cool-runnings", "seats": [1, 2, 3]})
    table.end_game(REFEREE)
    table.start_game(REFEREE, {"game": "ice-trays", "seats": [1, 2]})
    game = table.status()["game"]
    assert (game["name"], game["over"], game["ended"]) == ("ice-trays", False, False)
    assert table.view(1)["legal_actions"] or table.view(2)["legal_actions"]


def test_a_start_refused_while_a_game_runs_counts_its_actions_in_words(
    table: TableService,
) -> None:
    table.start_game(REFEREE, {"game": "daddy-cool", "seats": [1, 2]})
    seat = table.status()["game"]["turn_seat"]
    table.act(seat, next(a for a in table.view(seat)["legal_actions"] if a["type"] == "daddy-roll"))
    with pytest.raises(IllegalAction) as refused:
        table.start_game(REFEREE, {"game": "ice-trays", "seats": [1, 2]})
    said = refused.value.args[0]
    assert "(1 action)" in said.en and "(1 Zug)" in said.de
