"""The odds shown for the push-your-luck choice are exact: each is checked against brute force,
an enumeration of every combination of faces the dice can show; the views show them rounded,
split over the next roll's outcomes."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from math import prod

import pytest
from daddy_table import KAREN, TOM, drawn_board, roll, table
from gameplay import PROPERTIES, Played, played_games
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.daddy_cool import GAME as daddy_cool
from companion.games.daddy_cool.board import BLANK, CRACKED, FLOE, PLAIN, parse_path
from companion.games.daddy_cool.board import TUB as TUB_FLOE
from companion.games.daddy_cool.odds import (
    CUB_STAYS,
    KEYS,
    MAY_STOP,
    MUST_ROLL_AGAIN,
    NO_FLOE,
    TUB,
    expected_distance,
    expected_floes,
    floe_counts,
    next_roll,
    no_floe_chance,
    odds_json,
    roll_then_stop,
)
from companion.games.daddy_cool.state import OVER
from companion.games.daddy_cool.views import view
from companion.games.messages import REFEREE

DIE = (FLOE, FLOE, FLOE, BLANK, BLANK, BLANK)
COIN = (FLOE, BLANK)
ODD = ((FLOE, BLANK, BLANK), (FLOE, FLOE, FLOE, BLANK), (FLOE, BLANK, BLANK, BLANK, BLANK, BLANK))
RULEBOOK = parse_path(". . . . . C . . . . . C . . . T")
SPLIT = (NO_FLOE, MUST_ROLL_AGAIN, MAY_STOP, TUB)
"""The keys of the next roll's outcomes, which exclude each other."""

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
    path = (*floes, TUB_FLOE)
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


# The odds in the views


def chances(odds: dict) -> dict[str, dict]:
    """The chances of a view's odds by key (each key is listed once)."""
    keys = [c["key"] for c in odds["chances"]]
    assert len(keys) == len(set(keys)) and set(keys) <= set(KEYS)
    return {c["key"]: c for c in odds["chances"]}


def test_six_dice_show_no_floe_once_in_64_rolls_at_the_start_of_a_turn() -> None:
    odds = view(table(), KAREN)["odds"]
    assert odds["dice_in_hand"] == 6
    by_key = chances(odds)
    assert by_key[NO_FLOE] == {"key": "no-floe", "p": 0.016}
    # Only six floes force a roll: onto the first cracked floe, with every die aside.
    assert by_key[MUST_ROLL_AGAIN]["p"] == 0.016
    assert by_key[MAY_STOP]["p"] == round(62 / 64, 3)
    assert TUB not in by_key


def test_with_three_dice_in_hand_the_odds_split_the_next_roll() -> None:
    state, _ = roll(table(), "F-F-F-")
    odds = view(state, KAREN)["odds"]
    assert odds["dice_in_hand"] == 3
    by_key = chances(odds)
    # From floe 3, three more floes reach the cracked floe 6 (and set every die aside).
    assert [by_key[k]["p"] for k in (NO_FLOE, MUST_ROLL_AGAIN, MAY_STOP)] == [0.125, 0.125, 0.75]
    nothing = brute_prospect(RULEBOOK, [DIE] * 6, (1, 3, 5), 3, 0)[2]
    assert by_key[CUB_STAYS]["p"] == round(float(nothing), 3)
    assert nothing > Fraction(1, 8)  # the forced roll after the cracked floe adds to the risk


def test_near_the_tub_the_odds_name_the_floes_it_takes() -> None:
    odds = view(table(cubs={KAREN: 14}), KAREN)["odds"]
    tub = chances(odds)[TUB]
    assert tub["at_least"] == 2
    assert tub["p"] == round(57 / 64, 3)  # at least two floes of six dice: 1 - 1/64 - 6/64


def test_the_tub_is_listed_only_when_this_roll_can_reach_it() -> None:
    state, _ = roll(table(cubs={KAREN: 11}), "FFFF--")  # floe 15, two dice in hand
    assert chances(view(state, KAREN)["odds"])[TUB] == {"key": "tub", "p": 0.75, "at_least": 1}
    state, _ = roll(table(cubs={KAREN: 6}), "FFFF--")  # floe 10, six floes to go, two dice
    assert TUB not in chances(view(state, KAREN)["odds"])


def test_the_odds_are_public_but_no_other_seats_choice() -> None:
    state, _ = roll(table(), "F-F-F-")
    odds = view(state, KAREN)["odds"]
    assert view(state, REFEREE)["odds"] == odds
    assert view(state, "public")["odds"] == odds
    assert view(state, TOM)["odds"] is None


def test_a_finished_game_has_no_odds() -> None:
    state, _ = roll(table(cubs={KAREN: 15}), "F-----")
    assert odds_json(state) is None
    for viewer in (KAREN, TOM, REFEREE, "public"):
        assert view(state, viewer)["odds"] is None


@PROPERTIES
@given(played_games(daddy_cool, options=drawn_board, max_actions=120))
def test_over_whole_games_the_odds_are_chances_that_split_the_roll(game: Played) -> None:
    for state in game.states:
        odds = odds_json(state)
        if state.phase == OVER:
            assert odds is None
            continue
        assert odds is not None and odds["dice_in_hand"] == len(state.next_roll())
        by_key = chances(odds)
        assert all(0 <= c["p"] <= 1 for c in by_key.values())
        split = sum(c["p"] for k, c in by_key.items() if k in SPLIT)
        assert abs(split - 1) <= 0.0005 * len(SPLIT)
        assert by_key[CUB_STAYS]["p"] >= by_key[NO_FLOE]["p"]
        kinds = tuple(state.kind(p) or "" for p in range(1, state.tub + 1))
        exact = next_roll(kinds, state.dice.faces, state.next_roll(), state.daddy)
        assert exact.no_floe + exact.forced + exact.may_stop + exact.tub == 1
        assert by_key[NO_FLOE]["p"] == round(float(exact.no_floe), 3)
