"""The scores: lounger values, one point per bather on a foreign towel, one per two chips;
ties go to the seat with more bathers on the board, and a tie there stays a tie.

>>> winner_of({1: 20, 2: 20, 3: 18}, {1: 7, 2: 8, 3: 9})
(2, True)
>>> winner_of({1: 20, 2: 20}, {1: 7, 2: 7})
(None, True)
"""

from __future__ import annotations

from collections import Counter
from typing import Final

from companion.games.cool_am_pool.state import State
from companion.games.outcome import Outcome, Part, ranked

HOW: Final = "points"
ON_OWN_TOWEL, ON_FOREIGN_TOWEL, CHIPS_LEFT = "lounger", "foreign-towel", "chips"
"""What points come from: a bather on its own towel (a lounger, worth its row; a 5-point
lounger five), a bather on a foreign towel (one point), water-ball chips (one per two)."""
BATHERS = "bathers"
"""What breaks a tie on points: the bathers on the board."""
CHIPS_A_POINT = 2
"""For every two water-ball chips left there is one more point."""


def parts(state: State, seat: int) -> tuple[Part, ...]:
    """Where ``seat``'s points come from as the game stands: its loungers row by row, the
    highest first, its bathers on foreign towels, its chips; a part with nothing left out."""
    own: Counter[int] = Counter()
    foreign = 0
    for lounger, towel, bather in zip(state.loungers, state.towels, state.bathers, strict=True):
        if bather == seat:
            if towel == seat:
                own[lounger.row] += 1
            else:
                foreign += 1
    found = [Part(ON_OWN_TOWEL, n, n * row, row) for row, n in sorted(own.items(), reverse=True)]
    if foreign:
        found.append(Part(ON_FOREIGN_TOWEL, foreign, foreign, 1))
    chips = state.chips[seat]
    if chips:
        found.append(Part(CHIPS_LEFT, chips, chips // CHIPS_A_POINT))
    return tuple(found)


def scores(state: State) -> dict[int, int]:
    """Each seat's points as the game stands: the sum of its parts."""
    return {s.seat: sum(p.points or 0 for p in parts(state, s.seat)) for s in state.seats}


def final(state: State) -> Outcome:
    """The end of a game that is over: the winner (None if still tied), every seat's points
    and where they came from, ranked, and the bathers where they broke a tie."""
    points, count = scores(state), bathers(state)
    winner, _ = winner_of(points, count)
    every = {s.seat: parts(state, s.seat) for s in state.seats}
    ranking, ties = ranked(points, every, BATHERS, count)
    return Outcome(winner, HOW, points, ranking=ranking, tie_breaks=ties)


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
