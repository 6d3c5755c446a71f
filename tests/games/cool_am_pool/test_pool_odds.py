"""The odds of the seat on turn: exact fractions, checked against brute force, and shown in the
views as rounded chances while the seat rolls.

The brute force enumerates every face of every die of every roll (six faces: the colour aimed
at, the lifeguard and four other colours), and after each roll every legal answer: a chip, or
any choice of colour dice to set aside (at least one when any shows), then stop or roll on.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import combinations, product

import pytest
from gameplay import PROPERTIES, Played, first_seat_option, played_games
from hypothesis import given, settings
from hypothesis import strategies as st
from pool_tables import KAREN, TOM, fresh, table

from companion.games.cool_am_pool import GAME as cool_am_pool
from companion.games.cool_am_pool.odds import (
    KEYS,
    REACH,
    TARGETS,
    after_roll,
    at_least_one,
    chance,
    odds_json,
    outcomes,
    roll_on,
    watch_of,
)
from companion.games.cool_am_pool.state import CHOOSE, DECIDE, ROLL
from companion.games.cool_am_pool.views import view
from companion.games.messages import REFEREE

AIM, GUARD = "aim", "lifeguard"
FACES = (AIM, GUARD, "other-1", "other-2", "other-3", "other-4")
OPEN = ("",)
"""A track whose lifeguard never closes the colour aimed at."""
WATCHES = [("column", "", "2"), ("3", "column", "4", "", "2")]
"""Short lifeguard tracks: what each space closes of the colour aimed at."""


def usable(aside: int, n: int, closed: str) -> bool:
    """Whether ``aside`` dice of the colour take a lounger worth ``n`` or more with the
    lifeguard closing ``closed``: a 5-point lounger (never closed), or a row from ``n`` up to
    what the dice reach, in the colour's column."""
    if aside >= 5:
        return True
    rows = range(n, min(aside, 4) + 1)
    return closed != "column" and any(str(row) != closed for row in rows)


@cache
def brute_before(
    aside: int, dice: int, chips: int, n: int, watch: tuple[str, ...] = OPEN, at: int = 0
) -> Fraction:
    """Between rolls, the lifeguard on ``at``: stop (a success if the dice aside can take a
    lounger worth ``n``) or roll the ``dice`` left."""
    stop = Fraction(1 if usable(aside, n, watch[at]) else 0)
    if dice == 0:
        return stop
    return max(stop, brute_roll(aside, dice, chips, n, watch, at))


@cache
def brute_roll(
    aside: int, dice: int, chips: int, n: int, watch: tuple[str, ...] = OPEN, at: int = 0
) -> Fraction:
    """Roll ``dice`` dice: every face sequence is equally likely."""
    total = sum(
        (brute_after(aside, faces, chips, n, watch, at) for faces in product(FACES, repeat=dice)),
        Fraction(0),
    )
    return total / len(FACES) ** dice


def brute_after(
    aside: int,
    faces: tuple[str, ...],
    chips: int,
    n: int,
    watch: tuple[str, ...] = OPEN,
    at: int = 0,
) -> Fraction:
    """After a roll showing ``faces`` (the lifeguard stood on ``at`` before it): each lifeguard
    has moved it one space at once; a chip rolls again from where it stood; then the best of
    every legal answer."""
    best = brute_roll(aside, len(faces), chips - 1, n, watch, at) if chips else Fraction(0)
    colour_dice = [i for i, face in enumerate(faces) if face != GUARD]
    guards = faces.count(GUARD)
    now = (at + guards) % len(watch)
    choices = [
        chosen
        for size in range(1, len(colour_dice) + 1)
        for chosen in combinations(colour_dice, size)
    ] or [()]
    for chosen in choices:
        reached = aside + sum(1 for i in chosen if faces[i] == AIM)
        left = len(faces) - len(chosen) - guards
        best = max(best, brute_before(reached, left, chips, n, watch, now))
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


@pytest.mark.parametrize("watch", WATCHES)
@pytest.mark.parametrize("dice", [1, 2, 3])
def test_with_a_lifeguard_on_the_track_the_odds_match_brute_force(
    watch: tuple[str, ...], dice: int
) -> None:
    for at in range(len(watch)):
        for aside in range(0, 5):
            for chips in (0, 1):
                for n in TARGETS:
                    assert chance(dice, aside, chips, n, watch, at) == brute_before(
                        aside, dice, chips, n, watch, at
                    ), (watch, at, dice, aside, chips, n)


