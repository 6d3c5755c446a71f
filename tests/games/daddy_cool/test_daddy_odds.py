"""The odds shown for the push-your-luck choice are exact: each is checked against brute force,
an enumeration of every combination of faces the dice can show."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from math import prod

import pytest
from daddy_table import KAREN, roll, table
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.daddy_cool import view
from companion.games.daddy_cool.board import BLANK, CRACKED, FLOE, PLAIN, TUB, parse_path
from companion.games.daddy_cool.odds import (
    expected_distance,
    expected_floes,
    floe_counts,
    next_roll,
    no_floe_chance,
    roll_then_stop,
)
from companion.games.messages import REFEREE

DIE = (FLOE, FLOE, FLOE, BLANK, BLANK, BLANK)
COIN = (FLOE, BLANK)
ODD = ((FLOE, BLANK, BLANK), (FLOE, FLOE, FLOE, BLANK), (FLOE, BLANK, BLANK, BLANK, BLANK, BLANK))
RULEBOOK = parse_path(". . . . . C . . . . . C . . . T")

Dice = Sequence[Sequence[str]]


def every_roll(dice: Dice) -> list[tuple[Fraction, tuple[str, ...]]]:
    """Every combination of faces, each with its chance (all equally likely)."""
    chance = Fraction(1, prod(len(faces) for faces in dice))
    return [(chance, combo) for combo in itertools.product(*dice)]


def brute_counts(dice: Dice) -> list[Fraction]:
    counts = [Fraction(0)] * (len(dice) + 1)
    for chance, combo in every_roll(dice):
        counts[combo.count(FLOE)] += chance
    return counts


def brute_next_roll(path: Sequence[str], dice: Dice, hand: Sequence[int], daddy: int) -> dict:
    tub = len(path)
    shares = dict.fromkeys(("no_floe", "tub", "forced", "may_stop", "distance"), Fraction(0))
    for chance, combo in every_roll([dice[i] for i in hand]):
        k = combo.count(FLOE)
        end = min(daddy + k, tub)
        shares["distance"] += chance * (end - daddy)
        if k == 0:
            shares["no_floe"] += chance
        elif end == tub:
            shares["tub"] += chance
        elif path[end - 1] == CRACKED or k == len(hand):
            shares["forced"] += chance
        else:
            shares["may_stop"] += chance
    return shares


def brute_prospect(
    path: Sequence[str], dice: Dice, hand: Sequence[int], daddy: int, cub: int
) -> tuple[Fraction, Fraction, Fraction]:
    """Roll, take every forced roll, stop at the first chance: die by die, face by face."""
    tub = len(path)

    @cache
    def go(at: int, held: tuple[int, ...]) -> tuple[Fraction, Fraction, Fraction]:
        end, to_tub, nothing = Fraction(0), Fraction(0), Fraction(0)
        for chance, combo in every_roll([dice[i] for i in held]):
            floes = {die for die, face in zip(held, combo, strict=True) if face == FLOE}
            there = min(at + len(floes), tub)
            left = tuple(die for die in held if die not in floes)
            if not floes:
                end, nothing = end + chance * cub, nothing + chance
            elif there == tub:
                end, to_tub = end + chance * tub, to_tub + chance
            elif not left or path[there - 1] == CRACKED:
                e, t, n = go(there, left or tuple(range(len(dice))))
                end, to_tub, nothing = end + chance * e, to_tub + chance * t, nothing + chance * n
            else:
                end += chance * there
        return end, to_tub, nothing

    end, to_tub, nothing = go(daddy, tuple(hand))
    return end - cub, to_tub, nothing


# One roll


@pytest.mark.parametrize("k", range(1, 7))
def test_the_chance_that_k_dice_show_no_floe_is_one_half_to_the_k(k: int) -> None:
    assert no_floe_chance([DIE] * k) == Fraction(1, 2**k)
    assert no_floe_chance([DIE] * k) == brute_counts([DIE] * k)[0]


def test_six_dice_show_no_floe_once_in_64_rolls_and_three_floes_on_average() -> None:
    assert no_floe_chance([DIE] * 6) == Fraction(1, 64)
    assert expected_floes([DIE] * 6) == 3


@pytest.mark.parametrize("dice", [[DIE] * 6, [DIE] * 3, [COIN] * 4, list(ODD), [*ODD, DIE]])
def test_the_number_of_floes_follows_brute_force(dice: Dice) -> None:
    assert list(floe_counts(dice)) == brute_counts(dice)
    assert sum(floe_counts(dice)) == 1
    assert expected_floes(dice) == sum(k * c for k, c in enumerate(brute_counts(dice)))


def test_dice_that_differ_have_their_own_chances() -> None:
    assert no_floe_chance(ODD) == Fraction(2, 3) * Fraction(1, 4) * Fraction(5, 6)
    assert expected_floes(ODD) == Fraction(1, 3) + Fraction(3, 4) + Fraction(1, 6)


@pytest.mark.parametrize("room", [1, 2, 3, 6, 20])
def test_the_expected_distance_stops_at_the_tub(room: int) -> None:
    dice = [DIE] * 6
    brute = sum(c * min(combo.count(FLOE), room) for c, combo in every_roll(dice))
    assert expected_distance(dice, room) == brute


def test_with_two_floes_to_the_tub_six_dice_take_daddy_cool_15_8_floes_on_average() -> None:
    assert expected_distance([DIE] * 6, 2) == Fraction(6, 64) * 1 + Fraction(57, 64) * 2
    assert expected_distance([DIE] * 6, 2) == Fraction(15, 8)
    assert expected_distance([DIE] * 6, 6) == expected_floes([DIE] * 6)


@pytest.mark.parametrize(
    ("daddy", "hand"),
    [(0, range(6)), (3, (1, 3, 5)), (5, range(6)), (9, (0, 1)), (14, range(6)), (15, (2,))],
)
def test_the_next_roll_splits_four_ways_as_brute_force_does(
    daddy: int, hand: Sequence[int]
) -> None:
    dice = [DIE] * 6
    odds = next_roll(RULEBOOK, dice, tuple(hand), daddy)
    brute = brute_next_roll(RULEBOOK, dice, tuple(hand), daddy)
    assert (odds.no_floe, odds.tub, odds.forced, odds.may_stop) == (
        brute["no_floe"],
        brute["tub"],
        brute["forced"],
        brute["may_stop"],
    )
    assert odds.expected_distance == brute["distance"]
    assert odds.no_floe + odds.tub + odds.forced + odds.may_stop == 1
    assert odds.dice == len(tuple(hand))


# Rolling on, then stopping at the first chance


@pytest.mark.parametrize(
    ("path", "dice", "hand", "daddy", "cub"),
    [
        (RULEBOOK, [COIN] * 6, range(6), 0, 0),
        (RULEBOOK, [COIN] * 6, (0, 4), 4, 0),
        (RULEBOOK, [COIN] * 6, range(6), 9, 9),
        (parse_path(". C . C T"), [DIE] * 3, range(3), 0, 0),
        (parse_path("C C C . T"), [DIE] * 2, (1,), 0, 0),
        (parse_path(". . C . . C . T"), list(ODD), range(3), 1, 0),
        (parse_path(". . C . . C . T"), list(ODD), (0, 2), 2, 1),
    ],
)
def test_rolling_then_stopping_matches_brute_force(
    path: tuple[str, ...], dice: Dice, hand: Sequence[int], daddy: int, cub: int
) -> None:
    prospect = roll_then_stop(path, dice, tuple(hand), daddy, cub)
    assert (prospect.expected_gain, prospect.tub, prospect.nothing) == brute_prospect(
        path, dice, tuple(hand), daddy, cub
    )


def test_six_real_dice_and_six_coins_have_the_same_prospects() -> None:
    """A die with 3 floes of 6 faces is a coin: the odds depend on the chance, not the faces."""
    assert roll_then_stop(RULEBOOK, [DIE] * 6, range(6), 0, 0) == roll_then_stop(
        RULEBOOK, [COIN] * 6, range(6), 0, 0
    )


@st.composite
def positions(draw: st.DrawFn) -> tuple:
    """A short random path, up to three random dice, a hand and Daddy Cool before the tub."""
    floes = draw(st.lists(st.sampled_from([PLAIN, CRACKED]), min_size=1, max_size=6))
    path = (*floes, TUB)
    dice = draw(
        st.lists(
            st.lists(st.sampled_from([FLOE, BLANK]), min_size=1, max_size=4).map(tuple),
            min_size=1,
            max_size=3,
        )
    )
    hand = draw(st.sets(st.integers(0, len(dice) - 1), min_size=1).map(sorted))
    cub = draw(st.integers(0, len(floes) - 1))
    daddy = draw(st.integers(cub, len(floes) - 1))
    return path, dice, tuple(hand), daddy, cub


@settings(max_examples=150, deadline=None)
@given(positions())
def test_the_odds_of_any_small_position_match_brute_force(position: tuple) -> None:
    path, dice, hand, daddy, cub = position
    odds = next_roll(path, dice, hand, daddy)
    brute = brute_next_roll(path, dice, hand, daddy)
    assert (odds.no_floe, odds.tub, odds.forced, odds.may_stop) == (
        brute["no_floe"],
        brute["tub"],
        brute["forced"],
        brute["may_stop"],
    )
    assert odds.expected_distance == brute["distance"]
    prospect = roll_then_stop(path, dice, hand, daddy, cub)
    assert (prospect.expected_gain, prospect.tub, prospect.nothing) == brute_prospect(
        path, dice, hand, daddy, cub
    )
    assert 0 <= prospect.nothing <= 1 and 0 <= prospect.tub <= 1


# The odds in the seat view


def test_the_seat_view_shows_the_odds_of_rolling_the_three_dice_left() -> None:
    state, _ = roll(table(), "F-F-F-")
    odds = view(state, KAREN)["odds"]
    assert odds["stop"] == {"allowed": True, "gain": 3}
    assert odds["roll"]["dice"] == 3
    assert odds["roll"]["no_floe"] == {"exact": "1/8", "value": 0.125}
    assert odds["roll"]["at_least_one_floe"]["exact"] == "7/8"
    assert odds["roll"]["expected_floes"]["exact"] == "3/2"
    assert odds["roll"]["expected_distance"]["exact"] == "3/2"
    brute = brute_prospect(RULEBOOK, [DIE] * 6, (1, 3, 5), 3, 0)
    assert odds["roll_then_stop"]["expected_gain"]["exact"] == str(brute[0])
    assert odds["roll_then_stop"]["nothing"]["exact"] == str(brute[2])


def test_the_odds_near_the_tub_count_only_the_floes_left() -> None:
    state = table(cubs={KAREN: 14})
    odds = view(state, KAREN)["odds"]
    assert odds["stop"] == {"allowed": False, "gain": 0}
    assert odds["roll"]["expected_distance"]["exact"] == str(expected_distance([DIE] * 6, 2))
    assert odds["roll"]["tub"]["exact"] == str(1 - sum(floe_counts([DIE] * 6)[:2]))


def test_the_odds_are_for_the_seat_whose_turn_it_is_and_the_referee() -> None:
    state, _ = roll(table(), "F-F-F-")
    assert view(state, REFEREE)["odds"] == view(state, KAREN)["odds"]
    assert view(state, 2)["odds"] is None
    assert "odds" not in view(state, "public")
