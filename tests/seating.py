"""Seats taken as their phones take them (a new game's claims posted for each seat's token),
and a game played by them to its end."""

from __future__ import annotations

import random
import time
from typing import Any

from companion.errors import IllegalAction
from companion.games.messages import REFEREE
from companion.table.service import TableService


def seated(table: TableService, started: dict[str, Any]) -> dict[str, str]:
    """Each seat's token by its number as text, from ``started`` (what starting a game
    answered): every seat's claim taken once, as its phone does."""
    return {
        seat: table.claim({"claim": claim})["token"]
        for seat, claim in started["seat_claims"].items()
    }


def play(
    table: TableService,
    tokens: dict[str, str],
    rnd: random.Random,
    limit: int = 5000,
    prefer: tuple[str, ...] = (),
    avoid: tuple[str, ...] = (),
    pause_s: float = 0.0,
) -> int:
    """Random legal actions by the seats and the referee until the game is over: of the types
    in ``prefer`` when one is offered, and not of those in ``avoid`` while others are, and
    ``pause_s`` apart (a table's pace, where 0 is a machine's); how many were taken."""
    actors = [REFEREE, *(int(s) for s in tokens)]
    moves = 0
    while not table.status()["game"]["over"] and moves < limit:
        options = [(a, action) for a in actors for action in table.view(a)["legal_actions"]]
        options = [o for o in options if o[1]["type"] not in avoid] or options
        seat_options = [o for o in options if o[0] != REFEREE]
        pick = [o for o in options if o[1]["type"] in prefer] or seat_options or options
        if not pick:
            time.sleep(0.01)  # a count runs: the table finishes it
            continue
        actor, action = rnd.choice(pick)
        try:
            table.act(actor, action)
            moves += 1
            time.sleep(pause_s)
        except IllegalAction:
            pass  # the count ended between the view and the action
    return moves
