"""Dice with faces from data: roll some or all, set dice aside, take them back.

>>> from companion.games.fair import FairRandom
>>> dice = Dice.of(("floe", "floe", "floe", "", "", ""), count=3)
>>> dice, rolled = dice.roll(FairRandom(bytes(32)))
>>> rolled.dice, len(rolled.faces)
((0, 1, 2), 3)
>>> dice.set_aside([0]).in_hand()
(1, 2)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from companion.games.evolving import Evolving
from companion.games.fair import FairRandom
from companion.games.messages import message


@message("rolled")
@dataclass(frozen=True)
class Rolled:
    """Which dice were rolled (by index) and the face each one shows."""

    dice: tuple[int, ...]
    faces: tuple[str, ...]


@dataclass(frozen=True)
class Dice(Evolving):
    """A set of dice: the faces of each die, what each shows, and which are set aside."""

    faces: tuple[tuple[str, ...], ...]
    showing: tuple[str | None, ...]
    aside: tuple[bool, ...]

    @classmethod
    def of(cls, faces: Sequence[str], count: int) -> Dice:
        """``count`` identical dice with the given faces, none rolled yet."""
        if not faces:
            raise ValueError("a die needs at least one face")
        return cls((tuple(faces),) * count, (None,) * count, (False,) * count)

    def in_hand(self) -> tuple[int, ...]:
        """The dice not set aside."""
        return tuple(i for i, a in enumerate(self.aside) if not a)

    def roll(self, rng: FairRandom, which: Iterable[int] | None = None) -> tuple[Dice, Rolled]:
        """Roll the given dice (by default every die not set aside)."""
        chosen = tuple(sorted(set(self.in_hand() if which is None else which)))
        for i in chosen:
            if not 0 <= i < len(self.faces):
                raise ValueError(f"there is no die {i}")
            if self.aside[i]:
                raise ValueError(f"die {i} is set aside")
        showing = list(self.showing)
        faces: list[str] = []
        for i in chosen:
            face = rng.choice(self.faces[i])
            showing[i] = face
            faces.append(face)
        return self.evolve(showing=tuple(showing)), Rolled(chosen, tuple(faces))

    def set_aside(self, which: Iterable[int]) -> Dice:
        aside = list(self.aside)
        for i in which:
            if not 0 <= i < len(self.faces):
                raise ValueError(f"there is no die {i}")
            if self.showing[i] is None:
                raise ValueError(f"die {i} has not been rolled")
            aside[i] = True
        return self.evolve(aside=tuple(aside))

    def take_back(self) -> Dice:
        """Every die back in hand, as when all six were set aside and all are rolled again."""
        return self.evolve(aside=(False,) * len(self.faces))
