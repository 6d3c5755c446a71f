"""The actions a Daddy Cool table can take, and the events the engine answers with.

Every action names who takes it (``by``): the seat whose turn it is, or the referee acting for
it (a five-year-old may not have a phone). Every type name starts with ``daddy-``.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass

from companion.games.messages import Actor, message

# Actions


@message("daddy-roll")
@dataclass(frozen=True)
class Roll:
    """Roll the dice in hand (all of them when all are set aside)."""

    by: Actor


@message("daddy-stop")
@dataclass(frozen=True)
class Stop:
    """Stop rolling: the cub joins Daddy Cool and the turn ends."""

    by: Actor


Action = Roll | Stop
ACTIONS: tuple[type[Action], ...] = typing.get_args(Action)
"""Every kind of action, in the order of the union."""

# Events


@message("daddy-path-laid")
@dataclass(frozen=True)
class PathLaid:
    """The path as laid, in the board notation (``. . C . T``)."""

    path: str
    floes: int


@message("daddy-turn-started")
@dataclass(frozen=True)
class TurnStarted:
    """Daddy Cool goes next to the seat's cub, at ``at``."""

    seat: int
    turn: int
    at: int


@message("daddy-threw")
@dataclass(frozen=True)
class Threw:
    """What a roll (the ``rolled`` event just before) showed: ``floes`` of ``dice`` dice.

    ``again`` is True when all the dice had been set aside and were taken back to roll.
    """

    seat: int
    by: Actor
    dice: int
    floes: int
    again: bool


@message("daddy-walked")
@dataclass(frozen=True)
class Walked:
    """Daddy Cool walks from ``start`` to ``end`` onto a floe of kind ``onto``; ``lost`` floes
    rolled beyond the tub count for nothing."""

    start: int
    end: int
    onto: str
    lost: int


@message("daddy-no-floe")
@dataclass(frozen=True)
class NoFloe:
    """A roll without a floe: the turn is over and the cub stays at ``stays``."""

    seat: int
    stays: int


@message("daddy-must-roll")
@dataclass(frozen=True)
class MustRoll:
    """The seat may not stop: it must roll ``dice`` dice, for the ``reasons`` given."""

    seat: int
    reasons: tuple[str, ...]
    dice: int


@message("daddy-cub-joined")
@dataclass(frozen=True)
class CubJoined:
    """The seat's cub joins Daddy Cool: from ``start`` to ``end``."""

    seat: int
    by: Actor
    start: int
    end: int


@message("daddy-turn-ended")
@dataclass(frozen=True)
class TurnEnded:
    seat: int


@message("daddy-path-lengthened")
@dataclass(frozen=True)
class PathLengthened:
    """The floes behind the last cub are taken away: ``boxed`` goes back in the box, ``relaid``
    are laid before the tub (kinds in ``relaid_kinds``); every position drops by ``shift``."""

    boxed: int
    relaid: tuple[int, ...]
    relaid_kinds: tuple[str, ...]
    shift: int
    path: str


@message("daddy-won")
@dataclass(frozen=True)
class Won:
    """``how``: ``tub`` (the cub reached the wash tub)."""

    seat: int
    how: str
