"""The ring of cups and trays, and sowing cubes around it.

Clockwise seen from above, the ring is twelve places: cup 1, trays 1 and 2, cup 2, trays 3 and
4, cup 3, trays 5 and 6, cup 4, trays 7 and 8, then cup 1 again. A seat sits at its cup facing
the middle, so clockwise is to its left (play passes to the left) and counterclockwise to its
right: Lauren sows "to the right" counterclockwise.

A place is written ``"cup 2"`` or ``"tray 7"`` in events, the way a player would say it.

>>> sow((3, 3, 3, 3, 3, 3, 3, 3), capacity=5, tray=1, cup=1, direction=COUNTERCLOCKWISE)
((0, 3, 3, 3, 3, 3, 4, 4), ('cup 1', 'tray 8', 'tray 7'))
"""

from __future__ import annotations

from companion.games.ice_trays.board import TRAYS_PER_SIDE

CLOCKWISE, COUNTERCLOCKWISE = "clockwise", "counterclockwise"
DIRECTIONS = (CLOCKWISE, COUNTERCLOCKWISE)
CUPS = 4
PER_CUP = TRAYS_PER_SIDE + 1
PLACES = CUPS * PER_CUP

# (cup number, 0) or (0, tray number) for each of the twelve places, clockwise from cup 1.
_RING = tuple(
    (i // PER_CUP + 1, 0) if i % PER_CUP == 0 else (0, i // PER_CUP * TRAYS_PER_SIDE + i % PER_CUP)
    for i in range(PLACES)
)


def place_of_tray(tray: int) -> int:
    """The tray's index among the twelve places.

    >>> [place_of_tray(t) for t in (1, 2, 3, 8)]
    [1, 2, 4, 11]
    """
    return (tray - 1) // TRAYS_PER_SIDE * PER_CUP + 1 + (tray - 1) % TRAYS_PER_SIDE


def sow(
    trays: tuple[int, ...], capacity: int, tray: int, cup: int, direction: str
) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """Take every cube of ``tray`` and drop them one at a time around the ring from there.

    The sower's own ``cup`` and the trays receive; other cups (an opponent's, or a corner no one
    sits at) are passed over, and so are a full tray and the tray just emptied (the rulings).
    The own cup comes round once a lap, so sowing always ends. Returns the trays after sowing
    and where each cube went, in order.

    >>> sow((5, 5, 5, 5, 1, 0, 0, 0), capacity=5, tray=5, cup=2, direction=CLOCKWISE)
    ((5, 5, 5, 5, 0, 1, 0, 0), ('tray 6',))

    When every other tray is full, lap after lap only the own cup receives:

    >>> sow((3, 3, 3, 3, 3, 3, 3, 3), capacity=3, tray=8, cup=2, direction=CLOCKWISE)
    ((3, 3, 3, 3, 3, 3, 3, 0), ('cup 2', 'cup 2', 'cup 2'))
    """
    counts = list(trays)
    cubes, counts[tray - 1] = counts[tray - 1], 0
    step = 1 if direction == CLOCKWISE else -1
    index = place_of_tray(tray)
    path: list[str] = []
    while len(path) < cubes:
        index = (index + step) % PLACES
        at_cup, at_tray = _RING[index]
        if at_cup:
            if at_cup == cup:
                path.append(f"cup {cup}")
        elif at_tray != tray and counts[at_tray - 1] < capacity:
            counts[at_tray - 1] += 1
            path.append(f"tray {at_tray}")
    return tuple(counts), tuple(path)
