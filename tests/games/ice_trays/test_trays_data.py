"""Ice Trays data: the bundled board file, errors in a table's own file, and the options JSON
the board travels in."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from companion.errors import BadOptions, DataFileError
from companion.games.ice_trays.board import (
    BOARD_FILE,
    Board,
    board_from_json,
    default_board,
    load_board,
    side_of,
)
from companion.games.ice_trays.ring import COUNTERCLOCKWISE, sow
from companion.games.ice_trays.state import Options, options_from_json, options_to_json

BUNDLED = Path(__file__).resolve().parents[3] / "companion" / "games" / "data" / BOARD_FILE

GOOD = """\
# my box
[board]
sides = \"\"\"
red green
blue white   # side 2
green red
white blue
\"\"\"
capacity = 4

[die]
faces = "red green blue white wild steal steal"
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "trays.toml"
    path.write_text(text, encoding="utf-8")
    return path


# The bundled board


def test_the_bundled_board_has_eight_trays_two_of_each_of_four_colours() -> None:
    board = default_board()
    colours = Counter(board.colour(t) for t in range(1, 9))
    assert colours == {"blue": 2, "yellow": 2, "pink": 2, "orange": 2}
    assert all(len(set(side)) == 2 for side in board.sides)
    assert load_board() == board


def test_the_bundled_board_fits_laurens_example() -> None:
    """From the blue tray beside her cup, to the right: her cup, then orange, then pink."""
    board = default_board()
    assert board.colour(1) == "blue"
    _, path = sow((3,) * 8, board.capacity, 1, 1, COUNTERCLOCKWISE)
    assert path == ("cup 1", "tray 8", "tray 7")
    assert (board.colour(8), board.colour(7)) == ("orange", "pink")


def test_the_bundled_defaults_capacity_5_and_a_die_of_four_colours_wild_and_steal() -> None:
    board = default_board()
    assert board.capacity == 5
    assert board.faces == ("blue", "orange", "pink", "yellow", "wild", "steal")


def test_every_guess_in_the_bundled_file_is_marked_unverified_default() -> None:
    text = BUNDLED.read_text(encoding="utf-8")
    assert text.count("UNVERIFIED DEFAULT") == 3
    for key in ("sides = ", "capacity = ", "faces = "):
        before = text[: text.index(key)].rsplit("\n\n", 1)[-1]
        assert "UNVERIFIED DEFAULT" in before, key


def test_the_trays_of_a_side_share_its_blueberry() -> None:
    assert [side_of(t) for t in range(1, 9)] == [1, 1, 2, 2, 3, 3, 4, 4]
    assert default_board().trays_of("wild") == tuple(range(1, 9))
    assert default_board().trays_of("steal") == ()


# A table's own board file


def test_a_board_file_is_read_with_its_comments(tmp_path: Path) -> None:
    board = load_board(write(tmp_path, GOOD))
    assert board.sides == (("red", "green"), ("blue", "white"), ("green", "red"), ("white", "blue"))
    assert board.capacity == 4
    assert board.faces == ("red", "green", "blue", "white", "wild", "steal", "steal")
    assert board.trays_of("red") == (1, 6)


@pytest.mark.parametrize(
    ("old", "new", "line", "why"),
    [
        ("blue white   # side 2", "blue blue", 5, "side 2: its two trays must have different"),
        ("blue white   # side 2", "blue", 5, "side 2 names 1 trays"),
        ("blue white   # side 2", "blue white red", 5, "side 2 names 3 trays"),
        ("green red\n", "green Wild\n", 6, "side 3: 'Wild' is not a colour name"),
        ("green red\n", "green wild\n", 6, "side 3: 'wild' is not a colour name"),
        ("white blue\n", "white blue\nred green\n", 3, "the board has 4 sides, not 5"),
        ("green red\n", "green black\n", 3, "each colour has 2 trays, but 'red' has 1"),
        ("capacity = 4", "capacity = 2", 9, "capacity must be a whole number of at least 3"),
        ("capacity = 4", 'capacity = "4"', 9, "board.capacity must be a whole number"),
        ("wild steal steal", "wild stael", 12, "the die face 'stael' is no colour"),
        ("red green blue white", "red green blue", 12, "'white' is on the board but not"),
        ('"red green blue white wild steal steal"', '""', 12, "the die needs at least one face"),
        ("# my box", "colour = 'x'", 1, "unknown key 'colour'"),
        ("capacity = 4", "capacity = 4\ncups = 4", 10, "unknown key 'board.cups'"),
        ('faces = "', 'sides = 6\nfaces = "', 12, "unknown key 'die.sides'"),
    ],
)
def test_a_board_file_error_names_the_file_and_the_line(
    tmp_path: Path, old: str, new: str, line: int, why: str
) -> None:
    assert old in GOOD
    path = write(tmp_path, GOOD.replace(old, new, 1))
    with pytest.raises(DataFileError) as info:
        load_board(path)
    assert str(info.value).startswith(f"{path}:{line}: "), str(info.value)
    assert why in info.value.message


