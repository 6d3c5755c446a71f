"""The actions a Cool am Pool table can take, and the events the engine answers with.

Every action names the seat that takes it (``by``); only the seat whose turn it is acts. Type
names start with ``pool-`` so they never clash with another game's.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass

from companion.games.messages import message

# Actions


@message("pool-place-towel")
@dataclass(frozen=True)
class PlaceTowel:
    """Setup: lay one towel, bather side down, on a free lounger of rows 2-4."""

    by: int
    lounger: int


@message("pool-roll")
@dataclass(frozen=True)
class Roll:
    """Roll every die not set aside: all six at the start of a turn."""

    by: int


@message("pool-spend-chip")
@dataclass(frozen=True)
class SpendChip:
    """Throw a water-ball chip back into the pool: the roll does not count, its lifeguards go
    back, the same dice are rolled again (ruling: a chip voids only the current roll)."""

    by: int


@message("pool-set-aside")
@dataclass(frozen=True)
class SetAside:
    """Accept the roll: set aside these colour dice (by number, ascending); every lifeguard die
    goes aside too (it moved the lifeguard when it was rolled). Empty only when no die shows a
    colour."""

    by: int
    dice: tuple[int, ...]


@message("pool-stop")
@dataclass(frozen=True)
class Stop:
    """Stop rolling and use the dice set aside."""

    by: int


@message("pool-occupy")
@dataclass(frozen=True)
class Occupy:
    """Take one lounger with the dice set aside; how depends on what lies on it."""

    by: int
    lounger: int


Action = PlaceTowel | Roll | SpendChip | SetAside | Stop | Occupy
ACTIONS: tuple[type[Action], ...] = typing.get_args(Action)
"""Every kind of action, in the order of the union."""

# Events


@message("pool-setup-started")
@dataclass(frozen=True)
class SetupStarted:
    """Each seat lays ``towels`` towels, one at a time, from ``first_seat`` clockwise."""

    first_seat: int
    towels: int


@message("pool-towel-placed")
@dataclass(frozen=True)
class TowelPlaced:
    seat: int
    lounger: int


@message("pool-turn-started")
@dataclass(frozen=True)
class TurnStarted:
    seat: int
    turn: int


@message("pool-chip-spent")
@dataclass(frozen=True)
class ChipSpent:
    """A chip went back to the pool: the roll it voided does not count."""

    seat: int
    chips: int


@message("pool-set-aside-dice")
@dataclass(frozen=True)
class DiceSetAside:
    """The roll is accepted: ``dice`` (colour faces ``colours``) and ``lifeguards`` go aside."""

    seat: int
    dice: tuple[int, ...]
    colours: tuple[str, ...]
    lifeguards: tuple[int, ...]


@message("pool-lifeguard-moved")
@dataclass(frozen=True)
class LifeguardMoved:
    """The roll showed ``steps`` lifeguards: at once the lifeguard walked that many spaces
    clockwise, from one track position to another."""

    steps: int
    start: int
    end: int


@message("pool-lifeguard-returned")
@dataclass(frozen=True)
class LifeguardReturned:
    """A chip voided a roll that showed ``steps`` lifeguards: the lifeguard walked back that
    many spaces, to the position it stood on before the roll."""

    steps: int
    start: int
    end: int


@message("pool-stopped")
@dataclass(frozen=True)
class Stopped:
    """Rolling is over (``all_aside``: no die was left to roll); ``result`` is the colour dice."""

    seat: int
    result: tuple[str, ...]
    all_aside: bool


@message("pool-lounger-taken")
@dataclass(frozen=True)
class LoungerTaken:
    """``seat`` took ``lounger`` in the way ``how``; ``other`` is the seat whose towel or bather
    was there (None for one's own free towel and the 5-point loungers)."""

    seat: int
    lounger: int
    how: str
    other: int | None


@message("pool-chips-taken")
@dataclass(frozen=True)
class ChipsTaken:
    """Chips from the pool for a bather on a foreign towel, fewer at the cap of four."""

    seat: int
    got: int
    chips: int


@message("pool-no-lounger")
@dataclass(frozen=True)
class NoLounger:
    """The dice set aside allow no lounger: the turn ends without one."""

    seat: int


@message("pool-turn-ended")
@dataclass(frozen=True)
class TurnEnded:
    seat: int


@message("pool-last-round")
@dataclass(frozen=True)
class LastRound:
    """Only ``free`` towels are without a bather: the round is completed, ``last`` plays last."""

    free: int
    last: int


@message("pool-game-over")
@dataclass(frozen=True)
class GameOver:
    """Each seat's score and bathers on the board (in seat order); ``winner`` is None when the
    bathers' tie-break (``tie_break``) still leaves a tie."""

    seats: tuple[int, ...]
    scores: tuple[int, ...]
    bathers: tuple[int, ...]
    winner: int | None
    tie_break: bool
