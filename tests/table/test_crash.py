"""Power cuts: the daemon is killed at random moments while a scripted game is played through
its API; after each restart the game is where the last answered action left it, and the
database is sound. ``COMPANION_CRASH_KILLS`` sets how many kills (a handful in ``make test``)."""

from __future__ import annotations

import http.client
import os
import random
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from bench.daemon import Daemon, start

GAMES = ("cool-am-pool", "ice-trays", "daddy-cool", "cool-runnings")
KILLS = int(os.environ.get("COMPANION_CRASH_KILLS", "8"))
CALM_S = 0.05


class Player:
    """Posts legal actions, one at a time, and remembers what it saw after each answer."""

    def __init__(self, daemon: Daemon, tokens: dict[str, str], rnd: random.Random) -> None:
        self.daemon = daemon
        self.tokens = {"referee": daemon.referee, **tokens}
        self.rnd = rnd
        self.answered = 0
        """Actions of the game the daemon had stored when it answered the last one."""
        self.seen: tuple[int, dict[str, Any], dict[str, Any]] | None = None
        """(actions stored, the status's game, every viewer's view), all read in one calm."""
        self.over = False
        self.calm = threading.Event()
        """Set while nothing is in flight and what was seen is the daemon's state."""

    def play(self, stop: threading.Event) -> None:
        try:
            while not stop.is_set() and not self.over:
                self._step()
        except (OSError, http.client.HTTPException):
            pass  # the daemon is gone: the power was cut

    def _step(self) -> None:
        views = {
            who: self.daemon.call("GET", "/api/view", t).body for who, t in self.tokens.items()
        }
        status = self.daemon.call("GET", "/api/status").body
        game = status["game"]
        count = game["actions"]
        calm = self.daemon.call("GET", "/api/status").body["game"]["actions"] == count
        if calm and (self.seen is None or self.seen[0] != count):
            self.seen = (count, game, views)
        if game["over"]:
            self.over = True
        if calm:
            self.calm.set()
            time.sleep(CALM_S)
            self.calm.clear()
        if self.over:
            return
        choices = [(who, a) for who, v in views.items() for a in v.get("legal_actions", [])]
        if not choices:
            time.sleep(0.02)  # a ten-count runs: the table ends it
            return
        who, action = self.rnd.choice(choices)
        answer = self.daemon.call("POST", "/api/actions", self.tokens[who], action)
        if answer.status == 200:
            self.answered = self.daemon.call("GET", "/api/status").body["game"]["actions"]


def test_no_answered_action_is_lost_to_a_power_cut(tmp_path: Path) -> None:
    rnd = random.Random(11)
    games = iter(GAMES * KILLS)
    daemon = start(tmp_path)
    started = daemon.call("POST", "/api/games", daemon.referee, {"game": next(games)})
    assert started.status == 201, started.body
    tokens = started.body["seat_tokens"]
    checked = 0
    try:
        for kill in range(KILLS):
            player = Player(daemon, tokens, rnd)
            stop = threading.Event()
            worker = threading.Thread(target=player.play, args=(stop,), daemon=True)
            worker.start()
            time.sleep(rnd.uniform(0.2, 1.0))
            if kill % 2:  # every other cut comes while nothing is in flight, to compare it all
                player.calm.wait(10)
            daemon.kill()
            stop.set()
            worker.join(10)
            daemon = start(tmp_path)
            game = daemon.call("GET", "/api/status").body["game"]
            assert game["actions"] >= player.answered, "an answered action was lost"
            if player.seen is not None and game["actions"] == player.seen[0]:
                views = {
                    w: daemon.call("GET", "/api/view", t).body for w, t in player.tokens.items()
                }
                assert game == player.seen[1]
                assert views == player.seen[2]
                checked += 1
            if game["over"]:
                started = daemon.call("POST", "/api/games", daemon.referee, {"game": next(games)})
                tokens = started.body["seat_tokens"]
        assert checked > 0, "no restart could be compared with what was seen before the cut"
    finally:
        daemon.stop()
    with sqlite3.connect(tmp_path / "companion.db") as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
