"""Dice with faces from data: rolling all or some, setting aside, taking back, fair replay."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games.dice import Dice, Rolled
from companion.games.fair import FairRandom

FLOE = ("floe", "floe", "floe", "", "", "")
COLOURS = ("blue", "orange", "pink", "yellow", "wild", "steal")


def rng(seed: int = 0) -> FairRandom:
    return FairRandom(seed.to_bytes(32, "big"))


def test_of_makes_identical_unrolled_dice_in_hand() -> None:
    dice = Dice.of(COLOURS, count=6)
    assert dice.faces == (COLOURS,) * 6
    assert dice.showing == (None,) * 6
    assert dice.aside == (False,) * 6
    assert dice.in_hand() == (0, 1, 2, 3, 4, 5)


def test_a_die_without_faces_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one face"):
        Dice.of((), count=2)


def test_roll_rolls_every_die_in_hand_by_default() -> None:
    dice, rolled = Dice.of(COLOURS, 4).roll(rng())
    assert rolled.dice == (0, 1, 2, 3)
    assert len(rolled.faces) == 4
    assert dice.showing == rolled.faces
    assert all(face in COLOURS for face in rolled.faces)


def test_roll_some_rolls_only_those_in_index_order_once_each() -> None:
    dice, rolled = Dice.of(COLOURS, 4).roll(rng(), which=[3, 1, 3])
    assert rolled.dice == (1, 3)
    assert dice.showing[0] is None and dice.showing[2] is None
    assert (dice.showing[1], dice.showing[3]) == rolled.faces


def test_rolling_no_dice_rolls_nothing_and_draws_nothing() -> None:
    source = rng()
    dice, rolled = Dice.of(COLOURS, 2).roll(source, which=[])
    assert rolled == Rolled((), ())
    assert dice.showing == (None, None)
    assert source.counter == 0


def test_roll_skips_the_dice_set_aside() -> None:
    dice, _ = Dice.of(FLOE, 6).roll(rng())
    kept = dice.showing[0], dice.showing[4]
    dice = dice.set_aside([0, 4])
    assert dice.in_hand() == (1, 2, 3, 5)
    dice, rolled = dice.roll(rng(1))
    assert rolled.dice == (1, 2, 3, 5)
    assert (dice.showing[0], dice.showing[4]) == kept


def test_a_die_set_aside_cannot_be_rolled() -> None:
    dice, _ = Dice.of(FLOE, 3).roll(rng())
    dice = dice.set_aside([1])
    with pytest.raises(ValueError, match="die 1 is set aside"):
        dice.roll(rng(), which=[0, 1])


@pytest.mark.parametrize("index", [3, 7, -1])
def test_a_missing_die_cannot_be_rolled(index: int) -> None:
    with pytest.raises(ValueError, match=f"there is no die {index}"):
        Dice.of(FLOE, 3).roll(rng(), which=[index])


def test_a_refused_roll_draws_nothing() -> None:
    source = rng()
    with pytest.raises(ValueError):
        Dice.of(FLOE, 3).roll(source, which=[0, 9])
    assert source.counter == 0


def test_an_unrolled_die_cannot_be_set_aside() -> None:
    dice, _ = Dice.of(FLOE, 3).roll(rng(), which=[0])
    with pytest.raises(ValueError, match="die 2 has not been rolled"):
        dice.set_aside([2])
    assert dice.set_aside([0]).aside == (True, False, False)


@pytest.mark.parametrize("index", [5, -1])
def test_a_missing_die_cannot_be_set_aside(index: int) -> None:
    dice, _ = Dice.of(FLOE, 3).roll(rng())
    with pytest.raises(ValueError, match="no die"):
        dice.set_aside([index])


def test_take_back_returns_every_die_to_hand_and_keeps_the_faces_showing() -> None:
    dice, _ = Dice.of(FLOE, 6).roll(rng())
    showing = dice.showing
    dice = dice.set_aside(range(6))
    assert dice.in_hand() == ()
    back = dice.take_back()
    assert back.in_hand() == (0, 1, 2, 3, 4, 5)
    assert back.showing == showing


def test_faces_come_from_the_data() -> None:
    _, rolled = Dice.of(("lifeguard",), 5).roll(rng())
    assert rolled.faces == ("lifeguard",) * 5
    mixed = Dice((("a",), ("b", "b"), ("c",)), (None,) * 3, (False,) * 3)
    _, rolled = mixed.roll(rng())
    assert rolled.faces == ("a", "b", "c")


def test_the_same_seed_rolls_the_same() -> None:
    _, a = Dice.of(COLOURS, 6).roll(rng(42))
    _, b = Dice.of(COLOURS, 6).roll(rng(42))
    assert a == b
    others = {Dice.of(COLOURS, 6).roll(rng(s))[1].faces for s in range(10)}
    assert len(others) > 1


def test_a_roll_is_fair_random_choice_per_die_in_order() -> None:
    source = rng(7)
    _, rolled = Dice.of(COLOURS, 3).roll(rng(7))
    assert rolled.faces == tuple(source.choice(COLOURS) for _ in range(3))


def test_every_face_turns_up_over_many_rolls() -> None:
    source = rng(3)
    dice = Dice.of(COLOURS, 6)
    seen: set[str] = set()
    for _ in range(20):
        dice, rolled = dice.roll(source)
        seen.update(rolled.faces)
    assert seen == set(COLOURS)


@given(
    st.lists(st.text(min_size=1, max_size=5), min_size=1, max_size=8),
    st.integers(min_value=1, max_value=6),
    st.binary(min_size=32, max_size=32),
    st.sets(st.integers(min_value=0, max_value=5)),
)
def test_rolled_faces_are_always_among_the_die_faces(
    faces: list[str], count: int, seed: bytes, aside: set[int]
) -> None:
    source = FairRandom(seed)
    dice, rolled = Dice.of(faces, count).roll(source)
    assert all(face in faces for face in rolled.faces)
    dice = dice.set_aside(i for i in aside if i < count)
    dice, again = dice.roll(source)
    assert again.dice == dice.in_hand()
    assert all(face in faces for face in dice.showing)
