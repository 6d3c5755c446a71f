"""A repeated tap is one action: the same offered action posted at once from several threads (a
double tap, a phone retrying) is taken once, and of two different actions offered at the same
count only the first is taken; every answer says what really happened, in every game.

The table's clock is held, so no ten-count ends by itself between the view and the taps.
"""

from __future__ import annotations

import random
import threading
from pathlib import Path
from typing import Any

import pytest
from tabletime import HeldClock, held_table

from companion.errors import IllegalAction
from companion.games import GAMES
from companion.games.messages import REFEREE, Actor
from companion.table.offers import AFTER, Stale
from companion.table.service import TableService


def tap_all(table: TableService, posts: list[tuple[Actor, dict[str, Any]]]) -> list[Any]:
    """Post every action at once from a thread each; each answer, or the error it raised."""
    barrier = threading.Barrier(len(posts))
    answers: list[Any] = [None] * len(posts)

    def post(i: int, actor: Actor, action: dict[str, Any]) -> None:
        barrier.wait()
        try:
            answers[i] = table.act(actor, action)
        except IllegalAction as exc:
            answers[i] = exc

    threads = [threading.Thread(target=post, args=(i, *p)) for i, p in enumerate(posts)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return answers


def offered_actions(table: TableService, seats: list[int]) -> list[tuple[Actor, dict[str, Any]]]:
    """Every action the seats and the referee are offered now, but a cube's melted."""
    return [
        (actor, a)
        for actor in (*seats, REFEREE)
        for a in table.view(actor)["legal_actions"]
        if a["type"] != "melted"
    ]


def logged(action: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in action.items() if k != AFTER}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_taps_at_once_take_one_action_and_every_answer_says_which(
    tmp_path: Path, name: str
) -> None:
    table = held_table(tmp_path, HeldClock())
    try:
        seats = [1, 2, 3]
        table.start_game(REFEREE, {"game": name, "seats": seats})
        rnd = random.Random(name)
        for _ in range(25):
            if table.status()["game"]["over"]:
                break
            offered = offered_actions(table, seats)
            actor, first = rnd.choice(offered)
            mine = [a for who, a in offered if who == actor and a != first]
            second = rnd.choice(mine) if mine else first
            before = len(table.export(REFEREE)["log"])
            # two taps of one action and one of another offered at the same count, all at once
            answers = tap_all(table, [(actor, first), (actor, first), (actor, second)])
            log = table.export(REFEREE)["log"]
            assert len(log) == before + 1, "not exactly one action was taken"
            taken = log[-1]["action"]
            assert taken in (logged(first), logged(second))
            for posted, answer in zip((first, first, second), answers, strict=True):
                if logged(posted) == taken:
                    assert isinstance(answer, dict), answer  # the first answer, again
                    assert answer == answers[(first, first, second).index(posted)]
                else:
                    assert isinstance(answer, Stale), answer
                    assert answer.view == table.view(actor)
    finally:
        table.close()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_retry_after_the_game_moved_on_gets_its_first_answer(tmp_path: Path, name: str) -> None:
    """A phone whose answer was lost posts its action again after others have played: it was
    taken, so it is answered as it was, and not taken again."""
    table = held_table(tmp_path, HeldClock())
    try:
        seats = [1, 2, 3]
        table.start_game(REFEREE, {"game": name, "seats": seats})
        rnd = random.Random(name)
        posted: list[tuple[Actor, dict[str, Any], dict[str, Any]]] = []
        for _ in range(12):
            if table.status()["game"]["over"]:
                break
            offered = offered_actions(table, seats)
            actor, action = rnd.choice(offered)
            posted.append((actor, action, table.act(actor, action)))
        log = table.export(REFEREE)["log"]
        assert len(posted) >= 2
        for actor, action, answer in posted:
            assert table.act(actor, action) == answer
        assert table.export(REFEREE)["log"] == log
    finally:
        table.close()
