"""Cool am Pool data: the bundled board file and what is known of the box, errors in a table's own
file (``file:line: what is wrong``), and the options JSON the board travels in."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from pool_tables import SEATS

from companion.errors import BadOptions, DataFileError
from companion.games.cool_am_pool.board import (
    BOARD_FILE,
    LIFEGUARD,
    BoardData,
    board_from_json,
    board_to_json,
    closed,
    default_board,
    load_board,
    loungers,
)
from companion.games.cool_am_pool.engine import new_game
from companion.games.cool_am_pool.state import Options, options_from_json, options_to_json
from companion.games.fair import FairRandom

BUNDLED = Path(__file__).resolve().parents[3] / "companion" / "games" / "data" / BOARD_FILE

GOOD = """\
# my own box
[dice]
colours = ["rot", "gelb", "gruen", "blau", "lila"]

[loungers]
rows = \"\"\"
4  1 1 1 1 1
3  2 2 2 2 2
2  2 2 2 2 1
\"\"\"
five_point = 2

[lifeguard]
track = "4 3 2 rot gelb gruen blau lila 2 3 4 lila blau gruen gelb rot"

[towels]
2 = 12
3 = 8
4 = 6
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "pool.toml"
    path.write_text(text, encoding="utf-8")
    return path


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.split("\n"), start=1) if needle in line)


# What is known of the box


def test_the_bundled_board_has_five_colours_and_dice_with_a_lifeguard_face() -> None:
    board = default_board()
    assert len(board.colours) == 5 and len(set(board.colours)) == 5
    assert {"red", "green"} <= set(board.colours)
    assert board.faces == (*board.colours, LIFEGUARD)


def test_the_bundled_board_has_24_loungers_in_rows_2_to_4_and_two_5_point_loungers() -> None:
    spots = loungers(default_board())
    assert Counter(s.row for s in spots) == Counter({5: 2, 4: 5, 3: 10, 2: 9})
    assert sum(1 for s in spots if s.row < 5) == 24
    assert [s.colour for s in spots if s.row == 5] == [None, None]
    assert [s.number for s in spots] == list(range(len(spots)))


def test_the_bundled_red_rows_2_and_3_hold_four_loungers_together() -> None:
    red = [s.label for s in loungers(default_board()) if s.colour == "red" and s.row in (2, 3)]
    assert sorted(red) == ["red 2a", "red 2b", "red 3a", "red 3b"]


def test_every_colour_has_a_lounger_in_every_row() -> None:
    spots = loungers(default_board())
    for colour in default_board().colours:
        assert {s.row for s in spots if s.colour == colour} == {2, 3, 4}


def test_the_bundled_track_has_each_colour_twice_and_each_row_number_twice() -> None:
    track = default_board().track
    assert len(track) == 16
    assert Counter(track) == Counter(
        {**dict.fromkeys(default_board().colours, 2), "2": 2, "3": 2, "4": 2}
    )


def test_the_lifeguard_closes_a_column_on_a_colour_and_a_row_on_a_number() -> None:
    board = default_board()
    for position, space in enumerate(board.track):
        kind, what = closed(board, position)
        assert (kind, str(what)) == (
            ("column", space) if space in board.colours else ("row", space)
        )


def test_the_bundled_towels_are_12_8_and_6_and_cover_rows_2_to_4() -> None:
    board = default_board()
    assert dict(board.towels) == {2: 12, 3: 8, 4: 6}
    assert all(players * each == 24 for players, each in board.towels)


def test_the_bundled_file_marks_what_is_unverified() -> None:
    text = BUNDLED.read_text(encoding="utf-8")
    assert text.count("UNVERIFIED DEFAULT") == 3
    for key in ("colours =", "rows =", "track ="):
        before = text[: text.index(key)].rsplit("[", 1)[1]
        assert "UNVERIFIED DEFAULT" in before, key


# A table's own file


def test_a_board_file_of_ones_own_is_read(tmp_path: Path) -> None:
    board = load_board(write(tmp_path, GOOD))
    assert board.colours == ("rot", "gelb", "gruen", "blau", "lila")
    assert board.rows[2] == (2, (2, 2, 2, 2, 1))
    assert board.track[:4] == ("4", "3", "2", "rot")
    assert load_board() == default_board()
    labels = [s.label for s in loungers(board)]
    assert "lila 2" in labels and "rot 2b" in labels


