"""The actions a Cool Runnings table can take, and the events the engine answers with.

Every action names who takes it (``by``: a seat, ``"referee"`` or ``"table"``), so the log
says who did what and the web can check that a token acts only as itself.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass

from companion.games.messages import Actor, message

# Actions


@message("play-attack")
@dataclass(frozen=True)
class PlayAttack:
    """The active seat plays a card's top half: its attack on ``target``."""

    by: int
    card: int
    target: int


@message("play-move")
@dataclass(frozen=True)
class PlayMove:
    """The active seat plays a card's bottom half: moves the piece of seat ``piece``."""

    by: int
    card: int
    piece: int


@message("deflect")
@dataclass(frozen=True)
class Deflect:
    """The attacked seat plays a card with the same picture and names a new target."""

    by: int
    card: int
    target: int


@message("take-hit")
@dataclass(frozen=True)
class TakeHit:
    """The attacked seat does not deflect (or cannot): it is hit."""

    by: Actor


@message("count-finished")
@dataclass(frozen=True)
class CountFinished:
    """The ten-count is over: sent by the table when its timer ends, or the referee's skip."""

    by: Actor


@message("attack-done")
@dataclass(frozen=True)
class AttackDone:
    """The seat carrying out the attack (or the referee) confirms it is done."""

    by: Actor


@message("wrong-guess")
@dataclass(frozen=True)
class WrongGuess:
    """Guessing game: the guess was wrong, so another round is played."""

    by: Actor


@message("melted")
@dataclass(frozen=True)
class Melted:
    """A cube is gone, confirmed by its own seat or the referee (ruling 11)."""

    by: Actor
    seat: int


Action = (
    PlayAttack | PlayMove | Deflect | TakeHit | CountFinished | AttackDone | WrongGuess | Melted
)
ACTIONS: tuple[type[Action], ...] = typing.get_args(Action)
"""Every kind of action, in the order of the union."""

# Events


@message("track-built")
@dataclass(frozen=True)
class TrackBuilt:
    parts: tuple[str, ...]
    spaces: int


@message("turn-started")
@dataclass(frozen=True)
class TurnStarted:
    seat: int
    turn: int


@message("attacked")
@dataclass(frozen=True)
class Attacked:
    """A card played as an attack, or to deflect one (``deflected``)."""

    by: int
    card: int
    attack: str
    target: int
    deflected: bool


@message("hit")
@dataclass(frozen=True)
class Hit:
    """``seat`` is hit by ``attack``, carried out by ``carrier``; ``source`` is card or lava."""

    seat: int
    attack: str
    carrier: int
    source: str
    ten_count: bool


@message("count-started")
@dataclass(frozen=True)
class CountStarted:
    seat: int
    counts: int
    pace_s: float


@message("count-ended")
@dataclass(frozen=True)
class CountEnded:
    seat: int
    by: Actor


@message("guessed-wrong")
@dataclass(frozen=True)
class GuessedWrong:
    seat: int
    round: int


@message("attack-ended")
@dataclass(frozen=True)
class AttackEnded:
    """The attack on ``seat`` is over: carried out, or called off because seat ``out``'s cube
    melted (its target's, or its carrier's: ruling 11)."""

    seat: int
    attack: str
    cancelled: bool
    out: int | None = None


@message("move-played")
@dataclass(frozen=True)
class MovePlayed:
    by: int
    card: int
    piece: int
    steps: int


@message("moved")
@dataclass(frozen=True)
class Moved:
    """A piece went from one position to another; ``cause`` is card or movement-space."""

    piece: int
    start: int
    end: int
    cause: str


@message("lava")
@dataclass(frozen=True)
class LavaRevealed:
    seat: int
    card: int
    attack: str
    carrier: int


@message("cube-melted")
@dataclass(frozen=True)
class CubeMelted:
    seat: int
    by: Actor


@message("turn-ended")
@dataclass(frozen=True)
class TurnEnded:
    seat: int


@message("won")
@dataclass(frozen=True)
class Won:
    """``how``: ``finish`` (crossed the line) or ``last-cube`` (the only cube left)."""

    seat: int
    how: str
