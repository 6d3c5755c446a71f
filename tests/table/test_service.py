"""The table service on the simulated table: games start, play, store, restore; secrets kept."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest
from seating import play, seated
from tabletime import fast_table

from companion.config import default_config
from companion.errors import BadMessage, BadOptions
from companion.games.messages import REFEREE
from companion.games.verify import verify
from companion.table.service import TableService
from companion.table.session import NoGame
from companion.table.tokens import Forbidden, Unauthorized


def test_the_status_shows_every_seat_before_a_game(table: TableService) -> None:
    status = table.status()
    assert status["game"] is None and status["simulated"] is True
    assert [s["seat"] for s in status["seats"]] == [1, 2, 3, 4]
    with pytest.raises(NoGame):
        table.view(REFEREE)


def test_a_game_of_cool_runnings_plays_to_the_end_and_verifies(table: TableService) -> None:
    started = table.start_game(REFEREE, {"game": "cool-runnings"})
    assert sorted(started["seat_claims"]) == ["1", "2", "3", "4"]
    tokens = seated(table, started)
    assert sorted(tokens) == ["1", "2", "3", "4"]
    assert all(len(t) >= 22 for t in tokens.values())
    assert "hand" not in started["view"]
    play(table, tokens, random.Random(3))
    status = table.status()
    assert status["game"]["over"]
    assert verify(table.export(None)).ok


def test_tokens_say_who_asks(table: TableService) -> None:
    tokens = seated(table, table.start_game(REFEREE, {"game": "ice-trays", "seats": [1, 2]}))
    assert table.actor_of(table.referee_token) == REFEREE
    assert table.actor_of(tokens["2"]) == 2
    for bad in (None, "", "nobody's", tokens["1"] + "x"):
        with pytest.raises(Unauthorized):
            table.actor_of(bad)


def test_a_seat_acts_only_as_itself_and_never_as_the_referee(table: TableService) -> None:
    table.start_game(REFEREE, {"game": "cool-runnings", "seats": [1, 2, 3]})
    turn = table.status()["game"]["turn_seat"]
    other = 1 if turn != 1 else 2
    action = table.view(turn)["legal_actions"][0]
    with pytest.raises(Forbidden):
        table.act(other, action)
    with pytest.raises(Forbidden):
        table.act(REFEREE, action)
    with pytest.raises(Forbidden):
        table.start_game(turn, {"game": "ice-trays"})
    with pytest.raises(Forbidden):
        table.export(turn)
    table.act(turn, action)


def test_bad_bodies_are_refused_with_the_right_error(table: TableService) -> None:
    for body, error in (
        ([], BadMessage),
        ({"game": 3}, BadMessage),
        ({"game": "chess"}, BadOptions),
        ({"game": "ice-trays", "colour": "red"}, BadMessage),
        ({"game": "ice-trays", "seats": [1]}, BadOptions),
        ({"game": "cool-runnings", "options": {"parts": 9}}, BadOptions),
    ):
        with pytest.raises(error):
            table.start_game(REFEREE, body)
    table.start_game(REFEREE, {"game": "ice-trays"})
    with pytest.raises(BadMessage):
        table.act(1, {"type": "no-such-thing", "by": 1})


def test_a_restart_restores_the_game_at_its_last_action(tmp_path: Path) -> None:
    first = fast_table(tmp_path)
    tokens = seated(first, first.start_game(REFEREE, {"game": "daddy-cool"}))
    rnd = random.Random(5)
    for _ in range(12):
        actor = rnd.choice([int(s) for s in tokens])
        legal = first.view(actor)["legal_actions"]
        if legal:
            first.act(actor, rnd.choice(legal))
    views = {a: first.view(a) for a in (REFEREE, 1, 2, 3, 4)}
    game = first.status()["game"]
    first.close()
    again = fast_table(tmp_path)
    try:
        assert again.status()["game"] == game
        assert {a: again.view(a) for a in views} == views
        assert again.actor_of(tokens["3"]) == 3
        assert again.referee_token == first.referee_token
    finally:
        again.close()


def test_the_referee_token_file_is_private(table: TableService, tmp_path: Path) -> None:
    path = tmp_path / "referee-token"
    assert path.read_text().strip() == table.referee_token
    assert path.stat().st_mode & 0o777 == 0o600


def test_the_stream_gives_each_new_snapshot(table: TableService) -> None:
    subscription = table.subscribe(None)
    first = subscription.next(1.0)
    assert first is not None
    table.start_game(REFEREE, {"game": "ice-trays"})
    later = subscription.next(5.0)
    assert later is not None and later[0] > first[0]
    assert later[1]["game"] is not None or subscription.next(5.0)[1]["game"] is not None


def test_a_cube_the_estimate_says_is_gone_is_proposed_as_melted(tmp_path: Path) -> None:
    table = TableService(default_config(), tmp_path, simulate=True, speed=10.0, with_cues=False)
    table.start()
    try:
        table.start_game(REFEREE, {"game": "cool-runnings", "seats": [1, 2]})
        assert table.sim is not None
        table.sim.melt(1, table.clock.now(), 10.0)  # gone before its first weigh-in
        deadline = time.monotonic() + 60
        seats = table.status()["seats"]
        while not seats[0]["ice"]["melted"] and time.monotonic() < deadline:
            # a weigh-in far from the model waits for a second to confirm it: weigh in again
            table.sim.place_cap(1, table.clock.now() + 1.0, hold_s=4.0)
            time.sleep(1.0)
            seats = table.status()["seats"]
        assert seats[0]["ice"]["melted"] and seats[0]["ice"]["grams"] < 0.5
        assert not seats[1]["ice"]["melted"]
        legal = [a for a in table.view(1)["legal_actions"] if a["type"] == "melted"]
        assert legal == [{"type": "melted", "by": 1, "seat": 1, "after": 0}]
        table.act(1, legal[0])
        assert not table.status()["game"]["view"]["seats"][0]["in_game"]
    finally:
        table.close()
