"""Daddy Cool data: the path and dice notation, the bundled file, a table's own file, options."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from daddy_table import KAREN, SEATS, roll, table

from companion.datafile import DataFile
from companion.errors import BadOptions, DataFileError
from companion.games.daddy_cool.board import (
    BLANK,
    BOARD_FILE,
    CRACKED,
    FLOE,
    PLAIN,
    TUB,
    Board,
    default_board,
    load_board,
    parse_die,
    parse_path,
    path_notation,
)
from companion.games.daddy_cool.engine import new_game
from companion.games.daddy_cool.state import Options, options_from_json, options_to_json
from companion.games.fair import FairRandom

GOOD = """\
# my own box
[path]
floes = ". C . T"

[dice]
faces = \"\"\"
floe floe blank
floe blank   # a worn die
\"\"\"
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "daddy.toml"
    path.write_text(text, encoding="utf-8")
    return path


# The notation


def test_parse_path_reads_floes_cracked_floes_and_the_tub() -> None:
    assert parse_path(". C . t") == (PLAIN, CRACKED, PLAIN, TUB)
    assert path_notation(parse_path("  .\tc\n T ")) == ". C T"


@pytest.mark.parametrize(
    ("text", "why"),
    [
        (". X T", "unknown floe 'X'"),
        (". . .", "must end with the wash tub"),
        ("", "must end with the wash tub"),
        (". T . T", "one wash tub 'T', at its end"),
        ("T", "at least one floe before the wash tub"),
        (". .. T", "unknown floe '..'"),
    ],
)
def test_parse_path_refuses_what_is_not_a_path(text: str, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        parse_path(text)


def test_parse_die_reads_floe_and_blank_faces() -> None:
    assert parse_die(" floe  blank floe ") == (FLOE, BLANK, FLOE)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("floe Floe", "unknown face 'Floe'"),
        ("floe 2", "unknown face '2'"),
        ("", "at least one face"),
        ("floe " * 21, "at most 20 faces"),
    ],
)
def test_parse_die_refuses_unknown_faces(text: str, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        parse_die(text)


# The bundled file


def test_the_bundled_path_is_the_rulebooks() -> None:
    board = default_board()
    assert path_notation(board.path) == ". . . . . C . . . . . C . . . T"
    assert board.path.count(PLAIN) == 13 and board.path.count(CRACKED) == 2
    assert board == load_board()


def test_the_bundled_dice_are_six_with_three_floe_faces_each() -> None:
    assert default_board().dice == ((FLOE,) * 3 + (BLANK,) * 3,) * 6


def test_the_bundled_dice_are_marked_as_an_unverified_default() -> None:
    text = DataFile.bundled(BOARD_FILE).text
    dice_part = text[text.index("[dice]") - 400 :]
    assert "UNVERIFIED DEFAULT" in dice_part


# A table's own file


def test_a_file_of_a_tables_own_is_read(tmp_path: Path) -> None:
    board = load_board(write(tmp_path, GOOD))
    assert board == Board((PLAIN, CRACKED, PLAIN, TUB), ((FLOE, FLOE, BLANK), (FLOE, BLANK)))


@pytest.mark.parametrize(
    ("old", "new", "line", "why"),
    [
        ('floes = ". C . T"', 'floes = ". X . T"', 3, "path.floes: unknown floe 'X'"),
        ('floes = ". C . T"', 'floes = ". C ."', 3, "must end with the wash tub"),
        ('floes = ". C . T"', "floes = 3", 3, "path.floes must be text in quotes"),
        ("floe blank   # a worn die", "floe blanc", 8, "die 2: unknown face 'blanc'"),
        ("floe floe blank", "floe floe blank six", 7, "die 1: unknown face 'six'"),
        ("# my own box", "colour = 'red'", 1, "unknown key 'colour'"),
        ('floes = ". C . T"', 'floes = ". C . T"\nlength = 4', 4, "unknown key 'path.length'"),
        ("floe floe blank\nfloe blank   # a worn die", "blank\nblank", 6, "no die has a floe"),
        ("floe floe blank\nfloe blank   # a worn die", "", 6, "1 to 12 dice, not 0"),
    ],
)
def test_a_file_error_names_the_file_and_the_line(
    tmp_path: Path, old: str, new: str, line: int, why: str
) -> None:
    assert old in GOOD
    path = write(tmp_path, GOOD.replace(old, new))
    with pytest.raises(DataFileError) as info:
        load_board(path)
    assert str(info.value).startswith(f"{path}:{line}: ")
    assert why in info.value.message


def test_a_file_without_dice_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, '[path]\nfloes = ". T"\n')
    with pytest.raises(DataFileError, match="missing key 'dice'"):
        load_board(path)


