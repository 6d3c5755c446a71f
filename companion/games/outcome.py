"""How a game ended: who won, how, and what each seat scored.

Every engine's ``outcome(state)`` gives an :class:`Outcome` once the game is over (``None``
before); its JSON is what exports, views and ``/api/status`` carry, seats as strings.

>>> Outcome(2, "points", {1: 14, 2: 17}, {"cubes": {1: 10, 2: 11}}).to_json()
{'winner': 2, 'how': 'points', 'scores': {'1': 14, '2': 17}, 'cubes': {'1': 10, '2': 11}}
>>> as_json(Outcome(1, "finish")), as_json(None)
({'winner': 1, 'how': 'finish'}, None)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

PerSeat = Mapping[int, int]
"""A count for every seat, by seat number."""


@dataclass(frozen=True)
class Outcome:
    """The end of a game by its rules."""

    winner: int | None
    """The seat that won; ``None`` when a tie is left."""
    how: str
    """How it was won, in the game's words: ``"points"``, ``"finish"``, ``"tub"``, ..."""
    scores: PerSeat | None = None
    """Each seat's score, in the games that count one."""
    tallies: Mapping[str, PerSeat] = field(default_factory=dict)
    """More counts per seat that a game names (Ice Trays' ``cubes``, which break a tie)."""

    def __post_init__(self) -> None:
        clash = {"winner", "how", "scores"} & set(self.tallies)
        if clash:
            raise ValueError(f"a tally cannot be named {sorted(clash)[0]!r}")

    def to_json(self) -> dict[str, Any]:
        """``winner`` and ``how``, then ``scores`` (if counted) and every tally, seat by seat."""
        out: dict[str, Any] = {"winner": self.winner, "how": self.how}
        if self.scores is not None:
            out["scores"] = _by_seat(self.scores)
        for name, counts in self.tallies.items():
            out[name] = _by_seat(counts)
        return out


def as_json(outcome: Outcome | None) -> dict[str, Any] | None:
    """The JSON of an outcome, ``None`` for a game that is not over."""
    return None if outcome is None else outcome.to_json()


def _by_seat(counts: PerSeat) -> dict[str, int]:
    return {str(seat): counts[seat] for seat in sorted(counts)}
