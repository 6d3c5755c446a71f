"""The odds shown to the seat on turn: exact fractions, checked against brute force.

The brute force enumerates every face of every die of every roll (six faces: the colour aimed
at, the lifeguard and four other colours), and after each roll every legal answer: a chip, or
any choice of colour dice to set aside (at least one when any shows), then stop or roll on.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import combinations, product

import pytest
from pool_tables import KAREN, TOM, table

from companion.games.cool_am_pool import view
from companion.games.cool_am_pool.odds import TARGETS, after_roll, chance, odds_json, outcomes

AIM, GUARD = "aim", "lifeguard"
FACES = (AIM, GUARD, "other-1", "other-2", "other-3", "other-4")


@cache
def brute_before(aside: int, dice: int, chips: int, n: int) -> Fraction:
    """Between rolls: stop (a success once ``n`` are aside) or roll the ``dice`` left."""
    stop = Fraction(1 if aside >= n else 0)
    if dice == 0:
        return stop
    return max(stop, brute_roll(aside, dice, chips, n))


@cache
def brute_roll(aside: int, dice: int, chips: int, n: int) -> Fraction:
    """Roll ``dice`` dice: every face sequence is equally likely."""
    total = sum(
        (brute_after(aside, faces, chips, n) for faces in product(FACES, repeat=dice)), Fraction(0)
    )
    return total / len(FACES) ** dice


def brute_after(aside: int, faces: tuple[str, ...], chips: int, n: int) -> Fraction:
    """After a roll showing ``faces``: the best of every legal answer."""
    best = brute_roll(aside, len(faces), chips - 1, n) if chips else Fraction(0)
    colour_dice = [i for i, face in enumerate(faces) if face != GUARD]
    guards = faces.count(GUARD)
    choices = [
        chosen
        for size in range(1, len(colour_dice) + 1)
        for chosen in combinations(colour_dice, size)
    ] or [()]
    for chosen in choices:
        reached = aside + sum(1 for i in chosen if faces[i] == AIM)
        left = len(faces) - len(chosen) - guards
        best = max(best, brute_before(reached, left, chips, n))
    return best


def test_the_outcomes_of_a_roll_add_up_to_one() -> None:
    for dice in range(7):
        assert sum(p for *_, p in outcomes(dice)) == 1
    assert dict(((x, y, z), p) for x, y, z, p in outcomes(1)) == {
        (0, 0, 1): Fraction(4, 6),
        (0, 1, 0): Fraction(1, 6),
        (1, 0, 0): Fraction(1, 6),
    }


def test_two_dice_for_two_of_a_colour_by_hand() -> None:
    # Both at once, or one now and the other from the last die when the other shows a colour.
    assert chance(2, 0, 0, 2) == Fraction(1, 36) + Fraction(8, 36) * Fraction(1, 6)


@pytest.mark.parametrize("dice", [1, 2, 3])
@pytest.mark.parametrize("chips", [0, 1, 2])
def test_the_odds_match_brute_force_for_up_to_three_dice(dice: int, chips: int) -> None:
    for aside in range(0, 5):
        for n in TARGETS:
            assert chance(dice, aside, chips, n) == brute_before(aside, dice, chips, n), (
                dice,
                aside,
                chips,
                n,
            )


@pytest.mark.parametrize(("aside", "chips"), [(0, 0), (1, 1), (2, 0), (0, 1)])
def test_the_odds_match_brute_force_for_four_dice(aside: int, chips: int) -> None:
    for n in TARGETS:
        assert chance(4, aside, chips, n) == brute_before(aside, 4, chips, n), n


def test_the_odds_after_a_known_roll_match_brute_force() -> None:
    for faces in product((AIM, GUARD, "other-1"), repeat=3):
        x, y = faces.count(AIM), faces.count(GUARD)
        for aside, chips, n in [(0, 0, 2), (1, 1, 3), (2, 0, 4), (2, 1, 5)]:
            assert after_roll(3, aside, chips, n, x, y, 3 - x - y) == brute_after(
                aside, faces, chips, n
            ), (faces, aside, chips, n)


def test_more_is_harder_and_chips_help() -> None:
    six = [chance(6, 0, 0, n) for n in TARGETS]
    assert six == sorted(six, reverse=True)
    assert all(0 < p < 1 for p in six)
    for n in TARGETS:
        with_chips = [chance(6, 0, chips, n) for chips in range(5)]
        assert with_chips == sorted(with_chips) and with_chips[0] < with_chips[4]


def test_reached_is_certain_and_out_of_reach_is_impossible() -> None:
    assert chance(0, 3, 0, 3) == 1 and chance(2, 5, 0, 5) == 1
    assert chance(1, 2, 4, 4) == 0 and chance(0, 2, 0, 3) == 0


# The odds in the seat view


def test_before_the_first_roll_every_colour_has_the_same_odds() -> None:
    state = table(chips={KAREN: 1})
    odds = odds_json(state)
    assert odds is not None and odds["dice_left"] == 6 and odds["chips"] == 1
    colours = odds["colours"]
    assert isinstance(colours, dict) and list(colours) == list(state.board.colours)
    for colour in colours.values():
        for n in TARGETS:
            assert Fraction(colour["at_least"][str(n)]["fraction"]) == chance(6, 0, 1, n)
        assert colour["aside"] == 0


def test_after_a_roll_the_odds_answer_that_roll() -> None:
    state = table(aside=["red"], hand=["red", "red", "lifeguard", "blue", "green"])
    odds = odds_json(state)
    assert odds is not None and odds["after_roll"] is True
    red = odds["colours"]["red"]  # type: ignore[index]
    assert red["aside"] == 1
    assert Fraction(red["at_least"]["3"]["fraction"]) == 1
    assert Fraction(red["at_least"]["4"]["fraction"]) == after_roll(5, 1, 0, 4, 2, 1, 2)
    purple = odds["colours"]["purple"]  # type: ignore[index]
    assert Fraction(purple["at_least"]["2"]["fraction"]) == after_roll(5, 0, 0, 2, 0, 1, 4)


def test_between_rolls_the_odds_are_those_of_rolling_on() -> None:
    state = table(aside=["green", "green", "lifeguard"], chips={KAREN: 2})
    odds = odds_json(state)
    assert odds is not None and odds["dice_left"] == 3 and odds["after_roll"] is False
    green = odds["colours"]["green"]["at_least"]  # type: ignore[index]
    assert Fraction(green["2"]["fraction"]) == 1
    assert Fraction(green["4"]["fraction"]) == chance(3, 2, 2, 4)
    assert green["4"]["percent"] == round(float(chance(3, 2, 2, 4)) * 100, 1)


def test_only_the_seat_on_turn_sees_odds_and_only_while_rolling() -> None:
    state = table()
    assert view(state, KAREN)["odds"] is not None
    assert view(state, TOM)["odds"] is None
    assert "odds" not in view(state, "public")
    assert view(table(aside=["red", "red"], phase="occupy"), KAREN)["odds"] is None
