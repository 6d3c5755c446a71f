"""A game being played, its log, and its export.

A :class:`GameRecord` keeps what replays a game exactly: the game's name, its options and seats,
the secret seed, and every change in order: each action with the events it caused, and each
:class:`TakeBack` by which the referee took the last standing action back. A take-back restores
the state before that action, its random counter included, so the same action taken again
draws the same roll or card: undoing cannot be used to roll again. The export shows the seed and the
events (shuffles, draws, rolls) only once the game is over; before that it carries the actions
and the commitment alone, so nobody learns the draw order or a hand from it. A game is over when
its rules give an outcome, or when the referee ends it early (:meth:`GameRecord.end`): then it has
no outcome, takes no more actions, and its export is ``"ended": true`` with the seed revealed.

>>> from companion.games.seats import default_seats
>>> rec = GameRecord.start("cool-runnings", {}, default_seats(2), bytes(32))
>>> rec.export()["seed"] is None, len(rec.export()["log"])
(True, 0)
>>> rec.take_back()
Traceback (most recent call last):
  ...
companion.errors.IllegalAction: No action has been taken yet that could be taken back.
>>> rec.end()
>>> rec.over, rec.export()["ended"], rec.export()["seed"] is not None
(True, True, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field
from typing import Any

from companion.errors import IllegalAction
from companion.games import Engine, engine
from companion.games.fair import FairRandom, commitment_of, mix_seed
from companion.games.frame import GameState
from companion.games.messages import REFEREE, Actor, dataclass, message, to_json
from companion.games.outcome import Outcome, as_json
from companion.games.seats import SeatInfo
from companion.games.sentence import Sentence

FORMAT = "companion-game"
VERSION = 1
ENDED = Sentence("the referee ended this game", "die Spielleitung hat dieses Spiel beendet")
"""Why an action is refused once the referee has ended the game."""
ALREADY_OVER = Sentence("the game is already over", "das Spiel ist schon vorbei")
TOOK_BACK = Sentence("The referee took back: ", "Die Spielleitung nahm zurück: ")
LAST_ACTION = Sentence("The last action.", "Der letzte Zug.")
TOOK_BACK_ONE = Sentence(
    "The referee took back the last action.", "Die Spielleitung nahm den letzten Zug zurück."
)
ONLY_REFEREE = Sentence(
    "Only the referee takes an action back.", "Nur die Spielleitung nimmt einen Zug zurück."
)
NOTHING_TO_TAKE_BACK = Sentence(
    "No action has been taken yet that could be taken back.",
    "Es gibt noch keinen Zug, der zurückgenommen werden könnte.",
)


@message("take-back")
@dataclass(frozen=True)
class TakeBack:
    """The referee takes back the last action still standing (the mis-tap every table has)."""

    by: Actor = REFEREE


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
    """Every change in order: an action and its events, or a :class:`TakeBack` and none."""
    ended: bool = False
    """Whether the referee ended the game before its rules did."""
    standing: list[tuple[int, GameState]] = field(default_factory=list)
    """The actions that stand, oldest first: each one's place in the log and the state before
    it, which a take-back returns to."""

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
            raise IllegalAction(ALREADY_OVER)
        self.ended = True

    @property
    def changes(self) -> int:
        """How many times the game changed: its actions and take-backs. A view is stamped with
        it, so a tap offered before a take-back can never land after one."""
        return len(self.log)

    @property
    def actions(self) -> int:
        """How many actions stand (taken and not taken back)."""
        return len(self.standing)

    def check_open(self) -> None:
        """``IllegalAction`` if the referee ended the game: it takes no more actions."""
        if self.ended:
            raise IllegalAction(ENDED)

    def applied(self, action: Any) -> tuple[Any, list[Any]]:
        """What ``action`` would make of the game (the new state and its events), changing
        nothing: ``IllegalAction`` if the rules forbid it, the game was ended, or it is a
        take-back with nothing to take back (its events are then the taken-back action's)."""
        self.check_open()
        if isinstance(action, TakeBack):
            if action.by != REFEREE:
                raise IllegalAction(ONLY_REFEREE)
            if self.over:
                raise IllegalAction(ALREADY_OVER)
            if not self.standing:
                raise IllegalAction(NOTHING_TO_TAKE_BACK)
            place, before = self.standing[-1]
            return before, self.log[place][1]
        return self.engine.apply(self.state, action, self.rng)

    def record(self, action: Any, state: Any, events: list[Any]) -> None:
        """Log a change :meth:`applied` gave, and make it the game's."""
        if isinstance(action, TakeBack):
            self.standing.pop()
            self.log.append((action, []))
        else:
            self.standing.append((len(self.log), self.state))
            self.log.append((action, events))
        self.state = state

    def act(self, action: Any) -> list[Any]:
        """Apply an action or a take-back and log it; its events (for a take-back, those of
        the action taken back). ``IllegalAction`` when it cannot be done."""
        state, events = self.applied(action)
        self.record(action, state, events)
        return events

    def take_back(self) -> list[Any]:
        """The referee takes back the last standing action; the events it had caused."""
        return self.act(TakeBack())

    def export(self) -> dict[str, Any]:
        """The game as JSON; the seed and the events only once the game is over (or ended)."""
        reveal = self.over
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "rules": self.engine.RULES,
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

    def told(self, action: Any, events: list[Any]) -> list[Sentence]:
        """What a change just made says in words: the narration of an action's events, or
        for a take-back, what the referee took back."""
        lines = self.engine.narrate(events, self.state)
        if not isinstance(action, TakeBack):
            return lines
        if not lines:
            return [TOOK_BACK_ONE]
        return [Sentence.join("", TOOK_BACK, lines[0])]

    def last_standing(self) -> Sentence | None:
        """The last action that stands, in words, while the referee may take it back."""
        if self.over or not self.standing:
            return None
        place, _ = self.standing[-1]
        lines = self.engine.narrate(self.log[place][1], self.state)
        return lines[0] if lines else LAST_ACTION
