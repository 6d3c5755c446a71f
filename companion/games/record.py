"""A game being played, its log, and its export.

A :class:`GameRecord` keeps what replays a game exactly: the game's name, its options and seats,
the secret seed, and every action with the events it caused. The export shows the seed and the
events (shuffles, draws, rolls) only once the game is over; before that it carries the actions
and the commitment alone, so nobody learns the draw order or a hand from it. A game is over when
its rules give an outcome, or when the referee ends it early (:meth:`GameRecord.end`): then it has
no outcome, takes no more actions, and its export is ``"ended": true`` with the seed revealed.

>>> from companion.games.seats import default_seats
>>> rec = GameRecord.start("cool-runnings", {}, default_seats(2), bytes(32))
>>> rec.export()["seed"] is None, len(rec.export()["log"])
(True, 0)
>>> rec.end()
>>> rec.over, rec.export()["ended"], rec.export()["seed"] is not None
(True, True, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.errors import IllegalAction
from companion.games import Engine, engine
from companion.games.fair import FairRandom, commitment_of, mix_seed
from companion.games.frame import GameState
from companion.games.messages import to_json
from companion.games.outcome import Outcome, as_json
from companion.games.seats import SeatInfo

FORMAT = "companion-game"
VERSION = 1
ENDED = "the referee ended this game"
"""Why an action is refused once the referee has ended the game."""


@dataclass
class GameRecord:
    """A game in play: the current state and everything needed to replay and export it."""

    game: str
    options: dict[str, Any]
    seats: tuple[SeatInfo, ...]
    device_secret: bytes
    player_seeds: tuple[str, ...]
    state: GameState
    setup: list[Any]
    log: list[tuple[Any, list[Any]]] = field(default_factory=list)
    ended: bool = False
    """Whether the referee ended the game before its rules did."""

    @classmethod
    def start(
        cls,
        game: str,
        options: Mapping[str, Any] | None,
        seats: Sequence[SeatInfo],
        device_secret: bytes,
        player_seeds: Sequence[str] = (),
    ) -> GameRecord:
        """Start a game; ``device_secret`` is 32 fresh random bytes, drawn by the caller."""
        eng = engine(game)
        normal = eng.options_to_json(eng.options_from_json(options))
        seed = mix_seed(device_secret, player_seeds)
        state, events = eng.new_game(normal, seats, FairRandom(seed))
        return cls(game, normal, tuple(seats), device_secret, tuple(player_seeds), state, events)

    @property
    def engine(self) -> Engine:
        return engine(self.game)

    @property
    def rng(self) -> FairRandom:
        return FairRandom(mix_seed(self.device_secret, self.player_seeds))

    @property
    def commitment(self) -> str:
        return commitment_of(mix_seed(self.device_secret, self.player_seeds))

    @property
    def outcome(self) -> Outcome | None:
        """How the rules ended the game; ``None`` while it runs or when the referee ended it."""
        return self.engine.outcome(self.state)

    def outcome_json(self) -> dict[str, Any] | None:
        """The outcome as exports and the status carry it: ``None`` until the rules end the game."""
        return as_json(self.outcome)

    @property
    def over(self) -> bool:
        """Whether the game is over: by its rules (an outcome) or by the referee."""
        return self.ended or self.outcome is not None

    def end(self) -> None:
        """The referee ends the game early; ``IllegalAction`` if it is already over."""
        if self.over:
            raise IllegalAction("the game is already over")
        self.ended = True

    def check_open(self) -> None:
        """``IllegalAction`` if the referee ended the game: it takes no more actions."""
        if self.ended:
            raise IllegalAction(ENDED)

    def act(self, action: Any) -> list[Any]:
        """Apply an action (``IllegalAction`` if the rules forbid it or the game was ended) and
        log it."""
        self.check_open()
        self.state, events = self.engine.apply(self.state, action, self.rng)
        self.log.append((action, events))
        return events

    def export(self) -> dict[str, Any]:
        """The game as JSON; the seed and the events only once the game is over (or ended)."""
        reveal = self.over
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "options": self.options,
            "seats": [s.to_json() for s in self.seats],
            "commitment": self.commitment,
            "outcome": self.outcome_json(),
            "ended": self.ended,
            "seed": (
                {"device": self.device_secret.hex(), "players": list(self.player_seeds)}
                if reveal
                else None
            ),
            "setup": [to_json(e) for e in self.setup] if reveal else None,
            "log": [
                {"action": to_json(a), **({"events": [to_json(e) for e in ev]} if reveal else {})}
                for a, ev in self.log
            ],
        }
