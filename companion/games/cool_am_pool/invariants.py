"""What must hold after every action of Cool am Pool, checked by self-play and the tests:
towels, bathers and chips conserved, never more than four chips, and a board that makes sense."""

from __future__ import annotations

from companion.games.cool_am_pool.board import LIFEGUARD, TOWELS_EACH
from companion.games.cool_am_pool.state import (
    BATHERS_EACH,
    CHIPS,
    CHOOSE,
    DECIDE,
    END_AT,
    MAX_CHIPS,
    OCCUPY,
    OVER,
    ROLL,
    SETUP,
    State,
)


def invariants(state: State) -> list[str]:
    """The broken invariants of ``state``, in words; empty when all hold."""
    broken: list[str] = []
    towels, bathers = state.towels, state.bathers
    seats = {s.seat for s in state.seats}
    if not set(towels) | set(bathers) <= seats | {None}:
        broken.append(f"pieces of a seat not at the table: {towels} {bathers}")
    turned = [t for t, b in zip(towels, bathers, strict=True) if t == b]
    for seat in seats:
        laid, supply = towels.count(seat), state.towel_supply[seat]
        if laid + supply != TOWELS_EACH or supply < 0:
            broken.append(f"seat {seat}: {laid} towels laid and {supply} in hand")
        out, supply = bathers.count(seat) - turned.count(seat), state.bather_supply[seat]
        if out + supply != BATHERS_EACH or supply < 0:
            broken.append(f"seat {seat}: {out} bather figures out and {supply} in hand")
        if not 0 <= state.chips[seat] <= MAX_CHIPS:
            broken.append(f"seat {seat} holds {state.chips[seat]} chips")
    if state.pool + sum(state.chips.values()) != CHIPS or state.pool < 0:
        broken.append(f"chips not conserved: {state.pool} in the pool, {state.chips} held")
    # Together these also mean that no bather lies without a towel under it.
    five = state.board.five_point
    if towels[:five] != bathers[:five]:
        broken.append("a 5-point lounger holds a towel without its bather")
    if state.phase == SETUP:
        laid_each = [towels.count(seat) for seat in seats]
        if max(laid_each) - min(laid_each) > 1 or any(bathers):
            broken.append(f"setup out of turn: towels laid {laid_each}")
    elif None in towels[five:]:
        broken.append("a lounger of rows 2-4 without a towel after setup")
    broken += _dice(state)
    if state.phase == OVER and state.without_bather() > END_AT:
        broken.append(f"over with {state.without_bather()} towels without a bather")
    if not 0 <= state.lifeguard < len(state.board.track):
        broken.append(f"the lifeguard is off the track at {state.lifeguard}")
    if state.turn_seat not in seats:
        broken.append(f"the turn is with seat {state.turn_seat}, not at the table")
    return broken


def _dice(state: State) -> list[str]:
    showing, aside, phase = state.dice.showing, state.dice.aside, state.phase
    set_aside = [face for face, a in zip(showing, aside, strict=True) if a]
    in_hand = [face for face, a in zip(showing, aside, strict=True) if not a]
    broken = []
    if None in set_aside:
        broken.append("a die set aside that was never rolled")
    if phase in (SETUP, ROLL, OVER) and (set_aside or in_hand.count(None) != len(in_hand)):
        broken.append(f"dice in play in phase {phase}")
    if phase == CHOOSE and (not in_hand or None in in_hand):
        broken.append("choosing without a roll to choose from")
    if phase == DECIDE and not in_hand:
        broken.append("deciding to roll with no die left")
    if phase == OCCUPY and not state.result():
        broken.append("occupying with no colour dice set aside")
    if phase != CHOOSE and LIFEGUARD in in_hand:
        broken.append("a lifeguard die left in hand after the roll was accepted")
    return broken
