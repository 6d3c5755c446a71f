"""Whole games through the API alone: players who only ever post an entry of their view's
``legal_actions`` finish every game, and the export of each passes ``companion verify``."""

from __future__ import annotations

import random
from typing import Any

import pytest
from apicheck import Start
from flask.testing import FlaskClient

from companion.games import GAMES
from companion.games.verify import verify

REFEREE_CHANCE = 0.05
"""How often the referee steps in when a seat could act too."""
RARE = {"melted"}
RARE_CHANCE = 0.01
"""A player may say their cube has melted at any time; now and then one does."""
MAX_ACTIONS = 3000


def offers(client: FlaskClient, players: dict[Any, dict[str, str]]) -> dict[Any, list[Any]]:
    """Every player's legal actions, from its own view."""
    found = {}
    for who, headers in players.items():
        response = client.get("/api/view", headers=headers)
        assert response.status_code == 200
        view = response.get_json()
        assert view["viewer"] == who
        found[who] = view["legal_actions"]
    return found


def pick(offered: dict[Any, list[Any]], rnd: random.Random) -> tuple[Any, Any]:
    """Who acts and how: a seat's action mostly, the referee's now and then, a rare one rarely."""
    every = [(who, action) for who, actions in offered.items() for action in actions]
    assert every, "nobody may act, yet the game is not over"
    common = [(who, action) for who, action in every if action["type"] not in RARE]
    pool = common if common and rnd.random() >= RARE_CHANCE else every
    seats = [(who, action) for who, action in pool if who != "referee"]
    if seats and rnd.random() >= REFEREE_CHANCE:
        pool = seats
    return rnd.choice(pool)


def play_to_the_end(
    client: FlaskClient, players: dict[Any, dict[str, str]], rnd: random.Random
) -> tuple[int, int]:
    """Post legal actions picked at random until the status says the game is over; how many
    were taken, and how many the table had made stale by acting first (its count's end)."""
    taken = stale = 0
    while client.get("/api/status").get_json()["game"]["phase"] != "over":
        assert taken < MAX_ACTIONS, "the game does not end"
        who, action = pick(offers(client, players), rnd)
        response = client.post("/api/actions", json=action, headers=players[who])
        if response.status_code == 409:
            stale += 1
            continue
        assert response.status_code == 200, response.get_json()
        assert response.get_json()["viewer"] == who
        taken += 1
    return taken, stale


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_whole_game_played_through_the_api_exports_a_log_that_verifies(
    client: FlaskClient, referee: dict[str, str], start: Start, game: str
) -> None:
    seats = start(game)
    players: dict[Any, dict[str, str]] = {**seats, "referee": referee}
    early = client.get("/api/export", headers=referee).get_json()
    assert early["seed"] is None and early["setup"] is None
    taken, stale = play_to_the_end(client, players, random.Random(f"web:{game}"))
    status = client.get("/api/status").get_json()
    assert status["game"]["name"] == game
    assert status["game"]["outcome"] is not None
    export = client.get("/api/export").get_json()
    assert export["game"] == game
    assert len(export["log"]) >= taken > 0
    assert stale <= max(2, taken // 10), "the table kept acting before the players"
    assert export["commitment"] == early["commitment"] == status["game"]["commitment"]
    verdict = verify(export)
    assert verdict.ok, verdict.mismatch
