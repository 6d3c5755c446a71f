"""Exact odds for the push-your-luck choice: the chance of ending the turn with at least ``n``
dice of one colour set aside, playing to maximise it.

From a position (dice left to roll, dice of the colour already aside, chips held) the best play
is found by dynamic programming over the multinomial outcomes of a roll: how many dice show the
colour (``x``), the lifeguard (``y``, always set aside) and another colour (``z``). After a roll
the seat may spend a chip (the same dice are rolled again) or set aside some of the colour dice
and some other colour dice (at least one colour die when any shows), then roll on or stop.
Every choice is tried, so the value is the true optimum. Exact, with :class:`Fraction`.

Two dice and no chips, aiming at two of a colour: both at once (1/36), or one now and the other
from the last die when the first roll's other die shows another colour (8/36 x 1/6):

>>> chance(dice=2, aside=0, chips=0, n=2)
Fraction(7, 108)
>>> chance(dice=6, aside=0, chips=0, n=2) > chance(dice=6, aside=0, chips=0, n=3)
True
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from functools import cache
from math import factorial

from companion.games.cool_am_pool.board import FIVE, LIFEGUARD
from companion.games.cool_am_pool.state import CHOOSE, DECIDE, ROLL, State

TARGETS = (2, 3, 4, FIVE)
"""The counts that matter: rows 2, 3 and 4, and five for a 5-point lounger."""
FACES = 6
OTHER_COLOURS = 4
"""Faces of a die that are neither the colour aimed at nor the lifeguard."""

ZERO, ONE = Fraction(0), Fraction(1)


def outcomes(dice: int) -> Iterator[tuple[int, int, int, Fraction]]:
    """Every roll of ``dice`` dice as ``(x colour, y lifeguard, z other)`` with its chance.

    >>> sum(p for *_, p in outcomes(3))
    Fraction(1, 1)
    """
    for x in range(dice + 1):
        for y in range(dice - x + 1):
            z = dice - x - y
            ways = factorial(dice) // (factorial(x) * factorial(y) * factorial(z))
            yield x, y, z, Fraction(ways * OTHER_COLOURS**z, FACES**dice)


@cache
def chance(dice: int, aside: int, chips: int, n: int) -> Fraction:
    """Before a roll of ``dice`` dice, with ``aside`` dice of the colour set aside and ``chips``
    water-ball chips: the best chance of ending the turn with at least ``n`` of the colour."""
    if aside >= n:
        return ONE
    if aside + dice < n:
        return ZERO
    return sum(
        (p * after_roll(dice, aside, chips, n, x, y, z) for x, y, z, p in outcomes(dice)), ZERO
    )


@cache
def after_roll(dice: int, aside: int, chips: int, n: int, x: int, y: int, z: int) -> Fraction:
    """The best chance once a roll of ``dice`` dice shows ``x`` of the colour, ``y`` lifeguards
    and ``z`` other colours: spend a chip, or set aside ``j`` of the colour and ``k`` others."""
    best = chance(dice, aside, chips - 1, n) if chips else ZERO
    for j in range(x + 1):
        for k in range(z + 1):
            if j + k == 0 and x + z > 0:
                continue  # at least one colour die per roll
            left, reached = dice - j - k - y, aside + j
            # Stopping scores 1 once reached; otherwise rolling on is never worse.
            best = max(best, chance(left, reached, chips, n))
    return best


def odds_json(state: State) -> dict[str, object] | None:
    """The odds the seat on turn sees, per colour and target, or None outside its rolling.

    Before a roll (at the start, or between rolls) they are the chance from here on; just after a
    roll, with its faces known, the chance from the best answer to that roll.
    """
    if state.phase not in (ROLL, CHOOSE, DECIDE):
        return None
    seat = state.turn_seat
    chips = state.chips[seat]
    result = state.result()
    shown = [face for _, face in state.showing_in_hand()] if state.phase == CHOOSE else []
    left = len(state.dice.in_hand())
    colours: dict[str, object] = {}
    for colour in state.board.colours:
        aside = result.get(colour, 0)
        x, y = shown.count(colour), shown.count(LIFEGUARD)
        at_least = {}
        for n in TARGETS:
            if state.phase == CHOOSE:
                p = after_roll(left, aside, chips, n, x, y, len(shown) - x - y)
            else:
                p = chance(left, aside, chips, n)
            at_least[str(n)] = {"fraction": str(p), "percent": round(float(p) * 100, 1)}
        colours[colour] = {"aside": aside, "at_least": at_least}
    return {
        "seat": seat,
        "dice_left": left,
        "chips": chips,
        "after_roll": state.phase == CHOOSE,
        "colours": colours,
    }