def test_a_board_file_without_a_die_says_so(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD.split("[die]")[0])
    with pytest.raises(DataFileError, match="missing key 'die'"):
        load_board(path)


def test_a_missing_board_file_is_named(tmp_path: Path) -> None:
    path = tmp_path / "absent.toml"
    with pytest.raises(DataFileError, match="cannot be read") as info:
        load_board(path)
    assert info.value.path == str(path)


# Options: the board travels inside them


def test_options_default_to_the_first_seat_and_the_bundled_board() -> None:
    assert options_from_json(None) == options_from_json({}) == Options()
    assert Options().board == default_board() and Options().first_seat is None


def test_options_to_json_is_plain_json_that_round_trips() -> None:
    options = options_from_json({"first_seat": 3})
    data = json.loads(json.dumps(options_to_json(options)))
    assert data == {
        "first_seat": 3,
        "board": {
            "sides": [
                ["blue", "yellow"],
                ["pink", "orange"],
                ["blue", "yellow"],
                ["pink", "orange"],
            ],
            "capacity": 5,
            "faces": ["blue", "orange", "pink", "yellow", "wild", "steal"],
        },
    }
    assert options_from_json(data) == options


def test_a_board_of_your_own_box_travels_in_the_options_json(tmp_path: Path) -> None:
    own = load_board(write(tmp_path, GOOD))
    data = json.loads(json.dumps(options_to_json(Options(board=own))))
    assert options_from_json(data).board == own == board_from_json(data["board"])


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        ({"colour": "blue"}, "unknown option 'colour'"),
        ({"first_seat": True}, "first_seat must be a seat number"),
        ({"first_seat": "1"}, "first_seat must be a seat number"),
        ({"board": "bundled"}, "board must be an object"),
        ({"board": {"sides": [], "capacity": 5}}, "board must be an object"),
        ({"board": {"sides": "blue", "capacity": 5, "faces": []}}, "board: sides is a list"),
        ({"board": {"sides": [], "capacity": 5, "faces": [1]}}, "board: sides is a list"),
        (
            {"board": {"sides": [["a", "b"]] * 4, "capacity": 5, "faces": ["a", "b"]}},
            "board: each colour has 2 trays, but 'a' has 4",
        ),
        (
            {
                "board": {
                    "sides": [["a", "b"], ["c", "d"], ["b", "a"], ["d", "c"]],
                    "capacity": 5.0,
                    "faces": ["a", "b", "c", "d"],
                }
            },
            "board: capacity must be a whole number",
        ),
        (
            {
                "board": {
                    "sides": [["a", "b"], ["c", 4], ["b", "a"], ["d", "c"]],
                    "capacity": 5,
                    "faces": ["a"],
                }
            },
            "board: side 2: 4 is not a colour name",
        ),
        (
            {
                "board": {
                    "sides": [["a", "b"], ["c", "d"], ["b", "a"], ["d", "c"]],
                    "capacity": 5,
                    "faces": [],
                }
            },
            "board: the die needs at least one face",
        ),
    ],
)
def test_options_from_json_refuses_bad_options(raw: dict[str, Any], why: str) -> None:
    with pytest.raises(BadOptions, match=why):
        options_from_json(raw)


def test_a_board_is_a_plain_value() -> None:
    board = Board((("a", "b"), ("c", "d"), ("b", "a"), ("d", "c")), 3, ("a", "b", "c", "d"))
    assert board.colours == ("a", "b", "c", "d")
    assert board.trays_of("c") == (3, 8)
    assert board == board_from_json(
        {"sides": [list(s) for s in board.sides], "capacity": 3, "faces": list(board.faces)}
    )
