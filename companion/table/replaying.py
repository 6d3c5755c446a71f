"""A stored game played again from its actions, as the history and an export need it; what
stops a replay.

A game is replayed only under the edition of its rules it was played under (its engine's
``RULES``): an older game's actions would replay to another game.
"""

from __future__ import annotations

from companion.errors import CompanionError
from companion.games import engine
from companion.games.messages import from_json
from companion.games.record import GameRecord, TakeBack
from companion.games.seats import seats_from_json
from companion.table.stored import StoredGame

REPLAY_ERRORS = (CompanionError, ValueError, TypeError, KeyError, IndexError, AttributeError)
"""What a stored game or action that no longer replays raises (an engine's refusal among them)."""


class OtherRules(CompanionError):
    """A stored game was played under another edition of its rules than its engine's: its
    actions would replay to another game, so it is not replayed."""


def replayed(stored: StoredGame) -> GameRecord:
    """A stored game rebuilt by replaying its actions; ``REPLAY_ERRORS`` when it does not."""
    eng = engine(stored.game)
    if stored.rules != eng.RULES:
        raise OtherRules(
            f"game {stored.id} of {eng.TITLE} was played under edition {stored.rules} of its "
            f"rules, and this companion referees edition {eng.RULES}"
        )
    record = GameRecord.start(
        stored.game,
        stored.options,
        seats_from_json(stored.seats, eng.SEATS),
        bytes.fromhex(stored.device_secret),
        stored.player_seeds,
    )
    for entry in stored.actions:
        record.act(from_json(entry, (*eng.ACTIONS, TakeBack)))
    if stored.ended_at is not None:
        record.end()
    return record
