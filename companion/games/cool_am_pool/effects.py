"""What a game of Cool am Pool asks of the table: the your-turn cue, and the winner's cue.

Before the first turn, each seat in turn lays a towel: the seat to lay the next one is cued too.
It plays without ice cubes or counts, so nothing stands at the table between its events.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from companion.games.cool_am_pool import messages as m
from companion.games.cool_am_pool.state import SETUP, State
from companion.games.effects import (
    Effect,
    TurnCue,
    no_defaults,
    nothing_standing,
    turns_and_end,
)
from companion.games.start_options import no_options

_turns = turns_and_end(m.TurnStarted, m.GameOver, winner="winner")
standing = nothing_standing
table_defaults = no_defaults
start_options = no_options


def effects(events: Iterable[Any], state: State) -> list[Effect]:
    """A turn's cue and the winner's; while towels are laid, the cue of the seat to lay next."""
    events = list(events)
    laying = any(isinstance(e, m.SetupStarted | m.TowelPlaced) for e in events)
    towel = [TurnCue(state.turn_seat)] if laying and state.phase == SETUP else []
    return towel + _turns(events, state)
