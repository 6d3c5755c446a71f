"""Exact odds for the push-your-luck choice: roll on, or stop and let the cub join Daddy Cool.

Every number is a :class:`~fractions.Fraction`, computed from the dice's faces as the data file
gives them (each die may differ): the number of floes a roll shows follows the binomial for
alike dice and its generalisation (a convolution, die by die) for dice that differ.

:func:`odds_json` gives the seat about to roll (``dice_in_hand`` dice: those in hand, or all of
them once all are aside) these chances, each rounded to 3 decimals:

- ``no-floe``: the roll shows no floe; the turn is over and the cub stays.
- ``must-roll-again``: Daddy Cool lands on a cracked floe, or every die is then aside; the seat
  must roll again.
- ``may-stop``: Daddy Cool walks on and the seat may then stop (or roll on).
- ``tub`` (with ``at_least``, the floes to the tub): he reaches the wash tub and the cub wins.
  Listed only when this roll can reach it.
- ``cub-stays``: rolling now, taking every forced roll and stopping at the first chance, the
  cub does not move this turn: what rolling on risks, forced rolls included.

The first four split the roll's outcomes: they add up to 1.

>>> die = ("floe", "floe", "floe", "blank", "blank", "blank")
>>> no_floe_chance([die] * 3), expected_floes([die] * 3)
(Fraction(1, 8), Fraction(3, 2))
>>> expected_distance([die] * 3, room=1)
Fraction(7, 8)
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb, prod
from typing import Any

from companion.games.daddy_cool.board import CRACKED, FLOE
from companion.games.daddy_cool.state import OVER, State

Faces = Sequence[str]

NO_FLOE, MUST_ROLL_AGAIN, MAY_STOP, TUB, CUB_STAYS = (
    "no-floe",
    "must-roll-again",
    "may-stop",
    "tub",
    "cub-stays",
)
KEYS: tuple[str, ...] = (NO_FLOE, MUST_ROLL_AGAIN, MAY_STOP, TUB, CUB_STAYS)
"""The keys of the chances :func:`odds_json` lists."""


def floe_chance(faces: Faces) -> Fraction:
    """The chance that one die shows a floe."""
    return Fraction(sum(1 for face in faces if face == FLOE), len(faces))


def floe_counts(dice: Sequence[Faces]) -> tuple[Fraction, ...]:
    """The chance of exactly ``k`` floes, for ``k`` from 0 to the number of dice.

    >>> floe_counts([("floe", "blank")] * 2)
    (Fraction(1, 4), Fraction(1, 2), Fraction(1, 4))
    """
    return _floe_counts(tuple(tuple(faces) for faces in dice))


@lru_cache(maxsize=256)
def _floe_counts(dice: tuple[tuple[str, ...], ...]) -> tuple[Fraction, ...]:
    counts = [Fraction(1)]
    zero = Fraction(0)
    for faces in dice:
        p = floe_chance(faces)
        counts = [
            (counts[k] * (1 - p) if k < len(counts) else zero) + (counts[k - 1] * p if k else zero)
            for k in range(len(counts) + 1)
        ]
    return tuple(counts)


def no_floe_chance(dice: Sequence[Faces]) -> Fraction:
    """The chance that rolling these dice shows no floe: the turn would be over."""
    return prod((1 - floe_chance(faces) for faces in dice), start=Fraction(1))


def expected_floes(dice: Sequence[Faces]) -> Fraction:
    return sum((floe_chance(faces) for faces in dice), start=Fraction(0))


def expected_distance(dice: Sequence[Faces], room: int) -> Fraction:
    """How far Daddy Cool walks on average, with ``room`` floes left to the tub (no overshoot)."""
    return sum(
        (chance * min(k, room) for k, chance in enumerate(floe_counts(dice))), start=Fraction(0)
    )


@dataclass(frozen=True)
class NextRoll:
    """What the next roll does, split four ways that add up to 1.

    ``no_floe``: the turn is over; ``tub``: Daddy Cool reaches the wash tub and the cub wins;
    ``forced``: he lands on a cracked floe or every die is aside, so the seat must roll again;
    ``may_stop``: the seat may then stop. Distances are in floes, capped at the tub.
    """

    dice: int
    no_floe: Fraction
    tub: Fraction
    forced: Fraction
    may_stop: Fraction
    expected_floes: Fraction
    expected_distance: Fraction


@dataclass(frozen=True)
class Prospect:
    """Rolling once more and then stopping as soon as the rules allow it (forced rolls taken).

    ``expected_gain`` is how far the cub goes this turn on average (0 when the turn is lost);
    ``tub`` the chance it reaches the wash tub; ``nothing`` the chance it does not move.
    """

    expected_gain: Fraction
    tub: Fraction
    nothing: Fraction


def next_roll(
    path: Sequence[str], dice: Sequence[Faces], hand: Sequence[int], daddy: int
) -> NextRoll:
    """The odds of rolling the dice ``hand`` with Daddy Cool at ``daddy``.

    ``path`` holds the kind of each position from 1 to the tub; ``dice`` the faces of every die.
    """
    rolled = [dice[i] for i in hand]
    tub = len(path)
    shares = {
        "no_floe": Fraction(0),
        "tub": Fraction(0),
        "forced": Fraction(0),
        "may_stop": Fraction(0),
    }
    for k, chance in enumerate(floe_counts(rolled)):
        end = min(daddy + k, tub)
        if k == 0:
            shares["no_floe"] += chance
        elif end == tub:
            shares["tub"] += chance
        elif path[end - 1] == CRACKED or k == len(rolled):
            shares["forced"] += chance
        else:
            shares["may_stop"] += chance
    return NextRoll(
        len(rolled),
        expected_floes=expected_floes(rolled),
        expected_distance=expected_distance(rolled, tub - daddy),
        **shares,
    )


def roll_then_stop(
    path: Sequence[str], dice: Sequence[Faces], hand: Sequence[int], daddy: int, cub: int
) -> Prospect:
    """The prospect of rolling ``hand`` now and stopping at the first chance after.

    Dice with the same chance of a floe are counted together, so the work grows with the
    number of different dice, not with every combination of faces.
    """
    chances = tuple(sorted({floe_chance(faces) for faces in dice}))
    group = {c: g for g, c in enumerate(chances)}
    full = tuple(sum(1 for faces in dice if floe_chance(faces) == c) for c in chances)
    start = [0] * len(chances)
    for i in hand:
        start[group[floe_chance(dice[i])]] += 1
    tub = len(path)
    seen: dict[tuple[int, tuple[int, ...]], tuple[Fraction, Fraction, Fraction]] = {}

    def value(at: int, held: tuple[int, ...]) -> tuple[Fraction, Fraction, Fraction]:
        """(expected end of the cub, chance of the tub, chance of not moving) from here."""
        if (at, held) in seen:
            return seen[(at, held)]
        end_sum, tub_sum, nothing_sum = Fraction(0), Fraction(0), Fraction(0)
        for chance, taken in _outcomes(held, chances):
            k = sum(taken)
            there = min(at + k, tub)
            if k == 0:
                end_sum += chance * cub
                nothing_sum += chance
                continue
            if there == tub:
                end_sum += chance * tub
                tub_sum += chance
                continue
            left = tuple(h - t for h, t in zip(held, taken, strict=True))
            all_aside = not any(left)
            if all_aside or path[there - 1] == CRACKED:
                e, t, n = value(there, full if all_aside else left)
                end_sum += chance * e
                tub_sum += chance * t
                nothing_sum += chance * n
            else:
                end_sum += chance * there
        seen[(at, held)] = (end_sum, tub_sum, nothing_sum)
        return seen[(at, held)]

    end, to_tub, nothing = value(daddy, tuple(start))
    return Prospect(end - cub, to_tub, nothing)


@lru_cache(maxsize=256)
def _outcomes(
    held: tuple[int, ...], chances: tuple[Fraction, ...]
) -> tuple[tuple[Fraction, tuple[int, ...]], ...]:
    """Every way a roll of ``held`` dice (a count per group) can show floes, with its chance;
    kept, as the dice are the same all game and most positions share them."""
    per_group = [
        [comb(n, j) * p**j * (1 - p) ** (n - j) for j in range(n + 1)]
        for n, p in zip(held, chances, strict=True)
    ]
    return tuple(
        (prod((per_group[g][j] for g, j in enumerate(taken)), start=Fraction(1)), taken)
        for taken in itertools.product(*(range(n + 1) for n in held))
    )


def odds_json(state: State) -> dict[str, Any] | None:
    """The chances of the roll the seat on turn is to make (see the module's keys); None once
    the game is over.

    >>> from companion.games.daddy_cool.engine import new_game
    >>> from companion.games.fair import FairRandom
    >>> from companion.games.seats import default_seats
    >>> state, _ = new_game({}, default_seats(2), FairRandom(bytes(32)))
    >>> odds = odds_json(state)
    >>> odds["dice_in_hand"], odds["chances"][0]
    (6, {'key': 'no-floe', 'p': 0.016})
    """
    if state.phase == OVER:
        return None
    kinds = tuple(state.kind(p) or "" for p in range(1, state.tub + 1))
    hand = state.next_roll()
    roll, then = _kept(kinds, state.dice.faces, hand, state.daddy, state.cubs[state.turn_seat])
    chances = [
        _chance(NO_FLOE, roll.no_floe),
        _chance(MUST_ROLL_AGAIN, roll.forced),
        _chance(MAY_STOP, roll.may_stop),
    ]
    to_tub = state.tub - state.daddy
    if to_tub <= len(hand):
        chances.append(_chance(TUB, roll.tub) | {"at_least": to_tub})
    chances.append(_chance(CUB_STAYS, then.nothing))
    return {"dice_in_hand": len(hand), "chances": chances}


@lru_cache(maxsize=512)
def _kept(
    kinds: tuple[str, ...],
    faces: tuple[tuple[str, ...], ...],
    hand: tuple[int, ...],
    daddy: int,
    cub: int,
) -> tuple[NextRoll, Prospect]:
    """The odds of a position, kept: every viewer and every refresh asks for the same ones."""
    return next_roll(kinds, faces, hand, daddy), roll_then_stop(kinds, faces, hand, daddy, cub)


def _chance(key: str, p: Fraction) -> dict[str, Any]:
    return {"key": key, "p": round(float(p), 3)}
