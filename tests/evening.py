"""An evening at a real daemon's table: games played to their end through its API by players who
post legal actions at random, and one the referee ended early."""

from __future__ import annotations

import random
from typing import Any

from bench.daemon import Daemon

MAX_ACTIONS = 2000
EVENING = [("jürgen", "Mia"), ("Oma", "Jürgen"), ("Mia", "Oma")]
"""Who plays each game of Daddy Cool tonight (Jürgen typed first as "jürgen", last as "Jürgen")."""


def play_out(daemon: Daemon, tokens: dict[str, str], rnd: random.Random) -> None:
    """Post legal actions picked at random until the game is over."""
    for _ in range(MAX_ACTIONS):
        if daemon.call("GET", "/api/status").body["game"]["over"]:
            return
        offered = [
            (token, action)
            for token in tokens.values()
            for action in daemon.call("GET", "/api/view", token).body["legal_actions"]
        ]
        token, action = rnd.choice(offered)
        daemon.call("POST", "/api/actions", token, action)
    raise AssertionError("the game does not end")


def play_evening(daemon: Daemon) -> list[dict[str, Any]]:
    """A game of Daddy Cool won by its rules for each pair of :data:`EVENING`, then a game of
    Ice Trays the referee ended early; the history's games then, newest first."""
    for seed, (first, second) in enumerate(EVENING):
        seats = [{"seat": 1, "name": first}, {"seat": 2, "name": second}]
        body = {"game": "daddy-cool", "seats": seats, "replace": True}
        started = daemon.call("POST", "/api/games", daemon.referee, body)
        play_out(daemon, daemon.seated(started), random.Random(seed))
    body = {"game": "ice-trays", "seats": [{"seat": 1, "name": "Oma"}, 2], "replace": True}
    assert daemon.call("POST", "/api/games", daemon.referee, body).status == 201
    assert daemon.call("POST", "/api/games/end", daemon.referee, {}).status == 200
    return list(daemon.call("GET", "/api/history").body["games"])
