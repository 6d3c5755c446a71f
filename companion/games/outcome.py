"""How a game ended: who won, how, what each seat scored and how the seats rank.

Every engine's ``outcome(state)`` gives an :class:`Outcome` once the game is over (``None``
before); its JSON is what exports, views and ``/api/status`` carry, seats as strings.

>>> Outcome(2, "points", {1: 14, 2: 17}, {"cubes": {1: 10, 2: 11}}).to_json()
{'winner': 2, 'how': 'points', 'scores': {'1': 14, '2': 17}, 'cubes': {'1': 10, '2': 11}}
>>> as_json(Outcome(1, "finish")), as_json(None)
({'winner': 1, 'how': 'finish'}, None)

A game that ranks its seats gives each one's :class:`Place`: its points and the :class:`Part`
they came from; seats level on points are told apart by a count its rules name
(:class:`TieBreak`), and seats level on both share a place:

>>> ranking, ties = ranked({1: 20, 2: 20, 3: 18}, {}, "bathers", {1: 7, 2: 8, 3: 9})
>>> [(p.place, p.seat, p.points) for p in ranking], ties
([(1, 2, 20), (2, 1, 20), (3, 3, 18)], (TieBreak(by='bathers', points=20, counts={1: 7, 2: 8}),))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

PerSeat = Mapping[int, int]
"""A count for every seat, by seat number."""


@dataclass(frozen=True)
class Part:
    """Some of a seat's score and where it came from: ``count`` things of one kind (``what``,
    in the game's words: ``"lounger"``, ``"chips"``, ``"cubes"``), each worth ``each``, making
    ``points``; in a game without points the count alone (a cub's floes to the tub)."""

    what: str
    count: int
    points: int | None = None
    each: int | None = None

    def to_json(self) -> dict[str, Any]:
        """``what`` and ``count``, then ``points`` and ``each`` where the game counts them."""
        out: dict[str, Any] = {"what": self.what, "count": self.count}
        if self.points is not None:
            out["points"] = self.points
        if self.each is not None:
            out["each"] = self.each
        return out


@dataclass(frozen=True)
class Place:
    """A seat at the end: its place (1 is first), its points (``None`` in a game that counts
    none) and the parts they came from."""

    place: int
    seat: int
    points: int | None
    parts: tuple[Part, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "place": self.place,
            "seat": self.seat,
            "points": self.points,
            "parts": [part.to_json() for part in self.parts],
        }


@dataclass(frozen=True)
class TieBreak:
    """Seats level on ``points``, and the count the rules look at next (``by``), seat by seat:
    it decided where the counts differ; seats whose counts are equal too share a place."""

    by: str
    points: int
    counts: PerSeat

    def to_json(self) -> dict[str, Any]:
        return {"by": self.by, "points": self.points, "counts": _by_seat(self.counts)}


How = Literal["finish", "last-cube", "points", "tub"]
"""Each way a game is won: Cool Runnings' race by crossing the finish or as the last cube left,
Cool am Pool and Ice Trays on points, Daddy Cool at the wash tub."""


@dataclass(frozen=True)
class Outcome:
    """The end of a game by its rules."""

    winner: int | None
    """The seat that won; ``None`` when a tie is left."""
    how: How
    """How it was won, in the game's words."""
    scores: PerSeat | None = None
    """Each seat's score, in the games that count one."""
    tallies: Mapping[str, PerSeat] = field(default_factory=dict)
    """More counts per seat that a game names (Ice Trays' ``cubes``, which break a tie)."""
    ranking: tuple[Place, ...] = ()
    """Every seat's place, first to last, in the games that rank their seats."""
    tie_breaks: tuple[TieBreak, ...] = ()
    """Each set of seats level on points, with the count that was to tell them apart."""

    def __post_init__(self) -> None:
        clash = {"winner", "how", "scores", "ranking", "tie_breaks"} & set(self.tallies)
        if clash:
            raise ValueError(f"a tally cannot be named {sorted(clash)[0]!r}")

    def to_json(self) -> dict[str, Any]:
        """``winner`` and ``how``, then ``scores`` (if counted) and every tally, seat by seat,
        then the ranking and its tie-breaks (if ranked)."""
        out: dict[str, Any] = {"winner": self.winner, "how": self.how}
        if self.scores is not None:
            out["scores"] = _by_seat(self.scores)
        for name, counts in self.tallies.items():
            out[name] = _by_seat(counts)
        if self.ranking:
            out["ranking"] = [place.to_json() for place in self.ranking]
            out["tie_breaks"] = [tie.to_json() for tie in self.tie_breaks]
        return out


def places(keys: Mapping[int, Sequence[int]]) -> dict[int, int]:
    """Each seat's place by its keys, the highest first, compared in order; seats with equal
    keys share a place and the next place is skipped (1, 2, 2, 4).

    >>> places({1: (18, 9), 2: (20, 8), 3: (18, 9), 4: (17, 9)})
    {2: 1, 1: 2, 3: 2, 4: 4}
    """
    order = sorted(keys, key=lambda seat: (tuple(-k for k in keys[seat]), seat))
    ahead = {seat: sum(1 for s in keys if tuple(keys[s]) > tuple(keys[seat])) for seat in order}
    return {seat: 1 + n for seat, n in ahead.items()}


def ranked(
    points: PerSeat,
    parts: Mapping[int, Sequence[Part]],
    tie_by: str,
    tie: PerSeat,
) -> tuple[tuple[Place, ...], tuple[TieBreak, ...]]:
    """The seats ranked by points, seats level on points by ``tie`` (the count named
    ``tie_by``, more is better), with each seat's parts; and each set of seats level on points,
    best first."""
    place = places({seat: (points[seat], tie[seat]) for seat in points})
    ranking = tuple(
        Place(place[seat], seat, points[seat], tuple(parts.get(seat, ()))) for seat in place
    )
    level: dict[int, list[int]] = {}
    for seat in place:
        level.setdefault(points[seat], []).append(seat)
    ties = tuple(
        TieBreak(tie_by, p, {seat: tie[seat] for seat in sorted(seats)})
        for p, seats in level.items()
        if len(seats) > 1
    )
    return ranking, ties


def as_json(outcome: Outcome | None) -> dict[str, Any] | None:
    """The JSON of an outcome, ``None`` for a game that is not over."""
    return None if outcome is None else outcome.to_json()


def _by_seat(counts: PerSeat) -> dict[str, int]:
    return {str(seat): counts[seat] for seat in sorted(counts)}
