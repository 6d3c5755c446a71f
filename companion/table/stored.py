"""What the store hands back: a game as stored, its seats' claims, the inputs of its melt
estimates, and a finished game's summary."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class MeltInput:
    """One thing a seat's melt estimate is made from, at ``t_s`` seconds of game time (which
    runs on across restarts) and the wall clock's ``wall``: a recording line of ``companion
    melt replay`` (``start_g``, ``air_c``, ``weigh_in_g``, ``attack``)."""

    t_s: float
    wall: float
    seat: int
    kind: str
    value: float | str


@dataclass(frozen=True)
class StoredClaim:
    """A claim given to a seat (see :mod:`.seat_keys`), and the token of the phone that used
    it (``None`` while unused)."""

    seat: int
    claim: str
    token: str | None


@dataclass(frozen=True)
class StoredGame:
    """A game as stored: what starts it again, and its actions in order."""

    id: int
    game: str
    options: dict[str, Any]
    seats: list[Any]
    device_secret: str
    player_seeds: list[str]
    seat_tokens: dict[str, str]
    """The seats' tokens of a game stored before seats were claimed (empty after)."""
    started_at: float
    actions: list[dict[str, Any]]
    ended_at: float | None = None
    """When the referee ended the game early (Unix seconds), or ``None``."""
    claims: tuple[StoredClaim, ...] = ()
    """The seats' claims in the order they were given."""
    rules: int = 1
    """The edition of the game's rules it is played under (its engine's ``RULES`` at start)."""


@dataclass(frozen=True)
class Finished:
    """A finished game as the history keeps it: when it started (what the standings count
    from) and its summary (:func:`companion.table.history.summary`), stored with the change
    that finished it."""

    started_at: float
    summary: dict[str, Any]
