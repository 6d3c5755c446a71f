"""Exact odds for the push-your-luck choice: the chance of ending the turn with at least ``n``
dice of one colour set aside and a lounger worth ``n`` or more that they may take, playing to
maximise it.

From a position (dice left to roll, dice of the colour already aside, chips held, the lifeguard's
place) the best play is found by dynamic programming over the multinomial outcomes of a roll:
how many dice show the colour (``x``), the lifeguard (``y``, always set aside) and another colour
(``z``). Each lifeguard moves the lifeguard one space at once; after the roll the seat may spend
a chip (the lifeguard goes back, the same dice are rolled again) or set aside some of the colour
dice and some other colour dice (at least one colour die when any shows), then roll on or stop.
Stopping wins when the lifeguard leaves the dice a lounger: it closes the colour's column, or
one row of it (``n`` dice of the colour take rows ``n`` up to what they reach), never a 5-point
lounger. Every choice is tried, so the value is the true optimum. Exact, with :class:`Fraction`.
The dice are those of the data file, which the board holds to six faces: five colours and the
lifeguard.

Two dice and no chips, aiming at two of a colour the lifeguard never closes: both at once
(1/36), or one now and the other from the last die when the first roll's other die shows
another colour (8/36 x 1/6):

>>> chance(dice=2, aside=0, chips=0, n=2)
Fraction(7, 108)
>>> chance(dice=6, aside=0, chips=0, n=2) > chance(dice=6, aside=0, chips=0, n=3)
True

Two of the colour aside, one die left, and the lifeguard on the colour's column: only a
lifeguard on that die moves it on (to a space that closes another colour's column):

>>> chance(dice=1, aside=2, chips=0, n=2, watch=(COLUMN, ""), at=0)
Fraction(1, 6)

:func:`odds_json` gives the seat on turn, with ``dice_in_hand`` dice not set aside, these
chances, each rounded to 3 decimals:

- ``lifeguard``: the next roll shows at least one lifeguard, which moves the lifeguard (and may
  close the column or row aimed at).
- ``colour`` (with ``colour``): the next roll shows at least one die of that colour; one entry
  per colour.
- ``reach`` (with ``colour`` and ``at_least``): the best chance, playing on well and spending
  chips where they help, of ending the turn with at least ``at_least`` dice of that colour set
  aside where the lifeguard leaves them a lounger worth ``at_least`` or more: the next count
  that takes a better lounger (2, 3 and 4 for the rows, 5 for a 5-point lounger) above what is
  aside. Stopping keeps what is aside; this is what rolling on can win.

Before a roll (the turn's first, or roll again or stop) all three kinds are listed; just after
a roll, with its faces known and its lifeguards moved, only ``reach``, for the best answer to
that roll (a chip, or which dice to set aside). Outside the rolling there are no odds.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from fractions import Fraction
from functools import cache
from math import factorial, prod
from typing import Any

from companion.games.cool_am_pool.board import COLUMN, FIVE, LIFEGUARD, ROWS
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

Watch = tuple[str, ...]
"""What each space of the lifeguard's track, clockwise, closes of the colour aimed at:
``COLUMN`` its column, ``"2"``, ``"3"`` or ``"4"`` that row, ``""`` nothing of it."""
UNWATCHED: Watch = ("",)
"""A track whose lifeguard never closes anything of the colour aimed at."""


def watch_of(track: Sequence[str], colour: str) -> Watch:
    """What each space of a board's track closes of ``colour``.

    >>> watch_of(("red", "yellow", "2"), "red")
    ('column', '', '2')
    """
    return tuple(COLUMN if space == colour else space if space.isdigit() else "" for space in track)


def usable(aside: int, n: int, closed: str) -> bool:
    """Whether ``aside`` dice of the colour take a lounger worth ``n`` or more while the
    lifeguard closes ``closed`` (see :data:`Watch`).

    >>> usable(2, 2, "2"), usable(3, 2, "2"), usable(4, 2, COLUMN), usable(5, 2, COLUMN)
    (False, True, False, True)
    """
    if aside >= FIVE:
        return True
    if aside < n or closed == COLUMN:
        return False
    return any(str(row) != closed for row in ROWS if n <= row <= aside)


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
def chance(
    dice: int, aside: int, chips: int, n: int, watch: Watch = UNWATCHED, at: int = 0
) -> Fraction:
    """Free to stop or to roll ``dice`` dice, with ``aside`` dice of the colour set aside,
    ``chips`` water-ball chips and the lifeguard on space ``at`` of ``watch``: the best chance
    of ending the turn with a lounger worth ``n`` or more for the colour."""
    if usable(aside, n, watch[at]):
        return ONE
    if dice == 0 or aside + dice < n:
        return ZERO
    return roll_on(dice, aside, chips, n, watch, at)


@cache
def roll_on(dice: int, aside: int, chips: int, n: int, watch: Watch, at: int) -> Fraction:
    """The best chance when the ``dice`` must be rolled (as after a chip)."""
    return sum(
        (
            p * after_roll(dice, aside, chips, n, x, y, z, watch, at)
            for x, y, z, p in outcomes(dice)
        ),
        ZERO,
    )


@cache
def after_roll(
    dice: int,
    aside: int,
    chips: int,
    n: int,
    x: int,
    y: int,
    z: int,
    watch: Watch = UNWATCHED,
    at: int = 0,
) -> Fraction:
    """The best chance once a roll of ``dice`` dice shows ``x`` of the colour, ``y`` lifeguards
    and ``z`` other colours, the lifeguard having stood on ``at`` before it (it stands ``y``
    spaces on now): spend a chip, or set aside ``j`` of the colour and ``k`` others."""
    best = roll_on(dice, aside, chips - 1, n, watch, at) if chips else ZERO
    now = (at + y) % len(watch)
    for j in range(x + 1):
        for k in range(z + 1):
            if j + k == 0 and x + z > 0:
                continue  # at least one colour die per roll
            best = max(best, chance(dice - j - k - y, aside + j, chips, n, watch, now))
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
    track = state.board.track
    for colour in state.board.colours:
        aside = result.get(colour, 0)
        n = next_target(aside)
        if n is None:
            continue
        watch = watch_of(track, colour)
        if state.phase == CHOOSE:
            x, y = shown.count(colour), shown.count(LIFEGUARD)
            before = (state.lifeguard - y) % len(track)
            p = after_roll(len(hand), aside, chips, n, x, y, len(shown) - x - y, watch, before)
        else:
            p = chance(len(hand), aside, chips, n, watch, state.lifeguard)
        chances.append(_chance(REACH, p, colour=colour, at_least=n))
    return {"dice_in_hand": len(hand), "chances": chances}


def _chance(key: str, p: Fraction, **about: Any) -> dict[str, Any]:
    return {"key": key, "p": round(float(p), 3), **about}
