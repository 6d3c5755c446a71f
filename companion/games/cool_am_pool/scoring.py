"""The scores at the end: lounger values, one point per bather on a foreign towel, one per two
chips; ties go to the seat with more bathers on the board, and a tie there stays a tie.

>>> winner_of({1: 20, 2: 20, 3: 18}, {1: 7, 2: 8, 3: 9})
(2, True)
>>> winner_of({1: 20, 2: 20}, {1: 7, 2: 7})
(None, True)
"""

from __future__ import annotations

from companion.games.cool_am_pool.state import State


def scores(state: State) -> dict[int, int]:
    """Each seat's points as the game stands."""
    points = {s.seat: state.chips[s.seat] // 2 for s in state.seats}
    for lounger, towel, bather in zip(state.loungers, state.towels, state.bathers, strict=True):
        if bather is not None:
            points[bather] += lounger.row if towel == bather else 1
    return points


def bathers(state: State) -> dict[int, int]:
    """Each seat's bathers on the board: its towels turned over and its figures on foreign ones."""
    count = {s.seat: 0 for s in state.seats}
    for bather in state.bathers:
        if bather is not None:
            count[bather] += 1
    return count


def winner_of(points: dict[int, int], bathers: dict[int, int]) -> tuple[int | None, bool]:
    """The winner (None while still tied) and whether the bathers had to decide."""
    best = max(points.values())
    leaders = [seat for seat, p in points.items() if p == best]
    if len(leaders) == 1:
        return leaders[0], False
    most = max(bathers[seat] for seat in leaders)
    tied = [seat for seat in leaders if bathers[seat] == most]
    return (tied[0] if len(tied) == 1 else None), True