@pytest.mark.parametrize(
    ("old", "new", "at", "why"),
    [
        ('"lila"]', '"lila", "pink"]', "colours =", "a die has 5 colours, not 6"),
        ('"lila"]', '"rot"]', "colours =", "each colour is named once"),
        ('"lila"]', '"lifeguard"]', "colours =", "cannot name a colour"),
        ('"lila"]', '"2"]', "colours =", "cannot name a colour"),
        ("4  1 1 1 1 1", "5  1 1 1 1 1", "5  1 1", "a row is worth 2, 3 or 4, not '5'"),
        ("3  2 2 2 2 2", "3  2 2 2 2", "3  2 2", "row 3 needs 5 counts, one per colour, not 4"),
        ("3  2 2 2 2 2", "3  2 2 x 2 2", "3  2 2", "row 3: the counts must be whole numbers"),
        ("3  2 2 2 2 2", "4  2 2 2 2 2", "rows =", "row 4 is given twice"),
        ("2  2 2 2 2 1", "", "rows =", "row 2 is missing"),
        ("five_point = 2", "five_point = 9", "five_point", "five_point must be 0 to 4, not 9"),
        ("five_point = 2", 'five_point = "2"', "five_point", "five_point must be a whole number"),
        ("4 lila blau", "4 lila lila", "track =", "the track has 'blau' 1 times"),
        ("4 lila blau", "4 lila pink", "track =", "unknown track space 'pink'"),
        ("3 = 8", "3 = 7", "[towels]", "3 players x 7 towels = 21, but rows 2-4 hold 24"),
        ("4 = 6\n", "", "[towels]", "say how many towels each of 4 players lays"),
        ("4 = 6\n", '4 = "6"\n', "[towels]", "4 players lay 1 to 16 towels each, not '6'"),
        ("4 = 6\n", "4 = 6\nx = 1\n", "x = 1", "unknown key 'x'"),
        (
            "five_point = 2",
            "five_point = 2\nshade = 3",
            "shade",
            "unknown key 'shade' in [loungers]",
        ),
        ("[towels]", "[sun]\nhot = 1\n[towels]", "[sun]", "unknown key 'sun'"),
    ],
)
def test_a_board_file_error_names_the_file_and_the_line(
    tmp_path: Path, old: str, new: str, at: str, why: str
) -> None:
    assert old in GOOD
    text = GOOD.replace(old, new, 1)
    path = write(tmp_path, text)
    with pytest.raises(DataFileError) as info:
        load_board(path)
    assert info.value.line == line_of(text, at), str(info.value)
    assert str(info.value).startswith(f"{path}:{info.value.line}: ")
    assert why in info.value.message


def test_a_towels_table_that_is_not_a_table_is_refused(tmp_path: Path) -> None:
    text = "towels = 12\n" + GOOD.replace("[towels]\n2 = 12\n3 = 8\n4 = 6\n", "")
    with pytest.raises(DataFileError, match="towels must be a table"):
        load_board(write(tmp_path, text))


def test_a_missing_board_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(DataFileError) as info:
        load_board(tmp_path / "nope.toml")
    assert str(info.value).startswith(f"{tmp_path / 'nope.toml'}: cannot be read")


def test_a_board_file_that_is_not_toml_names_the_line(tmp_path: Path) -> None:
    with pytest.raises(DataFileError, match="not valid TOML"):
        load_board(write(tmp_path, GOOD.replace("five_point = 2", "five_point = ")))


# The options


def test_options_default_to_the_bundled_board_and_the_first_seat() -> None:
    assert options_from_json(None) == options_from_json({}) == Options()
    assert Options().board == default_board() and Options().first_seat is None


def test_options_to_json_is_plain_json_that_round_trips() -> None:
    options = options_from_json({"first_seat": 2})
    data = json.loads(json.dumps(options_to_json(options)))
    assert data["board"]["rows"] == {"4": [1] * 5, "3": [2] * 5, "2": [2, 2, 1, 2, 2]}
    assert data["board"]["towels"] == {"2": 12, "3": 8, "4": 6}
    assert options_from_json(data) == options
    assert options_to_json(options_from_json(data)) == data


def test_a_tables_own_board_travels_in_the_options(tmp_path: Path) -> None:
    board = load_board(write(tmp_path, GOOD))
    data = json.loads(json.dumps({"board": board_to_json(board)}))
    state, _ = new_game(data, SEATS, FairRandom(bytes(32)))
    assert state.board == board and board_from_json(data["board"]) == board
    assert state.loungers == loungers(board)


def bad_board(**changes: Any) -> dict[str, Any]:
    return {**board_to_json(default_board()), **changes}


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        ({"colour": 1}, "unknown option 'colour'"),
        ({"first_seat": "1"}, "first_seat must be a seat number"),
        ({"first_seat": True}, "first_seat must be a seat number"),
        ({"board": []}, "board must be an object"),
        ({"board": {"colours": []}}, "board: missing key 'five_point'"),
        ({"board": bad_board(shade=1)}, "board: unknown key 'shade'"),
        ({"board": bad_board(colours="red")}, "the colours are a list"),
        ({"board": bad_board(rows=[1])}, "rows must be an object"),
        ({"board": bad_board(rows={"4": [1, 1], "3": [2] * 5, "2": [2] * 5})}, "row 4 needs 5"),
        ({"board": bad_board(rows={"4": [1] * 5, "3": [2] * 5})}, "row 2 is missing"),
        ({"board": bad_board(rows={"4": [1, 1, 1, 1, -1], "3": [2] * 5, "2": [2] * 5})}, "whole"),
        ({"board": bad_board(five_point=True)}, "five_point must be 0 to 4"),
        ({"board": bad_board(track="red")}, "track must be a list"),
        ({"board": bad_board(track=["red"] * 16)}, "the track has 'red' 16 times"),
        ({"board": bad_board(towels=[12])}, "towels must be an object"),
        ({"board": bad_board(towels={"2": 12, "3": 8})}, "each of 4 players"),
        ({"board": bad_board(towels={"2": 12, "3": 8, "4": 6, "x": 1})}, "2, 3 and 4 players"),
        ({"board": bad_board(towels={"2": 12, "3": 8, "4": 6, "5": 5})}, "not 5"),
    ],
)
def test_options_from_json_refuses_bad_options(raw: dict[str, Any], why: str) -> None:
    with pytest.raises(BadOptions, match=re.escape(why)):
        options_from_json(raw)


def test_board_data_is_hashable_so_its_loungers_are_worked_out_once() -> None:
    board = default_board()
    same = BoardData(board.colours, board.rows, board.five_point, board.track, board.towels)
    assert hash(same) == hash(board) and loungers(same) is loungers(board)
