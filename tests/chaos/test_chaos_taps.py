"""Double taps over HTTP: a real daemon, phones that post the same offered action several times
at once (a double tap, a retry after a lost answer), in every game. Each burst is taken once,
and every answer is 200 for the action taken or 409 for the one the game moved past.
"""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from bench.daemon import Answer, Daemon, start
from bench.figures import record
from companion.games import GAMES

BURST = 4
"""Posts of one offered action at once."""
ROUNDS = 40
"""Bursts in each game."""
TRIES = 20
"""Looks at the table per burst at most: while a count runs, nothing is offered."""
WAIT_S = 0.05


def burst(daemon: Daemon, token: str, action: dict[str, Any], taps: int) -> list[Answer]:
    """Post ``action`` ``taps`` times at once; the answers."""
    barrier = threading.Barrier(taps)
    answers: list[Answer | None] = [None] * taps

    def post(i: int) -> None:
        barrier.wait()
        answers[i] = daemon.call("POST", "/api/actions", token, action)

    threads = [threading.Thread(target=post, args=(i,)) for i in range(taps)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert all(a is not None for a in answers)
    return [a for a in answers if a is not None]


def new_game(daemon: Daemon, game: str) -> dict[int, str]:
    """A new game of ``game`` in place of the one played; each seat's token."""
    started = daemon.call("POST", "/api/games", daemon.referee, {"game": game, "replace": True})
    assert started.status == 201, started.body
    return {int(s): t for s, t in daemon.seated(started).items()}


def play_bursts(daemon: Daemon, game: str, rounds: int, rnd: random.Random) -> dict[str, int]:
    """``rounds`` bursts, in as many new games as they take; how often an action was taken
    more than once."""
    tokens = new_game(daemon, game)
    seen = {"bursts": 0, "twice": 0, "ok": 0, "stale": 0}
    for _ in range(TRIES * rounds):
        if seen["bursts"] == rounds:
            break
        if daemon.call("GET", "/api/status").body["game"]["over"]:
            tokens = new_game(daemon, game)
            continue
        legal = [
            (seat, a)
            for seat, token in tokens.items()
            for a in daemon.call("GET", "/api/view", token).body["legal_actions"]
        ]
        offered = [(seat, a) for seat, a in legal if a["type"] != "melted"]
        if not legal:
            time.sleep(WAIT_S)  # a count runs: the table ends it
            continue
        if not offered:  # only a melted cube to confirm: that game is played out here
            tokens = new_game(daemon, game)
            continue
        seat, action = rnd.choice(offered)
        before = len(daemon.call("GET", "/api/export", daemon.referee).body["log"])
        answers = burst(daemon, tokens[seat], action, BURST)
        log = daemon.call("GET", "/api/export", daemon.referee).body["log"][before:]
        posted = {k: v for k, v in action.items() if k != "after"}
        taken = sum(entry["action"] == posted for entry in log)
        seen["bursts"] += 1
        seen["twice"] += max(taken - 1, 0)
        seen["ok"] += sum(a.status == 200 for a in answers)
        seen["stale"] += sum(a.status == 409 for a in answers)
        assert {a.status for a in answers} <= {200, 409}, [a.body for a in answers]
        if taken:
            ok = [a.body for a in answers if a.status == 200]
            assert ok and all(body == ok[0] for body in ok)
    return seen


@pytest.mark.long
def test_double_taps_over_http_are_taken_once(tmp_path: Path) -> None:
    daemon = start(tmp_path)
    try:
        rnd = random.Random(17)
        totals = {"bursts": 0, "twice": 0, "ok": 0, "stale": 0}
        for game in sorted(GAMES):
            for key, value in play_bursts(daemon, game, ROUNDS, rnd).items():
                totals[key] += value
    finally:
        daemon.stop()
    record(
        "chaos: double taps, applied twice",
        totals["twice"],
        "actions",
        goal=0,
        better="lower",
        note=f"{totals['bursts']} bursts of {BURST} identical posts at once over HTTP in the four "
        f"games: {totals['ok']} answered 200 (the first answer, repeated), {totals['stale']} 409",
    )
    assert totals["twice"] == 0
    assert totals["bursts"] == ROUNDS * len(GAMES)
