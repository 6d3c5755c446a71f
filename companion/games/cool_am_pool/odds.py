"""Exact odds for the push-your-luck choice: the chance of ending the turn with at least ``n``
dice of one colour set aside, playing to maximise it.

From a position (dice left to roll, dice of the colour already aside, chips held) the best play
is found by dynamic programming over the multinomial outcomes of a roll: how many dice show the
colour (``x``), the lifeguard (``y``, always set aside) and another colour (``z``). After a roll
the seat may spend a chip (the same dice are rolled again) or set aside some of the colour dice
and some other colour dice (at least one colour die when any shows), then roll on or stop.
Every choice is tried, so the value is the true optimum. Exact, with :class:`Fraction`. The
dice are those of the data file, which the board holds to six faces: five colours and the
lifeguard.

Two dice and no chips, aiming at two of a colour: both at once (1/36), or one now and the other
from the last die when the first roll's other die shows another colour (8/36 x 1/6):

>>> chance(dice=2, aside=0, chips=0, n=2)
Fraction(7, 108)
>>> chance(dice=6, aside=0, chips=0, n=2) > chance(dice=6, aside=0, chips=0, n=3)
True

:func:`odds_json` gives the seat on turn, with ``dice_in_hand`` dice not set aside, these
chances, each rounded to 3 decimals:

- ``lifeguard``: the next roll shows at least one lifeguard, which moves the lifeguard (and may
  close the column or row aimed at).
- ``colour`` (with ``colour``): the next roll shows at least one die of that colour; one entry
  per colour.
- ``reach`` (with ``colour`` and ``at_least``): the best chance, playing on well and spending
  chips where they help, of ending the turn with at least ``at_least`` dice of that colour set
  aside: the next count that takes a better lounger (2, 3 and 4 for the rows, 5 for a 5-point
  lounger) above what is aside. Stopping keeps what is aside; this is what rolling on can win.

Before a roll (the turn's first, or roll again or stop) all three kinds are listed; just after
a roll, with its faces known, only ``reach``, for the best answer to that roll (a chip, or
which dice to set aside). Outside the rolling there are no odds.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from fractions import Fraction
from functools import cache
from math import factorial, prod
from typing import Any

from companion.games.cool_am_pool.board import FIVE, LIFEGUARD
from companion.games.cool_am_pool.state import CHOOSE, DECIDE, ROLL, State

TARGETS = (2, 3, 4, FIVE)
"""The counts that matter: rows 2, 3 and 4, and five for a 5-point lounger."""
FACES = 6
OTHER_COLOURS = 4
"""Faces of a die that are neither the colour aimed at nor the lifeguard."""

ZERO, ONE = Fraction(0), Fraction(1)

LIFEGUARD_KEY, COLOUR, REACH = "lifeguard", "colour", "reach"
KEYS: tuple[str, ...] = (LIFEGUARD_KEY, COLOUR, REACH)
"""The keys of the chances :func:`odds_json` lists."""


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


def at_least_one(dice: Sequence[Sequence[str]], face: str) -> Fraction:
    """The chance that rolling these dice shows ``face`` at least once.

    >>> at_least_one([("red", "blue")] * 2, "red")
    Fraction(3, 4)
    """
    return 1 - prod((Fraction(len(d) - d.count(face), len(d)) for d in dice), start=ONE)


def next_target(aside: int) -> int | None:
    """The next count of one colour that takes a better lounger, above ``aside``.

    >>> [next_target(a) for a in range(6)]
    [2, 2, 3, 4, 5, None]
    """
    return next((n for n in TARGETS if n > aside), None)


def odds_json(state: State) -> dict[str, Any] | None:
    """The chances the seat on turn weighs while rolling (see the module's keys), or None.

    >>> from companion.games.cool_am_pool.engine import new_game
    >>> from companion.games.fair import FairRandom
    >>> from companion.games.seats import default_seats
    >>> state, _ = new_game({}, default_seats(2), FairRandom(bytes(32)))
    >>> odds_json(state) is None
    True
    >>> odds = odds_json(state.evolve(phase=ROLL))
    >>> odds["dice_in_hand"], odds["chances"][:2]
    (6, [{'key': 'lifeguard', 'p': 0.665}, {'key': 'colour', 'p': 0.665, 'colour': 'red'}])
    """
    if state.phase not in (ROLL, CHOOSE, DECIDE):
        return None
    chips = state.chips[state.turn_seat]
    result = state.result()
    hand = state.dice.in_hand()
    chances: list[dict[str, Any]] = []
    if state.phase == CHOOSE:
        shown = [face for _, face in state.showing_in_hand()]
    else:
        dice = [state.dice.faces[i] for i in hand]
        chances.append(_chance(LIFEGUARD_KEY, at_least_one(dice, LIFEGUARD)))
        chances += [
            _chance(COLOUR, at_least_one(dice, colour), colour=colour)
            for colour in state.board.colours
        ]
    for colour in state.board.colours:
        aside = result.get(colour, 0)
        n = next_target(aside)
        if n is None:
            continue
        if state.phase == CHOOSE:
            x, y = shown.count(colour), shown.count(LIFEGUARD)
            p = after_roll(len(hand), aside, chips, n, x, y, len(shown) - x - y)
        else:
            p = chance(len(hand), aside, chips, n)
        chances.append(_chance(REACH, p, colour=colour, at_least=n))
    return {"dice_in_hand": len(hand), "chances": chances}


def _chance(key: str, p: Fraction, **about: Any) -> dict[str, Any]:
    return {"key": key, "p": round(float(p), 3), **about}