def test_a_file_that_is_not_toml_is_named(tmp_path: Path) -> None:
    path = write(tmp_path, '[path\nfloes = ". T"\n')
    with pytest.raises(DataFileError, match="not valid TOML") as info:
        load_board(path)
    assert info.value.path == str(path)


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(DataFileError, match="cannot be read"):
        load_board(tmp_path / "absent.toml")


# Options


def test_options_default_to_the_bundled_board_with_the_path_getting_longer() -> None:
    options = options_from_json(None)
    assert options == options_from_json({}) == Options()
    assert options.lengthen_path is True and options.first_seat is None
    assert options.board == default_board()


def test_options_to_json_is_plain_json_that_round_trips() -> None:
    options = options_from_json({"first_seat": 2, "lengthen_path": False})
    data = json.loads(json.dumps(options_to_json(options)))
    assert data == {
        "first_seat": 2,
        "lengthen_path": False,
        "path": ". . . . . C . . . . . C . . . T",
        "dice": ["floe floe floe blank blank blank"] * 6,
    }
    assert options_from_json(data) == options


def test_a_tables_own_board_travels_in_the_options(tmp_path: Path) -> None:
    board = load_board(write(tmp_path, GOOD))
    options = Options(board=board)
    data = json.loads(json.dumps(options_to_json(options)))
    assert data["path"] == ". C . T" and data["dice"] == ["floe floe blank", "floe blank"]
    assert options_from_json(data) == options


def test_a_game_plays_with_dice_that_differ(rng: FairRandom) -> None:
    state, _ = new_game({"dice": ["floe floe blank", "floe"], "path": ". . . T"}, SEATS, rng)
    assert state.dice.faces == ((FLOE, FLOE, BLANK), (FLOE,))
    state, _ = roll(table(dice=["floe floe blank", "floe"], path=". . . T"), "-F")
    assert state.daddy == 1 and state.dice.in_hand() == (0,)
    assert state.turn_seat == KAREN


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        ({"colour": "blue"}, "unknown option 'colour'"),
        ({"first_seat": True}, "first_seat must be a seat number"),
        ({"first_seat": "1"}, "first_seat must be a seat number"),
        ({"lengthen_path": 1}, "lengthen_path must be true or false"),
        ({"lengthen_path": None}, "lengthen_path must be true or false"),
        ({"path": ". X T"}, "path: unknown floe 'X'"),
        ({"path": ". ."}, "path: the path must end with the wash tub"),
        ({"path": [".", "T"]}, "path must be a string"),
        ({"dice": "floe blank"}, "dice must be a list"),
        ({"dice": ["floe", 3]}, "die 2 must be a string"),
        ({"dice": ["floe", "flo"]}, "die 2: unknown face 'flo'"),
        ({"dice": []}, "dice: there must be 1 to 12 dice, not 0"),
        ({"dice": ["blank"] * 3}, "dice: no die has a floe face"),
        ({"dice": ["floe"] * 13}, "dice: there must be 1 to 12 dice, not 13"),
    ],
)
def test_options_from_json_refuses_bad_options(raw: dict[str, Any], why: str) -> None:
    with pytest.raises(BadOptions, match=why):
        options_from_json(raw)
