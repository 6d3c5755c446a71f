"""TOML data files: errors name the file, the line and what is wrong."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.datafile import DataFile
from companion.errors import DataFileError

SAMPLE = """\
# a comment
title = "ice"
count = 3

[hot-days]
five_parts_up_to_c = 24
flag = true

[attacks.polish]
en = "Polish"

[attacks."hot-breath"]
en = "Hot breath"

[notes]
entries = \"\"\"
first

# a comment line
second   # with a trailing comment
\"\"\"
"""


@pytest.fixture
def sample() -> DataFile:
    return DataFile.parse("sample.toml", SAMPLE)


def test_parse_keeps_the_name_the_text_and_the_data(sample: DataFile) -> None:
    assert sample.name == "sample.toml"
    assert sample.text == SAMPLE
    assert sample.data["title"] == "ice"
    assert sample.data["attacks"]["hot-breath"]["en"] == "Hot breath"


def test_line_of_finds_top_level_and_table_keys(sample: DataFile) -> None:
    assert sample.line_of("title") == 2
    assert sample.line_of("count") == 3
    assert sample.line_of("hot-days", "five_parts_up_to_c") == 6
    assert sample.line_of("hot-days", "flag") == 7
    assert sample.line_of("attacks", "polish", "en") == 10
    assert sample.line_of("attacks", "hot-breath", "en") == 13
    assert sample.line_of("notes", "entries") == 16


def test_line_of_a_key_in_the_wrong_table_or_absent_is_none(sample: DataFile) -> None:
    assert sample.line_of("en") is None
    assert sample.line_of("hot-days", "title") is None
    assert sample.line_of("nowhere", "at-all") is None


def test_get_returns_values_of_the_asked_type(sample: DataFile) -> None:
    assert sample.get(("title",), str) == "ice"
    assert sample.get(("count",), int) == 3
    assert sample.get(("hot-days", "flag"), bool) is True


def test_get_reads_an_integer_as_a_float_when_a_float_is_asked(sample: DataFile) -> None:
    value = sample.get(("hot-days", "five_parts_up_to_c"), float)
    assert value == 24.0
    assert type(value) is float


def test_get_refuses_a_bool_where_an_int_is_asked(sample: DataFile) -> None:
    with pytest.raises(DataFileError) as info:
        sample.get(("hot-days", "flag"), int)
    assert info.value.line == 7
    assert str(info.value) == "sample.toml:7: hot-days.flag must be a whole number, not True"


def test_get_refuses_a_wrong_type_at_the_line_of_the_key(sample: DataFile) -> None:
    with pytest.raises(DataFileError) as info:
        sample.get(("title",), int)
    assert str(info.value).startswith("sample.toml:2: ")
    assert "title must be a whole number" in str(info.value)
    assert info.value.path == "sample.toml"


def test_get_returns_the_default_for_an_absent_key(sample: DataFile) -> None:
    assert sample.get(("hot-days", "absent"), float, 21.5) == 21.5
    assert sample.get(("nowhere", "absent"), str, "x") == "x"


def test_get_without_a_default_names_the_missing_key(sample: DataFile) -> None:
    with pytest.raises(DataFileError) as info:
        sample.get(("absent",), str)
    assert "missing key 'absent'" in str(info.value)
    assert str(info.value).startswith("sample.toml")


def test_a_key_missing_from_a_table_is_reported_at_the_table_header(sample: DataFile) -> None:
    with pytest.raises(DataFileError) as info:
        sample.get(("hot-days", "four_parts_up_to_c"), float)
    assert info.value.line == 5


def test_notation_lines_skip_blanks_and_comments_with_offsets(sample: DataFile) -> None:
    assert list(sample.notation_lines(("notes", "entries"))) == [(1, "first"), (4, "second")]


def test_fail_with_an_offset_points_at_the_entry_line(sample: DataFile) -> None:
    offsets = dict((text, off) for off, text in sample.notation_lines(("notes", "entries")))
    with pytest.raises(DataFileError) as info:
        sample.fail(("notes", "entries"), "bad entry", offsets["second"])
    assert info.value.line == 20
    assert SAMPLE.split("\n")[19].startswith("second")
    assert str(info.value) == "sample.toml:20: bad entry"


def test_fail_without_a_known_line_names_only_the_file(sample: DataFile) -> None:
    with pytest.raises(DataFileError) as info:
        sample.fail(("nowhere",), "something is wrong", 3)
    assert info.value.line is None
    assert str(info.value) == "sample.toml: something is wrong"


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ('a = 1\nb = "unterminated\n', 2),
        ("a = 1\n\n[broken\n", 3),
        ("a = 1\nb = 2\na = 3\n", 3),
        ("a = 1\nb = = 2\n", 2),
    ],
)
def test_invalid_toml_names_the_file_and_the_line(text: str, line: int) -> None:
    with pytest.raises(DataFileError) as info:
        DataFile.parse("bad.toml", text)
    assert info.value.line == line
    assert str(info.value).startswith(f"bad.toml:{line}: not valid TOML")


def test_read_of_a_missing_file_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "absent.toml"
    with pytest.raises(DataFileError) as info:
        DataFile.read(path)
    assert info.value.line is None
    assert str(info.value).startswith(f"{path}: cannot be read")
    assert info.value.path == str(path)


def test_read_of_non_utf8_bytes_says_so(tmp_path: Path) -> None:
    path = tmp_path / "latin1.toml"
    path.write_bytes('name = "Heißer Atem"\n'.encode("latin-1"))
    with pytest.raises(DataFileError) as info:
        DataFile.read(path)
    assert str(info.value) == f"{path}: is not UTF-8 text"


def test_read_of_invalid_toml_names_the_path_and_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text("# fine\nok = 1\nthis is not toml\n", encoding="utf-8")
    with pytest.raises(DataFileError) as info:
        DataFile.read(path)
    assert info.value.line == 3
    assert str(info.value).startswith(f"{path}:3: not valid TOML")


def test_read_of_a_good_file_uses_the_path_as_its_name(tmp_path: Path) -> None:
    path = tmp_path / "good.toml"
    path.write_text('[t]\nkey = "Wasserbad"\n', encoding="utf-8")
    doc = DataFile.read(str(path))
    assert doc.name == str(path)
    assert doc.get(("t", "key"), str) == "Wasserbad"
    assert doc.line_of("t", "key") == 2


def test_bundled_files_are_named_by_their_place_in_the_package() -> None:
    doc = DataFile.bundled("cool-runnings-track.toml")
    assert doc.name == "companion/games/data/cool-runnings-track.toml"
    assert set(doc.data) == {"parts", "goal", "hot-days"}