@pytest.mark.parametrize("watch", WATCHES)
def test_with_a_lifeguard_the_odds_after_a_known_roll_match_brute_force(
    watch: tuple[str, ...],
) -> None:
    for faces in product((AIM, GUARD, "other-1"), repeat=3):
        x, y = faces.count(AIM), faces.count(GUARD)
        for at in range(len(watch)):
            for aside, chips, n in [(0, 0, 2), (1, 1, 2), (2, 0, 3), (1, 1, 4), (2, 1, 5)]:
                assert after_roll(3, aside, chips, n, x, y, 3 - x - y, watch, at) == (
                    brute_after(aside, faces, chips, n, watch, at)
                ), (faces, watch, at, aside, chips, n)


def test_dice_the_lifeguard_closes_are_not_a_success_until_it_moves_on() -> None:
    assert chance(0, 2, 0, 2, ("column",), 0) == 0
    assert chance(0, 2, 0, 2, ("2",), 0) == 0
    assert chance(0, 3, 0, 2, ("2",), 0) == 1  # row 3 is open
    assert chance(0, 4, 0, 4, ("4",), 0) == 0
    assert chance(0, 5, 0, 5, ("column",), 0) == 1  # the 5-point loungers are never closed
    # Two green aside on a closed green column, and one die left: only a lifeguard saves them.
    assert chance(1, 2, 0, 2, ("column", ""), 0) == Fraction(1, 6)
    # Open now, so stopping is certain; rolling on risks a lifeguard that closes them.
    assert chance(1, 2, 0, 2, ("", "column"), 0) == 1
    assert roll_on(1, 2, 0, 2, ("", "column"), 0) == Fraction(5, 6)


def test_the_track_of_a_board_says_what_each_space_closes_of_a_colour() -> None:
    track = ("red", "yellow", "4", "3", "2", "red")
    assert watch_of(track, "red") == ("column", "", "4", "3", "2", "column")


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


def test_at_least_one_face_follows_brute_force() -> None:
    for dice in range(7):
        rolls = list(product(FACES, repeat=dice))
        hits = sum(1 for faces in rolls if AIM in faces)
        assert at_least_one([FACES] * dice, AIM) == Fraction(hits, len(rolls))
    assert at_least_one([FACES], GUARD) == Fraction(1, 6)
    assert at_least_one([FACES] * 6, GUARD) == 1 - Fraction(5, 6) ** 6


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(st.sampled_from("abc"), min_size=1, max_size=4), min_size=1, max_size=3))
def test_a_face_shows_or_not_and_the_chances_add_up_to_one(dice: list[list[str]]) -> None:
    """Dice that differ: whether ``a`` shows splits every roll in two, as brute force counts."""
    rolls = list(product(*dice))
    hits = sum(1 for faces in rolls if "a" in faces)
    p = at_least_one(dice, "a")
    assert 0 <= p <= 1 and p == Fraction(hits, len(rolls))
    assert p + sum(Fraction(1, len(rolls)) for faces in rolls if "a" not in faces) == 1


# The odds in the views


def by_key(odds: dict) -> dict[tuple[str, str | None], dict]:
    """A view's chances by key and colour (each listed once)."""
    found = {(c["key"], c.get("colour")): c for c in odds["chances"]}
    assert len(found) == len(odds["chances"])
    assert {key for key, _ in found} <= set(KEYS)
    return found


def test_before_the_first_roll_every_colour_shows_alike_and_the_lifeguard_tells_them_apart() -> (
    None
):
    state = table(chips={KAREN: 1}, lifeguard="purple")
    odds = odds_json(state)
    assert odds is not None and odds["dice_in_hand"] == 6
    found = by_key(odds)
    six = round(1 - (5 / 6) ** 6, 3)
    assert found[("lifeguard", None)] == {"key": "lifeguard", "p": six}
    for colour in state.board.colours:
        assert found[("colour", colour)] == {"key": "colour", "p": six, "colour": colour}
        watch = watch_of(state.board.track, colour)
        assert found[("reach", colour)] == {
            "key": "reach",
            "p": round(float(chance(6, 0, 1, 2, watch, state.lifeguard)), 3),
            "colour": colour,
            "at_least": 2,
        }
    assert len(found) == 1 + 2 * len(state.board.colours)
    # Purple is closed now: only a lifeguard in a later roll opens it again.
    assert found[("reach", "purple")]["p"] < found[("reach", "red")]["p"]


def test_one_die_left_shows_the_lifeguard_once_in_six_rolls() -> None:
    state = table(aside=["red", "red", "red", "blue", "lifeguard"])
    found = by_key(odds_json(state))
    assert found[("lifeguard", None)]["p"] == 0.167
    assert found[("colour", "red")]["p"] == 0.167
    assert found[("reach", "red")]["at_least"] == 4
    assert found[("reach", "red")]["p"] == 0.167  # no chips: the last die must show red
    assert found[("reach", "green")]["p"] == 0  # two greens cannot come from one die


