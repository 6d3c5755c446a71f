"""Seats from JSON: numbers or objects, clockwise, default names and colours, checked."""

from __future__ import annotations

import re
from typing import Any

import pytest

from companion.errors import BadOptions
from companion.games.seats import COLOURS, SeatInfo, default_seats, seats_from_json

TWO_TO_FOUR = range(2, 5)


def test_default_seats_are_numbered_named_and_coloured() -> None:
    assert default_seats(3) == (
        SeatInfo(1, "Seat 1", "blue"),
        SeatInfo(2, "Seat 2", "yellow"),
        SeatInfo(3, "Seat 3", "green"),
    )
    assert [s.colour for s in default_seats(6)] == list(COLOURS)


def test_seats_from_plain_numbers_take_default_names_and_colours() -> None:
    assert seats_from_json([1, 2, 3], TWO_TO_FOUR) == default_seats(3)


def test_seats_from_objects_keep_names_and_colours() -> None:
    seats = seats_from_json(
        [{"seat": 1, "name": "Karen", "colour": "pink"}, {"seat": 2, "name": "Tom"}],
        TWO_TO_FOUR,
    )
    assert seats == (SeatInfo(1, "Karen", "pink"), SeatInfo(2, "Tom", "yellow"))


def test_numbers_and_objects_mix_and_are_sorted_clockwise() -> None:
    seats = seats_from_json([4, {"seat": 1, "name": "Mary"}, 3], TWO_TO_FOUR)
    assert [s.seat for s in seats] == [1, 3, 4]
    assert seats[0] == SeatInfo(1, "Mary", "blue")
    assert seats[1] == SeatInfo(3, "Seat 3", "green")
    assert seats[2] == SeatInfo(4, "Seat 4", "pink")


def test_default_colour_follows_the_seat_number_not_the_position() -> None:
    seats = seats_from_json([5, 6], range(2, 7))
    assert [s.colour for s in seats] == ["orange", "purple"]


def test_names_and_colours_are_stripped() -> None:
    (seat, _) = seats_from_json([{"seat": 1, "name": "  Ann ", "colour": " blue "}, 2], range(2, 3))
    assert seat == SeatInfo(1, "Ann", "blue")


def test_a_tuple_of_seats_is_accepted() -> None:
    assert seats_from_json((2, 1), TWO_TO_FOUR) == default_seats(2)


def test_to_json_round_trips_through_seats_from_json() -> None:
    seats = (SeatInfo(1, "Karen", "blue"), SeatInfo(3, "Mary", "green"))
    assert seats_from_json([s.to_json() for s in seats], TWO_TO_FOUR) == seats
    assert seats[0].to_json() == {"seat": 1, "name": "Karen", "colour": "blue"}


@pytest.mark.parametrize("raw", [[1, 1], [1, {"seat": 1, "name": "Again"}], [2, 3, 2]])
def test_a_seat_cannot_play_twice(raw: list[Any]) -> None:
    with pytest.raises(BadOptions, match="only once"):
        seats_from_json(raw, TWO_TO_FOUR)


@pytest.mark.parametrize(("raw", "count"), [([1], 1), ([], 0), ([1, 2, 3, 4, 5], 5)])
def test_a_count_outside_the_allowed_range_is_refused(raw: list[int], count: int) -> None:
    with pytest.raises(BadOptions, match=f"this game is for 2 to 4 seats, not {count}"):
        seats_from_json(raw, TWO_TO_FOUR)


@pytest.mark.parametrize("raw", [None, "1,2", {"seat": 1}, 3])
def test_seats_must_be_a_list(raw: Any) -> None:
    with pytest.raises(BadOptions, match="seats must be a list"):
        seats_from_json(raw, TWO_TO_FOUR)


@pytest.mark.parametrize(
    "number",
    [0, 7, -1, True, "1", 1.0, None],
)
def test_a_bad_seat_number_is_refused(number: Any) -> None:
    with pytest.raises(BadOptions, match="a seat number is a whole number from 1 to 6, not"):
        seats_from_json([{"seat": number}, 2], TWO_TO_FOUR)


@pytest.mark.parametrize("entry", [True, 1.0, "1", [1], None])
def test_a_seat_entry_must_be_a_number_or_an_object(entry: Any) -> None:
    with pytest.raises(BadOptions, match="a seat must be a number or an object"):
        seats_from_json([entry, 2], TWO_TO_FOUR)


def test_an_object_without_a_seat_number_is_refused() -> None:
    with pytest.raises(BadOptions, match="a seat number is a whole number from 1 to 6, not None"):
        seats_from_json([{"name": "Nobody"}, 2], TWO_TO_FOUR)


@pytest.mark.parametrize("label", ["name", "colour"])
@pytest.mark.parametrize("value", ["", "   ", "x" * 41, 5, None])
def test_an_empty_long_or_non_text_name_or_colour_is_refused(label: str, value: Any) -> None:
    with pytest.raises(BadOptions, match=f"seat 1: the {label} must be 1 to 40 characters"):
        seats_from_json([{"seat": 1, label: value}, 2], TWO_TO_FOUR)


@pytest.mark.parametrize("label", ["name", "colour"])
@pytest.mark.parametrize(
    ("value", "why"),
    [
        ("Tom\u202egnp", "U+202E, a bidirectional control"),
        ("\u202aAnn", "U+202A, a bidirectional control"),
        ("Ann\u2066", "U+2066, a bidirectional control"),
        ("Ann\u2069x", "U+2069, a bidirectional control"),
        ("A\u200fnn", "U+200F, an invisible format character"),
        ("An\u200bn", "U+200B, an invisible format character"),
        ("Ann\nBob", "U+000A, a control character"),
        ("\x1b[31mAnn", "U+001B, a control character"),
        ("Ann\x00", "U+0000, a control character"),
        ("Ann\x7f", "U+007F, a control character"),
        ("Ann\u2028Bob", "U+2028, a line break"),
    ],
)
def test_a_name_or_colour_with_a_control_or_bidirectional_character_is_refused(
    label: str, value: str, why: str
) -> None:
    with pytest.raises(BadOptions, match=re.escape(f"seat 1: the {label} holds {why}")):
        seats_from_json([{"seat": 1, label: value}, 2], TWO_TO_FOUR)


def test_a_name_may_hold_any_script_and_emoji_joined_into_one() -> None:
    names = ["Jürgen", "Zoë", "ناهید", "می\u200cخواهم", "हिन्दी", "👨\u200d🍳 Jo", "Ann Lee"]
    for name in names:
        assert seats_from_json([{"seat": 1, "name": name}, 2], TWO_TO_FOUR)[0].name == name


def test_a_colour_must_be_one_of_the_tables() -> None:
    with pytest.raises(
        BadOptions, match="seat 1: the colour 'red' is not one of the table's: blue"
    ):
        seats_from_json([{"seat": 1, "colour": "red"}, 2], TWO_TO_FOUR)
    for colour in COLOURS:
        assert seats_from_json([{"seat": 1, "colour": colour}, 2], TWO_TO_FOUR)[0].colour == colour


def test_a_forty_character_name_is_accepted() -> None:
    seats = seats_from_json([{"seat": 1, "name": "x" * 40}, 2], TWO_TO_FOUR)
    assert seats[0].name == "x" * 40


def test_an_unknown_seat_field_is_refused() -> None:
    with pytest.raises(BadOptions, match="unknown seat field 'age'"):
        seats_from_json([{"seat": 1, "name": "Tom", "age": 7}, 2], TWO_TO_FOUR)
