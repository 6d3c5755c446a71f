"""A game being played, its log, and its export.

A :class:`GameRecord` keeps what replays a game exactly: the game's name, its options and seats,
the secret seed, and every action with the events it caused. The export shows the seed and the
events (shuffles, draws, rolls) only once the game is over; before that it carries the actions
and the commitment alone, so nobody learns the draw order or a hand from it.

>>> from companion.games.seats import default_seats
>>> rec = GameRecord.start("cool-runnings", {}, default_seats(2), bytes(32))
>>> rec.export()["seed"] is None, len(rec.export()["log"])
(True, 0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.games import Engine, engine
from companion.games.fair import FairRandom, commitment_of, mix_seed
from companion.games.messages import to_json
from companion.games.seats import SeatInfo

FORMAT = "companion-game"
VERSION = 1


@dataclass
class GameRecord:
    """A game in play: the current state and everything needed to replay and export it."""

    game: str
    options: dict[str, Any]
    seats: tuple[SeatInfo, ...]
    device_secret: bytes
    player_seeds: tuple[str, ...]
    state: Any
    setup: list[Any]
    log: list[tuple[Any, list[Any]]] = field(default_factory=list)

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
    def over(self) -> bool:
        return self.engine.outcome(self.state) is not None

    def act(self, action: Any) -> list[Any]:
        """Apply an action (``IllegalAction`` if the rules forbid it) and log it."""
        self.state, events = self.engine.apply(self.state, action, self.rng)
        self.log.append((action, events))
        return events

    def export(self) -> dict[str, Any]:
        """The game as JSON; the seed and the events only once the game is over."""
        reveal = self.over
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "options": self.options,
            "seats": [s.to_json() for s in self.seats],
            "commitment": self.commitment,
            "outcome": self.engine.outcome(self.state),
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
