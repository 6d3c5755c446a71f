"""A game as the session holds it: the message that starts one, and one rebuilt from the store.

:class:`StartGame` is the referee's ``POST /api/games`` body, checked as every action is
(:func:`companion.games.messages.from_json`): a typed value, or a :class:`BadMessage` naming the
field. :class:`Game` is the game being played (or the last one), with what it told.

>>> StartGame.from_json({"game": "ice-trays", "seats": [1, 2]})
StartGame(game='ice-trays', seats=[1, 2], options={}, seeds=(), replace=False)
>>> StartGame.from_json({"game": "ice-trays", "colour": "red"})
Traceback (most recent call last):
...
companion.errors.BadMessage: unknown field 'colour'
"""

from __future__ import annotations

import json
import logging
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.errors import BadMessage, BadOptions
from companion.games import engine
from companion.games.messages import from_json
from companion.games.record import GameRecord, TakeBack
from companion.games.seats import seats_from_json
from companion.table.database_file import BrokenDatabase
from companion.table.replaying import REPLAY_ERRORS
from companion.table.seat_keys import SeatKeys
from companion.table.status import GameSummary, Told
from companion.table.store import Store

log = logging.getLogger(__name__)

TOLD = 8
"""How many of the last things that happened the status tells."""


@dataclass(frozen=True)
class StartGame:
    """``{"game", "seats"?, "options"?, "seeds"?, "replace"?}``: the game to start by its name,
    who plays (the table's seats when not given; checked by the game's seat range), its
    options, the players' own words of randomness, and whether it ends a game being played."""

    game: str
    seats: Any = None
    options: Mapping[str, Any] = field(default_factory=dict)
    seeds: tuple[str, ...] = ()
    replace: bool = False

    @classmethod
    def from_json(cls, body: Any) -> StartGame:
        if not isinstance(body, Mapping):
            raise BadMessage("the body must be a JSON object")
        unknown = sorted(set(body) - {"game", "seats", "options", "seeds", "replace"})
        if unknown:
            raise BadMessage(f"unknown field {unknown[0]!r}")
        name = body.get("game")
        if not isinstance(name, str):
            raise BadMessage('"game" must name a game')
        options = body.get("options") or {}
        if not isinstance(options, Mapping):
            raise BadOptions("options must be a JSON object")
        seeds = body.get("seeds") or []
        if not isinstance(seeds, list) or not all(isinstance(s, str) for s in seeds):
            raise BadMessage('"seeds" must be a list of texts')
        replace = body.get("replace", False)
        if not isinstance(replace, bool):
            raise BadMessage('"replace" must be true or false')
        return cls(name, body.get("seats"), dict(options), tuple(seeds), replace)


@dataclass
class Game:
    """The game being played (or the last one): its row in the store, its record, its seats'
    claims and tokens, and when it started (Unix seconds)."""

    id: int
    record: GameRecord
    keys: SeatKeys
    told: deque[Told] = field(default_factory=lambda: deque(maxlen=TOLD))
    started_at: float = 0.0

    def tell(self, action: object, events: list[object]) -> None:
        """Keep what a change just made says in words (the set-up's, for ``action`` None)."""
        record = self.record
        lines = (
            record.engine.narrate(events, record.state)
            if action is None
            else record.told(action, events)
        )
        self.told.extend(Told(record.changes, line.en, line.de, line.aloud) for line in lines)

    def started(self) -> dict[str, Any]:
        """The answer to its start: its public view and each seat's one-time claim."""
        view = self.record.engine.view(self.record.state, "public")
        return {"view": view, "seat_claims": {str(s): c for s, c in self.keys.claims.items()}}

    def summary(self) -> GameSummary:
        """What the status shows of it: made once a change, not once a snapshot."""
        record = self.record
        view = record.engine.view(record.state, "public")
        return GameSummary(
            name=record.game,
            title=record.engine.TITLE,
            dealt=record.engine.DEALT,
            ice=record.engine.USES_ICE,
            phase=view.get("phase"),
            turn_seat=view.get("turn_seat"),
            commitment=record.commitment,
            over=record.over,
            ended=record.ended,
            outcome=record.outcome_json(),
            actions=record.actions,
            changes=record.changes,
            told=tuple(self.told),
            view=view,
        )


def restored(store: Store) -> Game | None:
    """The current game as the store holds it, at its last stored action (``None``: no game
    yet, or one played under another edition of its rules, which is set aside with a warning);
    a :class:`BrokenDatabase` naming what does not replay."""
    stored = store.current()
    if stored is None:
        return None
    try:
        eng = engine(stored.game)
        if stored.rules != eng.RULES:
            log.warning(
                "game %s of %s was begun under edition %s of its rules, and this companion "
                "referees edition %s: it cannot go on, and the table starts without it; "
                "start a new game",
                stored.id,
                eng.TITLE,
                stored.rules,
                eng.RULES,
            )
            return None
        seats = seats_from_json(stored.seats, eng.SEATS)
        record = GameRecord.start(
            stored.game,
            stored.options,
            seats,
            bytes.fromhex(stored.device_secret),
            stored.player_seeds,
        )
    except REPLAY_ERRORS as exc:
        raise BrokenDatabase(
            store.path, f"holds game {stored.id}, which cannot be started again ({exc})"
        ) from None
    keys = SeatKeys.stored(stored.seat_tokens, stored.claims)
    game = Game(stored.id, record, keys, started_at=stored.started_at)
    game.tell(None, record.setup)
    for n, entry in enumerate(stored.actions):
        try:
            action = from_json(entry, (*eng.ACTIONS, TakeBack))
            game.tell(action, record.act(action))
        except REPLAY_ERRORS as exc:
            raise BrokenDatabase(
                store.path,
                f"holds action {n} of game {stored.id} ({json.dumps(entry)[:80]}), which "
                f"does not replay: {_unsentence(str(exc))}",
            ) from None
    if stored.ended_at is not None:
        record.end()
    return game


def _unsentence(text: str) -> str:
    """A game's sentence inside another one: no full stop of its own.

    >>> _unsentence("It is seat 2's turn.")
    "It is seat 2's turn"
    """
    return text.strip().rstrip(".")