def test_between_rolls_the_odds_are_those_of_rolling_on() -> None:
    state = table(aside=["green", "green", "lifeguard"], chips={KAREN: 2})
    odds = odds_json(state)
    assert odds is not None and odds["dice_in_hand"] == 3
    found = by_key(odds)
    assert found[("lifeguard", None)]["p"] == round(1 - (5 / 6) ** 3, 3)
    assert found[("reach", "green")]["at_least"] == 3
    track, at = state.board.track, state.lifeguard
    green = chance(3, 2, 2, 3, watch_of(track, "green"), at)
    assert found[("reach", "green")]["p"] == round(float(green), 3)
    red = chance(3, 0, 2, 2, watch_of(track, "red"), at)
    assert found[("reach", "red")]["p"] == round(float(red), 3)


def test_after_a_roll_the_odds_count_what_its_lifeguards_now_close() -> None:
    """The roll's lifeguard walked from yellow onto green before the seat chooses: two green
    are no longer certain, only a later lifeguard can open green again."""
    hand = ["green", "lifeguard", "red", "blue", "blue"]
    state = table(lifeguard="green", aside=["green"], hand=hand)
    track = state.board.track
    found = by_key(odds_json(state))
    green = after_roll(5, 1, 0, 2, 1, 1, 3, watch_of(track, "green"), track.index("yellow"))
    assert found[("reach", "green")]["p"] == round(float(green), 3)
    assert 0 < green < after_roll(5, 1, 0, 2, 1, 1, 3) == 1


def test_between_rolls_the_odds_count_the_lifeguards_place() -> None:
    state = table(lifeguard="2", aside=["red", "red", "lifeguard"], chips={KAREN: 1})
    found = by_key(odds_json(state))
    watch = watch_of(state.board.track, "red")
    assert found[("reach", "red")]["p"] == round(
        float(chance(3, 2, 1, 3, watch, state.lifeguard)), 3
    )
    assert found[("reach", "blue")]["p"] == round(
        float(chance(3, 0, 1, 2, watch_of(state.board.track, "blue"), state.lifeguard)), 3
    )
    assert chance(3, 0, 1, 2, watch, state.lifeguard) < chance(3, 0, 1, 2)


def test_after_a_roll_the_odds_answer_that_roll() -> None:
    state = table(aside=["red", "red"], hand=["red", "red", "lifeguard", "blue"])
    odds = odds_json(state)
    assert odds is not None and odds["dice_in_hand"] == 4
    found = by_key(odds)
    assert {key for key, _ in found} == {"reach"}
    assert found[("reach", "red")] == {"key": "reach", "p": 1.0, "colour": "red", "at_least": 3}
    track = state.board.track
    purple = after_roll(4, 0, 0, 2, 0, 1, 3, watch_of(track, "purple"), track.index("blue"))
    assert found[("reach", "purple")]["p"] == round(float(purple), 3)


def test_five_of_a_colour_can_reach_no_further() -> None:
    state = table(aside=["yellow"] * 5)
    found = by_key(odds_json(state))
    assert ("reach", "yellow") not in found and ("colour", "yellow") in found


def test_the_odds_are_public_but_no_other_seats_choice() -> None:
    state = table()
    odds = view(state, KAREN)["odds"]
    assert odds is not None
    assert view(state, "public")["odds"] == odds and view(state, REFEREE)["odds"] == odds
    assert view(state, TOM)["odds"] is None


def test_there_are_no_odds_outside_the_rolling() -> None:
    for state in (fresh(), table(aside=["red", "red"], phase="occupy")):
        for viewer in (KAREN, TOM, REFEREE, "public"):
            assert view(state, viewer)["odds"] is None


@PROPERTIES
@given(played_games(cool_am_pool, options=first_seat_option, max_actions=150))
def test_over_whole_games_every_chance_is_a_probability(game: Played) -> None:
    for state in game.states:
        odds = odds_json(state)
        if state.phase not in (ROLL, CHOOSE, DECIDE):
            assert odds is None
            continue
        assert odds is not None and odds["dice_in_hand"] == len(state.dice.in_hand())
        found = by_key(odds)
        assert all(0 <= c["p"] <= 1 for c in found.values())
        one = 1 - Fraction(5, 6) ** odds["dice_in_hand"]
        assert all(c["p"] == round(float(one), 3) for (k, _), c in found.items() if k != REACH)
        for (key, colour), c in found.items():
            if key == REACH:
                assert c["at_least"] > state.result().get(colour, 0)
