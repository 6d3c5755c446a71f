"""Which loungers the dice set aside allow, and how each one is taken.

``n`` dice of one colour allow that colour's column in every row worth ``n`` or less; five of one
colour (any colour) allow a 5-point lounger. The lifeguard's space closes its column or its row.
Only one lounger is taken per turn.
"""

from __future__ import annotations

from companion.games.cool_am_pool.board import COLUMN, FIVE, Lounger, closed
from companion.games.cool_am_pool.state import (
    CONQUER,
    FIVE_POINT,
    FOREIGN,
    OWN,
    RECONQUER,
    State,
)


def reaches(result: dict[str, int], lounger: Lounger) -> bool:
    """Whether the colour dice set aside reach the lounger's row (a lower row is always allowed).

    Only the dice of the lounger's colour count; other colours set aside do not add.
    """
    if lounger.colour is None:
        return max(result.values(), default=0) >= FIVE
    return result.get(lounger.colour, 0) >= lounger.row


def way(state: State, seat: int, lounger: Lounger) -> str | None:
    """How ``seat`` would take the lounger as things lie on it, whatever the dice say, or None.

    Supplies matter: a bather on a foreign towel needs a bather figure in hand, a final conquest
    and a 5-point lounger need a towel in hand.
    """
    i = lounger.number
    towel, bather = state.towels[i], state.bathers[i]
    if lounger.colour is None:
        return FIVE_POINT if towel is None and state.towel_supply[seat] > 0 else None
    if towel is None:
        return None
    if bather is None:
        if towel == seat:
            return OWN
        return FOREIGN if state.bather_supply[seat] > 0 else None
    if towel == seat and bather != seat:
        return RECONQUER
    if bather == seat and towel != seat:
        return CONQUER if state.towel_supply[seat] > 0 else None
    return None  # secured: a towel turned to its bather side, or another seat's bather


def choices(state: State, seat: int) -> dict[int, str]:
    """Every lounger ``seat`` may take now with the dice set aside, and how."""
    have = state.result()
    if not have:
        return {}
    five = max(have.values()) >= FIVE
    kind, what = closed(state.board, state.lifeguard)
    out = {}
    for spot in state.loungers:
        colour = spot.colour
        if colour is None:
            if not five:
                continue
        elif have.get(colour, 0) < spot.row or (
            colour == what if kind == COLUMN else spot.row == what
        ):
            continue  # out of reach, or the lifeguard watches its column or row
        how = way(state, seat, spot)
        if how is not None:
            out[spot.number] = how
    return out
